// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each CPU against the other CPUs of the same repetitions
 * (docs/statistics.md, "A CPU against the others").
 *
 * A host pause delays a run of wake-ups on every CPU at once: on a
 * virtual machine most of the scatter between repetitions is shared by
 * the CPUs (their per-repetition p95 ... p99 correlate at 0.7 to 0.9 in
 * quiet sittings). A change that hits one CPU (a spinner, an interrupt
 * moved onto it) is seen best against the others: per repetition and
 * level, w = log(1 + CPU c's value) - the mean over the other CPUs of
 * log(1 + their value), and the line compares the two sides' means of w
 * with Student's t, its variance the repetitions' own, shrunk toward the
 * same CPU's other levels at half weight, never below what sampling
 * alone gives.
 *
 * Such a line says that CPU c got worse against the others, which is
 * also what a fall on another CPU would make. So it is tested for a rise
 * only (one tail: it counts as half a line of the family), and its rise
 * is a regression only when CPU c's own line rose by its floor too, with
 * a p-value that alone (unadjusted) is below alpha's share / 2 (checked
 * in analyze_verdict.c, where that p is known), and no other CPU's own
 * line fell by its floor. It never makes a NO CHANGE harder to reach:
 * the CPUs' own lines decide that.
 *
 * Levels up to an_shared_q_max (p99), where shared bursts are the
 * scatter; with two repetitions a side or more and two CPUs or more.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

#define REL_PRIOR_SHARE		0.5	/* the other levels' df count half */

static const double rel_levels[] = { 0.90, 0.95, 0.97, 0.99 };
#define NR_REL (sizeof(rel_levels) / sizeof(rel_levels[0]))

struct rel_level {
	bool ok;
	double q;
	double mb, mc, ss, df, hb, hc, vfloor;
	double base;		/* CPU c's baseline, geometric */
	double drift;
};

static const struct an_rep_values *values_of(const struct an_rep_values *v,
					  size_t n, size_t cpu, double q)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].cpu == (int)cpu && fabs(v[i].q - q) < 1e-12)
			return v[i].yb && v[i].yc ? &v[i] : NULL;
	return NULL;
}

/* w per run of one side for CPU c: its value less the others' mean. */
static void side_contrast(const struct an_rep_values *const *cv, size_t ncpus,
			  size_t c, size_t nruns, bool cand, double *w)
{
	size_t r, j;

	for (r = 0; r < nruns; r++) {
		double o = 0;

		for (j = 0; j < ncpus; j++)
			if (j != c)
				o += (cand ? cv[j]->yc : cv[j]->yb)[r];
		w[r] = (cand ? cv[c]->yc : cv[c]->yb)[r] - o / (ncpus - 1);
	}
}

static void level_stats(const struct an_prep *p, const struct an_rep_values *v,
			size_t n, size_t c, struct rel_level *lv)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, i, j;
	const struct an_rep_values *cv[p->ncpus];
	double wb[nb], wc[nc], vf = 0;

	lv->ok = true;
	for (j = 0; j < p->ncpus && lv->ok; j++) {
		cv[j] = values_of(v, n, j, lv->q);
		lv->ok = cv[j] != NULL;
		if (lv->ok)
			vf += j == c ? cv[j]->vfloor : cv[j]->vfloor /
			      ((p->ncpus - 1.0) * (p->ncpus - 1.0));
	}
	if (!lv->ok)
		return;
	side_contrast(cv, p->ncpus, c, nb, false, wb);
	side_contrast(cv, p->ncpus, c, nc, true, wc);
	lv->ss = an_trimmed(wb, nb, &lv->mb, &lv->hb) +
		 an_trimmed(wc, nc, &lv->mc, &lv->hc);
	lv->df = lv->hb + lv->hc - 2;
	lv->vfloor = vf;
	lv->base = expm1(an_mean(cv[c]->yb, nb));
	lv->drift = NAN;
	if (p->drift && p->nhalf) {
		double e = 0, l = 0;

		for (i = 0; i < p->nhalf; i++) {
			e += wb[p->early[i]];
			l += wb[p->late[i]];
		}
		lv->drift = (1 + lv->base) * expm1((l - e) / p->nhalf);
	}
}

/* The CPUs' own lines at level q, already made by analyze_lines_rep.c. */
static const struct an_line *own_line(const struct an_prep *p, size_t cpu,
				      double q)
{
	size_t i;

	for (i = 0; i < p->res->nlines; i++) {
		const struct an_line *l = &p->res->lines[i];

		if (l->kind == AN_LINE_TAIL && l->cpu == (int)cpu &&
		    fabs(l->q - q) < 1e-12)
			return l;
	}
	return NULL;
}

/* Why a rise against the others is not CPU c's own: "" when it is. */
static void guard(const struct an_prep *p, size_t c, double q,
		  struct an_line_test *t)
{
	const struct an_line *own = own_line(p, c, q);
	size_t j, len = sizeof(t->rel_why);
	char *why = t->rel_why;

	why[0] = '\0';
	t->rel_own = own ? (int)(own - p->res->lines) : -1;
	if (!own || own->worse < own->floor) {
		rtpaths_fmt(why, len, "CPU %zu's own %s did not rise by its "
			    "floor", c, own ? own->metric : "line");
		return;
	}
	for (j = 0; j < p->ncpus; j++) {
		const struct an_line *o = own_line(p, j, q);

		if (j != c && o && -o->worse >= o->floor) {
			rtpaths_fmt(why, len, "CPU %zu's own %s fell by %.0f "
				    "us", j, o->metric, -o->worse);
			return;
		}
	}
}

static int emit(struct an_prep *p, size_t c, const struct rel_level *lvs,
		size_t k, bool deciding)
{
	const struct rel_level *lv = &lvs[k];
	double s2 = lv->ss, df = lv->df, so = 0, dfo = 0;
	struct an_line_test *t;
	struct an_line *l;
	char name[24];
	size_t i;

	for (i = 0; i < NR_REL; i++)
		if (i != k && lvs[i].ok && lvs[i].df > 0) {
			so += lvs[i].ss;
			dfo += lvs[i].df;
		}
	if (dfo > 0) {
		s2 += REL_PRIOR_SHARE * so;
		df += REL_PRIOR_SHARE * dfo;
	}
	if (!(df > 0))
		return 0;
	rtpaths_fmt(name, sizeof(name), "p%g/others", lv->q * 100);
	l = an_cmp_line_new(p, AN_LINE_REL, name, (int)c);
	if (!l)
		return -ENOMEM;
	t = cmp_test(p, l);
	l->q = lv->q;
	l->deciding = deciding;
	l->base = lv->base;
	/* The rise against the others, in CPU c's microseconds. */
	l->cand = expm1(log1p(lv->base) + lv->mc - lv->mb);
	an_cmp_line_effect_us(p, l);
	l->drift = lv->drift;
	t->kind = AN_TEST_LOG;
	t->rel = true;
	t->d = lv->mc - lv->mb;
	t->sd = sqrt(fmax(s2 / df, lv->vfloor));
	t->se = t->sd * sqrt(1.0 / lv->hb + 1.0 / lv->hc);
	t->df = df;
	guard(p, c, lv->q, t);
	if (t->rel_why[0] && l->worse >= l->floor)
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "CPU %zu over "
			    "the other CPUs of the same repetitions, x%.2f -> "
			    "x%.2f; no regression of its own: %s", c,
			    exp(lv->mb), exp(lv->mc), t->rel_why);
	else
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "CPU %zu over "
			    "the other CPUs of the same repetitions, x%.2f -> "
			    "x%.2f (a burst shared by the CPUs cancels); the "
			    "candidate's value is the baseline's times that "
			    "ratio's change", c, exp(lv->mb), exp(lv->mc));
	return 0;
}

size_t an_rel_family(size_t ncpus, size_t reps)
{
	if (ncpus < 2 || reps < 2)
		return 0;
	return (NR_REL * ncpus + 1) / 2;
}

int an_cmp_rel_lines(struct an_prep *p, const struct an_rep_values *v, size_t n)
{
	const char *gm = p->gate->metric;
	bool is_max = !strcmp(gm, "max"), has_q;
	struct rel_level lvs[NR_REL];
	double gq = 0;
	size_t c, k;
	int ret;

	if (p->ncpus < 2 || p->sb->nruns < 2 || p->sc->nruns < 2)
		return 0;
	has_q = an_metric_quantile(gm, &gq);
	if (!is_max && !has_q)
		return 0;
	for (c = 0; c < p->ncpus; c++) {
		for (k = 0; k < NR_REL; k++) {
			lvs[k].q = rel_levels[k];
			level_stats(p, v, n, c, &lvs[k]);
		}
		for (k = 0; k < NR_REL; k++) {
			bool deciding = is_max ||
					fabs(rel_levels[k] - gq) < 1e-12;

			if (!lvs[k].ok || (!deciding && has_q))
				continue;
			ret = emit(p, c, lvs, k, deciding);
			if (ret)
				return ret;
		}
	}
	return 0;
}
