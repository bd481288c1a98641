// SPDX-License-Identifier: GPL-2.0-only
/*
 * Distributions and tests, written from their textbook definitions: the
 * incomplete beta function by its continued fraction (Abramowitz & Stegun
 * 26.5.8, evaluated with Lentz's method), Student's t through it, Welch's
 * unequal-variance t, Holm's step-down procedure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_stats.h"

#define CF_EPS		1e-15
#define CF_TINY		1e-300
#define CF_MAXIT	500

double an_norm_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/* Continued fraction of I_x(a, b), valid for x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
	double c = 1.0, d, h, aa, del;
	int m;

	d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= CF_MAXIT; m++) {
		int m2 = 2 * m;

		aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1.0 + aa / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1.0 + aa / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < CF_EPS)
			break;
	}
	return h;
}

double an_betai(double a, double b, double x)
{
	double lbt;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	      b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1.0 - exp(lbt) * betacf(b, a, 1.0 - x) / b;
}

double an_t_sf(double t, double df)
{
	double p;

	if (isnan(t) || df <= 0)
		return NAN;
	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	if (df > 1e7)
		return an_norm_sf(t);
	p = 0.5 * an_betai(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? p : 1.0 - p;
}

double an_t_isf(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid = 0;
	int i;

	/* Bisection: monotone, and only called a few times per comparison. */
	for (i = 0; i < 200; i++) {
		mid = 0.5 * (lo + hi);
		if (an_t_sf(mid, df) > p)
			lo = mid;
		else
			hi = mid;
		if (hi - lo < 1e-10 * (1.0 + fabs(mid)))
			break;
	}
	return mid;
}

double an_mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double an_var(const double *v, size_t n)
{
	double m, s = 0;
	size_t i;

	if (n < 2)
		return 0;
	m = an_mean(v, n);
	for (i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s / (n - 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double an_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	free(s);
	return m;
}

struct an_tstat an_welch(const double *a, size_t na, const double *b,
			 size_t nb, double var_floor)
{
	struct an_tstat t = { .delta = NAN, .se = NAN, .df = 0 };
	double va, vb, ea, eb;

	if (!na || !nb)
		return t;
	t.delta = an_mean(b, nb) - an_mean(a, na);
	if (na < 2 && nb < 2)
		return t;
	va = an_var(a, na) + var_floor;
	vb = an_var(b, nb) + var_floor;
	/* A side with one value borrows the other side's variance. */
	if (na < 2)
		va = vb;
	if (nb < 2)
		vb = va;
	ea = va / na;
	eb = vb / nb;
	t.se = sqrt(ea + eb);
	t.df = (ea + eb) * (ea + eb) /
	       ((na > 1 ? ea * ea / (na - 1) : 0) +
		(nb > 1 ? eb * eb / (nb - 1) : 0));
	if (!isfinite(t.df) || t.df < 1)
		t.df = 1;
	return t;
}

struct an_tstat an_paired(const double *d, size_t n, double var_floor)
{
	struct an_tstat t = { .delta = NAN, .se = NAN, .df = 0 };

	if (!n)
		return t;
	t.delta = an_mean(d, n);
	if (n < 2)
		return t;
	t.se = sqrt((an_var(d, n) + var_floor) / n);
	t.df = n - 1;
	return t;
}

double an_tstat_p_up(const struct an_tstat *t)
{
	if (t->df <= 0 || !(t->se > 0))
		return NAN;
	return an_t_sf(t->delta / t->se, t->df);
}

double an_tstat_p_down(const struct an_tstat *t)
{
	if (t->df <= 0 || !(t->se > 0))
		return NAN;
	return an_t_sf(-t->delta / t->se, t->df);
}

void an_tstat_interval(const struct an_tstat *t, double alpha, double *lo,
		       double *hi)
{
	double w;

	if (t->df <= 0 || !(t->se > 0)) {
		*lo = *hi = NAN;
		return;
	}
	w = an_t_isf(alpha / 2, t->df) * t->se;
	*lo = t->delta - w;
	*hi = t->delta + w;
}

void an_holm(const double *p, double *adj, size_t n)
{
	size_t i, j, m = 0, *idx;
	double run = 0;

	idx = malloc((n ? n : 1) * sizeof(*idx));
	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]) && idx)
			idx[m++] = i;
	}
	if (!idx) {
		/* No memory: Bonferroni needs none and is never less strict. */
		for (i = 0; i < n; i++)
			if (!isnan(p[i]))
				adj[i] = fmin(1.0, p[i] * n);
		return;
	}
	/* Insertion sort by p: families are a few dozen lines at most. */
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && p[idx[j]] < p[idx[j - 1]]; j--) {
			size_t tmp = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
	for (i = 0; i < m; i++) {
		double a = fmin(1.0, (m - i) * p[idx[i]]);

		run = fmax(run, a);
		adj[idx[i]] = run;
	}
	free(idx);
}

double an_precedence_p(uint64_t nb, uint64_t nc, uint64_t k)
{
	double l;

	if (k == 0)
		return 1.0;
	if (k > nc)
		return 0.0;
	l = lgamma((double)nc + 1) - lgamma((double)(nc - k) + 1) -
	    lgamma((double)(nb + nc) + 1) +
	    lgamma((double)(nb + nc - k) + 1);
	return exp(l);
}
