// SPDX-License-Identifier: GPL-2.0-only
/*
 * A series of nights (analyze/stats/analyze_nights.c): the energy
 * divergence is largest at the split of a step, the split is looked for
 * only among the last nights with K nights before it, its t is the
 * nights since against the mean and between-night variance of the K
 * nights before, and a series without a change is not called changed
 * more often than its level says (a seeded simulation of normal nights).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/analyze.h"

static void test_energy(void **state)
{
	const double x[] = { 1, 1.1, 0.9, 1, 3, 3.1 };
	size_t tau, best = 0;
	double q, bq = -1;

	(void)state;
	for (tau = 1; tau < 6; tau++) {
		q = an_energy_q(x, 6, tau);
		if (q > bq) {
			bq = q;
			best = tau;
		}
	}
	assert_int_equal(best, 4);
	assert_true(an_energy_q(x, 6, 0) == 0);
}

/* Seven nights, then a step of two nights: dated to its first night. */
static void test_step(void **state)
{
	const double y[] = { 3.0, 3.1, 2.9, 3.05, 2.95, 3.0, 3.1, 4.0, 4.1 };
	struct an_night_step st;
	double mean = 0, var = 0, se, t;
	size_t i;

	(void)state;
	assert_int_equal(an_night_step(y, 9, 7, 4, 0, &st), 0);
	assert_int_equal(st.tau, 7);
	assert_int_equal(st.npre, 7);
	assert_int_equal(st.npost, 2);
	assert_int_equal(st.dir, 1);
	for (i = 0; i < 7; i++)
		mean += y[i] / 7;
	for (i = 0; i < 7; i++)
		var += (y[i] - mean) * (y[i] - mean) / 6;
	se = sqrt(var) * sqrt(1.0 / 7 + 1.0 / 2);
	t = (4.05 - mean) / se;
	assert_true(fabs(st.t - t) < 1e-9);
	assert_int_equal(st.nsplits, 2);
	assert_true(st.p < 1e-5);
	/* The resolution's floor enters the variance. */
	assert_int_equal(an_night_step(y, 9, 7, 4, 1.0, &st), 0);
	assert_true(st.p > 0.01);
}

/* Too few nights before any split in the window: nothing to say. */
static void test_short(void **state)
{
	const double y[] = { 3.0, 3.1, 2.9, 4.0 };
	struct an_night_step st;

	(void)state;
	assert_int_equal(an_night_step(y, 4, 7, 4, 0, &st), -1);
	assert_int_equal(an_night_step(y, 4, 3, 4, 0, &st), 0);
	assert_int_equal(st.tau, 3);
	assert_int_equal(st.npost, 1);
}

/*
 * Normal nights with no change: the split the window's largest
 * divergence picks among four, tested at 0.01 in the direction it moved,
 * is called changed no more often than that level in each direction
 * allows (2 %; its p is over the four splits it could have chosen).
 */
static void test_null(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct an_night_step st;
	double y[11];
	size_t i, k, hits = 0, runs = 20000;

	(void)state;
	gsl_rng_set(r, 36);
	for (k = 0; k < runs; k++) {
		for (i = 0; i < 11; i++)
			y[i] = gsl_ran_gaussian(r, 0.3);
		assert_int_equal(an_night_step(y, 11, 7, 4, 0, &st), 0);
		hits += st.p < 0.01 && st.npost >= 2;
	}
	gsl_rng_free(r);
	printf("# null: %zu of %zu series a step at p < 0.01\n", hits, runs);
	assert_true(hits < 2 * 0.01 * runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
