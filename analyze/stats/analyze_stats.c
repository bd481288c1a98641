// SPDX-License-Identifier: GPL-2.0-only
/*
 * Distributions, sorting and the sample statistics (mean, variance,
 * median, trimmed mean, sums of squares) from the GNU Scientific Library;
 * t statistics, their one-sided p-values and the matching intervals;
 * alpha spending.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analyze/stats/stats.h"

double an_norm_sf(double z)
{
	return gsl_cdf_ugaussian_Q(z);
}

double an_t_sf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	return gsl_cdf_tdist_Q(t, df);
}

double an_t_isf(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	return gsl_cdf_tdist_Qinv(p, df);
}

double an_chisq_inv(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	return gsl_cdf_chisq_Pinv(p, df);
}

double an_f_inv(double p, double d1, double d2)
{
	if (!(p > 0 && p < 1) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	return gsl_cdf_fdist_Pinv(p, d1, d2);
}

double an_alpha_spent(double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	return alpha * log1p((M_E - 1) * t);
}

double an_mean(const double *v, size_t n)
{
	return n ? gsl_stats_mean(v, 1, n) : NAN;
}

double an_var(const double *v, size_t n)
{
	return n < 2 ? 0 : gsl_stats_variance(v, 1, n);
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
	gsl_sort(s, 1, n);
	m = gsl_stats_median_from_sorted_data(s, 1, n);
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

void an_tstat_interval(const struct an_tstat *t, double alpha_side,
		       double *lo, double *hi)
{
	double w;

	if (t->df <= 0 || !(t->se > 0)) {
		*lo = *hi = NAN;
		return;
	}
	w = an_t_isf(alpha_side, t->df) * t->se;
	*lo = t->delta - w;
	*hi = t->delta + w;
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

const double an_shared_log = 0.405;	/* a factor of 1.5 */
const double an_shared_q_max = 0.99;

size_t an_shared_outliers(const double *y, size_t ncpus, size_t n,
			  size_t max_out, bool *out, double *factor)
{
	double score[n ? n : 1], med[ncpus ? ncpus : 1], best = 0;
	size_t r, c, k = 0;

	memset(out, 0, n * sizeof(*out));
	if (factor)
		*factor = 1;
	if (ncpus < 2 || n < 3)
		return 0;
	for (c = 0; c < ncpus; c++)
		med[c] = an_median(&y[c * n], n);
	for (r = 0; r < n; r++) {
		double lo = INFINITY, hi = -INFINITY;

		for (c = 0; c < ncpus; c++) {
			double dev = y[c * n + r] - med[c];

			lo = fmin(lo, dev);
			hi = fmax(hi, dev);
		}
		score[r] = lo > 0 ? lo : hi < 0 ? hi : 0;
	}
	while (k < max_out) {
		size_t pick = n;

		for (r = 0; r < n; r++)
			if (!out[r] && fabs(score[r]) >= an_shared_log &&
			    (pick == n || fabs(score[r]) > fabs(score[pick])))
				pick = r;
		if (pick == n)
			break;
		out[pick] = true;
		if (!k)
			best = score[pick];
		k++;
	}
	if (factor && k)
		*factor = exp(best);
	return k;
}

/*
 * Yuen's trimmed mean: with five repetitions or more a side, the highest
 * and lowest 20 % are left out of the mean and winsorized in the sum of
 * squares, so one repetition's burst neither fakes nor hides a change.
 * Returns the winsorized sum of squares; *h is the repetitions kept.
 * GSL's trimmed mean leaves out floor(trim n) at each end, as Yuen's g.
 */
double an_trimmed(const double *y, size_t n, double *mean, double *h)
{
	size_t g = n >= 5 ? (size_t)(0.2 * n) : 0, i;
	double s[n ? n : 1];

	*h = (double)(n - 2 * g);
	if (!n) {
		*mean = NAN;
		return 0;
	}
	memcpy(s, y, n * sizeof(*s));
	gsl_sort(s, 1, n);
	*mean = gsl_stats_trmean_from_sorted_data(g ? 0.2 : 0, s, 1, n);
	if (!g)
		return gsl_stats_tss_m(y, 1, n, *mean);
	/* Winsorized around the winsorized mean, as Yuen's test has it. */
	for (i = 0; i < n; i++)
		s[i] = fmin(fmax(s[i], s[g]), s[n - g - 1]);
	/* The trimmed mean's variance is ss / (h (h - 1)): df h - 1. */
	return gsl_stats_tss(s, 1, n);
}
