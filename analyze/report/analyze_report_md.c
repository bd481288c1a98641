// SPDX-License-Identifier: GPL-2.0-only
/* report.md: the same story as report.txt, as Markdown tables. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyze/report/report.h"

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
	bool refs = an_cmp_has_refs(c), dec;
	const struct an_line *l;
	char legend[768];
	struct an_row w;
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
	for (i = 0; (l = an_row_next(c, &i, &w)); i++) {
		dec = (int)i == res->decisive;
		fprintf(f, "| %s%s%s | %s | %s |", dec ? "**" : "", w.name,
			dec ? "** \\*" : "", w.cpu, w.base);
		an_row_values(f, &w, refs, " %s |", " %s |");
		fprintf(f, " %s | %s | %s | %s | ", w.delta, w.pct,
			an_line_verdict(l), w.p);
		md_cell(f, w.evidence);
		fprintf(f, " |\n");
	}
	if (res->nlines) {
		fprintf(f, "\n");
		md_cell(f, an_cmp_legend(c, legend, sizeof(legend)));
		fprintf(f, "\n");
	}
	for (i = 0; i < res->nnotes; i++) {
		fprintf(f, "%s- ", i ? "" : "\n");
		md_cell(f, res->notes[i]);
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
		if (s->label[0])
			fprintf(f, "**%s** (`%s`):\n\n", s->label, s->run_id);
		for (k = 0; k < n; k++) {
			fprintf(f, "- %s: ", rows[k].key);
			md_cell(f, rows[k].value);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

int an_report_md(const struct an_report *r, FILE *f)
{
	char fl[160], meas[160], publ[96], counts[240];
	bool refs = false;
	size_t i;

	fprintf(f, "# rtgate report: %s\n\n", r->title);
	md_system(f, r);
	if (r->status)
		fprintf(f, "Run status: **%s**. ", r->status);
	if (r->scale > 0 && r->scale != 1)
		fprintf(f, "**%s**. ", an_report_scale_note(r, fl,
							     sizeof(fl)));
	fprintf(f, "Gate: %s, alpha %g, floor %s. Overall: **%s** (exit "
		"%d): %s.\n\n", r->gate.metric, r->gate.alpha,
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

		fprintf(f, "| %s | %s | **%s** | %s | ", c->cand->name,
			c->base->name, an_verdict_name(c->res.verdict),
			an_cmp_measured(meas, sizeof(meas), c));
		if (refs)
			fprintf(f, "%s | ", an_cmp_published(publ, sizeof(publ),
							      c));
		md_cell(f, c->res.reason);
		fprintf(f, " |\n");
	}
	fprintf(f, "\nmeasured: the line the verdict rests on, baseline -> "
		"candidate%s.\n", an_report_measured_note(r));
	if (refs) {
		fputc('\n', f);
		an_report_sources(r, f, "- ");
	}
	fprintf(f, "\n## Comparisons\n\n");
	for (i = 0; i < r->ncmps; i++)
		md_cmp(f, &r->cmps[i]);
	an_aa_md(r, f);
	fprintf(f, "## Scenarios\n\n");
	for (i = 0; i < r->nsides; i++)
		md_side(f, r->sides[i]);
	return ferror(f) ? -EIO : 0;
}
