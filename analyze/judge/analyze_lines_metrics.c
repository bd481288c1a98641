// SPDX-License-Identifier: GPL-2.0-only
/*
 * The evidence beside the latency tail (docs/statistics.md): averages,
 * workload metrics (one value per measured round; a run's value is the
 * median of its rounds) and the gate's budgets, absolute limits that any
 * valid repetition above fails, no statistics needed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

/* ---- averages ---- */

/* A t statistic in the line's own unit; sign -1: lower is worse. */
static void set_linear(struct an_prep *p, struct an_line *l,
		       const struct an_tstat *ts, double sign)
{
	struct an_line_test *t = cmp_test(p, l);

	if (!(ts->df > 0) || !(ts->se > 0))
		return;
	t->kind = AN_TEST_LINEAR;
	t->d = ts->delta;
	t->se = ts->se;
	t->df = ts->df;
	t->sign = sign;
}

/*
 * With repetitions on both sides each CPU's averages are compared across
 * runs; with one run on a side only the CPUs can replicate (paired).
 */
int an_cmp_avg_lines(struct an_prep *p, bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, j, n = p->ncpus;
	bool reps = nb > 1 && nc > 1;
	double d[n];
	struct an_tstat t;
	struct an_line *l;

	for (j = 0; j < n; j++) {
		l = an_cmp_line_new(p, AN_LINE_AVG, "avg", j);
		if (!l)
			return -ENOMEM;
		l->base = p->b[j].pool.avg_us;
		l->cand = p->c[j].pool.avg_us;
		an_cmp_line_effect_us(p, l);
		d[j] = l->delta;
		if (!reps) {
			snprintf(l->evidence, sizeof(l->evidence),
				 "one value per side: no test on its own");
			continue;
		}
		l->deciding = deciding;
		t = an_welch(p->b[j].avg, nb, p->c[j].avg, nc, 1e-4);
		snprintf(l->evidence, sizeof(l->evidence),
			 "averages of %zu vs %zu repetitions", nb, nc);
		set_linear(p, l, &t, 1);
		an_cmp_line_drift(p, l, p->b[j].avg,
				  an_median(p->c[j].avg, nc));
	}
	if (reps)
		return 0;
	l = an_cmp_line_new(p, AN_LINE_AVG, "avg", -1);
	if (!l)
		return -ENOMEM;
	for (j = 0; j < n; j++) {
		l->base += p->b[j].pool.avg_us / n;
		l->cand += p->c[j].pool.avg_us / n;
	}
	an_cmp_line_effect_us(p, l);
	l->deciding = deciding;
	if (n < 2) {
		snprintf(l->evidence, sizeof(l->evidence),
			 "one value per side: no test is possible");
		return 0;
	}
	t = an_paired(d, n, 1e-4);
	set_linear(p, l, &t, 1);
	snprintf(l->evidence, sizeof(l->evidence), "paired over %zu CPUs", n);
	return 0;
}

/* ---- workload metrics ---- */

static const struct an_values *run_metric(const struct an_run *r,
					  const char *name)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static bool side_has_metric(const struct an_side *s, const char *name)
{
	size_t r;

	for (r = 0; r < s->nruns; r++)
		if (!run_metric(&s->runs[r], name) ||
		    !run_metric(&s->runs[r], name)->n)
			return false;
	return s->nruns > 0;
}

/*
 * Per-run values, all rounds, and the largest within-run CV. A run's value
 * is the median of its rounds: on a quiet machine it is the mean (the
 * threads' CVs are below 1 %), on a shared one a round preempted by a
 * neighbour for milliseconds does not decide the run (docs/statistics.md).
 */
static size_t metric_values(const struct an_side *s, const char *name,
			    double *means, double *all, double *cv)
{
	size_t r, i, n = 0;

	*cv = 0;
	for (r = 0; r < s->nruns; r++) {
		const struct an_values *m = run_metric(&s->runs[r], name);
		double mean = an_mean(m->v, m->n);

		means[r] = an_median(m->v, m->n);
		if (m->n > 1 && mean != 0)
			*cv = fmax(*cv, sqrt(an_var(m->v, m->n)) /
				   fabs(mean));
		for (i = 0; i < m->n; i++)
			all[n++] = m->v[i];
	}
	return n;
}

/* The coefficient of variation of n values; 0 for fewer than two. */
static double values_cv(const double *v, size_t n)
{
	double mean = an_mean(v, n);

	return n > 1 && mean != 0 ? sqrt(an_var(v, n)) / fabs(mean) : 0;
}

static size_t metric_total(const struct an_side *s, const char *name)
{
	size_t r, n = 0;

	for (r = 0; r < s->nruns; r++)
		n += run_metric(&s->runs[r], name)->n;
	return n;
}

static int metric_line(struct an_prep *p, const struct an_values *m0,
		       bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns;
	size_t tb = metric_total(p->sb, m0->name);
	size_t tc = metric_total(p->sc, m0->name);
	double *buf, *mb, *mc, *ab, *ac, cvb, cvc, sign;
	struct an_tstat t;
	struct an_line *l;

	buf = malloc((nb + nc + tb + tc) * sizeof(*buf));
	l = an_cmp_line_new(p, AN_LINE_METRIC, m0->name, -1);
	if (!buf || !l) {
		free(buf);
		return -ENOMEM;
	}
	mb = buf;
	mc = mb + nb;
	ab = mc + nc;
	ac = ab + tb;
	metric_values(p->sb, m0->name, mb, ab, &cvb);
	metric_values(p->sc, m0->name, mc, ac, &cvc);
	snprintf(l->unit, sizeof(l->unit), "%s", m0->unit);
	sign = m0->higher_better ? -1 : 1;
	l->base = an_mean(mb, nb);
	l->cand = an_mean(mc, nc);
	l->delta = l->cand - l->base;
	l->worse = sign * l->delta;
	l->delta_pct = l->base ? 100 * l->delta / fabs(l->base) : NAN;
	l->floor = an_cmp_floor_at(p, l, l->base);
	l->deciding = deciding;
	if (nb > 1 && nc > 1)
		t = an_welch(mb, nb, mc, nc, 0);
	else
		t = an_welch(ab, tb, ac, tc, 0);
	set_linear(p, l, &t, sign);
	/*
	 * The CV says what scattered: the rounds within a repetition
	 * (microbenchmarks), or, with one value a repetition, the
	 * repetitions themselves.
	 */
	if (tb == nb && tc == nc) {
		cvb = values_cv(mb, nb);
		cvc = values_cv(mc, nc);
	}
	snprintf(l->evidence, sizeof(l->evidence),
		 "%zu vs %zu %s, CV %s %.2f%% / %.2f%%%s", nb > 1 && nc > 1 ?
		 nb : tb, nb > 1 && nc > 1 ? nc : tc, nb > 1 && nc > 1 ?
		 "repetitions" : "rounds", tb == nb && tc == nc ?
		 "across repetitions" : "within a repetition's rounds, at most",
		 100 * cvb, 100 * cvc,
		 m0->higher_better ? ", higher is better" : "");
	an_cmp_line_drift(p, l, mb, an_median(mc, nc));
	free(buf);
	return 0;
}

int an_cmp_metric_lines(struct an_prep *p)
{
	const struct an_run *r0;
	size_t i;
	int ret;

	if (!p->sb->nruns)
		return 0;
	r0 = &p->sb->runs[0];
	for (i = 0; i < r0->nmetrics; i++) {
		const struct an_values *m = &r0->metrics[i];

		if (!side_has_metric(p->sb, m->name) ||
		    !side_has_metric(p->sc, m->name))
			continue;
		ret = metric_line(p, m, !strcmp(m->name, p->gate->metric));
		if (ret)
			return ret;
	}
	return 0;
}


/* ---- budgets ---- */

/* A repetition's value of a budget's metric on one CPU (NAN: unknown). */
static double budget_value(const struct an_cpu *c, const char *metric,
			   bool *ge)
{
	double q;

	*ge = false;
	if (!strcmp(metric, "max"))
		return c->max_us;
	if (!an_metric_quantile(metric, &q))
		return NAN;
	return an_cpu_quantile(c, q, ge);
}

/* The worst value of a side over its repetitions and CPUs. */
static double budget_worst(const struct an_prep *p, const struct an_side *s,
			   const char *metric, int *cpu, size_t *rep,
			   bool *ge)
{
	double worst = NAN;
	size_t r, j;
	bool g;

	*ge = false;
	for (r = 0; r < s->nruns; r++)
		for (j = 0; j < p->ncpus; j++) {
			double v = budget_value(&s->runs[r].cpus[j], metric,
						&g);

			if (!isnan(v) && (isnan(worst) || v > worst)) {
				worst = v;
				*cpu = j;
				*rep = r;
				*ge = g;
			}
		}
	return worst;
}

/*
 * [gate] max_us = N (and p99_us, ...): the classic RT acceptance test. Any
 * valid candidate repetition above the limit fails the gate, "over
 * budget"; the baseline's worst value is shown beside it.
 */
int an_cmp_budget_lines(struct an_prep *p)
{
	size_t i, rep = 0, brep = 0;

	for (i = 0; i < p->gate->nbudgets; i++) {
		const struct an_budget *bu = &p->gate->budgets[i];
		struct an_line *l;
		char name[32];
		int cpu = 0, bcpu = 0;
		bool ge, bge;
		double c, b;

		c = budget_worst(p, p->sc, bu->metric, &cpu, &rep, &ge);
		b = budget_worst(p, p->sb, bu->metric, &bcpu, &brep, &bge);
		rtpaths_fmt(name, sizeof(name), "%s budget", bu->metric);
		l = an_cmp_line_new(p, AN_LINE_BUDGET, name, isnan(c) ? -1 : cpu);
		if (!l)
			return -ENOMEM;
		l->deciding = true;
		l->base = b;
		l->cand = c;
		l->base_ge = bge;
		l->cand_ge = ge;
		an_cmp_line_effect_us(p, l);
		cmp_test(p, l)->kind = isnan(c) ? AN_TEST_NONE : AN_TEST_BUDGET;
		cmp_test(p, l)->limit = bu->us;
		if (isnan(c))
			rtpaths_fmt(l->evidence, sizeof(l->evidence), "no %s "
				    "in the candidate's data (a histogram is "
				    "needed)", bu->metric);
		else
			rtpaths_fmt(l->evidence, sizeof(l->evidence), "the "
				    "candidate's worst %s is %s%.0f us (%s, "
				    "CPU %d) against a budget of %.0f us",
				    bu->metric, ge ? ">=" : "", c,
				    p->sc->runs[rep].label, cpu, bu->us);
	}
	return 0;
}
