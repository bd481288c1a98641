/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistical primitives of the analyzer: distributions, two-sample tests,
 * multiplicity. Plain functions on arrays of doubles; no allocation except
 * an_median() (a sorted copy).
 */
#ifndef RTGATE_ANALYZE_STATS_H
#define RTGATE_ANALYZE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* P(Z > z) for a standard normal Z. */
double an_norm_sf(double z);
/* P(T > t) for Student's t with df degrees of freedom (df > 0). */
double an_t_sf(double t, double df);
/* The t value with P(T > t) = p (0 < p < 1). */
double an_t_isf(double p, double df);
/* Regularized incomplete beta function I_x(a, b). */
double an_betai(double a, double b, double x);

double an_mean(const double *v, size_t n);
/* Sample variance (n - 1); 0 for n < 2. */
double an_var(const double *v, size_t n);
/* Median; NAN for n == 0. Returns NAN on allocation failure too. */
double an_median(const double *v, size_t n);

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
/* Two-sided (1 - alpha) interval of delta. */
void an_tstat_interval(const struct an_tstat *t, double alpha, double *lo,
		       double *hi);

/* Holm's step-down adjustment of n p-values (NAN entries are skipped). */
void an_holm(const double *p, double *adj, size_t n);

/*
 * Exceedance of the other side's maximum: if nc candidate and nb baseline
 * samples are exchangeable, the probability that k or more candidate
 * samples lie above every baseline sample.
 */
double an_precedence_p(uint64_t nb, uint64_t nc, uint64_t k);

#endif
