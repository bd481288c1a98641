// SPDX-License-Identifier: GPL-2.0-only
/*
 * One self-contained HTML page: the verdicts first, then per comparison
 * the reason, gnuplot's SVG plots inlined, every evidence line, and the
 * scenarios in cyclictest's T: layout. No scripts, no external files.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "log.h"
#include "textfmt.h"

static const char html_style[] =
	"body{font-family:system-ui,sans-serif;margin:2em auto;max-width:"
	"78em;padding:0 1em;color:#222;background:#fff}\n"
	"h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;"
	"padding-bottom:.2em;margin-top:2em}\n"
	"table{border-collapse:collapse;margin:.8em 0;font-size:.92em}\n"
	"th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;"
	"vertical-align:top}\nth{background:#f3f3f3}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	"pre{background:#f7f7f7;padding:.6em;overflow-x:auto}\n"
	".badge{display:inline-block;padding:.1em .6em;border-radius:.3em;"
	"color:#fff;font-weight:600;font-size:.9em}\n"
	".v-REGRESSION{background:#c92a2a}.v-IMPROVEMENT{background:#2b8a3e}"
	".v-NO{background:#868e96}.v-INCONCLUSIVE{background:#e67700}"
	".v-INVALID{background:#862e9c}.v-SKIPPED{background:#adb5bd}\n"
	".reason{font-size:1.05em}.muted{color:#777}\n"
	".plots{display:flex;flex-wrap:wrap;gap:1em}\n"
	"figure{margin:0;border:1px solid #eee;padding:.4em;"
	"flex:1 1 30em;max-width:48%;min-width:24em}\n"
	"figure.wide{flex-basis:100%;max-width:100%}\n"
	"figure svg{display:block;width:100%;height:auto}\n"
	"figcaption{font-size:.85em;color:#555}\n"
	"tr.decisive td{background:#fff3bf;font-weight:600}\n"
	"table.system th{width:9em}\n";

static void esc(FILE *f, const char *s)
{
	text_xml_escape(f, s);
}

/* CSS classes cannot hold a space: NO CHANGE is v-NO. */
static void badge(FILE *f, enum an_verdict v)
{
	const char *name = an_verdict_name(v);

	fprintf(f, "<span class=\"badge v-%.*s\">%s</span>",
		(int)strcspn(name, " "), name, name);
}

static void html_verdicts(FILE *f, const struct an_report *r)
{
	char meas[160], publ[96];
	bool refs = false;
	size_t i;

	for (i = 0; i < r->ncmps; i++)
		refs |= an_cmp_has_refs(&r->cmps[i]);
	fprintf(f, "<section id=\"verdicts\"><h2>Verdicts</h2>\n<table>"
		"<tr><th>candidate</th><th>baseline</th><th>verdict</th>"
		"<th>measured</th>%s<th>reason</th></tr>\n",
		refs ? "<th>published</th>" : "");
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];

		fprintf(f, "<tr><td><a href=\"#cmp-%zu\">", i);
		esc(f, c->cand->name);
		fprintf(f, "</a></td><td>");
		esc(f, c->base->name);
		fprintf(f, "</td><td>");
		badge(f, c->res.verdict);
		if (an_cmp_counts(c) != c->res.verdict) {
			fprintf(f, " <span class=\"muted\">counts as</span> ");
			badge(f, an_cmp_counts(c));
		}
		fprintf(f, "</td><td class=\"n\">");
		esc(f, an_cmp_measured(meas, sizeof(meas), c));
		if (refs) {
			fprintf(f, "</td><td class=\"n\">");
			esc(f, an_cmp_published(publ, sizeof(publ), c));
		}
		fprintf(f, "</td><td>");
		esc(f, c->res.reason);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n<p class=\"muted\">measured: the line the "
		"verdict rests on, baseline &rarr; candidate");
	esc(f, an_report_measured_note(r));
	fputc('.', f);
	if (refs)
		fprintf(f, " published: the suite's reference numbers for the "
			"gate metric over all CPUs, where they belong to the "
			"candidate's scenario.");
	fprintf(f, "</p>\n");
	if (refs) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			an_report_sources(r, m, "");
			fclose(m);
			fprintf(f, "<pre class=\"sources\">");
			esc(f, buf);
			fprintf(f, "</pre>\n");
			free(buf);
		}
	}
	fprintf(f, "</section>\n");
}

/* The machine, kernel and tools of every run: what a number depends on. */
static void html_system(FILE *f, const struct an_report *r)
{
	struct an_system_row rows[AN_SYSTEM_ROWS];
	size_t i, k, n;

	if (!r->nsystems)
		return;
	fprintf(f, "<section id=\"system\"><h2>System</h2>\n");
	for (i = 0; i < r->nsystems; i++) {
		const struct an_system *s = &r->systems[i];

		n = an_system_rows(s, rows, AN_SYSTEM_ROWS);
		if (s->label[0]) {
			fprintf(f, "<h3>");
			esc(f, s->label);
			fprintf(f, " <small class=\"muted\">");
			esc(f, s->run_id);
			fprintf(f, "</small></h3>\n");
		}
		fprintf(f, "<table class=\"system\">\n");
		for (k = 0; k < n; k++) {
			fprintf(f, "<tr><th>");
			esc(f, rows[k].key);
			fprintf(f, "</th><td>");
			esc(f, rows[k].value);
			fprintf(f, "</td></tr>\n");
		}
		fprintf(f, "</table>\n");
	}
	fprintf(f, "</section>\n");
}

static void cell_num(FILE *f, double v, bool ge)
{
	char buf[32];

	fprintf(f, "<td class=\"n\">");
	esc(f, an_fmt_val(buf, sizeof(buf), v, ge));
	fprintf(f, "</td>");
}

static void html_line(FILE *f, const struct an_cmp *c, const struct an_line *l,
		      bool decisive, bool refs)
{
	char buf[192];
	bool raw = !isnan(l->raw_base);

	fprintf(f, "<tr%s><td>", decisive ? " class=\"decisive\"" : "");
	esc(f, an_line_name(l));
	if (strcmp(l->unit, "us")) {
		fprintf(f, " [");
		esc(f, l->unit);
		fprintf(f, "]");
	}
	fprintf(f, "%s</td><td>%s</td>", decisive ? " *" : "",
		an_line_cpu(buf, sizeof(buf), l));
	cell_num(f, raw ? l->raw_base : l->base, !raw && l->base_ge);
	if (refs)
		cell_num(f, an_cmp_ref_base(c, l), false);
	cell_num(f, raw ? l->raw_cand : l->cand, !raw && l->cand_ge);
	if (refs)
		cell_num(f, an_cmp_ref_cand(c, l), false);
	if (raw)
		fprintf(f, "<td class=\"n\">%+.4g</td><td class=\"n\">%+.1f%%",
			l->raw_cand - l->raw_base, l->raw_base ? 100 *
			(l->raw_cand - l->raw_base) / l->raw_base : 0.0);
	else if (isnan(l->delta_pct))
		fprintf(f, "<td class=\"n\">%+.4g</td><td class=\"n\">-",
			l->delta);
	else
		fprintf(f, "<td class=\"n\">%+.4g</td><td class=\"n\">%+.1f%%",
			l->delta, l->delta_pct);
	fprintf(f, "</td><td class=\"n\">");
	esc(f, an_line_interval(buf, sizeof(buf), l));
	fprintf(f, "</td><td class=\"n\">%s</td><td>",
		an_fmt_p(buf, sizeof(buf), l->deciding ? l->p_adj :
			 l->worse >= 0 ? l->p_worse : l->p_better));
	if (!l->deciding)
		fprintf(f, "<span class=\"muted\">not judged</span>");
	else
		badge(f, l->verdict);
	fprintf(f, "%s</td><td>", l->hint ? " (sign)" : "");
	an_line_adjusted(buf, sizeof(buf), l);
	if (buf[0]) {
		esc(f, buf);
		fprintf(f, "; ");
	}
	esc(f, l->evidence);
	fprintf(f, "</td></tr>\n");
}

static bool gnuplot_missing_said;

/*
 * gnuplot names the elements of every SVG alike (gnuplot_canvas, gpPt0,
 * textbox ...): inlined side by side in one page, ids would repeat and a
 * reference (#gpPt3) find another plot's element. Each plot's ids and
 * the references to them (href="#", url(#)) get @prefix, made from the
 * plot's place in the report -- never from a name, which two scenarios
 * could share once made safe for an id.
 */
static void svg_inline(FILE *f, const char *svg, const char *prefix)
{
	static const char *const refs[] = { "href=\"#", "href='#", "url(#" };
	const char *p = svg;
	size_t i, n = 0;

	while (*p) {
		if (p > svg && isspace((unsigned char)p[-1]) &&
		    (!strncmp(p, "id=\"", 4) || !strncmp(p, "id='", 4)))
			n = 4;
		for (i = 0; !n && i < sizeof(refs) / sizeof(refs[0]); i++)
			if (!strncmp(p, refs[i], strlen(refs[i])))
				n = strlen(refs[i]);
		if (n) {
			fwrite(p, 1, n, f);
			fputs(prefix, f);
			p += n;
			n = 0;
			continue;
		}
		fputc(*p++, f);
	}
}

static void html_plots(FILE *f, const struct an_cmp *c, size_t idx)
{
	char prefix[64];
	struct an_plots plots;
	size_t i;
	int ret;

	ret = an_plot_cmp(c, &plots);
	if (ret == -ENOENT) {
		/*
		 * Once a run, and not at all in the lab's guest (its init
		 * sets RTGATE_LAB): the host renders these reports again,
		 * plots and all, from the results that come back.
		 */
		if (!gnuplot_missing_said && !getenv("RTGATE_LAB"))
			pr_warn("gnuplot is not installed: the HTML report has "
				"no plots");
		gnuplot_missing_said = true;
		fprintf(f, "<p class=\"muted\">No plots: gnuplot is not "
			"installed.</p>\n");
		return;
	}
	if (ret) {
		fprintf(f, "<p class=\"muted\">No plots: gnuplot failed (%s)."
			"</p>\n", strerror(-ret));
		return;
	}
	fprintf(f, "<div class=\"plots\">\n");
	for (i = 0; i < plots.n; i++) {
		fprintf(f, "<figure class=\"plot%s\">\n",
			plots.wide[i] ? " wide" : "");
		snprintf(prefix, sizeof(prefix), "cmp%zu-plot%zu-", idx, i);
		svg_inline(f, plots.svg[i], prefix);
		fputs("\n<figcaption>", f);
		esc(f, plots.title[i]);
		fprintf(f, "</figcaption></figure>\n");
	}
	fprintf(f, "</div>\n");
	an_plots_release(&plots);
	if (!an_side_has_series(c->base) && !an_side_has_series(c->cand))
		fprintf(f, "<p class=\"muted\">Latency over time: no time "
			"series in these runs (recorded before rtgate kept "
			"one, traced, or measured by timerlat).</p>\n");
}

static void html_cmp(FILE *f, const struct an_cmp *c, size_t idx)
{
	const struct an_result *res = &c->res;
	char fl[48];
	size_t i;

	fprintf(f, "<section class=\"cmp\" id=\"cmp-%zu\"><h2>", idx);
	esc(f, c->cand->name);
	fprintf(f, " vs ");
	esc(f, c->base->name);
	fprintf(f, " ");
	badge(f, res->verdict);
	fprintf(f, "</h2>\n<p class=\"reason\">");
	esc(f, res->reason);
	fprintf(f, "</p>\n<p class=\"muted\">%zu + %zu repetitions; gate ",
		res->nbase, res->ncand);
	esc(f, res->gate.metric);
	fprintf(f, ", alpha %g, floor %s%s.</p>\n", res->gate.alpha,
		an_fmt_floor(fl, sizeof(fl), &res->gate), res->drift_checked ?
		", A/B/A drift checked" : "");
	html_plots(f, c, idx);
	if (res->nlines)
		fprintf(f, "<table class=\"lines\"><tr><th>metric</th>"
			"<th>CPU</th><th>baseline</th>%s<th>candidate</th>%s"
			"<th>delta</th><th>delta %%</th><th>interval</th>"
			"<th>p</th><th>verdict</th><th>evidence</th></tr>\n",
			an_cmp_has_refs(c) ? "<th>published</th>" : "",
			an_cmp_has_refs(c) ? "<th>published</th>" : "");
	for (i = 0; i < res->nlines; i++)
		html_line(f, c, &res->lines[i], (int)i == res->decisive,
			  an_cmp_has_refs(c));
	if (res->nlines) {
		char legend[768];

		fprintf(f, "</table>\n<p class=\"muted\">");
		esc(f, an_cmp_legend(c, legend, sizeof(legend)));
		fprintf(f, " (highlighted).</p>\n");
	}
	if (res->nnotes) {
		fprintf(f, "<ul class=\"notes\">\n");
		for (i = 0; i < res->nnotes; i++) {
			fprintf(f, "<li>");
			esc(f, res->notes[i]);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
}

static void html_side(FILE *f, const struct an_side *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fprintf(f, "<h3>");
	esc(f, s->name);
	fprintf(f, "</h3>\n<p class=\"muted\">%zu repetition%s from <code>",
		s->nruns, s->nruns == 1 ? "" : "s");
	esc(f, s->origin);
	fprintf(f, "</code>");
	if (s->status != AN_SIDE_OK) {
		fprintf(f, " &mdash; ");
		badge(f, s->status == AN_SIDE_SKIPPED ? AN_SKIPPED :
			AN_INVALID);
		fprintf(f, " ");
		esc(f, s->reason);
	}
	fprintf(f, "</p>\n");
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	an_report_tlines(m, s);
	an_report_workloads(m, s);
	fclose(m);
	if (len) {
		fprintf(f, "<pre>");
		esc(f, buf);
		fprintf(f, "</pre>\n");
	}
	free(buf);
}

int an_report_html(const struct an_report *r, FILE *f)
{
	char counts[240];
	size_t i;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n<title>rtgate report: ");
	esc(f, r->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		html_style);
	fprintf(f, "<header><h1>rtgate report</h1>\n<p>");
	esc(f, r->title);
	if (r->status) {
		fprintf(f, " &middot; run status <b>");
		esc(f, r->status);
		fprintf(f, "</b>");
	}
	if (r->scale > 0 && r->scale != 1) {
		char note[160];

		fprintf(f, "</p>\n<p><b>");
		esc(f, an_report_scale_note(r, note, sizeof(note)));
		fprintf(f, "</b>");
	}
	fprintf(f, "</p>\n<p>Overall: ");
	if (r->ncmps)
		badge(f, r->worst);
	else
		fprintf(f, "nothing judged");
	fprintf(f, " (exit %d): ", r->exit_code);
	esc(f, an_report_counts(r, counts, sizeof(counts)));
	fprintf(f, "</p></header>\n");
	html_verdicts(f, r);
	html_system(f, r);
	for (i = 0; i < r->ncmps; i++)
		html_cmp(f, &r->cmps[i], i);
	an_trace_html(r, f);
	an_aa_html(r, f);
	fprintf(f, "<section id=\"scenarios\"><h2>Scenarios</h2>\n");
	for (i = 0; i < r->nsides; i++)
		html_side(f, r->sides[i]);
	fprintf(f, "</section>\n<footer class=\"muted\"><p>rtgate %s. "
		"The method: docs/statistics.md.</p></footer>\n"
		"</body>\n</html>\n", RTGATE_VERSION);
	return ferror(f) ? -EIO : 0;
}
