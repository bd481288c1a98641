// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.txt and the verdict table on the terminal. The text report starts
 * with cyclictest's own T: layout per scenario (published lines beneath),
 * then one comparison table each.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "rtpaths.h"
#include "textfmt.h"

/* ---- text ---- */

static void txt_tline(FILE *f, const struct an_cpu_summary *s)
{
	char tid[16] = "-", prio[8] = "-", act[16] = "-";

	if (s->tid)
		rtpaths_fmt(tid, sizeof(tid), "%ld", s->tid);
	if (s->prio >= 0)
		rtpaths_fmt(prio, sizeof(prio), "%d", s->prio);
	if (s->act_us >= 0)
		rtpaths_fmt(act, sizeof(act), "%ld", s->act_us);
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
		an_ref_summary(&ref->cpus[i], &s);
		txt_tline(f, &s);
	}
	for (i = 0; i < ref->nvalues; i++)
		fprintf(f, "%s = %g\n", ref->value_names[i], ref->values[i]);
}

/*
 * The measured maximum of every repetition per CPU: the T: line's Max is
 * the largest of them, the comparison's max lines their median.
 */
static void txt_rep_maxima(FILE *f, const struct an_side *s, size_t ncpus)
{
	size_t j, r;

	if (s->nruns < 2 || !ncpus)
		return;
	fprintf(f, "measured maxima per repetition (us):");
	for (j = 0; j < ncpus; j++) {
		fprintf(f, "%s CPU %zu:", j ? ";" : "", j);
		for (r = 0; r < s->nruns; r++)
			if (j < s->runs[r].ncpus)
				fprintf(f, " %ld", s->runs[r].cpus[j].max_us);
	}
	fputc('\n', f);
}

void an_report_tlines(FILE *f, const struct an_side *s)
{
	struct an_cpu_summary sum;
	size_t j, ncpus = s->nruns ? s->runs[0].ncpus : 0;

	for (j = 0; j < ncpus; j++) {
		an_side_summary(s, j, &sum);
		txt_tline(f, &sum);
	}
	txt_rep_maxima(f, s, ncpus);
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

/*
 * "exceeded once per 1000000 wake-ups, CPU 1: 412 us (230..1900) -> ...",
 * or why a side's tail cannot say: "not estimable from 59685 wake-ups:
 * the tail law would be taken 17 times beyond them (at most 10)".
 */
static void exceed_side(char *buf, size_t len, const struct an_exceedance *e)
{
	if (e->why[0])
		snprintf(buf, len, "not estimable from %.0f wake-ups: %s",
			 e->samples, e->why);
	else if (e->measured || isnan(e->lo))
		snprintf(buf, len, "%.0f us%s", e->us, e->measured ?
			 " (measured)" : "");
	else
		snprintf(buf, len, "%.0f us (%.0f..%.0f)", e->us, e->lo,
			 e->hi);
}

/*
 * The checks behind a tail law, each side's: "tail checks, baseline: 75
 * samples beyond 412 us in 5 repetitions; independence (dispersion)
 * p=0.43, Pareto fit (chi-square) p=0.61 over 7 bins".
 */
static void txt_tail_checks(FILE *f, const struct an_exceedance *const e[2],
			    int width)
{
	char buf[256], text[320];
	size_t k;

	for (k = 0; k < 2; k++) {
		if (!e[k]->checked)
			continue;
		an_tail_check_text(&e[k]->check, buf, sizeof(buf));
		rtpaths_fmt(text, sizeof(text), "tail checks, %s: %s",
			    e[k]->candidate ? "candidate" : "baseline", buf);
		an_wrap(f, text, 4, width);
	}
}

static void txt_exceedance(FILE *f, const struct an_result *res, int width)
{
	size_t i, k;

	for (i = 0; i + 1 < res->nexceed; i += 2) {
		const struct an_exceedance *e[2] = { &res->exceed[i],
						     &res->exceed[i + 1] };
		char v[2][256], how[96] = "the tail law", text[768];
		double n = fmin(e[0]->samples, e[1]->samples);

		if (e[0]->why[0] && !strcmp(e[0]->why, e[1]->why)) {
			rtpaths_fmt(text, sizeof(text), "exceeded once per "
				    "%.0f wake-ups, CPU %d: not estimable from "
				    "%.0f and %.0f wake-ups: %s "
				    "(docs/statistics.md)", 1 / e[0]->p,
				    e[0]->cpu, e[0]->samples, e[1]->samples,
				    e[0]->why);
			an_wrap(f, text, 0, width);
			txt_tail_checks(f, e, width);
			continue;
		}
		if (e[0]->why[0] && e[1]->why[0]) {
			rtpaths_fmt(text, sizeof(text), "exceeded once per "
				    "%.0f wake-ups, CPU %d: not estimable; the "
				    "baseline from %.0f wake-ups: %s; the "
				    "candidate from %.0f: %s "
				    "(docs/statistics.md)", 1 / e[0]->p,
				    e[0]->cpu, e[0]->samples, e[0]->why,
				    e[1]->samples, e[1]->why);
			an_wrap(f, text, 0, width);
			txt_tail_checks(f, e, width);
			continue;
		}
		/* How far beyond the data the law was taken. */
		if (!(e[0]->measured && e[1]->measured) && n > 0 &&
		    1 / e[0]->p > n)
			snprintf(how, sizeof(how), "the tail law, %.2g times "
				 "beyond the %.0f wake-ups of a side",
				 1 / e[0]->p / n, n);
		else if (e[0]->measured && e[1]->measured)
			snprintf(how, sizeof(how), "within the data");
		for (k = 0; k < 2; k++)
			exceed_side(v[k], sizeof(v[k]), e[k]);
		rtpaths_fmt(text, sizeof(text), "exceeded once per %.0f "
			    "wake-ups, CPU %d: %s -> %s (%s; "
			    "docs/statistics.md)", 1 / e[0]->p, e[0]->cpu, v[0],
			    v[1], how);
		an_wrap(f, text, 0, width);
		txt_tail_checks(f, e, width);
	}
}

static void txt_cmp(FILE *f, const struct an_cmp *c, int width)
{
	const struct an_result *res = &c->res;
	struct an_row w = { .bref = "published", .cand = "candidate",
			 .cref = "published" };
	bool refs = an_cmp_has_refs(c);
	const struct an_line *l;
	char fl[48], text[800];
	size_t i;

	rtpaths_fmt(text, sizeof(text), "== %s vs %s: %s (%zu + %zu "
		    "repetitions; gate %s, alpha %g, floor %s%s)",
		    c->cand->name, c->base->name, an_verdict_name(res->verdict),
		    res->nbase, res->ncand, res->gate.metric, res->gate.alpha,
		    an_fmt_floor(fl, sizeof(fl), &res->gate), res->drift_checked
		    ? "; A/B/A drift checked" : "");
	an_wrap(f, text, 0, width);
	if (res->nlines) {
		fprintf(f, "  %-14s %3s %10s", "metric", "CPU", "baseline");
		an_row_values(f, &w, refs, " %9s", " %10s");
		fprintf(f, " %9s %8s  %-12s %s\n", "delta", "delta %",
			"verdict", "p");
	}
	for (i = 0; (l = an_row_next(c, &i, &w)); i++) {
		fprintf(f, "%c %-14s %3s %10s", (int)i == res->decisive ?
			'*' : ' ', w.name, w.cpu, w.base);
		an_row_values(f, &w, refs, " %9s", " %10s");
		fprintf(f, " %9s %8s  %-12s %s\n", w.delta, w.pct,
			an_line_verdict(l), w.p);
		an_wrap(f, w.evidence, 6, width);
	}
	if (res->nlines)
		an_wrap(f, an_cmp_legend(c, text, sizeof(text)), 2, width);
	rtpaths_fmt(text, sizeof(text), "verdict: %s: %s",
		    an_verdict_name(res->verdict), res->reason);
	an_wrap(f, text, 0, width);
	for (i = 0; i < res->nnotes; i++) {
		rtpaths_fmt(text, sizeof(text), "note: %s", res->notes[i]);
		an_wrap(f, text, 0, width);
	}
	txt_exceedance(f, res, width);
	fputc('\n', f);
}

int an_report_txt(const struct an_report *r, FILE *f)
{
	int width = an_term_width(f);
	char note[160];
	size_t i;

	fprintf(f, "rtgate %s report: %s\n", RTGATE_VERSION, r->title);
	if (r->status)
		fprintf(f, "run status: %s\n", r->status);
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "%s\n", an_report_scale_note(r, note,
							  sizeof(note)));
	an_report_system_txt(r, f);
	fputc('\n', f);
	for (i = 0; i < r->nsides; i++)
		txt_side(f, r->sides[i]);
	for (i = 0; i < r->ncmps; i++)
		txt_cmp(f, &r->cmps[i], width);
	an_trace_txt(r, f);
	an_aa_txt(r, f);
	an_report_table(r, f, width);
	return ferror(f) ? -EIO : 0;
}

/* The sources, each wrapped to the width under its first line. */
static void table_sources(const struct an_report *r, FILE *f, int width)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	an_report_sources(r, m, "");
	fclose(m);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		text_wrap_hanging(f, line, 0, 4, width);
	free(buf);
}

struct table_row {
	char cand[128], base[128], meas[160], publ[96];
	const char *verdict;
};

void an_report_table(const struct an_report *r, FILE *f, int width)
{
	struct table_row *rows = calloc(r->ncmps + 1, sizeof(*rows));
	int wc = 9, wb = 8, wv = 10, wm = 8, wp = 9;
	char note[160], counts[240], text[900];
	bool refs = false;
	size_t i;

	if (!rows)
		return;
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];
		struct table_row *w = &rows[i];

		rtpaths_fmt(w->cand, sizeof(w->cand), "%s", c->cand->name);
		rtpaths_fmt(w->base, sizeof(w->base), "%s", c->base->name);
		w->verdict = an_verdict_name(c->res.verdict);
		an_cmp_measured(w->meas, sizeof(w->meas), c);
		an_cmp_published(w->publ, sizeof(w->publ), c);
		refs |= an_cmp_has_refs(c);
		wc = fmax(wc, strlen(w->cand));
		wb = fmax(wb, strlen(w->base));
		wv = fmax(wv, strlen(w->verdict));
		wm = fmax(wm, strlen(w->meas));
		wp = fmax(wp, strlen(w->publ));
	}
	/* No comparison (a calibration's run): no empty table. */
	if (r->ncmps) {
		fprintf(f, "%-*s  %-*s  %-*s  %-*s", wc, "candidate", wb,
			"baseline", wv, "verdict", refs ? wm : 0, "measured");
		if (refs)
			fprintf(f, "  %s", "published");
		fputc('\n', f);
	}
	for (i = 0; i < r->ncmps; i++) {
		const struct table_row *w = &rows[i];

		fprintf(f, "%-*s  %-*s  %-*s  %-*s", wc, w->cand, wb, w->base,
			wv, w->verdict, refs ? wm : 0, w->meas);
		if (refs)
			fprintf(f, "  %s", w->publ);
		fputc('\n', f);
		an_wrap(f, r->cmps[i].res.reason, 4, width);
	}
	rtpaths_fmt(text, sizeof(text), "measured: the line the verdict rests "
		    "on, baseline -> candidate%s", an_report_measured_note(r));
	if (r->ncmps)
		an_wrap(f, text, 0, width);
	if (refs) {
		an_wrap(f, "published: the suite's reference numbers for the "
			"gate metric over all CPUs, where they belong to the "
			"candidate's scenario", 0, width);
		table_sources(r, f, width);
	}
	if (r->scale > 0 && r->scale != 1)
		an_wrap(f, an_report_scale_note(r, note, sizeof(note)), 0,
			width);
	fprintf(f, "rtgate: %s (exit %d)%s\n",
		an_report_counts(r, counts, sizeof(counts)), r->exit_code,
		r->status && strcmp(r->status, "complete") ?
		"; the run is not complete" : "");
	free(rows);
}
