// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report, schema rtgate-report/1 (docs/report-schema.md). Numbers
 * that are not known are null, never invented; a bound that is open (an
 * interval reaching beyond the histogram) is null too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/report/report.h"

#define REPORT_SCHEMA "rtgate-report/1"

static const double quantile_levels[] = { 0.5, 0.9, 0.99, 0.999, 0.9999,
					  0.99999 };
static const int above_us[] = { 10, 20, 50, 100, 200, 500, 1000, 2000 };

static cJSON *num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void add_num(cJSON *o, const char *key, double v)
{
	cJSON_AddItemToObject(o, key, num(v));
}

static const char *kind_name(enum an_line_kind k)
{
	static const char *const names[] = {
		[AN_LINE_MAX] = "max", [AN_LINE_TAIL] = "tail",
		[AN_LINE_AVG] = "avg", [AN_LINE_METRIC] = "metric",
		[AN_LINE_EXCEED] = "exceed", [AN_LINE_BUDGET] = "budget",
		[AN_LINE_REL] = "relative", [AN_LINE_SPIKE] = "spike",
	};

	return names[k];
}

static cJSON *cpu_stats(const struct an_cpu *c)
{
	cJSON *o = cJSON_CreateObject(), *q, *a;
	char key[16];
	size_t i;

	cJSON_AddNumberToObject(o, "thread", c->thread);
	add_num(o, "cpu", c->cpu >= 0 ? c->cpu : NAN);
	add_num(o, "interval_us", c->interval_us ? c->interval_us : NAN);
	add_num(o, "prio", c->prio >= 0 ? c->prio : NAN);
	cJSON_AddNumberToObject(o, "cycles", c->cycles);
	cJSON_AddNumberToObject(o, "min_us", c->min_us);
	cJSON_AddNumberToObject(o, "avg_us", c->avg_us);
	cJSON_AddNumberToObject(o, "max_us", c->max_us);
	if (!an_cpu_has_hist(c)) {
		cJSON_AddNullToObject(o, "histogram_us");
		return o;
	}
	cJSON_AddNumberToObject(o, "histogram_us", c->limit);
	cJSON_AddNumberToObject(o, "overflows", c->overflows);
	q = cJSON_AddObjectToObject(o, "quantiles");
	for (i = 0; i < sizeof(quantile_levels) / sizeof(double); i++) {
		cJSON *e = cJSON_CreateObject();
		bool ge;
		double v = an_cpu_quantile(c, quantile_levels[i], &ge);

		snprintf(key, sizeof(key), "p%g", quantile_levels[i] * 100);
		cJSON_AddNumberToObject(e, "us", v);
		cJSON_AddBoolToObject(e, "ge", ge);
		cJSON_AddItemToObject(q, key, e);
	}
	a = cJSON_AddObjectToObject(o, "above_us");
	for (i = 0; i < sizeof(above_us) / sizeof(int); i++) {
		snprintf(key, sizeof(key), "%d", above_us[i]);
		/* Above the limit only the overflows are known: no count. */
		add_num(a, key, (uint32_t)above_us[i] < c->limit ?
			(double)an_cpu_count_above(c, above_us[i]) : NAN);
	}
	return o;
}

static cJSON *run_json(const struct an_run *r)
{
	cJSON *o = cJSON_CreateObject(), *cpus, *ms;
	size_t i, k;

	cJSON_AddStringToObject(o, "label", r->label);
	cJSON_AddNumberToObject(o, "rep", r->rep);
	add_num(o, "order", r->order >= 0 ? r->order : NAN);
	cpus = cJSON_AddArrayToObject(o, "cpus");
	for (i = 0; i < r->ncpus; i++)
		cJSON_AddItemToArray(cpus, cpu_stats(&r->cpus[i]));
	ms = cJSON_AddObjectToObject(o, "metrics");
	for (i = 0; i < r->nmetrics; i++) {
		const struct an_values *m = &r->metrics[i];
		cJSON *e = cJSON_CreateObject();
		cJSON *v = cJSON_AddArrayToObject(e, "values");

		cJSON_AddStringToObject(e, "unit", m->unit);
		cJSON_AddStringToObject(e, "better", m->higher_better ?
					"higher" : "lower");
		for (k = 0; k < m->n; k++)
			cJSON_AddItemToArray(v, num(m->v[k]));
		cJSON_AddItemToObject(ms, m->name, e);
	}
	/* The kernel's slice-extension counters, when the run had them. */
	if (!isnan(r->rseq[0])) {
		cJSON *rs = cJSON_AddObjectToObject(o, "rseq_stats");

		for (i = 0; i < AN_RSEQ_NR; i++)
			add_num(rs, an_rseq_names[i], r->rseq[i]);
	}
	/* Latency over time, when the runner recorded it. */
	if (r->series_us) {
		cJSON *tl = cJSON_AddObjectToObject(o, "timeline");
		cJSON *mx;

		cJSON_AddNumberToObject(tl, "seconds", r->nseries);
		mx = cJSON_AddArrayToObject(tl, "max_us");
		for (k = 0; k < r->nseries; k++)
			cJSON_AddItemToArray(mx, num(r->series_us[k]));
	}
	return o;
}

#define JSON_MAX_SPIKES	100

/*
 * The candidate's spikes over time (an_series_threshold), when either
 * side has a series; absent otherwise.
 */
static void timeline_json(cJSON *o, const struct an_cmp *c)
{
	struct an_spike sp[JSON_MAX_SPIKES];
	double ceiling, thr;
	size_t n, secs, i;
	cJSON *tl, *a;

	if (!an_side_has_series(c->base) && !an_side_has_series(c->cand))
		return;
	thr = an_series_threshold(c->base, &c->res.gate, &ceiling);
	n = an_series_spikes(c->cand, thr, sp, JSON_MAX_SPIKES, &secs);
	tl = cJSON_AddObjectToObject(o, "timeline");
	add_num(tl, "baseline_ceiling_us", ceiling);
	add_num(tl, "threshold_us", thr);
	cJSON_AddNumberToObject(tl, "candidate_seconds", secs);
	cJSON_AddNumberToObject(tl, "spike_seconds", n);
	a = cJSON_AddArrayToObject(tl, "spikes");
	for (i = 0; i < n && i < JSON_MAX_SPIKES; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "rep", sp[i].rep);
		cJSON_AddNumberToObject(e, "second", sp[i].second);
		cJSON_AddNumberToObject(e, "us", sp[i].us);
		cJSON_AddItemToArray(a, e);
	}
}

static cJSON *tline_json(const struct an_cpu_summary *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "thread", s->thread);
	add_num(o, "tid", s->tid ? s->tid : NAN);
	add_num(o, "prio", s->prio >= 0 ? s->prio : NAN);
	add_num(o, "interval_us", s->interval_us ? s->interval_us : NAN);
	cJSON_AddNumberToObject(o, "cycles", s->cycles);
	cJSON_AddNumberToObject(o, "min_us", s->min_us);
	add_num(o, "act_us", s->act_us >= 0 ? s->act_us : NAN);
	cJSON_AddNumberToObject(o, "avg_us", s->avg_us);
	cJSON_AddNumberToObject(o, "max_us", s->max_us);
	return o;
}

static cJSON *reference_json(const struct an_reference *ref)
{
	cJSON *o = cJSON_CreateObject(), *t, *v;
	struct an_cpu_summary s;
	size_t i;

	cJSON_AddStringToObject(o, "source", ref->source);
	t = cJSON_AddArrayToObject(o, "T");
	for (i = 0; i < ref->ncpus; i++) {
		an_ref_summary(&ref->cpus[i], &s);
		cJSON_AddItemToArray(t, tline_json(&s));
	}
	v = cJSON_AddObjectToObject(o, "values");
	for (i = 0; i < ref->nvalues; i++)
		add_num(v, ref->value_names[i], ref->values[i]);
	return o;
}

static cJSON *side_json(const struct an_side *s)
{
	static const char *const status[] = { "ok", "skipped", "invalid" };
	cJSON *o = cJSON_CreateObject(), *reps, *sum;
	struct an_cpu_summary cs;
	size_t i, ncpus = s->nruns ? s->runs[0].ncpus : 0;

	cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddStringToObject(o, "origin", s->origin);
	cJSON_AddStringToObject(o, "status", status[s->status]);
	cJSON_AddStringToObject(o, "reason", s->reason);
	cJSON_AddBoolToObject(o, "incomplete", s->incomplete);
	sum = cJSON_AddArrayToObject(o, "summary");
	for (i = 0; i < ncpus; i++) {
		an_side_summary(s, i, &cs);
		cJSON_AddItemToArray(sum, tline_json(&cs));
	}
	reps = cJSON_AddArrayToObject(o, "repetitions");
	for (i = 0; i < s->nruns; i++)
		cJSON_AddItemToArray(reps, run_json(&s->runs[i]));
	cJSON_AddItemToObject(o, "workloads", an_workloads_json(s));
	if (s->ref)
		cJSON_AddItemToObject(o, "reference",
				      reference_json(s->ref));
	else
		cJSON_AddNullToObject(o, "reference");
	return o;
}

static cJSON *line_json(const struct an_cmp *c, const struct an_line *l)
{
	cJSON *o = cJSON_CreateObject(), *iv;
	char buf[112];
	double lo, hi;

	cJSON_AddStringToObject(o, "kind", kind_name(l->kind));
	cJSON_AddStringToObject(o, "metric", l->metric);
	/* As the tables name it, and what baseline/candidate are. */
	cJSON_AddStringToObject(o, "label",
				an_line_label(buf, sizeof(buf), l));
	cJSON_AddStringToObject(o, "judged_as",
				an_line_judged(buf, sizeof(buf), l));
	cJSON_AddStringToObject(o, "unit", l->unit);
	add_num(o, "cpu", l->cpu >= 0 ? l->cpu : NAN);
	add_num(o, "baseline", l->base);
	add_num(o, "candidate", l->cand);
	cJSON_AddBoolToObject(o, "baseline_ge", l->base_ge);
	cJSON_AddBoolToObject(o, "candidate_ge", l->cand_ge);
	add_num(o, "measured_baseline", l->raw_base);
	add_num(o, "measured_candidate", l->raw_cand);
	add_num(o, "published_baseline", an_cmp_ref_base(c, l));
	add_num(o, "published_candidate", an_cmp_ref_cand(c, l));
	add_num(o, "delta", l->delta);
	add_num(o, "delta_pct", l->delta_pct);
	if (isnan(l->lo) || isnan(l->hi)) {
		cJSON_AddNullToObject(o, "interval");
	} else {
		/* Ends beyond what a latency can be are null (unbounded). */
		an_line_interval_ends(l, &lo, &hi);
		iv = cJSON_AddArrayToObject(o, "interval");
		cJSON_AddItemToArray(iv, num(lo));
		cJSON_AddItemToArray(iv, num(hi));
	}
	add_num(o, "p_worse", l->p_worse);
	add_num(o, "p_better", l->p_better);
	add_num(o, "p_adjusted", l->p_adj);
	add_num(o, "floor", l->floor);
	add_num(o, "could_see", l->see);
	add_num(o, "pass_bound", l->pass_hi);
	if (isnan(l->see))
		cJSON_AddNullToObject(o, "more_repetitions");
	else
		cJSON_AddNumberToObject(o, "more_repetitions", l->more_reps);
	add_num(o, "df", l->df > 0 ? l->df : NAN);
	add_num(o, "drift", l->drift);
	cJSON_AddBoolToObject(o, "deciding", l->deciding);
	/* A line the gate does not judge has no verdict of its own. */
	if (l->deciding)
		cJSON_AddStringToObject(o, "verdict",
					an_verdict_name(l->verdict));
	else
		cJSON_AddNullToObject(o, "verdict");
	cJSON_AddBoolToObject(o, "hint", l->hint);
	cJSON_AddStringToObject(o, "evidence", l->evidence);
	return o;
}

static cJSON *cmp_json(const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	const struct an_line *d = an_cmp_decisive(c);
	cJSON *o = cJSON_CreateObject(), *lines, *notes, *g, *ex;
	char buf[160];
	size_t i;

	cJSON_AddStringToObject(o, "baseline", c->base->name);
	cJSON_AddStringToObject(o, "candidate", c->cand->name);
	cJSON_AddStringToObject(o, "verdict", an_verdict_name(res->verdict));
	cJSON_AddStringToObject(o, "reason", res->reason);
	if (c->control[0])
		cJSON_AddStringToObject(o, "control", c->control);
	else
		cJSON_AddNullToObject(o, "control");
	cJSON_AddStringToObject(o, "counts_as",
				an_verdict_name(an_cmp_counts(c)));
	/* The deciding evidence, as the verdict tables print it. */
	add_num(o, "decisive", d ? res->decisive : NAN);
	if (d)
		cJSON_AddStringToObject(o, "measured",
					an_cmp_measured(buf, sizeof(buf), c));
	else
		cJSON_AddNullToObject(o, "measured");
	if (an_cmp_has_refs(c) &&
	    strcmp(an_cmp_published(buf, sizeof(buf), c), "-"))
		cJSON_AddStringToObject(o, "published", buf);
	else
		cJSON_AddNullToObject(o, "published");
	add_num(o, "seconds", an_cmp_seconds(c));
	g = cJSON_AddObjectToObject(o, "gate");
	cJSON_AddStringToObject(g, "metric", res->gate.metric);
	cJSON_AddNumberToObject(g, "alpha", res->gate.alpha);
	cJSON_AddNumberToObject(g, "min_increase_us",
				res->gate.min_increase_us);
	cJSON_AddNumberToObject(g, "min_increase_pct",
				res->gate.min_increase_pct);
	cJSON_AddNumberToObject(o, "baseline_repetitions", res->nbase);
	cJSON_AddNumberToObject(o, "candidate_repetitions", res->ncand);
	cJSON_AddBoolToObject(o, "drift_checked", res->drift_checked);
	cJSON_AddBoolToObject(o, "settled", res->settled);
	add_num(o, "line_level", res->family ? res->level : NAN);
	cJSON_AddNumberToObject(o, "family", res->family);
	cJSON_AddBoolToObject(o, "profile_used", res->profile_used);
	ex = cJSON_AddArrayToObject(o, "exceedance");
	for (i = 0; i < res->nexceed; i++) {
		const struct an_exceedance *e = &res->exceed[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "side", e->candidate ? "candidate" :
					"baseline");
		cJSON_AddNumberToObject(x, "cpu", e->cpu);
		cJSON_AddNumberToObject(x, "per_wakeup", e->p);
		add_num(x, "us", e->us);
		if (isnan(e->lo)) {
			cJSON_AddNullToObject(x, "interval");
		} else {
			cJSON *iv = cJSON_AddArrayToObject(x, "interval");

			cJSON_AddItemToArray(iv, num(e->lo));
			cJSON_AddItemToArray(iv, num(e->hi));
		}
		cJSON_AddBoolToObject(x, "measured", e->measured);
		cJSON_AddNumberToObject(x, "samples", e->samples);
		cJSON_AddNumberToObject(x, "max_us", e->max_us);
		if (e->why[0])
			cJSON_AddStringToObject(x, "not_estimable", e->why);
		else
			cJSON_AddNullToObject(x, "not_estimable");
		if (e->checked) {
			const struct an_tail_check *tc = &e->check;
			cJSON *ck = cJSON_AddObjectToObject(x, "checks");

			cJSON_AddNumberToObject(ck, "threshold_us",
						tc->threshold_us);
			cJSON_AddNumberToObject(ck, "exceedances",
						tc->exceedances);
			cJSON_AddNumberToObject(ck, "repetitions", tc->reps);
			add_num(ck, "independence_p", tc->disp_p);
			add_num(ck, "fit_p", tc->fit_p);
			cJSON_AddNumberToObject(ck, "fit_bins", tc->bins);
		} else {
			cJSON_AddNullToObject(x, "checks");
		}
		cJSON_AddItemToArray(ex, x);
	}
	notes = cJSON_AddArrayToObject(o, "notes");
	for (i = 0; i < res->nnotes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(res->notes[i]));
	timeline_json(o, c);
	lines = cJSON_AddArrayToObject(o, "lines");
	for (i = 0; i < res->nlines; i++)
		cJSON_AddItemToArray(lines, line_json(c, &res->lines[i]));
	return o;
}

/* The header's system facts; null for a run that did not record them. */
static cJSON *facts_json(const struct an_system *s)
{
	cJSON *o;

	if (!s->facts)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "machine", s->machine);
	cJSON_AddStringToObject(o, "topology", s->topology);
	cJSON_AddStringToObject(o, "clocksource", s->clocksource);
	cJSON_AddStringToObject(o, "cpuidle", s->cpuidle);
	cJSON_AddStringToObject(o, "rt_throttle", s->rt_throttle);
	cJSON_AddStringToObject(o, "irqs", s->irqs);
	cJSON_AddStringToObject(o, "thp", s->thp);
	return o;
}

static cJSON *system_json(const struct an_system *s)
{
	cJSON *o = cJSON_CreateObject();
	char buf[400];

	cJSON_AddStringToObject(o, "label", s->label);
	cJSON_AddStringToObject(o, "run_id", s->run_id);
	cJSON_AddStringToObject(o, "host", s->host);
	cJSON_AddStringToObject(o, "cpu_model", s->cpu_model);
	add_num(o, "cpus", s->cpus ? s->cpus : NAN);
	cJSON_AddStringToObject(o, "kernel", an_system_kernel(s, buf,
							       sizeof(buf)));
	cJSON_AddStringToObject(o, "preemption",
				an_system_preempt(s, buf, sizeof(buf)));
	cJSON_AddStringToObject(o, "cmdline", s->cmdline);
	cJSON_AddStringToObject(o, "cyclictest", s->cyclictest);
	cJSON_AddStringToObject(o, "stress_ng", s->stress_ng);
	cJSON_AddStringToObject(o, "suite_sha256", s->suite_sha256);
	cJSON_AddStringToObject(o, "clock", s->clock);
	cJSON_AddStringToObject(o, "clock_statement", s->clock_statement);
	cJSON_AddItemToObject(o, "facts", facts_json(s));
	if (s->isolation[0])
		cJSON_AddStringToObject(o, "isolation", s->isolation);
	else
		cJSON_AddNullToObject(o, "isolation");
	return o;
}

cJSON *an_report_json(const struct an_report *r)
{
	cJSON *o = cJSON_CreateObject(), *run, *g, *arr;
	char counts[240];
	size_t i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "schema", REPORT_SCHEMA);
	cJSON_AddStringToObject(o, "rtgate_version", RTGATE_VERSION);
	cJSON_AddStringToObject(o, "title", r->title);
	if (r->run_dir) {
		run = cJSON_AddObjectToObject(o, "run");
		cJSON_AddStringToObject(run, "dir", r->run_dir);
		cJSON_AddStringToObject(run, "run_id", r->run_id);
		cJSON_AddStringToObject(run, "status", r->status);
		cJSON_AddNumberToObject(run, "duration_scale",
					r->scale > 0 ? r->scale : 1);
	} else {
		cJSON_AddNullToObject(o, "run");
	}
	g = cJSON_AddObjectToObject(o, "gate");
	cJSON_AddStringToObject(g, "metric", r->gate.metric);
	cJSON_AddNumberToObject(g, "alpha", r->gate.alpha);
	cJSON_AddNumberToObject(g, "min_increase_us", r->gate.min_increase_us);
	cJSON_AddNumberToObject(g, "min_increase_pct",
				r->gate.min_increase_pct);
	if (r->ncmps)
		cJSON_AddStringToObject(o, "verdict",
					an_verdict_name(r->worst));
	else
		cJSON_AddNullToObject(o, "verdict");
	cJSON_AddNumberToObject(o, "exit_code", r->exit_code);
	cJSON_AddStringToObject(o, "summary",
				an_report_counts(r, counts, sizeof(counts)));
	arr = cJSON_AddArrayToObject(o, "systems");
	for (i = 0; i < r->nsystems; i++)
		cJSON_AddItemToArray(arr, system_json(&r->systems[i]));
	arr = cJSON_AddArrayToObject(o, "scenarios");
	for (i = 0; i < r->nsides; i++)
		cJSON_AddItemToArray(arr, side_json(r->sides[i]));
	arr = cJSON_AddArrayToObject(o, "comparisons");
	for (i = 0; i < r->ncmps; i++)
		cJSON_AddItemToArray(arr, cmp_json(&r->cmps[i]));
	cJSON_AddItemToObject(o, "root_causes", an_trace_json(r));
	cJSON_AddItemToObject(o, "rtla_aa", an_aa_json(r));
	return o;
}
