// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dashboard: static HTML from the history database, one gnuplot SVG
 * per suite, host and scenario with the maximum and the p99.99 latency of
 * every night (OSADL's long-term latency plots are the model), nights that
 * regressed against their history marked, and every point a link to that
 * night's report. A scenario gated on a workload metric (ns per call, ns
 * per read) is trended on that metric instead: the median of its rounds
 * per run, their range as an error bar. Every run has an x position of
 * its own (runs of one day do not share one), labelled with its date, or
 * date and time when a day has several; scaled runs (--duration-scale)
 * are ringed and say so. Links are relative to the dashboard.
 *
 * gnuplot draws the plot with margins and ranges fixed by us, so the
 * position of every point is known here, and the HTML lays a transparent
 * layer of links over the picture: the SVG stays gnuplot's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analyze/analyze.h"
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "nightly/nightly_priv.h"
#include "parse.h"
#include "textfmt.h"

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
	/* A workload metric's trend (WORKLOAD.METRIC gate) instead of us. */
	char metric[96];
	char unit[16];
	double *mval, *mlo, *mhi;	/* per point: median, min, max; NAN */
	long *step;			/* history_series_steps() */
	bool any_scaled;
	size_t family;			/* history_night_family() of the
					 * latest night: the judge's own */
};

static time_t parse_time(const char *s)
{
	time_t t;

	return parse_utc_time(s, &t) ? (time_t)-1 : t;
}

static bool scaled(const struct history_point *pt)
{
	return fabs(pt->run.duration_scale - 1) > 1e-9;
}

/* The scenario's gate metric in a run's manifest (its own, else the
 * suite's); "" when the manifest has none. */
static void gate_metric(const cJSON *m, const char *scenario, char *buf,
			size_t len)
{
	const cJSON *s, *suite = cJSON_GetObjectItem(m, "suite");
	const char *metric = json_get_str(cJSON_GetObjectItem(suite, "gate"),
					  "metric", "");

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), scenario))
			metric = json_get_str(s, "metric", metric);
	snprintf(buf, len, "%s", metric);
}

static bool is_workload_metric(const char *metric)
{
	return an_metric_kind(metric) == AN_METRIC_WORKLOAD;
}

/* Median, min and max of a workload metric's rounds in one run. */
static void night_metric(struct history *h, struct plot *p, size_t i)
{
	struct history_rep_metric *m;
	double *all = NULL, *t;
	size_t n, k, cnt = 0;

	p->mval[i] = p->mlo[i] = p->mhi[i] = NAN;
	if (history_load_metrics(h, p->pts[i].run.id, p->key->scenario, &m,
				 &n))
		return;
	for (k = 0; k < n; k++) {
		if (strcmp(m[k].name, p->metric) || !m[k].n)
			continue;
		t = realloc(all, (cnt + m[k].n) * sizeof(*all));
		if (!t)
			break;
		all = t;
		memcpy(all + cnt, m[k].v, m[k].n * sizeof(*all));
		cnt += m[k].n;
		snprintf(p->unit, sizeof(p->unit), "%s", m[k].unit);
	}
	history_free_metrics(m, n);
	if (cnt) {
		gsl_sort(all, 1, cnt);
		p->mval[i] = gsl_stats_median_from_sorted_data(all, 1, cnt);
		p->mlo[i] = all[0];
		p->mhi[i] = all[cnt - 1];
	}
	free(all);
}

/* Quantiles of all CPUs and repetitions of the night, pooled. */
static void night_quantiles(struct history *h, struct history_point *pt,
			    const char *scenario, unsigned int limit)
{
	struct an_side *side = an_side_new("night");
	struct an_cpu acc = { 0 };
	size_t i, j;
	bool ge;

	pt->p9999_us = pt->p99_us = -1;
	if (!side)
		return;
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

/*
 * x is the run's position in the series (1..n), so that runs of one day
 * never share one; the labels carry the dates.
 */
static void ranges(struct plot *p)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	p->xmin = 0.5;
	p->xmax = p->n + 0.5;
	if (p->metric[0]) {
		for (i = 0; i < p->n; i++) {
			if (!isnan(p->mhi[i]))
				hi = fmax(hi, p->mhi[i]);
		}
		p->ymin = 0;
		p->ymax = hi > 0 ? hi * 1.25 : 1;
		return;
	}
	for (i = 0; i < p->n; i++) {
		if (p->pts[i].max_us > 0) {
			lo = fmin(lo, p->pts[i].max_us);
			hi = fmax(hi, p->pts[i].max_us);
		}
		if (p->pts[i].p9999_us > 0)
			lo = fmin(lo, p->pts[i].p9999_us);
		if (p->pts[i].p99_us > 0)
			lo = fmin(lo, p->pts[i].p99_us);
	}
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
	double f = p->metric[0] ? (v - p->ymin) / (p->ymax - p->ymin) :
		   (log(v) - log(p->ymin)) / (log(p->ymax) - log(p->ymin));

	return PLOT_H * (1 - (M_BOTTOM + f * (M_TOP - M_BOTTOM)));
}

/* The value a point's link sits on: max latency, or the metric. */
static double point_value(const struct plot *p, size_t i)
{
	return p->metric[0] ? p->mval[i] : p->pts[i].max_us;
}

static bool point_shown(const struct plot *p, size_t i)
{
	double v = point_value(p, i);

	return !isnan(v) && v > 0;
}

/*
 * "11-23"; "11-23 02:00" when the series has two runs on one day;
 * "11-23 02:00:41" when two share a minute.
 */
static void x_label(const struct plot *p, size_t i, char *buf, size_t len)
{
	const char *s = p->pts[i].run.start_time;
	bool same_day = false, same_min = false;
	size_t k;

	for (k = 0; k < p->n; k++) {
		if (k == i)
			continue;
		same_day |= !strncmp(p->pts[k].run.start_time, s, 10);
		same_min |= !strncmp(p->pts[k].run.start_time, s, 16);
	}
	if (strlen(s) < 19)
		snprintf(buf, len, "%s", s);
	else if (same_min)
		snprintf(buf, len, "%.5s %.8s", s + 5, s + 11);
	else if (same_day)
		snprintf(buf, len, "%.5s %.5s", s + 5, s + 11);
	else
		snprintf(buf, len, "%.5s", s + 5);
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

static void num_or_missing(FILE *f, double v)
{
	if (!isnan(v) && v > 0)
		fprintf(f, " %.6g", v);
	else
		fputs(" ?", f);
}

/* A run id as one word of the data file (it is only a comment there). */
static void data_word(FILE *f, const char *s)
{
	fputc(' ', f);
	if (!*s)
		fputc('-', f);
	for (; *s; s++)
		fputc(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			     "WXYZ0123456789-_.", *s) ? *s : '_', f);
}

static int write_data(const struct plot *p, const char *path)
{
	struct fsio_stream st;
	FILE *f;
	size_t i;

	if (fsio_stream_open(&st))
		return -ENOMEM;
	f = st.f;
	fprintf(f, "# x max_us p99.99_us regression run_id p99_us judged "
		"scaled metric_median metric_min metric_max\n");
	for (i = 0; i < p->n; i++) {
		const struct history_point *pt = &p->pts[i];

		fprintf(f, "%zu", i + 1);
		num_or_missing(f, pt->max_us);
		num_or_missing(f, pt->p9999_us);
		fprintf(f, " %d", is_regression(pt));
		data_word(f, pt->run.run_id);
		num_or_missing(f, pt->p99_us);
		num_or_missing(f, p->metric[0] ? p->mval[i] :
			       judged_value(pt));
		fprintf(f, " %d", scaled(pt));
		num_or_missing(f, p->metric[0] ? p->mval[i] : NAN);
		num_or_missing(f, p->metric[0] ? p->mlo[i] : NAN);
		num_or_missing(f, p->metric[0] ? p->mhi[i] : NAN);
		fputc('\n', f);
	}
	return fsio_stream_commit(&st, path, 0);
}

static void script_xtics(FILE *f, const struct plot *p)
{
	size_t i, every = p->n > 24 ? (p->n + 23) / 24 : 1;
	char label[32];

	fprintf(f, "set xtics (");
	for (i = 0; i < p->n; i++) {
		if (i % every && i != p->n - 1)
			continue;
		x_label(p, i, label, sizeof(label));
		fputs(i ? ", " : "", f);
		text_gnuplot_quote(f, label);
		fprintf(f, " %zu", i + 1);
	}
	fprintf(f, ") rotate by -35 font ',9'\n");
}

/*
 * A file of the plot, by name: gnuplot runs in the dashboard's folder
 * (run_gnuplot()), so no path -- which may hold any byte -- is in the
 * script. Quoted all the same (text_gnuplot_quote).
 */
static void gp_path(FILE *f, const char *slug, const char *ext)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", slug, ext);
	text_gnuplot_quote(f, buf);
}

/* @svg: the file gnuplot writes (a temporary name, renamed after). */
static int write_script(const struct plot *p, const char *path,
			const char *svg)
{
	struct fsio_stream st;
	char buf[256];
	FILE *f;
	size_t i;

	if (fsio_stream_open(&st))
		return -ENOMEM;
	f = st.f;
	fprintf(f, "set terminal svg size %d,%d font 'sans,11' "
		"background rgb 'white'\n", PLOT_W, PLOT_H);
	fputs("set output ", f);
	text_gnuplot_quote(f, svg);
	fputc('\n', f);
	fprintf(f, "set lmargin at screen %g\nset rmargin at screen %g\n"
		"set bmargin at screen %g\nset tmargin at screen %g\n",
		M_LEFT, M_RIGHT, M_BOTTOM, M_TOP);
	fprintf(f, "set xrange [%g:%g]\n", p->xmin, p->xmax);
	script_xtics(f, p);
	if (p->metric[0]) {
		fprintf(f, "set yrange [%g:%g]\nset ylabel ", p->ymin,
			p->ymax);
		snprintf(buf, sizeof(buf), "%s (%s)", p->metric,
			 p->unit[0] ? p->unit : "?");
		text_gnuplot_quote(f, buf);
		fputs(" noenhanced\n", f);
	} else
		fprintf(f, "set logscale y\nset yrange [%g:%g]\n"
			"set ylabel 'latency (us)'\n", p->ymin, p->ymax);
	fprintf(f, "set grid\nset key at screen 0.53, 0.985 center top "
		"horizontal\nset datafile missing '?'\n");
	/* A dashed line where a regression starts: the changepoint (a
	 * step that stays: the night it began). */
	for (i = 0; i < p->n; i++)
		if (p->step[i] >= 0)
			fprintf(f, "set arrow from %zu, graph 0 to %zu, "
				"graph 1 nohead dt 2 lw 1.5 lc rgb '#d62728'\n"
				"set label 'step' at %zu, graph 0.96 offset "
				"0.5,0 tc rgb '#d62728'\n", i + 1, i + 1, i + 1);
	fputs("plot ", f);
	gp_path(f, p->slug, ".dat");
	if (p->metric[0])
		fprintf(f, " using 1:9:10:11 with yerrorbars "
			"pt 7 ps 0.9 lc rgb '#1f77b4' title 'median of the "
			"rounds (bars: min..max)', \\\n"
			"  '' using 1:9 with lines lc rgb '#1f77b4' notitle");
	else
		fprintf(f, " using 1:2 with linespoints pt 7 "
			"ps 0.9 lc rgb '#1f77b4' title 'max', \\\n"
			"  '' using 1:3 with linespoints pt 5 ps 0.8 lc rgb "
			"'#2ca02c' title 'p99.99', \\\n"
			"  '' using 1:6 with linespoints pt 13 ps 0.8 lc rgb "
			"'#9467bd' title 'p99'");
	if (p->any_scaled)
		fprintf(f, ", \\\n  '' using 1:($8 > 0 ? $%d : 1/0) with "
			"points pt 6 ps 2.4 lw 1.5 lc rgb '#ff7f0e' title "
			"'scaled run (--duration-scale)'", p->metric[0] ? 9 : 2);
	fprintf(f, ", \\\n  '' using 1:($4 > 0 ? $7 : 1/0) with points "
		"pt 9 ps 2.2 lc rgb '#d62728' title 'regression vs history'\n");
	return fsio_stream_commit(&st, path, 0);
}

/* A plot takes gnuplot well under a second; a hung one is stopped. */
#define GNUPLOT_TIMEOUT_MS	120000

/* SIGINT, SIGTERM or SIGHUP, held by build_plot(), is waiting. */
static bool stop_pending(void)
{
	sigset_t set;

	return !sigpending(&set) && (sigismember(&set, SIGINT) == 1 ||
				     sigismember(&set, SIGTERM) == 1 ||
				     sigismember(&set, SIGHUP) == 1);
}

/* gnuplot @script (a name in @dir) in @dir, its messages into @log. */
static int run_gnuplot(const char *dir, const char *script, const char *log)
{
	int status, waited;
	pid_t pid;

	/*
	 * The child's freopen() flushes what it inherited: unflushed, the
	 * nightly's summary (stdout to a file: cron, a test) came out once
	 * more per plot.
	 */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* The log is no link to write through (docs/exports.md). */
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			      O_CLOEXEC, 0644);
		sigset_t none;

		/* The stop signals build_plot() holds are not gnuplot's. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    !freopen("/dev/null", "w", stdout) || chdir(dir))
			_exit(127);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	/* A stop signal build_plot() holds, or a hung gnuplot, stops it. */
	for (waited = 0;; waited += 20) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (stop_pending() || waited >= GNUPLOT_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			if (waited >= GNUPLOT_TIMEOUT_MS)
				pr_err("gnuplot did not finish %s/%s in %d s",
				       dir, script, GNUPLOT_TIMEOUT_MS / 1000);
			return waited >= GNUPLOT_TIMEOUT_MS ? -ETIMEDOUT :
							      -EINTR;
		}
		usleep(20000);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		pr_err("gnuplot not found (install gnuplot-nox)");
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_err("gnuplot failed on %s/%s (see %s)", dir, script, log);
		return -EIO;
	}
	return 0;
}

/*
 * The link of a point: REPORT_URL/RUN/report.html, else the run's report
 * (or manifest) relative to the dashboard, so the pages still link when
 * results/ and the dashboard are served or copied together.
 */
static void point_link(const struct nightly_dashboard_params *dp,
		       const struct history_point *pt, char *buf, size_t len)
{
	char target[PATH_MAX + 32];

	if (dp->report_url) {
		snprintf(buf, len, "%s/%s/report.html", dp->report_url,
			 pt->run.run_id);
		return;
	}
	if (pt->report[0])
		snprintf(target, sizeof(target), "%s", pt->report);
	else
		snprintf(target, sizeof(target), "%s/manifest.json",
			 pt->run.results_dir);
	if (fsio_relpath(dp->out_dir, target, buf, len))
		snprintf(buf, len, "%s", target);
}

static void html_plot(FILE *f, const struct nightly_dashboard_params *dp,
		      const struct plot *p)
{
	char link[PATH_MAX + 64];
	size_t i;

	fprintf(f, "<section class=\"plot\" id=\"%s\">\n<h2>", p->slug);
	text_xml_escape(f, p->key->suite);
	fputs(" / ", f);
	text_xml_escape(f, p->key->scenario);
	fputs(" <small>on ", f);
	text_xml_escape(f, p->key->host);
	if (p->metric[0]) {
		fputs(", ", f);
		text_xml_escape(f, p->metric);
	}
	fprintf(f, "</small></h2>\n<div class=\"frame\" style=\"width:%dpx;"
		"height:%dpx\">\n<img src=\"%s.svg\" width=\"%d\" height=\"%d\""
		" alt=\"", PLOT_W, PLOT_H, p->slug, PLOT_W, PLOT_H);
	text_xml_escape(f, p->metric[0] ? p->metric : "max and p99.99 latency");
	fprintf(f, " per run\">\n<svg class=\"links\" width=\"%d\" "
		"height=\"%d\">\n", PLOT_W, PLOT_H);
	for (i = 0; i < p->n; i++) {
		const struct history_point *pt = &p->pts[i];

		if (!point_shown(p, i))
			continue;
		point_link(dp, pt, link, sizeof(link));
		fprintf(f, "<a class=\"point%s%s\" href=\"",
			is_regression(pt) ? " regression" : "",
			scaled(pt) ? " scaled" : "");
		text_xml_escape(f, link);
		/* A regression's ring is on its triangle: the judged line. */
		fprintf(f, "\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>"
			"<title>", px_x(p, i + 1),
			px_y(p, is_regression(pt) && !p->metric[0] ?
			     judged_value(pt) : point_value(p, i)));
		text_xml_escape(f, pt->run.run_id);
		if (p->metric[0]) {
			fputs(": ", f);
			text_xml_escape(f, p->metric);
			fprintf(f, " %.6g ", p->mval[i]);
			text_xml_escape(f, p->unit);
		} else
			fprintf(f, ": max %.0f us", pt->max_us);
		if (scaled(pt))
			fprintf(f, ", scaled run x%g", pt->run.duration_scale);
		if (pt->verdict[0]) {
			fputs(", ", f);
			text_xml_escape(f, pt->verdict);
			fputs(" vs history", f);
		}
		fputs("</title></a>\n", f);
	}
	fputs("</svg>\n</div>\n", f);
}

/*
 * The gate of the latest run as its manifest states it, read as the
 * analyzer reads it (its defaults where the manifest says nothing).
 */
static void gate_of(struct history *h, const struct history_point *pt,
		    struct an_gate *gate)
{
	cJSON *m = NULL;
	char *text;

	if (!history_run_manifest(h, pt->run.id, &text)) {
		m = cJSON_Parse(text);
		free(text);
	}
	an_gate_of_manifest(m, gate);
	cJSON_Delete(m);
}

static bool is_alarm(const struct history_point *pt)
{
	return !strcmp(pt->verdict, "REGRESSION") ||
	       !strcmp(pt->verdict, "IMPROVEMENT");
}

static bool is_held(const struct history_point *pt)
{
	return !strcmp(pt->verdict, "INCONCLUSIVE") &&
	       !strncmp(pt->reason, "tonight alone", 13);
}

/*
 * The morning's questions, per board and scenario: the last alarm with
 * its evidence (the verdict's reason, the kernel, the night its step
 * began), and what the next night would have to show.
 */
static void html_alarm(FILE *f, struct history *h,
		       const struct nightly_dashboard_params *dp,
		       const struct plot *p)
{
	const struct history_point *last = &p->pts[p->n - 1], *a = NULL;
	unsigned int k = dp->history ? dp->history : 7;
	struct an_gate gate;
	double bar, *v;
	size_t i, nv = 0;
	bool metric = p->metric[0] != 0;

	for (i = p->n; i-- > 0 && !a;)
		if (is_alarm(&p->pts[i]) || is_held(&p->pts[i]))
			a = &p->pts[i];
	fputs("<div class=\"alarm\"><b>Last alarm:</b> ", f);
	if (!a) {
		fprintf(f, "none in %zu night%s.", p->n, p->n == 1 ? "" : "s");
	} else {
		fprintf(f, "<span class=\"v-%s\">%s</span> %s ",
			is_held(a) ? "held" : a->verdict, is_held(a) ?
			"held (INCONCLUSIVE)" : a->verdict,
			a->since_run[0] ? "since the night" : "on");
		text_xml_escape(f, a->since_run[0] ? a->since_run :
				a->run.run_id);
		if (a->since_run[0]) {
			fputs(" (judged on ", f);
			text_xml_escape(f, a->run.run_id);
			fputs(")", f);
		}
		fputs(", kernel ", f);
		text_xml_escape(f, a->run.kernel_release);
		fputs(": <span class=\"evidence\">", f);
		text_xml_escape(f, a->reason);
		fputs("</span>", f);
	}
	fputs("</div>\n<div class=\"next\"><b>The next night:</b> ", f);
	if (is_held(last)) {
		fputs("decides. Tonight rose alone; a night again beyond the "
		      "nights before it on that line makes it a REGRESSION "
		      "dated to ", f);
		text_xml_escape(f, last->run.run_id);
		fputs("; a night back among them says it was a burst.", f);
	} else if (is_alarm(last) && last->since_run[0]) {
		fprintf(f, "the step since %s stays %s until the nights since "
			"it are the baseline (%u nights); a night back among "
			"the nights before it would say it went away.",
			last->since_run, last->verdict, k);
	} else {
		v = calloc(p->n, sizeof(*v));
		for (i = 0; v && i < p->n; i++)
			if (!scaled(&p->pts[i]))
				v[nv++] = metric ? p->mval[i] :
					  p->pts[i].p99_us;
		gate_of(h, last, &gate);
		/* Its share as the judge gave it the latest night. */
		bar = v ? history_nights_bar(v, nv, k,
					      an_alpha_share(gate.alpha,
							     p->family),
					      gate.min_increase_us,
					      gate.min_increase_pct, !metric,
					      false) : NAN;
		if (isnan(bar))
			fputs("too few nights yet to say (3 or more).", f);
		else
			fprintf(f, "to be a step, the next two nights would "
				"need %s %s %.4g %s (their mean, against the "
				"mean and scatter of the last %u nights at "
				"alpha %.2g shared by %zu scenarios; each "
				"beyond the gate's floor too).", metric ?
				p->metric : "a p99 (all CPUs pooled)",
				"above", bar,
				metric ? p->unit : "us", nv < k ?
				(unsigned int)nv : k, gate.alpha, p->family);
		free(v);
	}
	fputs("</div>\n", f);
}

static void cell(FILE *f, double v, bool ge)
{
	if (isnan(v) || v <= 0)
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%s%.6g</td>", ge ? "&ge; " : "", v);
}

static void html_table(FILE *f, const struct nightly_dashboard_params *dp,
		       const struct plot *p)
{
	char link[PATH_MAX + 64];
	size_t i;

	fputs("<table>\n<tr><th>run started (UTC)</th><th>run</th>"
	      "<th>kernel</th>", f);
	if (p->metric[0]) {
		fputs("<th>median (", f);
		text_xml_escape(f, p->unit[0] ? p->unit : "?");
		fputs(")</th><th>min</th><th>max</th>", f);
	} else
		fputs("<th>max (us)</th><th>p99.99 (us)</th><th>p99 (us)</th>",
		      f);
	fputs("<th>scale</th><th>vs history</th></tr>\n", f);
	for (i = p->n; i-- > 0;) {
		const struct history_point *pt = &p->pts[i];

		point_link(dp, pt, link, sizeof(link));
		fprintf(f, "<tr class=\"%s%s\"><td>", is_regression(pt) ?
			"regression" : "", scaled(pt) ? " scaled" : "");
		snprintf(link, sizeof(link), "%.10s %.5s", pt->run.start_time,
			 strlen(pt->run.start_time) > 11 ?
			 pt->run.start_time + 11 : "");
		text_xml_escape(f, link);
		fputs("</td><td><a href=\"", f);
		text_xml_escape(f, link);
		fputs("\">", f);
		text_xml_escape(f, pt->run.run_id);
		fputs("</a></td><td>", f);
		text_xml_escape(f, pt->run.kernel_release);
		fputc(' ', f);
		text_xml_escape(f, pt->run.kernel_version);
		fputs("</td>", f);
		if (p->metric[0]) {
			cell(f, p->mval[i], false);
			cell(f, p->mlo[i], false);
			cell(f, p->mhi[i], false);
		} else {
			cell(f, pt->max_us, false);
			cell(f, pt->p9999_us, pt->p9999_lower_bound);
			cell(f, pt->p99_us, false);
		}
		if (scaled(pt))
			fprintf(f, "<td>x%g (scaled)</td><td>",
				pt->run.duration_scale);
		else
			fputs("<td>x1</td><td>", f);
		text_xml_escape(f, pt->verdict[0] ? pt->verdict : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

/*
 * The name of a plot's files and of its section's id: suite--host--
 * scenario made safe, each at most 60 characters. Two keys can come out
 * alike ("a b" and "a_b", a suite "q--x" and a host "x--h", two long
 * names alike in their first 60): the later gets -2, -3 ... so that no
 * plot overwrites another's files or repeats its id. @slugs holds the
 * @n taken before.
 */
static void slugify(const struct history_key *k, char (*slugs)[400],
		    size_t n, char *buf, size_t len)
{
	char base[400];
	size_t i, k2 = 1;

	/* A file name, with .svg.tmp.PID after it, within NAME_MAX (255). */
	snprintf(base, sizeof(base), "%.60s--%.60s--%.60s", k->suite,
		 k->host, k->scenario);
	for (i = 0; base[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			    "WXYZ0123456789-_.", base[i]))
			base[i] = '_';
	snprintf(buf, len, "%s", base);
	for (i = 0; i < n; i++)
		if (!strcmp(slugs[i], buf)) {
			snprintf(buf, len, "%.370s-%zu", base, ++k2);
			i = (size_t)-1;	/* again, against every one */
		}
}

/* One run's numbers: its pooled quantiles, or its workload metric. */
static int night(struct history *h, struct plot *p, size_t i)
{
	unsigned int limit = 0;
	char metric[96] = "";
	char *text;
	cJSON *m;

	p->t[i] = parse_time(p->pts[i].run.start_time);
	if (!history_run_manifest(h, p->pts[i].run.id, &text)) {
		m = cJSON_Parse(text);
		limit = history_manifest_limit(m);
		gate_metric(m, p->key->scenario, metric, sizeof(metric));
		cJSON_Delete(m);
		free(text);
	}
	/* The newest run's gate decides what the plot trends. */
	if (is_workload_metric(metric))
		snprintf(p->metric, sizeof(p->metric), "%s", metric);
	else if (i == p->n - 1)
		p->metric[0] = '\0';
	p->any_scaled |= scaled(&p->pts[i]);
	night_quantiles(h, &p->pts[i], p->key->scenario, limit);
	return 0;
}

static int build_plot(struct history *h, const struct nightly_dashboard_params *dp,
		      struct plot *p, FILE *html)
{
	char dat[PATH_MAX], gp[PATH_MAX], log[PATH_MAX];
	char svg[PATH_MAX], tmp[PATH_MAX + 64];
	sigset_t stop, old;
	size_t i;
	int ret;

	ret = history_series(h, p->key->suite, p->key->host, p->key->scenario,
			     &p->pts, &p->n);
	if (ret || !p->n)
		return ret;
	ret = history_night_family(h, p->pts[p->n - 1].run.id, &p->family);
	if (ret)
		return ret;
	p->t = calloc(p->n, sizeof(*p->t));
	p->mval = calloc(p->n, sizeof(double));
	p->mlo = calloc(p->n, sizeof(double));
	p->mhi = calloc(p->n, sizeof(double));
	p->step = calloc(p->n, sizeof(*p->step));
	if (!p->t || !p->mval || !p->mlo || !p->mhi || !p->step)
		return -ENOMEM;
	history_series_steps(p->pts, p->n, p->step);
	for (i = 0; i < p->n; i++)
		night(h, p, i);
	for (i = 0; i < p->n; i++) {
		if (p->metric[0])
			night_metric(h, p, i);
		else
			p->mval[i] = p->mlo[i] = p->mhi[i] = NAN;
	}
	ranges(p);
	snprintf(dat, sizeof(dat), "%.3000s/%s.dat", dp->out_dir, p->slug);
	snprintf(gp, sizeof(gp), "%.3000s/%s.gp", dp->out_dir, p->slug);
	snprintf(log, sizeof(log), "%.3000s/%s.log", dp->out_dir, p->slug);
	snprintf(svg, sizeof(svg), "%.3000s/%s.svg", dp->out_dir, p->slug);
	/* gnuplot writes a fresh name; the rename replaces, never follows. */
	snprintf(tmp, sizeof(tmp), "%s" FSIO_TMP_INFIX "%d", svg,
		 (int)getpid());
	ret = write_data(p, dat);
	if (!ret)
		ret = write_script(p, gp, strrchr(tmp, '/') + 1);
	/*
	 * SIGINT, SIGTERM and SIGHUP wait while gnuplot writes the
	 * temporary SVG: it is renamed or removed first, then they act.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	if (!ret)
		ret = run_gnuplot(dp->out_dir, strrchr(gp, '/') + 1, log);
	if (!ret && rename(tmp, svg))
		ret = -errno;
	if (ret)
		unlink(tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return ret;
	unlink(log);
	html_plot(html, dp, p);
	html_alarm(html, h, dp, p);
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
	"tr.regression td{background:#fde0e0}"
	".alarm,.next{margin:.6em 0;padding:.4em .8em;max-width:60em;"
	"border-left:4px solid #999;background:#f6f6f6}"
	".alarm .v-REGRESSION{color:#d62728;font-weight:bold}"
	".alarm .v-held{color:#a05a00;font-weight:bold}"
	".alarm .evidence{font-family:monospace;font-size:.9em}"
	"tr.scaled td{color:#a05a00}"
	"table.boards td.incomplete,table.boards td.aborted{background:#fde0e0}";

/* Counts the plots the browser actually rendered (checked by the tests). */
static const char script[] =
	"window.addEventListener('load',function(){var n=0;"
	"document.querySelectorAll('.frame img').forEach(function(i){"
	"if(i.complete&&i.naturalWidth>0)n++;});"
	"document.body.setAttribute('data-plots-rendered',n);});";

int nightly_dashboard_build(const struct nightly_dashboard_params *dp)
{
	char path[PATH_MAX], now[32];
	struct fsio_stream st;
	struct history_key *keys = NULL;
	char (*slugs)[400] = NULL;
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
	ret = history_open_existing(&h, dp->database);
	if (ret)
		return ret;
	{
		struct history_judge_params jp = {
			.history = dp->history, .reference = dp->reference,
			.intended = dp->intended,
			.store = true,
		};

		ret = history_judge_missing(&h, &jp, false);
	}
	if (!ret)
		ret = history_keys(&h, &keys, &nk);
	if (!ret) {
		slugs = calloc(nk ? nk : 1, sizeof(*slugs));
		if (!slugs)
			ret = -ENOMEM;
	}
	if (ret)
		goto out;
	/* Written whole or not at all: no index.html.tmp left on failure. */
	snprintf(path, sizeof(path), "%.4000s/index.html", dp->out_dir);
	ret = fsio_stream_open(&st);
	if (ret)
		goto out;
	f = st.f;
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>rtgate: latency per night</title>\n<style>%s</style>\n"
		"<script>%s</script></head>\n<body data-plots=\"%zu\">\n"
		"<h1>rtgate: latency per night</h1>\n<p>Maximum, p99.99 and "
		"p99 latency of every run (all CPUs and repetitions), per "
		"suite, host and scenario; a scenario gated on a workload "
		"metric (ns per call, ns per read) shows that metric. One x "
		"position per run. A red triangle, on the line of the "
		"metric the suite gates on: the run was a REGRESSION against "
		"its last %u runs; the dashed line: where that began. An "
		"orange ring: a scaled run (--duration-scale), shorter than "
		"the suite's, judged only against runs of its own scale. Every "
		"point links to its report. Built %s from ", style, script,
		nk, dp->history ? dp->history : 7, now);
	text_xml_escape(f, dp->database);
	fputs(".</p>\n", f);
	ret = nightly_boards_html(&h, f);
	for (i = 0; !ret && i < nk; i++) {
		memset(&p, 0, sizeof(p));
		p.key = &keys[i];
		slugify(p.key, slugs, i, p.slug, sizeof(p.slug));
		snprintf(slugs[i], sizeof(slugs[i]), "%s", p.slug);
		ret = build_plot(&h, dp, &p, f);
		free(p.pts);
		free(p.t);
		free(p.mval);
		free(p.mlo);
		free(p.mhi);
		free(p.step);
	}
	if (!nk)
		fputs("<p>No complete runs in the history yet.</p>\n", f);
	fputs("</body></html>\n", f);
	ret = fsio_stream_commit(&st, path, ret);
	if (ret)
		pr_err("%s: not written: %s", path, strerror(-ret));
out:
	free(slugs);
	free(keys);
	history_close(&h);
	return ret;
}
