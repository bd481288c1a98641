// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every report format says alike (report.h): the numbers as
 * text, the deciding evidence in one wording, the rows of a comparison
 * table, what a comparison counts as, the published sources. The writers
 * (analyze_report_txt.c, _md.c, _json.c, _junit.c, _html.c) call down
 * into this file; analyze_report_write.c writes them all into a run.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "exitcode.h"
#include "rtpaths.h"
#include "textfmt.h"

void an_side_summary(const struct an_side *s, size_t j,
		     struct an_cpu_summary *out)
{
	double sum = 0;
	size_t r;

	memset(out, 0, sizeof(*out));
	out->thread = j;
	out->prio = -1;
	out->act_us = -1;
	for (r = 0; r < s->nruns; r++) {
		const struct an_cpu *c;

		if (j >= s->runs[r].ncpus)
			continue;
		c = &s->runs[r].cpus[j];
		if (!out->cycles || c->min_us < out->min_us)
			out->min_us = c->min_us;
		if (c->max_us > out->max_us)
			out->max_us = c->max_us;
		out->cycles += c->cycles;
		out->overflows += c->overflows;
		sum += c->avg_us * c->cycles;
		out->prio = c->prio;
		out->interval_us = c->interval_us;
		out->tid = c->tid;
		out->act_us = c->act_us;
	}
	out->avg_us = out->cycles ? sum / out->cycles : 0;
}

void an_ref_summary(const struct an_cpu *c, struct an_cpu_summary *out)
{
	*out = (struct an_cpu_summary){
		.thread = c->thread, .prio = c->prio,
		.interval_us = c->interval_us, .tid = c->tid,
		.act_us = c->act_us, .cycles = c->cycles,
		.min_us = c->min_us, .max_us = c->max_us,
		.avg_us = c->avg_us,
	};
}

const char *an_fmt_val(char *buf, size_t len, double v, bool ge)
{
	if (isnan(v))
		rtpaths_fmt(buf, len, "-");
	else if (fabs(v) >= 100 || v == floor(v))
		rtpaths_fmt(buf, len, "%s%.0f", ge ? ">=" : "", v);
	else
		rtpaths_fmt(buf, len, "%s%.3g", ge ? ">=" : "", v);
	return buf;
}

const char *an_fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		rtpaths_fmt(buf, len, "-");
	else if (p < 1e-12)
		rtpaths_fmt(buf, len, "p<1e-12");
	else if (p < 0.001)
		rtpaths_fmt(buf, len, "p=%.1e", p);
	else
		rtpaths_fmt(buf, len, "p=%.3f", p);
	return buf;
}

static double ratio(const struct an_line *l)
{
	return fabs(l->worse) / l->floor;
}

const struct an_line *an_cmp_decisive(const struct an_cmp *c)
{
	const struct an_result *res = &c->res;

	if (res->decisive < 0 || (size_t)res->decisive >= res->nlines)
		return NULL;
	return &res->lines[res->decisive];
}

bool an_line_shown(const struct an_result *res, size_t i, size_t ncpus)
{
	const struct an_line *l = &res->lines[i];
	size_t k;

	if (ncpus <= 4 || l->cpu < 0 || l->verdict == AN_REGRESSION ||
	    l->verdict == AN_IMPROVEMENT || (int)i == res->decisive)
		return true;
	for (k = 0; k < res->nlines; k++) {
		const struct an_line *o = &res->lines[k];

		if (k != i && o->kind == l->kind && o->cpu >= 0 &&
		    !strcmp(o->metric, l->metric) &&
		    (ratio(o) > ratio(l) || (ratio(o) == ratio(l) && k < i)))
			return false;
	}
	return true;
}

double an_ref_value(const struct an_side *s, const struct an_line *l)
{
	const struct an_reference *ref = s->ref;
	double v = NAN;
	size_t i;

	if (!ref)
		return NAN;
	if (l->kind == AN_LINE_METRIC) {
		for (i = 0; i < ref->nvalues; i++)
			if (!strcmp(ref->value_names[i], l->metric))
				return ref->values[i];
		return NAN;
	}
	if (l->kind != AN_LINE_MAX && l->kind != AN_LINE_AVG)
		return NAN;
	for (i = 0; i < ref->ncpus; i++) {
		double x = l->kind == AN_LINE_MAX ? ref->cpus[i].max_us :
						    ref->cpus[i].avg_us;

		if (l->cpu >= 0 && (size_t)l->cpu != i)
			continue;
		if (l->cpu >= 0)
			return x;
		v = isnan(v) ? x : l->kind == AN_LINE_MAX ? fmax(v, x) : v + x;
	}
	if (l->kind == AN_LINE_AVG && l->cpu < 0 && ref->ncpus)
		v /= ref->ncpus;
	return v;
}

/*
 * A reference is a publication's numbers for one scenario: it applies to
 * a comparison whose candidate is that scenario (then the baseline's own
 * reference, if any, stands beside it), or whose baseline is the same
 * scenario on another kernel (compare RUN_A RUN_B). A hackbench scenario
 * compared with an idle that has published numbers gets none.
 */
bool an_cmp_has_refs(const struct an_cmp *c)
{
	return c->cand->ref || (c->base_ref_applies && c->base->ref);
}

double an_cmp_ref_base(const struct an_cmp *c, const struct an_line *l)
{
	return an_cmp_has_refs(c) ? an_ref_value(c->base, l) : NAN;
}

double an_cmp_ref_cand(const struct an_cmp *c, const struct an_line *l)
{
	return an_ref_value(c->cand, l);
}

const char *an_fmt_floor(char *buf, size_t len, const struct an_gate *g)
{
	if (an_metric_kind(g->metric) == AN_METRIC_WORKLOAD)
		rtpaths_fmt(buf, len, "%g%%", g->min_increase_pct);
	else
		rtpaths_fmt(buf, len, "%g us and %g%%", g->min_increase_us,
			    g->min_increase_pct);
	return buf;
}

const char *an_line_verdict(const struct an_line *l)
{
	if (!l->deciding)
		return "not judged";
	return an_verdict_name(l->verdict);
}

const char *an_line_cpu(char *buf, size_t len, const struct an_line *l)
{
	if (l->cpu < 0)
		rtpaths_fmt(buf, len, "all");
	else
		rtpaths_fmt(buf, len, "%d", l->cpu);
	return buf;
}

const char *an_line_label(char *buf, size_t len, const struct an_line *l)
{
	if (l->cpu >= 0)
		rtpaths_fmt(buf, len, "CPU %d %s", l->cpu, an_line_name(l));
	else if (l->kind == AN_LINE_METRIC)
		rtpaths_fmt(buf, len, "%s", l->metric);
	else
		rtpaths_fmt(buf, len, "all CPUs %s", an_line_name(l));
	return buf;
}

bool an_line_raw(const struct an_line *l)
{
	return !isnan(l->raw_base);
}

/* "595 -> 1696 ns" */
static const char *fmt_pair(char *buf, size_t len, double b, bool bge,
			    double c, bool cge, const char *unit)
{
	char x[24], y[24];

	if (isnan(b) && isnan(c))
		rtpaths_fmt(buf, len, "-");
	else
		rtpaths_fmt(buf, len, "%s -> %s%s%s",
			    an_fmt_val(x, sizeof(x), b, bge),
			    an_fmt_val(y, sizeof(y), c, cge), *unit ? " " : "",
			    unit);
	return buf;
}

const char *an_line_values(char *buf, size_t len, const struct an_line *l)
{
	if (an_line_raw(l))
		return fmt_pair(buf, len, l->raw_base, false, l->raw_cand,
				false, l->unit);
	return fmt_pair(buf, len, l->base, l->base_ge, l->cand, l->cand_ge,
			l->unit);
}

const char *an_line_adjusted(char *buf, size_t len, const struct an_line *l)
{
	char pair[64];

	buf[0] = '\0';
	if (an_line_raw(l))
		rtpaths_fmt(buf, len, "judged on the typical max, the "
			    "geometric mean over %s of the maxima at equal "
			    "sample counts: %s", l->cpu < 0 ? "CPUs" :
			    "repetitions", fmt_pair(pair, sizeof(pair), l->base,
			    l->base_ge, l->cand, l->cand_ge, l->unit));
	return buf;
}

const char *an_cmp_measured(char *buf, size_t len, const struct an_cmp *c)
{
	const struct an_line *l = an_cmp_decisive(c);
	char name[112], pair[64];

	if (!l)
		rtpaths_fmt(buf, len, "-");
	else
		rtpaths_fmt(buf, len, "%s %s", an_line_label(name, sizeof(name),
			    l), an_line_values(pair, sizeof(pair), l));
	return buf;
}

/*
 * The published value of a gate metric over all CPUs, from a side's
 * reference alone: shown even when the comparison could not run (a
 * scenario SKIPPED on this kernel still has the thread's numbers).
 */
static double ref_headline(const struct an_side *s, const char *metric,
			   const char **unit)
{
	struct an_line l = { .cpu = -1 };

	if (!strcmp(metric, "max") || !strcmp(metric, "avg")) {
		l.kind = !strcmp(metric, "max") ? AN_LINE_MAX : AN_LINE_AVG;
		*unit = "us";
	} else if (an_metric_kind(metric) == AN_METRIC_WORKLOAD) {
		l.kind = AN_LINE_METRIC;
		rtpaths_fmt(l.metric, sizeof(l.metric), "%s", metric);
	} else {
		return NAN;
	}
	return an_ref_value(s, &l);
}

/* The unit of a workload metric, from the lines or the runs' values. */
static const char *metric_unit(const struct an_cmp *c, const char *metric)
{
	const struct an_side *s[2] = { c->cand, c->base };
	size_t i, k, r, m;

	for (i = 0; i < c->res.nlines; i++)
		if (!strcmp(c->res.lines[i].metric, metric))
			return c->res.lines[i].unit;
	for (k = 0; k < 2; k++)
		for (r = 0; r < s[k]->nruns; r++)
			for (m = 0; m < s[k]->runs[r].nmetrics; m++)
				if (!strcmp(s[k]->runs[r].metrics[m].name,
					    metric))
					return s[k]->runs[r].metrics[m].unit;
	return "";
}

const char *an_cmp_published(char *buf, size_t len, const struct an_cmp *c)
{
	const char *metric = c->res.gate.metric, *unit = NULL;
	double pb, pc;
	char pair[64];

	if (!an_cmp_has_refs(c)) {
		rtpaths_fmt(buf, len, "-");
		return buf;
	}
	pb = ref_headline(c->base, metric, &unit);
	pc = ref_headline(c->cand, metric, &unit);
	if (!unit)
		unit = metric_unit(c, metric);
	if (isnan(pb) && isnan(pc))
		rtpaths_fmt(buf, len, "-");
	else
		rtpaths_fmt(buf, len, "%s %s", strchr(metric, '.') ? "" :
			    metric, fmt_pair(pair, sizeof(pair), pb, false, pc,
			    false, unit));
	/* A workload metric's name is long: the pair alone. */
	if (buf[0] == ' ')
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/* One repetition's seconds: as timed, else its samples x interval. */
static double run_seconds(const struct an_run *run)
{
	double s = 0;
	size_t j;

	if (run->seconds > 0)
		return run->seconds;
	for (j = 0; j < run->ncpus; j++)
		s = fmax(s, run->cpus[j].cycles *
			 (double)run->cpus[j].interval_us / 1e6);
	return s;
}

double an_cmp_seconds(const struct an_cmp *c)
{
	double s = 0;
	size_t r;

	for (r = 0; r < c->base->nruns; r++)
		s += run_seconds(&c->base->runs[r]);
	for (r = 0; r < c->cand->nruns; r++)
		s += run_seconds(&c->cand->runs[r]);
	return s;
}

/* ---- layout helpers ---- */

int an_term_width(FILE *f)
{
	return text_columns(fileno(f), 100);
}

void an_wrap(FILE *f, const char *text, int indent, int width)
{
	text_wrap(f, text, indent, width);
}

static const char *line_name(char *buf, size_t len, const struct an_line *l)
{
	if (strcmp(l->unit, "us"))
		rtpaths_fmt(buf, len, "%s [%s]", an_line_name(l), l->unit);
	else
		rtpaths_fmt(buf, len, "%s", an_line_name(l));
	return buf;
}

static const char *line_delta(char *buf, size_t len, const struct an_line *l)
{
	double d = an_line_raw(l) ? l->raw_cand - l->raw_base : l->delta;

	if (isnan(d))
		snprintf(buf, len, "-");
	else if (fabs(d) >= 100 || d == floor(d))
		snprintf(buf, len, "%+.0f", d);
	else
		snprintf(buf, len, "%+.3g", d);
	return buf;
}

static const char *line_pct(char *buf, size_t len, const struct an_line *l)
{
	double pct = l->delta_pct;

	if (an_line_raw(l))
		pct = l->raw_base ? 100 * (l->raw_cand - l->raw_base) /
				    l->raw_base : NAN;
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

/* The evidence of a line, the judged values first when they differ. */
static const char *line_evidence(char *buf, size_t len,
				 const struct an_line *l)
{
	char adj[192];

	an_line_adjusted(adj, sizeof(adj), l);
	rtpaths_fmt(buf, len, "%s%s%s", adj, adj[0] ? "; " : "", l->evidence);
	return buf;
}

static const char *line_p(char *buf, size_t len, const struct an_line *l)
{
	return an_fmt_p(buf, len, l->deciding ? l->p_adj :
			l->worse >= 0 ? l->p_worse : l->p_better);
}

static void row_fill(const struct an_cmp *c, const struct an_line *l,
		     struct an_row *w)
{
	line_name(w->name, sizeof(w->name), l);
	an_line_cpu(w->cpu, sizeof(w->cpu), l);
	if (an_line_raw(l)) {
		an_fmt_val(w->base, sizeof(w->base), l->raw_base, false);
		an_fmt_val(w->cand, sizeof(w->cand), l->raw_cand, false);
	} else {
		an_fmt_val(w->base, sizeof(w->base), l->base, l->base_ge);
		an_fmt_val(w->cand, sizeof(w->cand), l->cand, l->cand_ge);
	}
	an_fmt_val(w->bref, sizeof(w->bref), an_cmp_ref_base(c, l), false);
	an_fmt_val(w->cref, sizeof(w->cref), an_cmp_ref_cand(c, l), false);
	line_delta(w->delta, sizeof(w->delta), l);
	line_pct(w->pct, sizeof(w->pct), l);
	line_p(w->p, sizeof(w->p), l);
	line_evidence(w->evidence, sizeof(w->evidence), l);
}

size_t an_cmp_ncpus(const struct an_cmp *c)
{
	size_t nb = c->base->nruns ? c->base->runs[0].ncpus : 0;
	size_t nc = c->cand->nruns ? c->cand->runs[0].ncpus : 0;

	return nb < nc ? nb : nc;
}

const struct an_line *an_row_next(const struct an_cmp *c, size_t *i,
				  struct an_row *w)
{
	const struct an_result *res = &c->res;

	for (; *i < res->nlines; (*i)++) {
		if (!an_line_shown(res, *i, an_cmp_ncpus(c)))
			continue;
		row_fill(c, &res->lines[*i], w);
		return &res->lines[*i];
	}
	return NULL;
}

void an_row_values(FILE *f, const struct an_row *w, bool refs,
		   const char *ref_cell, const char *cand_cell)
{
	if (refs)
		fprintf(f, ref_cell, w->bref);
	fprintf(f, cand_cell, w->cand);
	if (refs)
		fprintf(f, ref_cell, w->cref);
}

static bool cmp_has_kind(const struct an_cmp *c, enum an_line_kind kind)
{
	size_t i;

	for (i = 0; i < c->res.nlines; i++)
		if (c->res.lines[i].kind == kind)
			return true;
	return false;
}

/*
 * What the rows of a comparison table are, where a name alone would
 * not say it: a max row shows the largest wake-up measured and is judged
 * on the typical max; a max/law row is the tail law's (docs/statistics.md).
 */
const char *an_cmp_legend(const struct an_cmp *c, char *buf, size_t len)
{
	bool mx = cmp_has_kind(c, AN_LINE_MAX);
	bool law = cmp_has_kind(c, AN_LINE_EXCEED);
	bool spike = cmp_has_kind(c, AN_LINE_SPIKE);

	rtpaths_fmt(buf, len, "*: the line the verdict rests on%s%s%s", mx ?
		    "; max: the largest wake-up measured (the T: lines' Max), "
		    "its p and verdict those of the typical max (the geometric "
		    "mean of the maxima at equal sample counts) that its "
		    "evidence names" : "", law ? "; max/law: the candidate's "
		    "maximum at equal sample counts against the baseline's "
		    "tail law, whose median is the baseline column (the "
		    "evidence names the law)" : "", spike ? "; spike: the "
		    "candidate's largest wake-up against the baseline's law "
		    "and this machine's noise profile (the evidence names its "
		    "CPU and repetition)" : "");
	return buf;
}

const char *an_report_measured_note(const struct an_report *r)
{
	size_t i;

	for (i = 0; i < r->ncmps; i++) {
		const struct an_line *d = an_cmp_decisive(&r->cmps[i]);

		if (d && an_line_raw(d))
			return " (max: the largest wake-up measured; the "
			       "reason says what was judged)";
	}
	return "";
}

enum an_verdict an_cmp_counts(const struct an_cmp *c)
{
	/* Beside a control, shown and not judged: only unusable data counts. */
	if (!strcmp(c->control, "shown"))
		return c->res.verdict == AN_SKIPPED ||
		       c->res.verdict == AN_INVALID ? c->res.verdict :
						      AN_NO_CHANGE;
	if (strcmp(c->control, "positive"))
		return c->res.verdict;
	switch (c->res.verdict) {
	case AN_REGRESSION:
		return AN_NO_CHANGE;
	case AN_SKIPPED:
	case AN_INVALID:
		return c->res.verdict;
	default:
		return AN_INCONCLUSIVE;
	}
}

static void prefix_reason(struct an_result *res, const char *prefix)
{
	char old[sizeof(res->reason)];

	snprintf(old, sizeof(old), "%s", res->reason);
	snprintf(res->reason, sizeof(res->reason), "%s%s", prefix, old);
}

void an_cmp_apply_control(struct an_cmp *c)
{
	enum an_verdict v = c->res.verdict;

	if (!strcmp(c->control, "positive")) {
		if (v == AN_REGRESSION)
			prefix_reason(&c->res, "positive control, flagged as "
				      "it must be (passes): ");
		else if (v != AN_SKIPPED && v != AN_INVALID)
			prefix_reason(&c->res, "positive control NOT "
				      "flagged: this machine's noise hides a "
				      "known latency, so no verdict of this run "
				      "can be trusted: ");
	} else if (!strcmp(c->control, "shown") && v != AN_SKIPPED &&
		   v != AN_INVALID) {
		prefix_reason(&c->res, "shown beside the positive control, not "
			      "judged (its spinner delays the measuring "
			      "thread, not the timer IRQ; under TCG the "
			      "host's load moves both): ");
	} else if (!strcmp(c->control, "negative") && v == AN_REGRESSION) {
		prefix_reason(&c->res, "negative control flagged: the "
			      "workload itself disturbs, not what it "
			      "tests: ");
	}
}

void an_report_finish(struct an_report *r, bool incomplete)
{
	bool ran = false;
	size_t i;

	r->worst = AN_NO_CHANGE;
	for (i = 0; i < r->ncmps; i++) {
		enum an_verdict v = an_cmp_counts(&r->cmps[i]);

		an_series_note(&r->cmps[i]);
		if (v == AN_SKIPPED)
			continue;
		if (!ran || v > r->worst)
			r->worst = v;
		ran = true;
	}
	r->exit_code = incomplete ? EXITCODE_INCOMPLETE :
				    an_verdict_exit(r->worst);
	/*
	 * Every comparison SKIPPED: nothing was measured, and a gate that
	 * measured nothing has not passed (docs/exit-codes.md).
	 */
	if (!ran && r->ncmps) {
		r->worst = AN_SKIPPED;
		if (!incomplete)
			r->exit_code = EXITCODE_INCONCLUSIVE;
	}
	/*
	 * A suite without comparisons (a kernel-against-kernel suite, run
	 * alone) whose every scenario was SKIPPED measured nothing either:
	 * not a completed run to build on.
	 */
	if (!r->ncmps) {
		for (i = 0; i < r->nsides; i++)
			ran |= r->sides[i]->nruns > 0;
		if (!ran && r->nsides) {
			r->worst = AN_SKIPPED;
			if (!incomplete)
				r->exit_code = EXITCODE_INCONCLUSIVE;
		}
	}
}

/* Where the published numbers come from: once per source, naming the
 * scenarios whose comparisons show them. */
void an_report_sources(const struct an_report *r, FILE *f,
		       const char *prefix)
{
	const struct an_side *with[64];
	size_t i, k, m, n = 0;
	bool done[64] = { false };

	for (i = 0; i < r->ncmps && n < 64; i++) {
		const struct an_cmp *c = &r->cmps[i];
		const struct an_side *s[2] = { c->base, c->cand };

		if (!an_cmp_has_refs(c))
			continue;
		for (k = 0; k < 2 && n < 64; k++) {
			if (!s[k]->ref || !s[k]->ref->source[0])
				continue;
			for (m = 0; m < n && with[m] != s[k]; m++)
				;
			if (m == n)
				with[n++] = s[k];
		}
	}
	for (i = 0; i < n; i++) {
		const char *src = with[i]->ref->source;

		if (done[i])
			continue;
		fprintf(f, "%spublished (%s", prefix, with[i]->name);
		for (k = i + 1; k < n; k++)
			if (!done[k] && !strcmp(with[k]->ref->source, src)) {
				fprintf(f, ", %s", with[k]->name);
				done[k] = true;
			}
		fprintf(f, "): %s\n", src);
	}
}

/*
 * "REGRESSION" when all agree, else the count of each, worst first:
 * "2 REGRESSION (one the positive control), 1 SKIPPED".
 */
static const char *verdict_counts(const struct an_report *r, char *buf,
				  size_t len)
{
	static const enum an_verdict order[] = {
		AN_REGRESSION, AN_INVALID, AN_INCONCLUSIVE, AN_IMPROVEMENT,
		AN_NO_CHANGE, AN_SKIPPED,
	};
	const char *kind = NULL;
	size_t i, k, used = 0, n, ctl;

	buf[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		for (k = n = ctl = 0; k < r->ncmps; k++) {
			if (r->cmps[k].res.verdict != order[i])
				continue;
			n++;
			if (r->cmps[k].control[0]) {
				ctl++;
				kind = r->cmps[k].control;
			}
		}
		if (n == r->ncmps && !ctl) {
			rtpaths_fmt(buf, len, "%s", an_verdict_name(order[i]));
			return buf;
		}
		if (!n || used >= len)
			continue;
		used += snprintf(buf + used, len - used, "%s%zu %s", used ?
				 ", " : "", n, an_verdict_name(order[i]));
		if (ctl == 1 && used < len && !strcmp(kind, "shown"))
			used += snprintf(buf + used, len - used, " (one shown "
					 "beside a control, not judged)");
		else if (ctl == 1 && used < len)
			used += snprintf(buf + used, len - used, " (one the %s "
					 "control)", kind);
		else if (ctl && used < len)
			used += snprintf(buf + used, len - used, " (%zu of "
					 "them controls)", ctl);
	}
	return buf;
}

const char *an_report_counts(const struct an_report *r, char *buf,
			     size_t len)
{
	char counts[200];

	rtpaths_fmt(buf, len, "%zu comparison%s, %s%s", r->ncmps, r->ncmps == 1
		    ? "" : "s", r->ncmps ? verdict_counts(r, counts,
		    sizeof(counts)) : r->worst == AN_SKIPPED ? "the suite "
		    "declares none, and every scenario was SKIPPED: nothing "
		    "was measured" : "the suite declares none: nothing was "
		    "judged, exit 0 says only that the run completed", r->ncmps
		    && r->worst == AN_SKIPPED ? ": nothing was measured" : "");
	return buf;
}

const char *an_report_scale_note(const struct an_report *r, char *buf,
				 size_t len)
{
	rtpaths_fmt(buf, len, "scaled run: durations and loop counts x %g "
		    "(--duration-scale); the suite's published settings are at "
		    "x 1", r->scale);
	return buf;
}

