/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/stats' header for the analyzer's other parts: its statistical
 * primitives (GSL underneath) and group-sequential levels.
 */
#ifndef RTGATE_ANALYZE_STATS_H
#define RTGATE_ANALYZE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Statistical primitives of the analyzer, on arrays of doubles. The
 * distributions and the sample statistics are the GNU Scientific
 * Library's (gsl_cdf_*, gsl_stats_*, gsl_sort); this file adds the small
 * pieces the comparison is built from.
 */

/* P(Z > z) for a standard normal Z. */
double an_norm_sf(double z);
/* P(T > t) for Student's t with df degrees of freedom (df > 0). */
double an_t_sf(double t, double df);
/* The t value with P(T > t) = p (0 < p < 1). */
double an_t_isf(double p, double df);
/* The chi-square quantile: P(X <= x) = p with df degrees of freedom. */
double an_chisq_inv(double p, double df);
/* The F quantile: P(X <= x) = p with (d1, d2) degrees of freedom. */
double an_f_inv(double p, double d1, double d2);

double an_mean(const double *v, size_t n);
/* Sample variance (n - 1); 0 for n < 2. */
double an_var(const double *v, size_t n);

/*
 * Yuen's trimmed mean of y[0..n): with five values or more, the highest and
 * lowest 20 % are left out of *mean and winsorized in the returned sum of
 * squares (df *h - 1, *h the values kept); fewer: the plain mean and sum.
 */
double an_trimmed(const double *y, size_t n, double *mean, double *h);

/* A difference of means with its standard error and degrees of freedom. */
struct an_tstat {
	double delta;		/* mean(b) - mean(a) */
	double se;
	double df;		/* 0: no test possible */
};

/*
 * Welch's t for b against a. var_floor is added to each side's variance
 * (measurement resolution), so two constant samples still have an error.
 */
struct an_tstat an_welch(const double *a, size_t na, const double *b,
			 size_t nb, double var_floor);
/* One-sample t on differences d[] (paired test). */
struct an_tstat an_paired(const double *d, size_t n, double var_floor);

/* One-sided p-values of a t statistic: P(delta this large | no change). */
double an_tstat_p_up(const struct an_tstat *t);
double an_tstat_p_down(const struct an_tstat *t);
/*
 * The interval of delta whose ends are the one-sided tests at level
 * alpha_side each (a two-sided 1 - 2 alpha_side interval): p_up <
 * alpha_side exactly when lo > 0, p_down < alpha_side when hi < 0.
 */
void an_tstat_interval(const struct an_tstat *t, double alpha_side,
		       double *lo, double *hi);

/*
 * Exceedance of the other side's maximum: if nc candidate and nb baseline
 * samples are exchangeable, the probability that k or more candidate
 * samples lie above every baseline sample.
 */
double an_precedence_p(uint64_t nb, uint64_t nc, uint64_t k);

/*
 * A repetition moved the same way on every CPU at once by at least
 * an_shared_log (log(1 + us)) from its group's median: a burst (a host
 * pause that delayed a run of wake-ups) or a lull (a quieter host).
 */
extern const double an_shared_log;
/*
 * Only up to this level: above it a repetition's value is host noise that
 * flips between modes (p99.5 is 50 or 400 us from one repetition to the
 * next), and the median of three would call the minority an outlier.
 */
extern const double an_shared_q_max;
/*
 * y[c * n + r]: run r's value on CPU c (ncpus >= 2, n runs). Marks in
 * out[] (which it clears) the runs whose shared move is an_shared_log or
 * more, the largest first, at most max_out of them; returns how many.
 * *factor (may be NULL) gets the largest move as a factor (< 1: a lull).
 */
size_t an_shared_outliers(const double *y, size_t ncpus, size_t n,
			  size_t max_out, bool *out, double *factor);

#endif
