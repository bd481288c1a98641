// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text and Markdown reports, the verdict table, and writing reports into a
 * directory. The text report starts with cyclictest's own T: layout per
 * scenario (published lines beneath), then one comparison table each.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_report.h"
#include "analyze_trace.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"

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

const char *an_fmt_val(char *buf, size_t len, double v, bool ge)
{
	if (isnan(v))
		an_sfmt(buf, len, "-");
	else if (fabs(v) >= 100 || v == floor(v))
		an_sfmt(buf, len, "%s%.0f", ge ? ">=" : "", v);
	else
		an_sfmt(buf, len, "%s%.3g", ge ? ">=" : "", v);
	return buf;
}

const char *an_fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		an_sfmt(buf, len, "-");
	else if (p < 1e-12)
		an_sfmt(buf, len, "p<1e-12");
	else if (p < 0.001)
		an_sfmt(buf, len, "p=%.1e", p);
	else
		an_sfmt(buf, len, "p=%.3f", p);
	return buf;
}

static double ratio(const struct an_line *l)
{
	return fabs(l->worse) / l->floor;
}

bool an_line_shown(const struct an_result *res, size_t i, size_t ncpus)
{
	const struct an_line *l = &res->lines[i];
	size_t k;

	if (ncpus <= 4 || l->cpu < 0 || l->verdict == AN_REGRESSION ||
	    l->verdict == AN_IMPROVEMENT)
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

const char *an_fmt_floor(char *buf, size_t len, const struct an_gate *g)
{
	double q;

	if (strcmp(g->metric, "max") && strcmp(g->metric, "avg") &&
	    !an_metric_quantile(g->metric, &q))
		an_sfmt(buf, len, "%g%%", g->min_increase_pct);
	else
		an_sfmt(buf, len, "%g us and %g%%", g->min_increase_us,
			g->min_increase_pct);
	return buf;
}

const char *an_line_verdict(const struct an_line *l)
{
	if (!l->deciding && isnan(l->p_worse))
		return "-";
	return an_verdict_name(l->verdict);
}

static bool has_refs(const struct an_cmp *c)
{
	return c->base->ref || c->cand->ref;
}

/* ---- text ---- */

static void txt_tline(FILE *f, const struct an_cpu_summary *s)
{
	char tid[16] = "-", prio[8] = "-", act[16] = "-";

	if (s->tid)
		an_sfmt(tid, sizeof(tid), "%ld", s->tid);
	if (s->prio >= 0)
		an_sfmt(prio, sizeof(prio), "%d", s->prio);
	if (s->act_us >= 0)
		an_sfmt(act, sizeof(act), "%ld", s->act_us);
	fprintf(f, "T:%2d (%5s) P:%2s I:%ld C:%7llu Min:%7ld Act:%5s "
		"Avg:%5ld Max:%8ld\n", s->thread, tid, prio, s->interval_us,
		s->cycles, s->min_us, act, lround(s->avg_us), s->max_us);
}

static void txt_ref(FILE *f, const struct an_reference *ref)
{
	struct an_cpu_summary s;
	size_t i;

	fprintf(f, "published%s%s:\n", ref->source[0] ? ", " : "",
		ref->source);
	for (i = 0; i < ref->ncpus; i++) {
		const struct an_cpu *c = &ref->cpus[i];

		s = (struct an_cpu_summary){
			.thread = c->thread, .prio = c->prio,
			.interval_us = c->interval_us, .tid = c->tid,
			.act_us = c->act_us, .cycles = c->cycles,
			.min_us = c->min_us, .max_us = c->max_us,
			.avg_us = c->avg_us,
		};
		txt_tline(f, &s);
	}
	for (i = 0; i < ref->nvalues; i++)
		fprintf(f, "%s = %g\n", ref->value_names[i], ref->values[i]);
}

void an_report_tlines(FILE *f, const struct an_side *s)
{
	struct an_cpu_summary sum;
	size_t j, ncpus = s->nruns ? s->runs[0].ncpus : 0;

	for (j = 0; j < ncpus; j++) {
		an_side_summary(s, j, &sum);
		txt_tline(f, &sum);
	}
	if (s->ref)
		txt_ref(f, s->ref);
}

static void txt_side(FILE *f, const struct an_side *s)
{
	fprintf(f, "== %s (%zu repetition%s; %s)\n", s->name, s->nruns,
		s->nruns == 1 ? "" : "s", s->origin);
	if (s->status != AN_SIDE_OK)
		fprintf(f, "%s: %s\n", s->status == AN_SIDE_SKIPPED ?
			"SKIPPED" : "INVALID", s->reason);
	an_report_tlines(f, s);
	an_report_workloads(f, s);
	fputc('\n', f);
}

const char *an_line_cpu(char *buf, size_t len, const struct an_line *l)
{
	if (l->cpu < 0)
		an_sfmt(buf, len, "all");
	else
		an_sfmt(buf, len, "%d", l->cpu);
	return buf;
}

static const char *line_name(char *buf, size_t len, const struct an_line *l)
{
	if (strcmp(l->unit, "us"))
		an_sfmt(buf, len, "%s [%s]", l->metric, l->unit);
	else
		an_sfmt(buf, len, "%s", l->metric);
	return buf;
}

static const char *line_delta(char *buf, size_t len, const struct an_line *l)
{
	double d = isnan(l->raw_base) ? l->delta : l->raw_cand - l->raw_base;

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

	if (!isnan(l->raw_base))
		pct = l->raw_base ? 100 * (l->raw_cand - l->raw_base) /
				    l->raw_base : NAN;
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

/* Evidence, and the judged values when the table shows measured ones. */
static void line_evidence(FILE *f, const struct an_line *l)
{
	char b[32], c[32];

	if (!isnan(l->raw_base))
		fprintf(f, "equal counts %s vs %s; ",
			an_fmt_val(b, sizeof(b), l->base, l->base_ge),
			an_fmt_val(c, sizeof(c), l->cand, l->cand_ge));
	fputs(l->evidence, f);
}

static const char *line_p(char *buf, size_t len, const struct an_line *l)
{
	return an_fmt_p(buf, len, l->deciding ? l->p_adj :
			l->worse >= 0 ? l->p_worse : l->p_better);
}

/* The cells of one table row, shared by the text and Markdown tables. */
struct row {
	char name[112], cpu[8], base[24], bref[24], cand[24], cref[24];
	char delta[24], pct[24], p[24];
};

static void row_fill(const struct an_cmp *c, const struct an_line *l,
		     struct row *w)
{
	line_name(w->name, sizeof(w->name), l);
	an_line_cpu(w->cpu, sizeof(w->cpu), l);
	if (!isnan(l->raw_base)) {
		an_fmt_val(w->base, sizeof(w->base), l->raw_base, false);
		an_fmt_val(w->cand, sizeof(w->cand), l->raw_cand, false);
	} else {
		an_fmt_val(w->base, sizeof(w->base), l->base, l->base_ge);
		an_fmt_val(w->cand, sizeof(w->cand), l->cand, l->cand_ge);
	}
	an_fmt_val(w->bref, sizeof(w->bref), an_ref_value(c->base, l), false);
	an_fmt_val(w->cref, sizeof(w->cref), an_ref_value(c->cand, l), false);
	line_delta(w->delta, sizeof(w->delta), l);
	line_pct(w->pct, sizeof(w->pct), l);
	line_p(w->p, sizeof(w->p), l);
}

static size_t cmp_ncpus(const struct an_cmp *c)
{
	size_t nb = c->base->nruns ? c->base->runs[0].ncpus : 0;
	size_t nc = c->cand->nruns ? c->cand->runs[0].ncpus : 0;

	return nb < nc ? nb : nc;
}

/* "latency exceeded once per million wake-ups: CPU 1 412 (230..1900) -> ..." */
static void txt_exceedance(FILE *f, const struct an_result *res)
{
	size_t i, k;

	for (i = 0; i + 1 < res->nexceed; i += 2) {
		const struct an_exceedance *e[2] = { &res->exceed[i],
						     &res->exceed[i + 1] };
		char v[2][64];

		if (isnan(e[0]->us) && isnan(e[1]->us))
			continue;
		for (k = 0; k < 2; k++) {
			if (isnan(e[k]->us))
				snprintf(v[k], sizeof(v[k]), "-");
			else if (e[k]->measured || isnan(e[k]->lo))
				snprintf(v[k], sizeof(v[k]), "%.0f us%s",
					 e[k]->us, e[k]->measured ?
					 " (measured)" : "");
			else
				snprintf(v[k], sizeof(v[k]), "%.0f us "
					 "(%.0f..%.0f)", e[k]->us, e[k]->lo,
					 e[k]->hi);
		}
		fprintf(f, "exceeded once per %.0f wake-ups, CPU %d: %s -> %s "
			"(the tail law; docs/statistics.md)\n", 1 / e[0]->p,
			e[0]->cpu, v[0], v[1]);
	}
}

static void txt_cmp(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	bool refs = has_refs(c);
	char fl[48];
	struct row w;
	size_t i;

	fprintf(f, "== %s vs %s: %s (%zu + %zu repetitions; gate %s, alpha "
		"%g, floor %s%s)\n", c->cand->name, c->base->name,
		an_verdict_name(res->verdict), res->nbase, res->ncand,
		res->gate.metric, res->gate.alpha,
		an_fmt_floor(fl, sizeof(fl), &res->gate),
		res->drift_checked ? "; A/B/A drift checked" : "");
	if (res->nlines) {
		fprintf(f, "%-14s %3s %10s", "metric", "CPU", "baseline");
		if (refs)
			fprintf(f, " %9s", "published");
		fprintf(f, " %10s", "candidate");
		if (refs)
			fprintf(f, " %9s", "published");
		fprintf(f, " %9s %8s  %-12s %-8s %s\n", "delta", "delta %",
			"verdict", "p", "evidence");
	}
	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!an_line_shown(res, i, cmp_ncpus(c)))
			continue;
		row_fill(c, l, &w);
		fprintf(f, "%-14s %3s %10s", w.name, w.cpu, w.base);
		if (refs)
			fprintf(f, " %9s", w.bref);
		fprintf(f, " %10s", w.cand);
		if (refs)
			fprintf(f, " %9s", w.cref);
		fprintf(f, " %9s %8s  %-12s %-8s ", w.delta, w.pct,
			an_line_verdict(l), w.p);
		line_evidence(f, l);
		fprintf(f, "%s\n", l->deciding ? "" : " (not judged)");
	}
	fprintf(f, "verdict: %s: %s\n", an_verdict_name(res->verdict),
		res->reason);
	for (i = 0; i < res->nnotes; i++)
		fprintf(f, "note: %s\n", res->notes[i]);
	txt_exceedance(f, res);
	fputc('\n', f);
}

int an_report_txt(const struct an_report *r, FILE *f)
{
	char note[160];
	size_t i;

	fprintf(f, "rtgate %s report: %s\n", RTGATE_VERSION, r->title);
	if (r->status)
		fprintf(f, "run status: %s\n", r->status);
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "%s\n", an_report_scale_note(r, note,
							  sizeof(note)));
	fputc('\n', f);
	for (i = 0; i < r->nsides; i++)
		txt_side(f, r->sides[i]);
	for (i = 0; i < r->ncmps; i++)
		txt_cmp(f, &r->cmps[i]);
	an_trace_txt(r, f);
	an_report_table(r, f);
	return ferror(f) ? -EIO : 0;
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

/* The line the verdict table shows: the gate metric over all CPUs. */
static const struct an_line *headline(const struct an_result *res)
{
	const struct an_line *first = NULL;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!l->deciding)
			continue;
		if (l->cpu < 0 && l->kind != AN_LINE_TAIL)
			return l;
		if (!first)
			first = l;
	}
	return first;
}

/* "595 -> 1696 ns": measured (as in the tables) or published values. */
static void fmt_pair(char *buf, size_t len, double b, double c,
		     const char *unit)
{
	char x[24], y[24];

	if (isnan(b) && isnan(c)) {
		an_sfmt(buf, len, "-");
		return;
	}
	an_sfmt(buf, len, "%s -> %s%s%s", an_fmt_val(x, sizeof(x), b, false),
		an_fmt_val(y, sizeof(y), c, false), *unit ? " " : "", unit);
}

/*
 * The published value of a gate metric over all CPUs, from the side's
 * reference alone: shown even when the comparison could not run (a
 * scenario SKIPPED on this kernel still has the thread's numbers).
 */
static double ref_headline(const struct an_side *s, const char *metric,
			   const char **unit)
{
	struct an_line l = { .cpu = -1 };
	double q;

	if (!strcmp(metric, "max") || !strcmp(metric, "avg")) {
		l.kind = !strcmp(metric, "max") ? AN_LINE_MAX : AN_LINE_AVG;
		*unit = "us";
	} else if (strchr(metric, '.') && !an_metric_quantile(metric, &q)) {
		l.kind = AN_LINE_METRIC;
		an_sfmt(l.metric, sizeof(l.metric), "%s", metric);
	} else {
		return NAN;
	}
	return an_ref_value(s, &l);
}

static void table_values(const struct an_cmp *c, char *meas, char *publ,
			 size_t len)
{
	const struct an_line *l = headline(&c->res);
	const char *unit = l ? l->unit : "";
	double pb, pc;
	bool raw;

	if (l) {
		raw = !isnan(l->raw_base);
		fmt_pair(meas, len, raw ? l->raw_base : l->base,
			 raw ? l->raw_cand : l->cand, l->unit);
	} else {
		an_sfmt(meas, len, "-");
	}
	pb = ref_headline(c->base, c->res.gate.metric, &unit);
	pc = ref_headline(c->cand, c->res.gate.metric, &unit);
	fmt_pair(publ, len, pb, pc, unit);
}

/* Where the published numbers come from, once per source. */
static void table_sources(const struct an_report *r, FILE *f,
			  const char *prefix)
{
	size_t i, k;

	for (i = 0; i < r->nsides; i++) {
		const struct an_reference *ref = r->sides[i]->ref;

		if (!ref || !ref->source[0])
			continue;
		for (k = 0; k < i; k++)
			if (r->sides[k]->ref &&
			    !strcmp(r->sides[k]->ref->source, ref->source))
				break;
		if (k == i)
			fprintf(f, "%spublished: %s\n", prefix, ref->source);
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
		if (n == r->ncmps && !ctl)
			return an_verdict_name(order[i]);
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

void an_report_table(const struct an_report *r, FILE *f)
{
	char meas[64], publ[64], note[160], counts[200];
	bool refs = false;
	int w = 16;
	size_t i;

	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];

		refs |= has_refs(c);
		if ((int)strlen(c->cand->name) > w)
			w = strlen(c->cand->name);
		if ((int)strlen(c->base->name) > w)
			w = strlen(c->base->name);
	}
	fprintf(f, "%-*s %-*s %-13s ", w, "candidate", w, "baseline",
		"verdict");
	if (refs)
		fprintf(f, "%-24s %-24s ", "measured", "published");
	fprintf(f, "reason\n");
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];

		fprintf(f, "%-*s %-*s %-13s ", w, c->cand->name, w,
			c->base->name, an_verdict_name(c->res.verdict));
		if (refs) {
			table_values(c, meas, publ, sizeof(meas));
			fprintf(f, "%-24s %-24s ", meas, publ);
		}
		fprintf(f, "%s\n", c->res.reason);
	}
	if (refs) {
		fprintf(f, "measured, published: the gate metric over all CPUs, "
			"baseline -> candidate (max: the median of the "
			"repetitions' maxima)\n");
		table_sources(r, f, "");
	}
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "%s\n", an_report_scale_note(r, note,
							  sizeof(note)));
	fprintf(f, "rtgate: %zu comparison%s, %s (exit %d)%s\n", r->ncmps,
		r->ncmps == 1 ? "" : "s", r->ncmps ?
		verdict_counts(r, counts, sizeof(counts)) :
		"nothing to compare",
		r->exit_code, r->status && strcmp(r->status, "complete") ?
		"; the run is not complete" : "");
}

const char *an_report_scale_note(const struct an_report *r, char *buf,
				 size_t len)
{
	an_sfmt(buf, len, "scaled run: durations and loop counts x %g "
		"(--duration-scale); the suite's published settings are at "
		"x 1", r->scale);
	return buf;
}

/* ---- Markdown ---- */

/* Table cells must not break the pipe table. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

static void md_side(FILE *f, const struct an_side *s)
{
	size_t ncpus = s->nruns ? s->runs[0].ncpus : 0;

	fprintf(f, "### %s\n\n%zu repetition%s from `%s`", s->name, s->nruns,
		s->nruns == 1 ? "" : "s", s->origin);
	if (s->status != AN_SIDE_OK)
		fprintf(f, " — **%s**: %s", s->status == AN_SIDE_SKIPPED ?
			"SKIPPED" : "INVALID", s->reason);
	fprintf(f, "\n\n");
	if (ncpus || s->ref || s->nruns) {
		fprintf(f, "```\n");
		an_report_tlines(f, s);
		an_report_workloads(f, s);
		fprintf(f, "```\n\n");
	}
}

static void md_cmp(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	bool refs = has_refs(c);
	struct row w;
	size_t i;

	fprintf(f, "### %s vs %s: **%s**\n\n", c->cand->name, c->base->name,
		an_verdict_name(res->verdict));
	md_cell(f, res->reason);
	fprintf(f, "\n\n");
	if (res->nlines) {
		fprintf(f, "| metric | CPU | baseline |%s candidate |%s delta "
			"| delta %% | verdict | p | evidence |\n",
			refs ? " published |" : "", refs ? " published |" : "");
		fprintf(f, "|---|---|--:|%s--:|%s--:|--:|---|---|---|\n",
			refs ? "--:|" : "", refs ? "--:|" : "");
	}
	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!an_line_shown(res, i, cmp_ncpus(c)))
			continue;
		row_fill(c, l, &w);
		fprintf(f, "| %s | %s | %s |", w.name, w.cpu, w.base);
		if (refs)
			fprintf(f, " %s |", w.bref);
		fprintf(f, " %s |", w.cand);
		if (refs)
			fprintf(f, " %s |", w.cref);
		fprintf(f, " %s | %s | %s | %s | ", w.delta, w.pct,
			an_line_verdict(l), w.p);
		if (!isnan(l->raw_base))
			fprintf(f, "equal counts %s vs %s; ",
				an_fmt_val(w.bref, sizeof(w.bref), l->base,
					   l->base_ge),
				an_fmt_val(w.cref, sizeof(w.cref), l->cand,
					   l->cand_ge));
		md_cell(f, l->evidence);
		fprintf(f, "%s |\n", l->deciding ? "" : " (not judged)");
	}
	for (i = 0; i < res->nnotes; i++) {
		fprintf(f, "%s- ", i ? "" : "\n");
		md_cell(f, res->notes[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

int an_report_md(const struct an_report *r, FILE *f)
{
	char fl[160], meas[64], publ[64];
	bool refs = false;
	size_t i;

	fprintf(f, "# rtgate report: %s\n\n", r->title);
	if (r->status)
		fprintf(f, "Run status: **%s**. ", r->status);
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "**%s**. ", an_report_scale_note(r, fl,
							     sizeof(fl)));
	fprintf(f, "Gate: %s, alpha %g, floor %s. Overall: **%s** (exit "
		"%d).\n\n", r->gate.metric, r->gate.alpha,
		an_fmt_floor(fl, sizeof(fl), &r->gate),
		r->ncmps ? an_verdict_name(r->worst) : "nothing to compare",
		r->exit_code);
	for (i = 0; i < r->ncmps; i++)
		refs |= has_refs(&r->cmps[i]);
	fprintf(f, "| candidate | baseline | verdict |%s reason |\n"
		"|---|---|---|%s---|\n", refs ? " measured | published |" : "",
		refs ? "---|---|" : "");
	for (i = 0; i < r->ncmps; i++) {
		fprintf(f, "| %s | %s | **%s** | ", r->cmps[i].cand->name,
			r->cmps[i].base->name,
			an_verdict_name(r->cmps[i].res.verdict));
		if (refs) {
			table_values(&r->cmps[i], meas, publ, sizeof(meas));
			fprintf(f, "%s | %s | ", meas, publ);
		}
		md_cell(f, r->cmps[i].res.reason);
		fprintf(f, " |\n");
	}
	if (refs) {
		fputc('\n', f);
		table_sources(r, f, "- ");
	}
	fprintf(f, "\n## Comparisons\n\n");
	for (i = 0; i < r->ncmps; i++)
		md_cmp(f, &r->cmps[i]);
	fprintf(f, "## Scenarios\n\n");
	for (i = 0; i < r->nsides; i++)
		md_side(f, r->sides[i]);
	return ferror(f) ? -EIO : 0;
}

/* ---- writing ---- */

static int write_stream(const char *dir, const char *name,
			int (*fn)(const struct an_report *, FILE *),
			const struct an_report *r)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	ret = fn(r, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	an_sfmt(path, sizeof(path), "%s/%s", dir, name);
	if (!ret)
		ret = fsio_write_atomic(path, buf, len);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	free(buf);
	return ret;
}

static int write_json(const char *dir, const struct an_report *r)
{
	char path[PATH_MAX];
	cJSON *json = an_report_json(r);
	int ret;

	if (!json)
		return -ENOMEM;
	an_sfmt(path, sizeof(path), "%s/report.json", dir);
	ret = json_write_file(path, json);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	cJSON_Delete(json);
	return ret;
}

int an_report_write(const struct an_report *r, const char *dir,
		    unsigned int formats)
{
	int ret = fsio_mkdir_p(dir, 0755);

	if (ret) {
		pr_err("%s: %s", dir, strerror(-ret));
		return ret;
	}
	if (!ret && (formats & AN_FMT_TXT))
		ret = write_stream(dir, "report.txt", an_report_txt, r);
	if (!ret && (formats & AN_FMT_MD))
		ret = write_stream(dir, "report.md", an_report_md, r);
	if (!ret && (formats & AN_FMT_JSON))
		ret = write_json(dir, r);
	if (!ret && (formats & AN_FMT_JUNIT))
		ret = write_stream(dir, "junit.xml", an_report_junit, r);
	if (!ret && (formats & AN_FMT_HTML))
		ret = write_stream(dir, "report.html", an_report_html, r);
	return ret;
}
