// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.md: the same story as report.txt, as Markdown tables. Names and
 * fields come from results directories: each goes through
 * text_md_escape() or text_md_code(), so that a '|' or a newline in one
 * never breaks a table, a heading or a list, and nothing becomes markup.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "textfmt.h"

/*
 * A fenced block of @fill's text: its fence longer than any run of
 * backticks in it, so that no line of a name can close it early.
 */
static void md_block(FILE *f, const struct an_side *s,
		     void (*fill)(FILE *, const struct an_side *))
{
	char *buf = NULL;
	size_t len = 0, n, k;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	fill(m, s);
	if (fclose(m)) {
		free(buf);
		return;
	}
	n = text_md_fence_len(buf);
	for (k = 0; k < n; k++)
		fputc('`', f);
	fprintf(f, "\n%s", buf);
	for (k = 0; k < n; k++)
		fputc('`', f);
	fputs("\n\n", f);
	free(buf);
}

static void md_side_text(FILE *f, const struct an_side *s)
{
	an_report_tlines(f, s);
	an_report_workloads(f, s);
}

static void md_side(FILE *f, const struct an_side *s)
{
	size_t ncpus = s->nruns ? s->runs[0].ncpus : 0;

	fputs("### ", f);
	text_md_escape(f, s->name);
	fprintf(f, "\n\n%zu repetition%s from ", s->nruns,
		s->nruns == 1 ? "" : "s");
	text_md_code(f, s->origin);
	if (s->status != AN_SIDE_OK) {
		fprintf(f, " — **%s**: ", s->status == AN_SIDE_SKIPPED ?
			"SKIPPED" : "INVALID");
		text_md_escape(f, s->reason);
	}
	fprintf(f, "\n\n");
	if (ncpus || s->ref || s->nruns)
		md_block(f, s, md_side_text);
}

static void md_cmp(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	bool refs = an_cmp_has_refs(c), dec;
	const struct an_line *l;
	char legend[768];
	struct an_row w;
	size_t i;

	fputs("### ", f);
	text_md_escape(f, c->cand->name);
	fputs(" vs ", f);
	text_md_escape(f, c->base->name);
	fprintf(f, ": **%s**\n\n", an_verdict_name(res->verdict));
	text_md_escape(f, res->reason);
	fprintf(f, "\n\n");
	if (res->nlines) {
		fprintf(f, "| metric | CPU | baseline |%s candidate |%s delta "
			"| delta %% | verdict | p | evidence |\n",
			refs ? " published |" : "", refs ? " published |" : "");
		fprintf(f, "|---|---|--:|%s--:|%s--:|--:|---|---|---|\n",
			refs ? "--:|" : "", refs ? "--:|" : "");
	}
	for (i = 0; (l = an_row_next(c, &i, &w)); i++) {
		dec = (int)i == res->decisive;
		fputs(dec ? "| **" : "| ", f);
		text_md_escape(f, w.name);
		fputs(dec ? "** \\* | " : " | ", f);
		text_md_escape(f, w.cpu);
		fputs(" | ", f);
		text_md_escape(f, w.base);
		fputs(" |", f);
		an_row_values(f, &w, refs, " %s |", " %s |");
		fprintf(f, " %s | %s | %s | %s | ", w.delta, w.pct,
			an_line_verdict(l), w.p);
		text_md_escape(f, w.evidence);
		fprintf(f, " |\n");
	}
	if (res->nlines) {
		fprintf(f, "\n");
		text_md_escape(f, an_cmp_legend(c, legend, sizeof(legend)));
		fprintf(f, "\n");
	}
	for (i = 0; i < res->nnotes; i++) {
		fprintf(f, "%s- ", i ? "" : "\n");
		text_md_escape(f, res->notes[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void md_system(FILE *f, const struct an_report *r)
{
	struct an_system_row rows[AN_SYSTEM_ROWS];
	size_t i, k, n;

	for (i = 0; i < r->nsystems; i++) {
		const struct an_system *s = &r->systems[i];

		n = an_system_rows(s, rows, AN_SYSTEM_ROWS);
		if (s->label[0]) {
			fputs("**", f);
			text_md_escape(f, s->label);
			fputs("** (", f);
			text_md_code(f, s->run_id);
			fputs("):\n\n", f);
		}
		for (k = 0; k < n; k++) {
			fprintf(f, "- %s: ", rows[k].key);
			text_md_escape(f, rows[k].value);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

/* The publications' sources, a list item each, escaped line by line. */
static void md_sources(FILE *f, const struct an_report *r)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	an_report_sources(r, m, "");
	if (fclose(m)) {
		free(buf);
		return;
	}
	fputc('\n', f);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		fputs("- ", f);
		text_md_escape(f, line);
		fputc('\n', f);
	}
	free(buf);
}

int an_report_md(const struct an_report *r, FILE *f)
{
	char fl[160], meas[160], publ[96], counts[240];
	bool refs = false;
	size_t i;

	fputs("# rtgate report: ", f);
	text_md_escape(f, r->title);
	fputs("\n\n", f);
	md_system(f, r);
	if (r->status) {
		fputs("Run status: **", f);
		text_md_escape(f, r->status);
		fputs("**. ", f);
	}
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "**%s**. ", an_report_scale_note(r, fl,
							     sizeof(fl)));
	fputs("Gate: ", f);
	text_md_escape(f, r->gate.metric);
	fprintf(f, ", alpha %g, floor %s. Overall: **%s** (exit "
		"%d): %s.\n\n", r->gate.alpha,
		an_fmt_floor(fl, sizeof(fl), &r->gate),
		r->ncmps ? an_verdict_name(r->worst) : "nothing judged",
		r->exit_code, an_report_counts(r, counts, sizeof(counts)));
	for (i = 0; i < r->ncmps; i++)
		refs |= an_cmp_has_refs(&r->cmps[i]);
	fprintf(f, "| candidate | baseline | verdict | measured |%s reason |\n"
		"|---|---|---|---|%s---|\n", refs ? " published |" : "",
		refs ? "---|" : "");
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];

		fputs("| ", f);
		text_md_escape(f, c->cand->name);
		fputs(" | ", f);
		text_md_escape(f, c->base->name);
		fprintf(f, " | **%s** | ", an_verdict_name(c->res.verdict));
		text_md_escape(f, an_cmp_measured(meas, sizeof(meas), c));
		fputs(" | ", f);
		if (refs) {
			text_md_escape(f, an_cmp_published(publ,
							   sizeof(publ), c));
			fputs(" | ", f);
		}
		text_md_escape(f, c->res.reason);
		fprintf(f, " |\n");
	}
	fprintf(f, "\nmeasured: the line the verdict rests on, baseline -> "
		"candidate%s.\n", an_report_measured_note(r));
	if (refs)
		md_sources(f, r);
	fprintf(f, "\n## Comparisons\n\n");
	for (i = 0; i < r->ncmps; i++)
		md_cmp(f, &r->cmps[i]);
	an_aa_md(r, f);
	fprintf(f, "## Scenarios\n\n");
	for (i = 0; i < r->nsides; i++)
		md_side(f, r->sides[i]);
	return ferror(f) ? -EIO : 0;
}
