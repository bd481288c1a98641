// SPDX-License-Identifier: GPL-2.0-only
/*
 * Before a tail law is taken beyond the data, the checks that
 * measurement-based probabilistic timing analysis (MBPTA) asks for
 * (docs/statistics.md, "Once per million wake-ups"):
 *
 *  - independence and identical distribution: the samples beyond the
 *    law's threshold must fall into the repetitions in proportion to
 *    their wake-ups. A host pause that delays a burst of wake-ups in one
 *    repetition puts many exceedances there and none elsewhere; the
 *    chi-square index of dispersion of the per-repetition counts (df
 *    repetitions - 1) finds that clustering. One repetition cannot be
 *    checked, so it gives no estimate.
 *  - the tail type: the exceedances' log-excesses must look exponential
 *    with Hill's mean (a Pareto tail). A chi-square test over bins that
 *    are equally likely under the fitted law (df bins - 2: the shape is
 *    estimated) finds a plateau or a cut-off that the law does not have.
 *    Bins narrower than TC_BIN_US_MIN would test the histogram's 1 us
 *    buckets rather than the tail, so fewer bins are taken; fewer than
 *    three leave nothing to test, and no estimate.
 *
 * Each check rejects at TC_LEVEL; a rejected check makes the figure "not
 * estimable", and both p-values are in the evidence either way.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

/* A check rejects below this p-value. */
#define TC_LEVEL		0.01
/* At least this many exceedances expected per repetition. */
#define TC_PER_REP_MIN		2.0
/* Bins: about one per TC_PER_BIN exceedances, 3 to TC_BINS_MAX. */
#define TC_PER_BIN		10
#define TC_BINS_MAX		8
#define TC_BINS_MIN		3
/* The narrowest bin, in us (the histogram has 1 us buckets). */
#define TC_BIN_US_MIN		3.0

/* Samples of c whose value (1 + us, as the law counts) lies above u. */
static double above(const struct an_cpu *c, double u)
{
	double n = (double)c->overflows;
	uint32_t i;

	for (i = c->nbuckets; i-- > 0 && c->b[i].us + 1.0 > u;)
		n += (double)c->b[i].n;
	return n;
}

static void dispersion(const struct an_side *s, size_t cpu, double u,
		       struct an_tail_check *tc)
{
	double k[s->nruns ? s->nruns : 1], n[s->nruns ? s->nruns : 1];
	double ksum = 0, nsum = 0, x2 = 0, e;
	size_t r, m = 0;

	for (r = 0; r < s->nruns; r++) {
		const struct an_cpu *c;

		if (cpu >= s->runs[r].ncpus)
			continue;
		c = &s->runs[r].cpus[cpu];
		if (!an_cpu_has_hist(c) || !c->cycles)
			continue;
		k[m] = above(c, u);
		n[m] = (double)c->cycles;
		ksum += k[m];
		nsum += n[m];
		m++;
	}
	tc->reps = m;
	if (m < 2) {
		rtpaths_fmt(tc->why, sizeof(tc->why), "one repetition cannot "
			    "show that its tail's samples are independent");
		return;
	}
	if (ksum / m < TC_PER_REP_MIN) {
		rtpaths_fmt(tc->why, sizeof(tc->why), "%.0f samples beyond "
			    "%.0f us in %zu repetitions are too few to check "
			    "their independence", ksum, u - 1, m);
		return;
	}
	for (r = 0; r < m; r++) {
		e = n[r] * ksum / nsum;
		x2 += (k[r] - e) * (k[r] - e) / e;
	}
	tc->disp_p = gsl_cdf_chisq_Q(x2, (double)(m - 1));
	if (tc->disp_p < TC_LEVEL)
		rtpaths_fmt(tc->why, sizeof(tc->why), "its samples beyond %.0f "
			    "us cluster in some repetitions (dispersion "
			    "p=%.2g): they are not independent", u - 1,
			    tc->disp_p);
}

/*
 * The edge of bin j of nb under the law: P(X > t | X > u) = 1 - j / nb,
 * so t = u (1 - j / nb)^-xi.
 */
static double edge(double u, double xi, size_t j, size_t nb)
{
	return j >= nb ? INFINITY : u * pow(1 - (double)j / nb, -xi);
}

static void fit(const struct an_cpu *pool, double u, double xi,
		struct an_tail_check *tc)
{
	double total = above(pool, u), lim = pool->limit + 1.0, x2 = 0;
	double obs[TC_BINS_MAX] = { 0 };
	size_t nb, j, top, used = 0;
	uint32_t i;

	nb = (size_t)fmin(TC_BINS_MAX, floor(total / TC_PER_BIN));
	while (nb >= TC_BINS_MIN && edge(u, xi, 1, nb) - u < TC_BIN_US_MIN)
		nb--;
	if (nb < TC_BINS_MIN) {
		rtpaths_fmt(tc->why, sizeof(tc->why), "%.0f samples beyond "
			    "%.0f us are too few or too close together to "
			    "check the tail law's fit", total, u - 1);
		return;
	}
	/* Overflows lie somewhere beyond the limit: merge the bins there. */
	top = nb;
	if (pool->overflows)
		for (top = 0; top < nb && edge(u, xi, top + 1, nb) <= lim; top++)
			;
	for (i = 0; i < pool->nbuckets; i++) {
		double x = pool->b[i].us + 1.0;

		if (x <= u)
			continue;
		for (j = 0; j + 1 < nb && x >= edge(u, xi, j + 1, nb); j++)
			;
		obs[j < top ? j : top] += (double)pool->b[i].n;
	}
	if (top < nb)
		obs[top] += (double)pool->overflows;
	for (j = 0; j < nb && j <= top; j++) {
		double e = total * (j < top ? 1.0 : (double)(nb - top)) / nb;

		x2 += (obs[j] - e) * (obs[j] - e) / e;
		used++;
	}
	tc->bins = used;
	if (used < TC_BINS_MIN) {
		rtpaths_fmt(tc->why, sizeof(tc->why), "the histogram's %u us "
			    "limit leaves too few bins to check the tail law's "
			    "fit", pool->limit);
		return;
	}
	tc->fit_p = gsl_cdf_chisq_Q(x2, (double)(used - 2));
	if (tc->fit_p < TC_LEVEL)
		rtpaths_fmt(tc->why, sizeof(tc->why), "the tail does not fit a "
			    "Pareto law beyond %.0f us (chi-square p=%.2g over "
			    "%zu bins)", u - 1, tc->fit_p, used);
}

bool an_tail_check(const struct an_side *s, size_t cpu,
		   const struct an_cpu *pool, double u, double xi,
		   struct an_tail_check *tc)
{
	*tc = (struct an_tail_check){ .disp_p = NAN, .fit_p = NAN };
	tc->threshold_us = u - 1;
	tc->exceedances = above(pool, u);
	dispersion(s, cpu, u, tc);
	if (!tc->why[0])
		fit(pool, u, xi, tc);
	else {
		/* The fit's p is evidence even when independence failed. */
		char why[sizeof(tc->why)];

		memcpy(why, tc->why, sizeof(why));
		tc->why[0] = '\0';
		fit(pool, u, xi, tc);
		memcpy(tc->why, why, sizeof(why));
	}
	return !tc->why[0];
}

void an_tail_check_text(const struct an_tail_check *tc, char *buf,
			size_t len)
{
	char d[48] = "not checked", f[64] = "not checked";

	if (!isnan(tc->disp_p))
		snprintf(d, sizeof(d), "p=%.2g", tc->disp_p);
	if (!isnan(tc->fit_p))
		snprintf(f, sizeof(f), "p=%.2g over %zu bins", tc->fit_p,
			 tc->bins);
	snprintf(buf, len, "%.0f samples beyond %.0f us in %zu repetitions; "
		 "independence (dispersion) %s, Pareto fit (chi-square) %s",
		 tc->exceedances, tc->threshold_us, tc->reps, d, f);
}
