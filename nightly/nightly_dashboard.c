// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dashboard: static HTML from the history database, one gnuplot SVG
 * per suite, host and scenario with the maximum and the p99.99 latency of
 * every night (OSADL's long-term latency plots are the model), nights that
 * regressed against their history marked, and every point a link to that
 * night's report.
 *
 * gnuplot draws the plot with margins and ranges fixed by us, so the
 * position of every point is known here, and the HTML lays a transparent
 * layer of links over the picture: the SVG stays gnuplot's own.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/analyze_hist.h"
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"
#include "nightly/nightly.h"

/* The plot's geometry: pixels and margins (fractions of the screen). */
#define PLOT_W	900
#define PLOT_H	360
#define M_LEFT	0.09
#define M_RIGHT	0.97
#define M_BOTTOM 0.16
#define M_TOP	0.88

struct plot {
	const struct history_key *key;
	struct history_point *pts;
	size_t n;
	time_t *t;
	double xmin, xmax, ymin, ymax;
	char slug[400];
};

static void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static time_t parse_time(const char *s)
{
	struct tm tm = { 0 };

	if (!strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return (time_t)-1;
	return timegm(&tm);
}

/* Quantiles of all CPUs and repetitions of the night, pooled. */
static void night_quantiles(struct history *h, struct history_point *pt,
			    const char *scenario)
{
	struct an_side *side = an_side_new("night");
	struct an_cpu acc = { 0 };
	size_t i, j;
	bool ge;
	char *text;
	cJSON *m;
	unsigned int limit = 0;

	pt->p9999_us = pt->p99_us = -1;
	if (!side)
		return;
	if (!history_run_manifest(h, pt->run.id, &text)) {
		m = cJSON_Parse(text);
		limit = history_manifest_limit(m);
		cJSON_Delete(m);
		free(text);
	}
	if (history_side_add(side, h, pt->run.id, pt->run.run_id, scenario,
			     limit))
		goto out;
	for (i = 0; i < side->nruns; i++)
		for (j = 0; j < side->runs[i].ncpus; j++)
			if (an_cpu_pool(&acc, &side->runs[i].cpus[j]))
				goto out;
	pt->p9999_us = an_cpu_quantile(&acc, 0.9999, &pt->p9999_lower_bound);
	pt->p99_us = an_cpu_quantile(&acc, 0.99, &ge);
	if (isnan(pt->p9999_us))
		pt->p9999_us = -1;
	if (isnan(pt->p99_us))
		pt->p99_us = -1;
out:
	an_cpu_release(&acc);
	an_side_free(side);
}

static void ranges(struct plot *p)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	p->xmin = p->xmax = p->t[0];
	for (i = 0; i < p->n; i++) {
		if (p->t[i] < p->xmin)
			p->xmin = p->t[i];
		if (p->t[i] > p->xmax)
			p->xmax = p->t[i];
		if (p->pts[i].max_us > 0) {
			lo = fmin(lo, p->pts[i].max_us);
			hi = fmax(hi, p->pts[i].max_us);
		}
		if (p->pts[i].p9999_us > 0)
			lo = fmin(lo, p->pts[i].p9999_us);
		if (p->pts[i].p99_us > 0)
			lo = fmin(lo, p->pts[i].p99_us);
	}
	/* Half a day either side, so the first and last nights are inside. */
	p->xmin -= 43200;
	p->xmax += 43200;
	if (!isfinite(lo) || hi <= 0) {
		lo = 1;
		hi = 10;
	}
	p->ymin = fmax(0.5, lo / 2);
	p->ymax = hi * 2;
}

static double px_x(const struct plot *p, double t)
{
	return PLOT_W * (M_LEFT + (t - p->xmin) / (p->xmax - p->xmin) *
			 (M_RIGHT - M_LEFT));
}

static double px_y(const struct plot *p, double v)
{
	double f = (log(v) - log(p->ymin)) / (log(p->ymax) - log(p->ymin));

	return PLOT_H * (1 - (M_BOTTOM + f * (M_TOP - M_BOTTOM)));
}

static int is_regression(const struct history_point *pt)
{
	return !strcmp(pt->verdict, "REGRESSION");
}

/* Where a regression is marked: on the line of the metric it was judged on. */
static double judged_value(const struct history_point *pt)
{
	if (!strcmp(pt->metric, "p99") && pt->p99_us > 0)
		return pt->p99_us;
	if (!strcmp(pt->metric, "p99.99") && pt->p9999_us > 0)
		return pt->p9999_us;
	return pt->max_us;
}

static int write_data(const struct plot *p, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	fprintf(f, "# night(epoch) max_us p99.99_us regression run_id "
		"p99_us judged_us\n");
	for (i = 0; i < p->n; i++) {
		fprintf(f, "%lld %.1f ", (long long)p->t[i], p->pts[i].max_us);
		if (p->pts[i].p9999_us > 0)
			fprintf(f, "%.1f", p->pts[i].p9999_us);
		else
			fputc('?', f);
		fprintf(f, " %d %s ", is_regression(&p->pts[i]),
			p->pts[i].run.run_id);
		if (p->pts[i].p99_us > 0)
			fprintf(f, "%.1f ", p->pts[i].p99_us);
		else
			fputs("? ", f);
		fprintf(f, "%.1f\n", judged_value(&p->pts[i]));
	}
	return fclose(f) ? -errno : 0;
}

static int write_script(const struct plot *p, const char *dir,
			const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	fprintf(f, "set terminal svg size %d,%d font 'sans,11' "
		"background rgb 'white'\n", PLOT_W, PLOT_H);
	fprintf(f, "set output '%s/%s.svg'\n", dir, p->slug);
	fprintf(f, "set lmargin at screen %g\nset rmargin at screen %g\n"
		"set bmargin at screen %g\nset tmargin at screen %g\n",
		M_LEFT, M_RIGHT, M_BOTTOM, M_TOP);
	fprintf(f, "set xdata time\nset timefmt '%%s'\nset format x '%%m-%%d'\n"
		"set xrange ['%.0f':'%.0f']\n", p->xmin, p->xmax);
	fprintf(f, "set logscale y\nset yrange [%g:%g]\n", p->ymin, p->ymax);
	fprintf(f, "set ylabel 'latency (us)'\nset grid\nset key at screen "
		"0.53, 0.985 center top horizontal\nset datafile missing '?'\n");
	/* A dashed line where a regression starts: the changepoint. */
	for (i = 0; i < p->n; i++)
		if (is_regression(&p->pts[i]) &&
		    (!i || !is_regression(&p->pts[i - 1])))
			fprintf(f, "set arrow from '%lld', graph 0 to '%lld', "
				"graph 1 nohead dt 2 lw 1.5 lc rgb '#d62728'\n"
				"set label 'step' at '%lld', graph 0.96 offset "
				"0.5,0 tc rgb '#d62728'\n", (long long)p->t[i],
				(long long)p->t[i], (long long)p->t[i]);
	fprintf(f, "plot '%s/%s.dat' using 1:2 with linespoints pt 7 ps 0.9 "
		"lc rgb '#1f77b4' title 'max', \\\n"
		"  '' using 1:3 with linespoints pt 5 ps 0.8 lc rgb '#2ca02c' "
		"title 'p99.99', \\\n"
		"  '' using 1:6 with linespoints pt 13 ps 0.8 lc rgb '#9467bd' "
		"title 'p99', \\\n"
		"  '' using 1:($4 > 0 ? $7 : 1/0) with points pt 9 ps 2.2 "
		"lc rgb '#d62728' title 'regression vs history'\n",
		dir, p->slug);
	return fclose(f) ? -errno : 0;
}

static int run_gnuplot(const char *script, const char *log)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (!freopen(log, "w", stderr) || !freopen("/dev/null", "w",
							   stdout))
			_exit(127);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		pr_err("gnuplot not found (install gnuplot-nox)");
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_err("gnuplot failed on %s (see %s)", script, log);
		return -EIO;
	}
	return 0;
}

/* The link of a point: REPORT_URL/RUN/report.html, or the local file. */
static void point_link(const struct dashboard_params *dp,
		       const struct history_point *pt, char *buf, size_t len)
{
	if (dp->report_url)
		snprintf(buf, len, "%s/%s/report.html", dp->report_url,
			 pt->run.run_id);
	else if (pt->report[0])
		snprintf(buf, len, "file://%s", pt->report);
	else
		snprintf(buf, len, "file://%s/manifest.json",
			 pt->run.results_dir);
}

static void html_plot(FILE *f, const struct dashboard_params *dp,
		      const struct plot *p)
{
	char link[PATH_MAX + 64];
	size_t i;

	fprintf(f, "<section class=\"plot\" id=\"%s\">\n<h2>", p->slug);
	html_esc(f, p->key->suite);
	fputs(" / ", f);
	html_esc(f, p->key->scenario);
	fputs(" <small>on ", f);
	html_esc(f, p->key->host);
	fprintf(f, "</small></h2>\n<div class=\"frame\" style=\"width:%dpx;"
		"height:%dpx\">\n<img src=\"%s.svg\" width=\"%d\" height=\"%d\""
		" alt=\"max and p99.99 latency per night\">\n"
		"<svg class=\"links\" width=\"%d\" height=\"%d\">\n", PLOT_W,
		PLOT_H, p->slug, PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	for (i = 0; i < p->n; i++) {
		if (p->pts[i].max_us <= 0)
			continue;
		point_link(dp, &p->pts[i], link, sizeof(link));
		fprintf(f, "<a class=\"point%s\" href=\"",
			is_regression(&p->pts[i]) ? " regression" : "");
		html_esc(f, link);
		fprintf(f, "\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>"
			"<title>", px_x(p, p->t[i]), px_y(p, p->pts[i].max_us));
		html_esc(f, p->pts[i].run.run_id);
		fprintf(f, ": max %.0f us", p->pts[i].max_us);
		if (p->pts[i].verdict[0])
			fprintf(f, ", %s vs history", p->pts[i].verdict);
		fputs("</title></a>\n", f);
	}
	fputs("</svg>\n</div>\n", f);
}

static void html_table(FILE *f, const struct dashboard_params *dp,
		       const struct plot *p)
{
	char link[PATH_MAX + 64];
	size_t i;

	fputs("<table>\n<tr><th>night</th><th>run</th><th>kernel</th>"
	      "<th>max (us)</th><th>p99.99 (us)</th><th>p99 (us)</th>"
	      "<th>vs history</th></tr>\n",
	      f);
	for (i = p->n; i-- > 0;) {
		const struct history_point *pt = &p->pts[i];

		point_link(dp, pt, link, sizeof(link));
		fprintf(f, "<tr%s><td>%.10s</td><td><a href=\"",
			is_regression(pt) ? " class=\"regression\"" : "",
			pt->run.start_time);
		html_esc(f, link);
		fputs("\">", f);
		html_esc(f, pt->run.run_id);
		fputs("</a></td><td>", f);
		html_esc(f, pt->run.kernel_release);
		fputc(' ', f);
		html_esc(f, pt->run.kernel_version);
		fprintf(f, "</td><td>%.0f</td><td>%s%.0f</td><td>%.0f</td><td>",
			pt->max_us, pt->p9999_lower_bound ? "&ge; " : "",
			pt->p9999_us, pt->p99_us);
		html_esc(f, pt->verdict[0] ? pt->verdict : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

static void slugify(const struct history_key *k, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s--%s--%s", k->suite, k->host, k->scenario);
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			    "WXYZ0123456789-_.", buf[i]))
			buf[i] = '_';
}

static int build_plot(struct history *h, const struct dashboard_params *dp,
		      struct plot *p, FILE *html)
{
	char dat[PATH_MAX], gp[PATH_MAX], log[PATH_MAX];
	size_t i;
	int ret;

	ret = history_series(h, p->key->suite, p->key->host, p->key->scenario,
			     &p->pts, &p->n);
	if (ret || !p->n)
		return ret;
	p->t = calloc(p->n, sizeof(*p->t));
	if (!p->t)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		p->t[i] = parse_time(p->pts[i].run.start_time);
		night_quantiles(h, &p->pts[i], p->key->scenario);
	}
	ranges(p);
	slugify(p->key, p->slug, sizeof(p->slug));
	snprintf(dat, sizeof(dat), "%.3000s/%s.dat", dp->out_dir, p->slug);
	snprintf(gp, sizeof(gp), "%.3000s/%s.gp", dp->out_dir, p->slug);
	snprintf(log, sizeof(log), "%.3000s/%s.log", dp->out_dir, p->slug);
	ret = write_data(p, dat);
	if (!ret)
		ret = write_script(p, dp->out_dir, gp);
	if (!ret)
		ret = run_gnuplot(gp, log);
	if (ret)
		return ret;
	unlink(log);
	html_plot(html, dp, p);
	html_table(html, dp, p);
	return 0;
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}"
	".frame{position:relative}.frame img,.frame svg.links{position:absolute;"
	"left:0;top:0}svg.links circle{fill:transparent;cursor:pointer}"
	"svg.links a.regression circle{stroke:#d62728;stroke-width:2}"
	"table{border-collapse:collapse;margin-top:1em;font-size:.9em}"
	"td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
	"tr.regression td{background:#fde0e0}";

/* Counts the plots the browser actually rendered (checked by the tests). */
static const char script[] =
	"window.addEventListener('load',function(){var n=0;"
	"document.querySelectorAll('.frame img').forEach(function(i){"
	"if(i.complete&&i.naturalWidth>0)n++;});"
	"document.body.setAttribute('data-plots-rendered',n);});";

int dashboard_build(const struct dashboard_params *dp)
{
	char path[PATH_MAX], now[32];
	struct history_key *keys = NULL;
	struct plot p;
	struct history h;
	size_t nk = 0, i;
	time_t t = time(NULL);
	FILE *f;
	int ret;

	ret = fsio_mkdir_p(dp->out_dir, 0755);
	if (ret) {
		pr_err("%s: %s", dp->out_dir, strerror(-ret));
		return ret;
	}
	ret = history_open(&h, dp->database);
	if (ret)
		return ret;
	{
		struct history_judge_params jp = {
			.history = dp->history, .reference = dp->reference,
			.store = true,
		};

		ret = history_judge_missing(&h, &jp, false);
	}
	if (!ret)
		ret = history_keys(&h, &keys, &nk);
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%.4000s/index.html.tmp", dp->out_dir);
	f = fopen(path, "w");
	if (!f) {
		ret = -errno;
		pr_err("%s: %s", path, strerror(errno));
		goto out;
	}
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>rtgate: latency per night</title>\n<style>%s</style>\n"
		"<script>%s</script></head>\n<body data-plots=\"%zu\">\n"
		"<h1>rtgate: latency per night</h1>\n<p>Maximum, p99.99 and "
		"p99 latency of every night (all CPUs and repetitions), per "
		"suite, host and scenario. A red triangle, on the line of the "
		"metric the suite gates on: the night was a REGRESSION against "
		"its last %u nights; the dashed line: where that began. Every "
		"point links to its report. Built %s from ", style, script,
		nk, dp->history ? dp->history : 7, now);
	html_esc(f, dp->database);
	fputs(".</p>\n", f);
	for (i = 0; !ret && i < nk; i++) {
		memset(&p, 0, sizeof(p));
		p.key = &keys[i];
		ret = build_plot(&h, dp, &p, f);
		free(p.pts);
		free(p.t);
	}
	if (!nk)
		fputs("<p>No complete runs in the history yet.</p>\n", f);
	fputs("</body></html>\n", f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret) {
		char final[PATH_MAX];

		snprintf(final, sizeof(final), "%.4000s/index.html",
			 dp->out_dir);
		if (rename(path, final))
			ret = -errno;
	}
out:
	free(keys);
	history_close(&h);
	return ret;
}
