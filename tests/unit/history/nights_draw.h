/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The random draws of the night replays (test_history_nights.c on the
 * VM's sittings, test_history_labnights.c on the silent lab's nights): a
 * seeded splitmix64, a random k of n, and the Clopper-Pearson interval
 * their rates are reported with. Include it after defining MAX_NIGHTS;
 * set rng to the draw's seed.
 */
#ifndef TESTS_NIGHTS_DRAW_H
#define TESTS_NIGHTS_DRAW_H

#include <stdint.h>
#include <gsl/gsl_cdf.h>

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* v[0..k) a random k of 0..n-1 other than @not (-1: none), in order. */
static void pick(size_t n, size_t k, long not, size_t *v)
{
	size_t all[MAX_NIGHTS], i, j, t, m = 0;

	assert_true(n <= MAX_NIGHTS);
	for (i = 0; i < n; i++)
		if ((long)i != not)
			all[m++] = i;
	assert_true(k <= m);
	for (i = 0; i < k; i++) {
		j = i + next() % (m - i);
		t = all[i];
		all[i] = all[j];
		all[j] = t;
		v[i] = all[i];
	}
}

/* Clopper-Pearson 95 % interval of x successes in n. */
static void cp95(double x, double n, double *lo, double *hi)
{
	*lo = x > 0 ? gsl_cdf_beta_Pinv(0.025, x, n - x + 1) : 0;
	*hi = x < n ? gsl_cdf_beta_Pinv(0.975, x + 1, n - x) : 1;
}

/*
 * The one-sided 95 % Clopper-Pearson bounds: what "at most 1/30" (the
 * upper bound below it) and "at least 95 %" (the lower bound above it)
 * are shown by, where cp95() says only whether they are contradicted.
 */
static inline double cp95_upper(double x, double n)
{
	return x < n ? gsl_cdf_beta_Pinv(0.95, x + 1, n - x) : 1;
}

static inline double cp95_lower(double x, double n)
{
	return x > 0 ? gsl_cdf_beta_Pinv(0.05, x, n - x + 1) : 0;
}

#endif
