// SPDX-License-Identifier: GPL-2.0-only
/*
 * A series of nights and the change in it (stats.h; docs/nightly.md, "A
 * night is the unit"). Each night is one value (a night's p99 on a CPU,
 * in log): the nights of a machine scatter more than the repetitions of
 * one night, so the variance a test uses is the nights' own, the
 * between-night variance of the history (a random effect per night).
 *
 * Where the series changed is found the E-divisive way (Matteson and
 * James, "A nonparametric approach for multiple change point analysis of
 * multivariate data", 2014; Apache Otava's change point detection builds
 * on it): the split that maximizes the energy divergence of the nights
 * before it from the nights after it. A nightly asks only whether the
 * series changed lately, so the split is looked for among the last
 * @window nights, and its significance is judged as Otava's t-test
 * judges a split: here the nights since the split against a prediction
 * from the nights before it (their mean and between-night variance), so
 * that two nights after a step are enough when the step is large against
 * the scatter of the nights.
 */
#include <math.h>
#include <stdlib.h>

#include "analyze/analyze.h"
#include "analyze/stats/stats.h"

double an_energy_q(const double *x, size_t n, size_t tau)
{
	double between = 0, within_a = 0, within_b = 0, e;
	size_t i, k, na = tau, nb = n - tau;

	if (!na || !nb)
		return 0;
	for (i = 0; i < na; i++)
		for (k = tau; k < n; k++)
			between += fabs(x[i] - x[k]);
	for (i = 0; i < na; i++)
		for (k = i + 1; k < na; k++)
			within_a += fabs(x[i] - x[k]);
	for (i = tau; i < n; i++)
		for (k = i + 1; k < n; k++)
			within_b += fabs(x[i] - x[k]);
	e = 2 * between / (double)(na * nb);
	if (na > 1)
		e -= within_a / ((double)na * (na - 1) / 2);
	if (nb > 1)
		e -= within_b / ((double)nb * (nb - 1) / 2);
	return (double)(na * nb) / (double)(na + nb) * e;
}

int an_night_step(const double *y, size_t n, size_t kpre, size_t window,
		  double sd_floor, struct an_night_step *out)
{
	size_t tau, best = 0, lo, first;
	double q, bq = -INFINITY, var, se;

	out->tau = 0;
	out->dir = 0;
	out->p = 1;
	if (n < 3 || kpre < 2 || !window)
		return -1;
	/* A split has its @kpre nights before it: fewer say too little
	 * of the nights' scatter. */
	lo = n > window ? n - window : 1;
	if (lo < kpre)
		lo = kpre;
	if (lo >= n)
		return -1;
	first = lo > kpre ? lo - kpre : 0;
	/* The split among the last nights, on the segment they share. */
	for (tau = lo; tau < n; tau++) {
		q = an_energy_q(y + first, n - first, tau - first);
		if (q > bq) {
			bq = q;
			best = tau;
		}
	}
	if (!best)
		return -1;
	out->tau = best;
	out->q = bq;
	out->npre = best > kpre ? kpre : best;
	out->npost = n - best;
	out->pre_mean = an_mean(y + best - out->npre, out->npre);
	out->pre_median = an_median(y + best - out->npre, out->npre);
	out->post_mean = an_mean(y + best, out->npost);
	var = an_var(y + best - out->npre, out->npre);
	out->pre_sd = sqrt(var + sd_floor * sd_floor);
	/* A new mean of npost nights against the prediction of npre. */
	se = out->pre_sd * sqrt(1.0 / out->npre + 1.0 / out->npost);
	out->t = (out->post_mean - out->pre_mean) / se;
	out->dir = out->t > 0 ? 1 : out->t < 0 ? -1 : 0;
	/* Chosen among n - lo splits: Bonferroni over them. */
	out->nsplits = n - lo;
	out->p = fmin(1, an_t_sf(fabs(out->t), (double)out->npre - 1) *
		      (double)out->nsplits);
	return 0;
}
