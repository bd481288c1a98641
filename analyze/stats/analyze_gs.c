// SPDX-License-Identifier: GPL-2.0-only
/*
 * Group-sequential boundaries for the looks of `run --until-decided`
 * (docs/statistics.md, "Repetitions until decided").
 *
 * A test statistic judged at looks with information fractions t1 < t2 <
 * ... behaves as Brownian motion sampled at those times: the score S(t)
 * has independent normal increments of variance t(j) - t(j-1), so
 * successive looks share most of their data and their errors. Spending
 * alpha(t) = alpha ln(1 + (e - 1) t) (Lan-DeMets, Pocock type) means the
 * first crossing happens at look j with probability alpha(t_j) -
 * alpha(t_j-1) under no change. Judging each look at that increment alone
 * (Bonferroni over the looks) is valid but ignores the shared data; the
 * boundary b_j that makes the first crossing exactly that likely is less
 * strict, and its nominal level 1 - Phi(b_j / sqrt(t_j)) is what a look
 * judges at.
 *
 * The boundaries come from the recursion of Armitage, McPherson and Rowe
 * (1969): the density of S(t_j) on the paths that have not crossed is
 * carried from look to look on a grid (trapezoid rule) and each b_j is
 * found by bisection. One-sided: the caller spends each direction of each
 * line separately (analyze_verdict.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "analyze/analyze.h"
#include "analyze/stats/stats.h"

/* The grid: S from GS_LO to the boundary, GS_H apart. */
#define GS_LO		-8.0
#define GS_H		0.01
#define GS_HI		10.0
#define GS_NPTS		((size_t)((GS_HI - GS_LO) / GS_H) + 2)
/* Results kept: replays ask the same question many times. */
#define GS_CACHE	16

static double spent(double alpha, double t)
{
	return an_alpha_spent(alpha, t);
}

/* The normal density of mean 0 and variance var at x. */
static double pdf(double x, double var)
{
	return exp(-x * x / (2 * var)) / sqrt(2 * M_PI * var);
}

/* P(first crossing at this look | the density f on grid points below). */
static double cross(const double *f, size_t n, double var, double b)
{
	double sd = sqrt(var), s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double w = (i == 0 || i == n - 1) ? 0.5 : 1;

		s += w * f[i] * gsl_cdf_ugaussian_Q((b - (GS_LO + i * GS_H)) /
						    sd);
	}
	return s * GS_H;
}

/* Grid points at or below b. */
static size_t below(double b)
{
	double n = floor((b - GS_LO) / GS_H) + 1;

	return n < 0 ? 0 : (size_t)fmin(n, GS_NPTS);
}

static double gs_compute(double alpha, const double *t, size_t n)
{
	size_t m = GS_NPTS, j, i, k, nf;
	double *f = calloc(m, sizeof(*f)), *g = calloc(m, sizeof(*g));
	double b = INFINITY, nominal = 0;

	if (!f || !g) {
		free(f);
		free(g);
		return NAN;
	}
	/* Look 1: S(t1) ~ N(0, t1). */
	b = gsl_cdf_ugaussian_Qinv(spent(alpha, t[0])) * sqrt(t[0]);
	nominal = spent(alpha, t[0]);
	nf = below(b);
	for (i = 0; i < nf; i++)
		f[i] = pdf(GS_LO + i * GS_H, t[0]);
	for (j = 1; j < n; j++) {
		double var = t[j] - t[j - 1];
		double want = spent(alpha, t[j]) - spent(alpha, t[j - 1]);
		double lo = -5, hi = GS_HI - 1e-9;

		if (!(var > 0) || !(want > 0)) {
			nominal = 0;	/* nothing left to spend here */
			b = INFINITY;
			continue;
		}
		if (cross(f, nf, var, hi) > want) {
			b = hi;
		} else {
			for (k = 0; k < 60; k++) {
				double mid = (lo + hi) / 2;

				if (cross(f, nf, var, mid) > want)
					lo = mid;
				else
					hi = mid;
			}
			b = hi;
		}
		nominal = gsl_cdf_ugaussian_Q(b / sqrt(t[j]));
		if (j == n - 1)
			break;
		/* The density of S(t_j) on the paths still below b. */
		memset(g, 0, m * sizeof(*g));
		for (i = 0; i < below(b); i++) {
			double s = GS_LO + i * GS_H, acc = 0;

			for (k = 0; k < nf; k++) {
				double w = (k == 0 || k == nf - 1) ? 0.5 : 1;

				acc += w * f[k] * pdf(s - (GS_LO + k * GS_H), var);
			}
			g[i] = acc * GS_H;
		}
		memcpy(f, g, m * sizeof(*f));
		nf = below(b);
	}
	free(f);
	free(g);
	return nominal;
}

double an_gs_level(double alpha, const double *t, size_t n)
{
	static struct {
		double alpha, t[AN_GS_MAX_LOOKS], level;
		size_t n;
	} cache[GS_CACHE];
	static size_t next_slot;
	size_t i, slot;
	double level;

	if (!n || n > AN_GS_MAX_LOOKS || !(alpha > 0 && alpha < 0.5))
		return NAN;
	for (i = 0; i < n; i++)
		if (!(t[i] > 0 && t[i] <= 1) || (i && t[i] < t[i - 1]))
			return NAN;
	for (i = 0; i < GS_CACHE; i++)
		if (cache[i].n == n && cache[i].alpha == alpha &&
		    !memcmp(cache[i].t, t, n * sizeof(*t)))
			return cache[i].level;
	level = gs_compute(alpha, t, n);
	slot = next_slot++ % GS_CACHE;
	cache[slot].alpha = alpha;
	cache[slot].n = n;
	memcpy(cache[slot].t, t, n * sizeof(*t));
	cache[slot].level = level;
	return level;
}
