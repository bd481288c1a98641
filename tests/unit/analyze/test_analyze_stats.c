// SPDX-License-Identifier: GPL-2.0-only
/*
 * The analyzer's statistics against textbook values, and its histogram
 * arithmetic (quantiles, order statistics, overflows, pooling).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/analyze.h"
#include "analyze/stats/stats.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) < (tol))

static void test_distributions(void **state)
{
	(void)state;
	/* Student's t table: t(0.975, 10) = 2.228, t(0.95, 4) = 2.132. */
	near(an_t_sf(2.228, 10), 0.025, 1e-4);
	near(an_t_sf(-2.228, 10), 0.975, 1e-4);
	near(an_t_sf(2.132, 4), 0.05, 1e-4);
	near(an_t_isf(0.025, 10), 2.228, 1e-3);
	near(an_t_isf(0.05, 4), 2.132, 1e-3);
	near(an_t_sf(1.959964, 1e9), 0.025, 1e-6);
	near(an_norm_sf(0), 0.5, 1e-12);
	/* Tables: chi2(0.05, 10) = 3.940, F(0.99; 4, 20) = 4.431. */
	near(an_chisq_inv(0.05, 10), 3.940, 1e-3);
	near(an_f_inv(0.99, 4, 20), 4.431, 1e-3);
	assert_true(isnan(an_t_isf(0, 4)));
	/* Pocock-type spending: nothing at 0, all of alpha at the end. */
	near(an_alpha_spent(0.05, 0), 0, 1e-12);
	near(an_alpha_spent(0.05, 1), 0.05, 1e-12);
	near(an_alpha_spent(0.05, 0.5), 0.05 * log1p((M_E - 1) / 2), 1e-12);
	assert_true(an_alpha_spent(0.05, 0.3) < an_alpha_spent(0.05, 0.6));
	/* One-sided ends: p_up < a exactly when the interval's lo > 0. */
	{
		struct an_tstat t = { .delta = 2.5, .se = 1, .df = 8 };
		double lo, hi;

		an_tstat_interval(&t, 0.025, &lo, &hi);
		assert_true((an_tstat_p_up(&t) < 0.025) == (lo > 0));
		near(lo, 2.5 - an_t_isf(0.025, 8), 1e-12);
		near(hi, 2.5 + an_t_isf(0.025, 8), 1e-12);
	}
}

static void test_welch_paired(void **state)
{
	double a[] = { 1, 2, 3, 4 }, b[] = { 2, 3, 4, 5, 6 };
	double d[] = { 1, 2, 3 };
	struct an_tstat t;

	(void)state;
	t = an_welch(a, 4, b, 5, 0);
	near(t.delta, 1.5, 1e-12);
	near(t.se, sqrt(5.0 / 12 + 0.5), 1e-9);
	near(t.df, 6.98, 0.01);
	assert_true(an_tstat_p_up(&t) < 0.1 && an_tstat_p_up(&t) > 0.05);
	near(an_tstat_p_up(&t) + an_tstat_p_down(&t), 1, 1e-9);
	t = an_paired(d, 3, 0);
	near(t.delta, 2, 1e-12);
	near(t.se, 1 / sqrt(3), 1e-9);
	assert_int_equal((int)t.df, 2);
	/* One value a side: no test, not a p-value of zero. */
	t = an_welch(a, 1, b, 1, 0);
	assert_true(isnan(an_tstat_p_up(&t)));
	near(an_median(b, 5), 4, 1e-12);
	near(an_median(a, 4), 2.5, 1e-12);
	/* k of the top samples all from the candidate, 10 vs 10. */
	near(an_precedence_p(10, 10, 1), 0.5, 1e-9);
	near(an_precedence_p(10, 10, 2), 90.0 / 380, 1e-9);
	near(an_precedence_p(10, 10, 0), 1, 1e-12);
}

/* Buckets 2, 3, 4 us hold 5, 3, 2 samples; 2 overflows; max 9 us. */
static void make_cpu(struct an_cpu *c)
{
	uint64_t b[] = { 0, 0, 5, 3, 2 };

	*c = (struct an_cpu){ .cycles = 12, .min_us = 2, .max_us = 9 };
	assert_int_equal(an_cpu_set_hist(c, b, 5, 5), 0);
}

static void test_hist(void **state)
{
	struct an_cpu c, pool = { 0 }, d;
	uint64_t b2[] = { 1, 0, 4, 6 };
	bool ge;

	(void)state;
	make_cpu(&c);
	assert_int_equal(c.overflows, 2);
	near(an_cpu_quantile(&c, 0.5, &ge), 3, 1e-12);
	assert_false(ge);
	near(an_cpu_quantile(&c, 0.4, &ge), 2, 1e-12);
	/* Beyond the histogram: "at least the limit". */
	near(an_cpu_quantile(&c, 0.99, &ge), 5, 1e-12);
	assert_true(ge);
	near(an_cpu_kth_largest(&c, 1, &ge), 9, 1e-12);
	assert_false(ge);
	an_cpu_kth_largest(&c, 2, &ge);
	assert_true(ge);
	near(an_cpu_kth_largest(&c, 3, &ge), 4, 1e-12);
	near(an_cpu_kth_largest(&c, 4.5, &ge), 3.5, 1e-12);
	assert_int_equal(an_cpu_count_above(&c, 3), 4);
	assert_int_equal(an_cpu_count_above(&c, -1), 12);
	assert_int_equal(an_cpu_count_above(&c, 4), 2);
	/* Pooling cuts at the smaller limit: c's bucket 4 overflows. */
	d = (struct an_cpu){ .cycles = 11, .min_us = 0, .max_us = 3 };
	assert_int_equal(an_cpu_set_hist(&d, b2, 4, 4), 0);
	assert_int_equal(an_cpu_pool(&pool, &c), 0);
	assert_int_equal(an_cpu_pool(&pool, &d), 0);
	assert_int_equal(pool.limit, 4);
	assert_int_equal(pool.cycles, 23);
	assert_int_equal(pool.overflows, 2 + 2);
	assert_int_equal(pool.max_us, 9);
	near(an_cpu_quantile(&pool, 0.3, &ge), 2, 1e-12);
	an_cpu_release(&c);
	an_cpu_release(&d);
	an_cpu_release(&pool);
}

/* Sparse buckets in any order, duplicates added, beyond the limit over. */
static void test_sparse(void **state)
{
	struct an_bucket in[] = {
		{ 7, 1 }, { 3, 2 }, { 100, 4 }, { 3, 1 }, { 5, 0 }, { 50, 2 },
	};
	struct an_bucket big[] = { { 1, UINT64_MAX }, { 2, 2 } };
	struct an_cpu c = { .cycles = 12, .max_us = 120 };
	bool ge;

	(void)state;
	assert_int_equal(an_cpu_set_buckets(&c, in, 6, 60), 0);
	assert_int_equal(c.nbuckets, 3);
	assert_int_equal(c.b[0].us, 3);
	assert_int_equal(c.b[0].n, 3);
	assert_int_equal(c.b[2].us, 50);
	/* 4 at 100 us beyond the 60 us limit, 2 more only in cycles. */
	assert_int_equal(c.overflows, 6);
	near(an_cpu_quantile(&c, 0.25, &ge), 3, 1e-12);
	near(an_cpu_quantile(&c, 0.3, &ge), 7, 1e-12);
	assert_int_equal(an_cpu_count_above(&c, 7), 8);
	an_cpu_release(&c);
	/* Counts that wrap 64 bits are refused, not summed. */
	c = (struct an_cpu){ 0 };
	assert_int_equal(an_cpu_set_buckets(&c, big, 2, 10), -EOVERFLOW);
	assert_null(c.b);
}

/*
 * A repetition that every CPU saw move the same way is a shared burst (or
 * lull); one CPU alone, a small move or a split vote is not.
 */
static void test_shared_outliers(void **state)
{
	/* log(1 + us) of 3 runs on 2 CPUs: y[cpu * 3 + run]. */
	double burst[] = { log1p(50), log1p(48), log1p(166),
			   log1p(52), log1p(49), log1p(201) };
	double lull[] = { log1p(50), log1p(24), log1p(52),
			  log1p(54), log1p(27), log1p(50) };
	double one_cpu[] = { log1p(50), log1p(48), log1p(49),
			     log1p(52), log1p(49), log1p(201) };
	double small[] = { log1p(50), log1p(48), log1p(68),
			   log1p(52), log1p(49), log1p(70) };
	double eight[2 * 8];
	bool out[8];
	double f;
	size_t i;

	(void)state;
	assert_int_equal(an_shared_outliers(burst, 2, 3, 1, out, &f), 1);
	assert_false(out[0]);
	assert_false(out[1]);
	assert_true(out[2]);
	/* The smaller of the CPUs' moves: 166 / 50. */
	near(f, 167.0 / 51, 1e-9);
	assert_int_equal(an_shared_outliers(lull, 2, 3, 1, out, &f), 1);
	assert_true(out[1]);
	assert_true(f < 1);
	assert_int_equal(an_shared_outliers(one_cpu, 2, 3, 1, out, &f), 0);
	assert_false(out[2]);
	assert_true(f == 1);
	/* x1.35 on every CPU is within a repetition's scatter. */
	assert_int_equal(an_shared_outliers(small, 2, 3, 1, out, NULL), 0);
	/* One CPU, or two runs: nothing to call shared or an outlier. */
	assert_int_equal(an_shared_outliers(burst, 1, 6, 1, out, NULL), 0);
	assert_int_equal(an_shared_outliers(burst, 3, 2, 1, out, NULL), 0);
	/* At most max_out, the largest first. */
	for (i = 0; i < 8; i++)
		eight[i] = eight[8 + i] = log1p(50);
	eight[3] = eight[8 + 3] = log1p(150);
	eight[6] = eight[8 + 6] = log1p(500);
	assert_int_equal(an_shared_outliers(eight, 2, 8, 1, out, &f), 1);
	assert_true(out[6]);
	assert_false(out[3]);
	assert_int_equal(an_shared_outliers(eight, 2, 8, 2, out, NULL), 2);
	assert_true(out[3] && out[6]);
}

/*
 * Group-sequential boundaries (analyze_gs.c): five equally spaced looks
 * at one-sided 0.025 give the published Lan-DeMets Pocock-type boundaries
 * (Jennison and Turnbull: z = 2.438, 2.427, 2.408, 2.393, 2.384), never a
 * level below the look's increment; simulated Brownian paths cross them in
 * 2.5 % (within 4 standard errors of 400,000 paths); bad schedules are
 * refused.
 */
static void test_gs_boundaries(void **state)
{
	static const double z[] = { 2.438, 2.427, 2.408, 2.393, 2.384 };
	double t[5], lv[5], bad[2] = { 0.6, 0.3 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	long crossed = 0, n = 400000, i;
	size_t k;

	(void)state;
	assert_non_null(r);
	for (k = 0; k < 5; k++)
		t[k] = (k + 1) / 5.0;
	for (k = 0; k < 5; k++) {
		lv[k] = an_gs_level(0.025, t, k + 1);
		near(gsl_cdf_ugaussian_Qinv(lv[k]), z[k], 2e-3);
		assert_true(lv[k] >= an_alpha_spent(0.025, t[k]) -
				     (k ? an_alpha_spent(0.025, t[k - 1]) : 0));
	}
	for (i = 0; i < n; i++) {
		double s = 0, tp = 0;

		for (k = 0; k < 5; k++) {
			s += gsl_ran_gaussian(r, sqrt(t[k] - tp));
			tp = t[k];
			if (s / sqrt(t[k]) > gsl_cdf_ugaussian_Qinv(lv[k])) {
				crossed++;
				break;
			}
		}
	}
	gsl_rng_free(r);
	near((double)crossed / n, 0.025, 4 * sqrt(0.025 * 0.975 / n));
	assert_true(isnan(an_gs_level(0.025, bad, 2)));
	assert_true(isnan(an_gs_level(0.025, t, 0)));
	assert_true(isnan(an_gs_level(0.7, t, 5)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_gs_boundaries),
		cmocka_unit_test(test_welch_paired),
		cmocka_unit_test(test_sparse),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_shared_outliers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
