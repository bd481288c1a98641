// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison's entry (docs/statistics.md): both sides are prepared per
 * CPU — every run brought to the smallest sample count of its CPU, the
 * runs pooled, the baseline split into early and late halves when it ran
 * before and after the candidate — then the evidence lines are built
 * (analyze_lines_rep.c, analyze_extreme.c, analyze_lines_metrics.c) and
 * judged (analyze_verdict.c). judge_priv.h says which file does what.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

/* ---- preparation: equal counts, pools, drift halves ---- */

static bool side_cpu_hist(const struct an_side *s, size_t j)
{
	size_t r;

	for (r = 0; r < s->nruns; r++)
		if (!an_cpu_has_hist(&s->runs[r].cpus[j]))
			return false;
	return true;
}

/*
 * Scale of the Gumbel law of maxima from their scatter, for inputs without
 * histograms: within (side, CPU) across runs when there are repetitions,
 * else across CPUs within a side. NAN when nothing scatters.
 */
static double gumbel_sigma(const struct an_prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	double ss = 0, df = 0, v;
	size_t s, j, r;

	for (s = 0; s < 2; s++)
		for (j = 0; j < p->ncpus && sides[s]->nruns > 1; j++) {
			double m = 0;

			for (r = 0; r < sides[s]->nruns; r++)
				m += sides[s]->runs[r].cpus[j].max_us;
			m /= sides[s]->nruns;
			for (r = 0; r < sides[s]->nruns; r++) {
				v = sides[s]->runs[r].cpus[j].max_us - m;
				ss += v * v;
			}
			df += sides[s]->nruns - 1;
		}
	if (df < 2 && p->ncpus > 1) {
		ss = df = 0;
		for (s = 0; s < 2; s++) {
			double m = 0;

			for (j = 0; j < p->ncpus; j++)
				m += sides[s]->runs[0].cpus[j].max_us;
			m /= p->ncpus;
			for (j = 0; j < p->ncpus; j++) {
				v = sides[s]->runs[0].cpus[j].max_us - m;
				ss += v * v;
			}
			df += p->ncpus - 1;
		}
	}
	if (df < 1 || ss <= 0)
		return NAN;
	return sqrt(ss / df) * sqrt(6.0) / M_PI;
}

/*
 * A run's maximum at the equal count nref of its CPU. Runs within 10 % of
 * it keep their measured maximum; a longer run with a histogram stands for
 * k = cycles / nref runs of the reference length, whose maximum is its
 * k-th largest sample. Where that sample lies beyond the histogram (its
 * value unknown) the measured maximum stays: the true maximum is never
 * replaced by the histogram limit.
 */
static double max_at(const struct an_prep *p, const struct an_cpu *c,
		     double nref, bool hist)
{
	double k = (double)c->cycles / nref, v;
	bool ge;

	if (k <= 1.1)
		return c->max_us;
	if (hist) {
		v = an_cpu_kth_largest(c, k, &ge);
		return ge ? c->max_us : v;
	}
	if (!isnan(p->sigma))
		return fmax(c->min_us, c->max_us - p->sigma * log(k));
	return c->max_us;
}

static int prep_side(struct an_prep *p, const struct an_side *s,
		     struct an_side_cpu *sc, const double *nref)
{
	size_t j, r;
	int ret;

	for (j = 0; j < p->ncpus; j++) {
		struct an_side_cpu *x = &sc[j];

		x->mx = calloc(s->nruns, sizeof(*x->mx));
		x->avg = calloc(s->nruns, sizeof(*x->avg));
		if (!x->mx || !x->avg)
			return -ENOMEM;
		x->hist = side_cpu_hist(p->sb, j) && side_cpu_hist(p->sc, j);
		x->nref = nref[j];
		x->pool.thread = j;
		for (r = 0; r < s->nruns; r++) {
			const struct an_cpu *c = &s->runs[r].cpus[j];

			x->avg[r] = c->avg_us;
			x->mx[r] = max_at(p, c, nref[j], x->hist);
			ret = an_cpu_pool(&x->pool, c);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct an_side *s = arg;
	int x = s->runs[*(const size_t *)a].order;
	int y = s->runs[*(const size_t *)b].order;

	return (x > y) - (x < y);
}

/*
 * A/B/A: when the baseline ran both before and after candidate runs, its
 * early half and its late half (by execution order) measure the drift.
 */
static int prep_drift(struct an_prep *p)
{
	const struct an_side *b = p->sb, *c = p->sc;
	int cmin = -1, cmax = -1;
	bool before = false, after = false;
	size_t r, n = b->nruns, *idx;

	if (!b->order_known || !c->order_known || n < 2)
		return 0;
	for (r = 0; r < c->nruns; r++) {
		if (c->runs[r].order < 0)
			return 0;
		if (cmin < 0 || c->runs[r].order < cmin)
			cmin = c->runs[r].order;
		if (c->runs[r].order > cmax)
			cmax = c->runs[r].order;
	}
	for (r = 0; r < n; r++) {
		if (b->runs[r].order < 0)
			return 0;
		before |= b->runs[r].order < cmax;
		after |= b->runs[r].order > cmin;
	}
	if (!before || !after)
		return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (r = 0; r < n; r++)
		idx[r] = r;
	qsort_r(idx, n, sizeof(*idx), cmp_order, (void *)b);
	p->nhalf = n / 2;
	p->early = idx;
	p->late = idx + (n - p->nhalf);
	p->drift = true;
	return 0;
}

static int prep_init(struct an_prep *p)
{
	double *nref;
	size_t j, r, s;
	const struct an_side *sides[2] = { p->sb, p->sc };
	int ret;

	p->ncpus = p->sb->runs[0].ncpus < p->sc->runs[0].ncpus ?
		   p->sb->runs[0].ncpus : p->sc->runs[0].ncpus;
	if (p->sb->runs[0].ncpus != p->sc->runs[0].ncpus)
		an_cmp_note(p->res, "the baseline measured %zu threads and the "
		     "candidate %zu: the first %zu are compared",
		     p->sb->runs[0].ncpus, p->sc->runs[0].ncpus, p->ncpus);
	p->b = calloc(p->ncpus, sizeof(*p->b));
	p->c = calloc(p->ncpus, sizeof(*p->c));
	nref = calloc(p->ncpus, sizeof(*nref));
	if (!p->b || !p->c || !nref) {
		free(nref);
		return -ENOMEM;
	}
	/* Equal counts: every run of a CPU is judged at the smallest count. */
	for (j = 0; j < p->ncpus; j++)
		for (s = 0; s < 2; s++)
			for (r = 0; r < sides[s]->nruns; r++) {
				double n = sides[s]->runs[r].cpus[j].cycles;

				if (!nref[j] || n < nref[j])
					nref[j] = n;
			}
	p->sigma = NAN;
	for (j = 0; j < p->ncpus; j++)
		if (!side_cpu_hist(p->sb, j) || !side_cpu_hist(p->sc, j))
			p->sigma = gumbel_sigma(p);
	ret = prep_side(p, p->sb, p->b, nref);
	if (!ret)
		ret = prep_side(p, p->sc, p->c, nref);
	free(nref);
	if (!ret)
		ret = prep_drift(p);
	return ret;
}

static void prep_release(struct an_prep *p)
{
	struct an_side_cpu *sides[2] = { p->b, p->c };
	size_t s, j;

	for (s = 0; s < 2; s++)
		for (j = 0; sides[s] && j < p->ncpus; j++) {
			free(sides[s][j].mx);
			free(sides[s][j].avg);
			an_cpu_release(&sides[s][j].pool);
		}
	free(p->b);
	free(p->c);
	free(p->early);
	free(p->tests);
}

/* ---- entry ---- */

static bool side_unusable(const struct an_side *s, struct an_result *res,
			  const char *role)
{
	if (s->status == AN_SIDE_SKIPPED) {
		res->verdict = AN_SKIPPED;
		rtpaths_fmt(res->reason, sizeof(res->reason), "the %s %s was "
			 "skipped: %s", role, s->name,
			 s->reason[0] ? s->reason : "no reason recorded");
		return true;
	}
	if (s->status == AN_SIDE_INVALID || !s->nruns) {
		res->verdict = AN_INVALID;
		rtpaths_fmt(res->reason, sizeof(res->reason), "the %s %s is "
			 "invalid: %s", role, s->name,
			 s->reason[0] ? s->reason : "no valid repetition");
		return true;
	}
	return false;
}

static int compute_lines(struct an_prep *p)
{
	bool is_avg = !strcmp(p->gate->metric, "avg");
	int ret = 0;

	if (p->ncpus) {
		ret = an_cmp_rep_lines(p);
		if (!ret)
			ret = an_cmp_exceed_lines(p);
		if (!ret)
			ret = an_cmp_spike_line(p);
		if (!ret)
			ret = an_cmp_avg_lines(p, is_avg);
		if (!ret)
			ret = an_cmp_budget_lines(p);
		if (!ret)
			ret = an_cmp_exceedances(p);
	}
	return ret ? ret : an_cmp_metric_lines(p);
}

/*
 * A thread that took far fewer samples than its interval allows, against
 * its siblings of the same run, was starved (on a loaded machine
 * cyclictest's second thread sometimes gets 971 of 8000 wake-ups).
 */
static void note_starved(struct an_prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	size_t s, r, j, n = p->ncpus;

	for (s = 0; s < 2; s++)
		for (r = 0; r < sides[s]->nruns; r++) {
			const struct an_run *run = &sides[s]->runs[r];
			double t[n], med;

			/* Samples times interval: the run's length in us. */
			for (j = 0; j < n; j++)
				t[j] = (double)run->cpus[j].cycles *
				       (run->cpus[j].interval_us > 0 ?
					run->cpus[j].interval_us : 1);
			med = an_median(t, n);
			for (j = 0; j < n; j++)
				if (t[j] < med / 2)
					an_cmp_note(p->res, "%s %s: thread %zu "
						    "took %llu samples, under half "
						    "of what its interval gives "
						    "beside its siblings (starved?)",
						    sides[s]->name, run->label, j,
						    (unsigned long long)
						    run->cpus[j].cycles);
		}
}

/*
 * Repetitions that were not silent (`rtgate run --silent` recorded bytes,
 * interrupts or console messages that crossed to the host while they
 * measured): in the lab's virtual time their maxima carry that I/O.
 */
static void note_loud(struct an_prep *p, const struct an_side *side)
{
	char reps[128] = "";
	size_t r, n = 0, used = 0;

	for (r = 0; r < side->nruns; r++) {
		if (side->runs[r].host_io != AN_HOST_IO_LOUD)
			continue;
		if (used < sizeof(reps))
			used += snprintf(reps + used, sizeof(reps) - used,
					 "%s%d", n ? ", " : "",
					 side->runs[r].rep);
		n++;
	}
	if (n)
		an_cmp_note(p->res, "%s: %zu of %zu repetitions not silent "
			    "(rep %s): I/O crossed to the host while they "
			    "measured, their maxima carry it", side->name, n,
			    side->nruns, reps);
}

static void add_notes(struct an_prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	size_t s;

	if (p->ncpus)
		note_starved(p);
	for (s = 0; s < 2; s++)
		note_loud(p, sides[s]);

	for (s = 0; s < 2; s++)
		if (sides[s]->reason[0])
			an_cmp_note(p->res, "%s: %s", sides[s]->name,
			     sides[s]->reason);
	if (p->ncpus && !isnan(p->sigma))
		an_cmp_note(p->res, "no histograms: maxima are brought to equal "
		     "sample counts with a Gumbel tail of scale %.2g us",
		     p->sigma);
	if (p->gate->level_why[0])
		an_cmp_note(p->res, "judged at %.2g of alpha: %s", p->gate->level,
			    p->gate->level_why);
	if (p->drift)
		p->res->drift_checked = true;
	else if (p->sb->nruns > 1)
		an_cmp_note(p->res, "no A/B/A drift check: the baseline did not "
		     "run both before and after the candidate%s",
		     p->sb->order_known ? "" : " (order unknown)");
}

int an_compare(const struct an_side *base, const struct an_side *cand,
	       const struct an_gate *gate, struct an_result *res)
{
	struct an_prep p = { .sb = base, .sc = cand, .gate = gate, .res = res };
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->decisive = -1;
	res->gate = *gate;
	res->gate.profile = NULL;	/* the result outlives the profile */
	res->nbase = base->nruns;
	res->ncand = cand->nruns;
	/*
	 * A candidate this kernel cannot run is SKIPPED whatever became of
	 * its baseline: the reason a reader needs is the candidate's.
	 */
	if ((cand->status == AN_SIDE_SKIPPED &&
	     side_unusable(cand, res, "candidate")) ||
	    side_unusable(base, res, "baseline") ||
	    side_unusable(cand, res, "candidate"))
		return 0;
	if (base->runs[0].ncpus && cand->runs[0].ncpus)
		ret = prep_init(&p);
	else
		ret = prep_drift(&p);
	if (!ret)
		ret = compute_lines(&p);
	if (!ret) {
		add_notes(&p);
		an_cmp_decide(&p);
	}
	prep_release(&p);
	if (ret)
		an_result_release(res);
	return ret;
}

void an_result_release(struct an_result *res)
{
	free(res->lines);
	res->lines = NULL;
	res->nlines = 0;
	free(res->exceed);
	res->exceed = NULL;
	res->nexceed = 0;
}
