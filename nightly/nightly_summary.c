// SPDX-License-Identifier: GPL-2.0-only
/*
 * The morning-after summary: text for mail (also on stdout, which cron
 * mails and journald keeps), HTML for the web. Both say the night's
 * verdict first, then per run each scenario against its history, and for
 * a regression what changed in the kernel identity that night.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "fsio.h"
#include "log.h"
#include "nightly/nightly_priv.h"
#include "outcome.h"
#include "textfmt.h"

static const char *exit_word(int code)
{
	switch (code) {
	case EXITCODE_PASS: return "PASS";
	case EXITCODE_REGRESSION: return "REGRESSION";
	case EXITCODE_INCONCLUSIVE: return "INCONCLUSIVE";
	case EXITCODE_BAD_INPUT: return "BAD INPUT";
	case EXITCODE_ENVIRONMENT: return "ENVIRONMENT ERROR";
	case EXITCODE_INCOMPLETE: return "INCOMPLETE";
	default: return "ERROR";
	}
}

static void num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, "%9s", "-");
	else
		fprintf(f, "%9.1f", v);
}

static void text_run(FILE *f, const struct nightly_result *r)
{
	size_t i;

	fprintf(f, "\n%s  %s  %s  exit %d\n", r->suite, r->run_id, r->status,
		r->exit_code);
	if (r->kernel[0])
		fprintf(f, "  kernel %s\n", r->kernel);
	if (r->note[0])
		fprintf(f, "  %s\n", r->note);
	fprintf(f, "  the run's own comparisons: exit %d (%s)\n", r->run_gate,
		exit_word(r->run_gate));
	if (!r->nr_judged)
		return;
	fprintf(f, "  %-16s %-8s %9s %9s  %-5s %s\n", "scenario", "metric",
		"tonight", "history", "runs", "verdict against history");
	for (i = 0; i < r->nr_judged; i++) {
		const struct history_judgement *j = &r->judged[i];

		fprintf(f, "  %-16s %-8s ", j->scenario, j->metric);
		num(f, j->cand);
		fputc(' ', f);
		num(f, j->base);
		fprintf(f, "  %-5u %s: %s\n", j->baseline_runs, j->verdict,
			j->reason);
		if (!strcmp(j->verdict, "REGRESSION"))
			fprintf(f, "  %-16s changed since %s: %s\n", "",
				j->prev_run_id, j->changed[0] ? j->changed :
				"nothing in the kernel identity (a change "
				"outside the kernel: firmware, load, host)");
	}
	if (r->run_dir[0])
		fprintf(f, "  report: %s/report.html\n", r->run_dir);
}

static void html_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%.1f</td>", v);
}

static void html_run(FILE *f, const struct nightly_result *r)
{
	size_t i;

	fputs("<h2>", f);
	text_xml_escape(f, r->suite);
	fputs(" &mdash; ", f);
	if (r->run_dir[0]) {
		fputs("<a href=\"file://", f);
		text_xml_escape(f, r->run_dir);
		fputs("/report.html\">", f);
		text_xml_escape(f, r->run_id);
		fputs("</a>", f);
	} else {
		text_xml_escape(f, r->run_id);
	}
	fprintf(f, " <small>%s, exit %d</small></h2>\n<p>kernel ",
		r->status, r->exit_code);
	text_xml_escape(f, r->kernel);
	fputs("<br>", f);
	text_xml_escape(f, r->note);
	fputs("</p>\n", f);
	if (!r->nr_judged)
		return;
	fputs("<table><tr><th>scenario</th><th>metric</th><th>tonight</th>"
	      "<th>history</th><th>runs</th><th>verdict</th><th>why</th>"
	      "</tr>\n", f);
	for (i = 0; i < r->nr_judged; i++) {
		const struct history_judgement *j = &r->judged[i];
		int reg = !strcmp(j->verdict, "REGRESSION");

		fprintf(f, "<tr%s><td>", reg ? " class=\"regression\"" : "");
		text_xml_escape(f, j->scenario);
		fputs("</td><td>", f);
		text_xml_escape(f, j->metric);
		fputs("</td>", f);
		html_num(f, j->cand);
		html_num(f, j->base);
		fprintf(f, "<td>%u</td><td>", j->baseline_runs);
		text_xml_escape(f, j->verdict);
		fputs("</td><td>", f);
		text_xml_escape(f, j->reason);
		if (reg) {
			fputs("<br>changed since ", f);
			text_xml_escape(f, j->prev_run_id);
			fputs(": ", f);
			text_xml_escape(f, j->changed[0] ? j->changed :
				 "nothing in the kernel identity");
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int write_text(const struct nightly_ctx *c,
		      const struct nightly_result *res, size_t n, int code,
		      FILE *f)
{
	size_t i;

	fprintf(f, "rtgate nightly %s: %s (exit %d)\n", c->started,
		exit_word(code), code);
	fprintf(f, "baseline: the last %u complete runs of each suite, host "
		"and scenario%s%s\n", c->cfg->history,
		c->cfg->reference[0] ? " on kernels matching " : "",
		c->cfg->reference);
	for (i = 0; i < n; i++)
		text_run(f, &res[i]);
	if (!n)
		fprintf(f, "\nno run tonight\n");
	return ferror(f) ? -EIO : 0;
}

static int write_html(const struct nightly_ctx *c,
		      const struct nightly_result *res, size_t n, int code,
		      FILE *f)
{
	size_t i;

	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>rtgate nightly %s: %s</title><style>body{font-family:"
		"sans-serif;margin:2em}table{border-collapse:collapse}td,th{"
		"border:1px solid #ccc;padding:.2em .6em;text-align:left}"
		"tr.regression td{background:#fde0e0}</style></head><body>\n"
		"<h1 data-exit=\"%d\">rtgate nightly %s: %s</h1>\n",
		c->started, exit_word(code), code, c->started, exit_word(code));
	for (i = 0; i < n; i++)
		html_run(f, &res[i]);
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

/*
 * junit.xml of the night against history: one testsuite per run, one
 * testcase per scenario (rtgate.SUITE.SCENARIO.history, as KCIDB names
 * it), its outcome from the one table (common/cmd/outcome.h); a failure's
 * message is the verdict's reason: the line, the night a step began,
 * tonight's kernel. A run that did not complete is an error.
 */
static int write_junit(const struct nightly_ctx *c,
		       const struct nightly_result *res, size_t n, int code,
		       FILE *f)
{
	size_t i, k;

	(void)code;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"rtgate nightly %s\">\n", c->started);
	for (i = 0; i < n; i++) {
		const struct nightly_result *r = &res[i];
		bool done = !strcmp(r->status, "complete");

		fputs("<testsuite name=\"", f);
		text_xml_escape(f, r->run_id);
		fprintf(f, "\" tests=\"%zu\">\n<properties><property "
			"name=\"kernel\" value=\"", done ? r->nr_judged : 1);
		text_xml_escape(f, r->kernel);
		fputs("\"/></properties>\n", f);
		if (!done) {
			fputs("<testcase classname=\"rtgate\" name=\"", f);
			text_xml_escape(f, r->suite);
			fputs("\"><error message=\"", f);
			text_xml_escape(f, r->note[0] ? r->note : r->status);
			fputs("\"/></testcase>\n</testsuite>\n", f);
			continue;
		}
		for (k = 0; k < r->nr_judged; k++) {
			const struct history_judgement *j = &r->judged[k];
			const struct outcome *o = outcome_get(
				outcome_of_comparison(j->verdict, NULL, NULL,
						      j->reason));

			fputs("<testcase classname=\"rtgate.", f);
			text_xml_escape(f, r->suite);
			fputs("\" name=\"", f);
			text_xml_escape(f, j->scenario);
			fputs(".history\">", f);
			if (o->junit[0]) {
				fprintf(f, "<%s message=\"%s", o->junit,
					j->verdict);
				if (j->since_run_id[0]) {
					fputs(" since ", f);
					text_xml_escape(f, j->since_run_id);
				}
				fputs(": ", f);
				text_xml_escape(f, j->reason);
				fprintf(f, "\"/>");
			}
			fputs("<system-out>", f);
			text_xml_escape(f, j->verdict);
			fputs(": ", f);
			text_xml_escape(f, j->reason);
			fputs("</system-out></testcase>\n", f);
		}
		fputs("</testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

/*
 * @fn's text as UTF-8, whatever bytes a folder's name had (issue 35): a
 * buffer the caller frees, or NULL (-ENOMEM, -EIO) in @ret.
 */
static char *render(int (*fn)(const struct nightly_ctx *,
			      const struct nightly_result *, size_t, int,
			      FILE *),
		    const struct nightly_ctx *c,
		    const struct nightly_result *res, size_t n, int code,
		    size_t *len, int *ret)
{
	char *buf = NULL, *text;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f) {
		*ret = -ENOMEM;
		return NULL;
	}
	*ret = fn(c, res, n, code, f);
	if (fclose(f) && !*ret)
		*ret = -EIO;
	text = *ret ? NULL : text_utf8_repair(buf, blen, len);
	if (!*ret && !text)
		*ret = -ENOMEM;
	free(buf);
	return text;
}

/* Writes DIR/NAME whole or not at all (fsio_write_atomic()). */
static int write_file(const char *dir, const char *name,
		      int (*fn)(const struct nightly_ctx *,
				const struct nightly_result *, size_t, int,
				FILE *),
		      const struct nightly_ctx *c,
		      const struct nightly_result *res, size_t n, int code)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%.4000s/%s", dir, name);
	text = render(fn, c, res, n, code, &len, &ret);
	if (!ret)
		ret = fsio_write_atomic(path, text, len);
	free(text);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	return ret;
}

int nightly_summary_write(const struct nightly_ctx *c,
			  const struct nightly_result *res, size_t n,
			  int exit_code, FILE *text_out)
{
	char dir[PATH_MAX], *text;
	size_t len;
	int ret;

	text = render(write_text, c, res, n, exit_code, &len, &ret);
	if (text)
		fwrite(text, 1, len, text_out);
	free(text);
	snprintf(dir, sizeof(dir), "%.3000s/%s", c->cfg->summary, c->started);
	ret = fsio_mkdir_p(dir, 0755);
	if (ret) {
		pr_err("%s: %s", dir, strerror(-ret));
		return ret;
	}
	ret = write_file(dir, "summary.txt", write_text, c, res, n, exit_code);
	if (!ret)
		ret = write_file(dir, "summary.html", write_html, c, res, n,
				 exit_code);
	if (!ret)
		ret = write_file(dir, "junit.xml", write_junit, c, res, n,
				 exit_code);
	if (!ret)
		ret = write_file(c->cfg->summary, "latest.txt", write_text, c,
				 res, n, exit_code);
	if (!ret)
		ret = write_file(c->cfg->summary, "latest-junit.xml",
				 write_junit, c, res, n, exit_code);
	if (!ret)
		ret = write_file(c->cfg->summary, "latest.html", write_html, c,
				 res, n, exit_code);
	if (!ret)
		pr_info("nightly: summary in %s/summary.{txt,html}, "
			"junit.xml", dir);
	return ret;
}
