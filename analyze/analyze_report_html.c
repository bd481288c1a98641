// SPDX-License-Identifier: GPL-2.0-only
/*
 * One self-contained HTML page: the verdicts first, then per comparison
 * the reason, gnuplot's SVG plots inlined, every evidence line, and the
 * scenarios in cyclictest's T: layout. No scripts, no external files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_plot.h"
#include "analyze_report.h"
#include "analyze_trace.h"
#include "log.h"

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
	"figure svg{display:block;width:100%;height:auto}\n"
	"figcaption{font-size:.85em;color:#555}\n";

static void esc(FILE *f, const char *s)
{
	an_xml_escape(f, s);
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
	size_t i;

	fprintf(f, "<section id=\"verdicts\"><h2>Verdicts</h2>\n<table>"
		"<tr><th>candidate</th><th>baseline</th><th>verdict</th>"
		"<th>reason</th></tr>\n");
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];

		fprintf(f, "<tr><td><a href=\"#cmp-%zu\">", i);
		esc(f, c->cand->name);
		fprintf(f, "</a></td><td>");
		esc(f, c->base->name);
		fprintf(f, "</td><td>");
		badge(f, c->res.verdict);
		fprintf(f, "</td><td>");
		esc(f, c->res.reason);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table></section>\n");
}

static void cell_num(FILE *f, double v, bool ge)
{
	char buf[32];

	fprintf(f, "<td class=\"n\">");
	esc(f, an_fmt_val(buf, sizeof(buf), v, ge));
	fprintf(f, "</td>");
}

static void html_line(FILE *f, const struct an_cmp *c, const struct an_line *l)
{
	char buf[64];
	bool raw = !isnan(l->raw_base);

	fprintf(f, "<tr><td>");
	esc(f, l->metric);
	if (strcmp(l->unit, "us")) {
		fprintf(f, " [");
		esc(f, l->unit);
		fprintf(f, "]");
	}
	fprintf(f, "</td><td>%s</td>", an_line_cpu(buf, sizeof(buf), l));
	cell_num(f, raw ? l->raw_base : l->base, !raw && l->base_ge);
	cell_num(f, an_ref_value(c->base, l), false);
	cell_num(f, raw ? l->raw_cand : l->cand, !raw && l->cand_ge);
	cell_num(f, an_ref_value(c->cand, l), false);
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
	if (isnan(l->lo))
		fprintf(f, "-");
	else
		fprintf(f, "%.4g .. %.4g", l->lo, l->hi);
	fprintf(f, "</td><td class=\"n\">%s</td><td>",
		an_fmt_p(buf, sizeof(buf), l->p_adj));
	if (!l->deciding && isnan(l->p_worse))
		fprintf(f, "-");
	else
		badge(f, l->verdict);
	fprintf(f, "%s</td><td>", l->hint ? " (sign)" : "");
	esc(f, l->evidence);
	if (raw)
		fprintf(f, "; at equal sample counts %.4g vs %.4g", l->base,
			l->cand);
	fprintf(f, "%s</td></tr>\n", l->deciding ? "" :
		" <span class=\"muted\">(not judged)</span>");
}

static void html_plots(FILE *f, const struct an_cmp *c)
{
	struct an_plots plots;
	size_t i;
	int ret;

	ret = an_plot_cmp(c, &plots);
	if (ret == -ENOENT) {
		pr_warn("gnuplot is not installed: the HTML report has no "
			"plots");
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
		fprintf(f, "<figure class=\"plot\">\n%s\n<figcaption>",
			plots.svg[i]);
		esc(f, plots.title[i]);
		fprintf(f, "</figcaption></figure>\n");
	}
	fprintf(f, "</div>\n");
	an_plots_release(&plots);
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
	html_plots(f, c);
	if (res->nlines)
		fprintf(f, "<table class=\"lines\"><tr><th>metric</th>"
			"<th>CPU</th><th>baseline</th><th>published</th>"
			"<th>candidate</th><th>published</th><th>delta</th>"
			"<th>delta %%</th><th>interval</th><th>p</th>"
			"<th>verdict</th><th>evidence</th></tr>\n");
	for (i = 0; i < res->nlines; i++)
		html_line(f, c, &res->lines[i]);
	if (res->nlines)
		fprintf(f, "</table>\n");
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
		fprintf(f, "nothing to compare");
	fprintf(f, " (exit %d)</p></header>\n", r->exit_code);
	html_verdicts(f, r);
	for (i = 0; i < r->ncmps; i++)
		html_cmp(f, &r->cmps[i], i);
	an_trace_html(r, f);
	fprintf(f, "<section id=\"scenarios\"><h2>Scenarios</h2>\n");
	for (i = 0; i < r->nsides; i++)
		html_side(f, r->sides[i]);
	fprintf(f, "</section>\n<footer class=\"muted\"><p>rtgate %s. "
		"The method: docs/statistics.md.</p></footer>\n"
		"</body>\n</html>\n", RTGATE_VERSION);
	return ferror(f) ? -EIO : 0;
}
