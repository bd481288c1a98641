// SPDX-License-Identifier: GPL-2.0-only
/*
 * gnuplot draws the plots: the data and a script go into a private
 * temporary directory, one gnuplot process writes every SVG of a
 * comparison, and the SVGs are read back to be inlined into the HTML.
 * The directory goes on every path: gnuplot failing, hanging (a time
 * limit), or SIGINT, SIGTERM or SIGHUP arriving while it draws (they are
 * held until the directory is gone, then take their course).
 */
#include <errno.h>
#include <limits.h>
#include <dirent.h>
#include <stdarg.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/report/report.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "fsio.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"
#include "toolrun.h"

#define COLOR_BASE	"#1f5fa8"
/* A comparison's plots take gnuplot a second or two; a hung one stops. */
#define GNUPLOT_TIMEOUT_MS	300000
#define COLOR_CAND	"#d9480f"

struct plot_dir {
	char path[PATH_MAX];
	char files[96][64];
	size_t nfiles;
};

/*
 * A string of the script made from data (a scenario, a folder, a metric,
 * a unit): formatted, then quoted by text_gnuplot_quote(), never pasted.
 */
static void gp_str(FILE *gp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void gp_str(FILE *gp, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_gnuplot_quote(gp, buf);
}

static FILE *plot_open(struct plot_dir *d, const char *name)
{
	char path[PATH_MAX];

	if (d->nfiles == sizeof(d->files) / sizeof(d->files[0]) ||
	    rtpaths_fmt(path, sizeof(path), "%s/%s", d->path, name))
		return NULL;
	snprintf(d->files[d->nfiles++], sizeof(d->files[0]), "%s", name);
	return fopen(path, "w");
}

/*
 * The private directory goes whatever happened in it: what gnuplot wrote
 * before it failed (an SVG, half of one) included, not only our files.
 */
static void plot_dir_remove(struct plot_dir *d)
{
	char path[PATH_MAX];
	struct dirent *e;
	size_t i;
	DIR *dir;

	for (i = 0; i < d->nfiles; i++)
		if (!rtpaths_fmt(path, sizeof(path), "%s/%s", d->path,
				 d->files[i]))
			unlink(path);
	dir = opendir(d->path);
	while (dir && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !rtpaths_fmt(path, sizeof(path), "%s/%s", d->path,
				 e->d_name))
			unlink(path);
	if (dir)
		closedir(dir);
	if (rmdir(d->path))
		pr_warn("%s: not removed: %s", d->path, strerror(errno));
}

/* Pools one side's runs of CPU j. */
static int pool_cpu(const struct an_side *s, size_t j, struct an_cpu *pool)
{
	size_t r;
	int ret;

	memset(pool, 0, sizeof(*pool));
	pool->thread = j;
	for (r = 0; r < s->nruns; r++) {
		ret = an_cpu_pool(pool, &s->runs[r].cpus[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Samples per million of one side: each bucket a flat segment from i to
 * i + 1 us; an empty bucket ends the line (a blank line), so isolated
 * samples far out in the tail are not bridged.
 */
static int hist_data(struct plot_dir *d, const char *name,
		     const struct an_cpu *c)
{
	FILE *f = plot_open(d, name);
	uint32_t i;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nbuckets; i++) {
		uint32_t us = c->b[i].us;
		double y = 1e6 * c->b[i].n / c->cycles;

		/* A bucket not next to the last one: an empty gap between. */
		if (i && us != c->b[i - 1].us + 1)
			fputc('\n', f);
		fprintf(f, "%u %.6g\n%u %.6g\n", us, y, us + 1, y);
	}
	return fclose(f) ? -EIO : 0;
}

static double median_us(const struct an_cpu *c)
{
	bool ge;
	double v = an_cpu_quantile(c, 0.5, &ge);

	return isnan(v) ? 0 : v;
}

/*
 * The x axis always reaches both maxima, so their markers stand inside
 * the frame; what lies beyond the histogram's limit (samples counted, not
 * binned) is shaded and labelled.
 */
void an_plot_hist_xrange(const struct an_cpu *b, const struct an_cpu *k,
			 long *lo, long *hi, bool *log_x)
{
	long top = b->max_us > k->max_us ? b->max_us : k->max_us;

	/* A tail of host noise far from the body reads better on log x. */
	*log_x = top > 50 * (median_us(b) + 1);
	if (*log_x) {
		*lo = 1;
		*hi = (long)ceil(fmax(top * 1.3, 10));
	} else {
		*lo = 0;
		*hi = top + 2 + top / 20;
	}
}

static void hist_script(FILE *gp, size_t j, const struct an_cmp *c,
			const struct an_cpu *b, const struct an_cpu *k)
{
	long top = b->max_us > k->max_us ? b->max_us : k->max_us;
	uint32_t lim = b->limit < k->limit ? b->limit : k->limit;
	long xmin, xmax;
	bool log_x;

	fprintf(gp, "set output 'hist-%zu.svg'\n", j);
	fprintf(gp, "set title 'CPU %zu: latency histogram' noenhanced\n", j);
	fprintf(gp, "set xlabel 'latency (us)'\nset ylabel 'samples per "
		"million (log)'\nset logscale y\nset format y '10^{%%L}'\n");
	fprintf(gp, "set yrange [*:*]\n");
	fprintf(gp, "unset arrow\nunset label\nunset object\n");
	an_plot_hist_xrange(b, k, &xmin, &xmax, &log_x);
	if (log_x)
		fprintf(gp, "set logscale x\nset xrange [%ld:%ld]\n"
			"set xlabel 'latency (us, log)'\n", xmin, xmax);
	else
		fprintf(gp, "unset logscale x\nset xrange [%ld:%ld]\n", xmin,
			xmax);
	if (lim && top >= (long)lim) {
		fprintf(gp, "set object 1 rect from first %u, graph 0 to "
			"graph 1, graph 1 behind fc rgb '#eeeeee' fs solid "
			"noborder\n", lim);
	}
	fprintf(gp, "set arrow 1 from %ld, graph 0 to %ld, graph 1 nohead "
		"dt 2 lw 1.2 lc rgb '%s'\n", b->max_us, b->max_us, COLOR_BASE);
	fprintf(gp, "set arrow 2 from %ld, graph 0 to %ld, graph 1 nohead "
		"dt 2 lw 1.2 lc rgb '%s'\n", k->max_us, k->max_us, COLOR_CAND);
	if (b->overflows || k->overflows)
		fprintf(gp, "set label 1 'shaded: beyond the %u us histogram, "
			"%llu vs %llu samples' at graph 0.98, graph 0.04 right "
			"font ',9'\n", lim,
			(unsigned long long)b->overflows,
			(unsigned long long)k->overflows);
	fprintf(gp, "plot 'hist-%zu-b.dat' with lines lw 1.6 lc rgb '%s' "
		"title ", j, COLOR_BASE);
	gp_str(gp, "%s (max %ld)", c->base->name, b->max_us);
	fprintf(gp, " noenhanced, 'hist-%zu-c.dat' with lines lw 1.6 lc rgb "
		"'%s' title ", j, COLOR_CAND);
	gp_str(gp, "%s (max %ld)", c->cand->name, k->max_us);
	fprintf(gp, " noenhanced\n");
	fprintf(gp, "unset object 1\n");
}

/*
 * Maxima per repetition: x is the execution order when it is known (drift
 * shows), else the repetition number; one point per CPU, a line through
 * each run's overall maximum.
 */
static int maxima_data(struct plot_dir *d, const struct an_side *s,
		       const char *name, size_t ncpus, double shift)
{
	FILE *f = plot_open(d, name);
	size_t r, j;

	if (!f)
		return -EIO;
	for (r = 0; r < s->nruns; r++) {
		const struct an_run *run = &s->runs[r];
		double x = s->order_known && run->order >= 0 ?
			   run->order + 1 : run->rep + shift;
		long all = 0;

		fprintf(f, "%g", x);
		for (j = 0; j < ncpus; j++) {
			fprintf(f, " %ld", run->cpus[j].max_us);
			if (run->cpus[j].max_us > all)
				all = run->cpus[j].max_us;
		}
		fprintf(f, " %ld\n", all);
	}
	return fclose(f) ? -EIO : 0;
}

static void maxima_script(FILE *gp, const struct an_cmp *c, size_t ncpus)
{
	bool order = c->base->order_known && c->cand->order_known;
	size_t j;

	fprintf(gp, "set output 'maxima.svg'\nunset arrow\nunset label\n"
		"unset object\nunset logscale x\n"
		"set key outside right top vertical\n");
	fprintf(gp, "set title 'Maxima per repetition' noenhanced\n");
	fprintf(gp, "set xlabel '%s'\nset ylabel 'max latency (us, log)'\n",
		order ? "execution order" : "repetition");
	fprintf(gp, "set logscale y\nset format y '%%g'\nset autoscale\n"
		"set offsets 0.5, 0.5, 0, 0\nset xtics 1\n");
	fprintf(gp, "plot 'max-base.dat' using 1:%zu with linespoints pt 7 "
		"ps 1.3 lw 1.6 lc rgb '%s' title ", ncpus + 2, COLOR_BASE);
	gp_str(gp, "%s (all CPUs)", c->base->name);
	fprintf(gp, " noenhanced, 'max-cand.dat' using 1:%zu with linespoints "
		"pt 5 ps 1.3 lw 1.6 lc rgb '%s' title ", ncpus + 2, COLOR_CAND);
	gp_str(gp, "%s (all CPUs)", c->cand->name);
	fprintf(gp, " noenhanced");
	for (j = 0; j < ncpus && ncpus > 1; j++)
		fprintf(gp, ", 'max-base.dat' using 1:%zu with points pt %zu "
			"ps 0.7 lc rgb '%s' title 'CPU %zu', 'max-cand.dat' "
			"using 1:%zu with points pt %zu ps 0.7 lc rgb '%s' "
			"notitle", j + 2, 1 + j % 4, COLOR_BASE, j, j + 2,
			1 + j % 4, COLOR_CAND);
	fputc('\n', gp);
}

/*
 * Latency over time: one block per repetition (gnuplot's index), x the
 * second of its measurement, y that second's maximum over the CPUs; a
 * second without a sample breaks the line.
 */
static int series_data(struct plot_dir *d, const char *name,
		       const struct an_side *s)
{
	FILE *f = plot_open(d, name);
	size_t r, k;

	if (!f)
		return -EIO;
	for (r = 0; r < s->nruns; r++) {
		const struct an_run *run = &s->runs[r];

		for (k = 0; k < run->nseries; k++) {
			if (isnan(run->series_us[k]))
				fputc('\n', f);
			else
				fprintf(f, "%zu %.6g\n", k,
					fmax(run->series_us[k], 1));
		}
		/* Two blank lines end a block, even an empty one. */
		fprintf(f, "%s\n\n", run->nseries ? "" : "0 NaN\n");
	}
	return fclose(f) ? -EIO : 0;
}

static int spikes_data(struct plot_dir *d, const struct an_side *cand,
		       double thr, size_t *n)
{
	FILE *f = plot_open(d, "tl-spikes.dat");
	struct an_spike *sp;
	size_t i, total;

	if (!f)
		return -EIO;
	total = an_series_spikes(cand, thr, NULL, 0, NULL);
	sp = calloc(total ? total : 1, sizeof(*sp));
	if (!sp) {
		fclose(f);
		return -ENOMEM;
	}
	*n = an_series_spikes(cand, thr, sp, total, NULL);
	for (i = 0; i < *n; i++)
		fprintf(f, "%zu %.6g %d\n", sp[i].second, sp[i].us,
			sp[i].rep);
	if (!*n)
		fprintf(f, "0 NaN 0\n");
	free(sp);
	return fclose(f) ? -EIO : 0;
}

/* A line per repetition, dashed differently, the first four named. */
static void series_side(FILE *gp, const struct an_side *s, const char *file,
			const char *color, bool *first)
{
	size_t r;

	for (r = 0; r < s->nruns; r++) {
		fprintf(gp, "%s'%s' index %zu using 1:2 with linespoints "
			"pt 7 ps 0.35 lw 1.3 dt %zu lc rgb '%s' ",
			*first ? "plot " : ", ", file, r, 1 + r % 4, color);
		if (r < 4) {
			fprintf(gp, "title ");
			gp_str(gp, "%s rep %d", s->name, s->runs[r].rep);
			fprintf(gp, " noenhanced");
		} else
			fprintf(gp, "notitle");
		*first = false;
	}
}

static size_t series_seconds(const struct an_side *s)
{
	size_t r, n = 0;

	for (r = 0; s && r < s->nruns; r++)
		if (s->runs[r].nseries > n)
			n = s->runs[r].nseries;
	return n;
}

static int write_series_plot(struct plot_dir *d, FILE *gp,
			     const struct an_cmp *c)
{
	double ceiling, thr = an_series_threshold(c->base, &c->res.gate,
						   &ceiling);
	bool first = true;
	size_t n = 0, secs;
	int ret;

	ret = series_data(d, "tl-base.dat", c->base);
	if (!ret)
		ret = series_data(d, "tl-cand.dat", c->cand);
	if (!ret)
		ret = spikes_data(d, c->cand, thr, &n);
	if (ret)
		return ret;
	fprintf(gp, "set terminal svg size 1100,400 dynamic enhanced "
		"font 'sans,11' background rgb 'white'\n");
	fprintf(gp, "set output 'timeline.svg'\nunset arrow\nunset label\n"
		"unset object\nunset logscale x\nset autoscale\n"
		"set offsets 0, 0, 0, 0\n"
		"set key outside right top vertical\n");
	secs = series_seconds(c->base) > series_seconds(c->cand) ?
	       series_seconds(c->base) : series_seconds(c->cand);
	/* The frame ends at the last second, not at the next tic. */
	fprintf(gp, "set xrange [-0.3:%g]\nset xtics %s\n",
		secs ? secs - 0.7 : 1.0, secs <= 30 ? "1" : "autofreq");
	fprintf(gp, "set title 'Latency over time: the largest latency of "
		"each second (all CPUs)' noenhanced\n");
	fprintf(gp, "set xlabel 'seconds into the repetition'\n"
		"set ylabel 'per-second max (us, log)'\n"
		"set logscale y\nset format y '%%g'\n");
	if (!isnan(thr)) {
		fprintf(gp, "set arrow 1 from graph 0, first %.6g to graph 1, "
			"first %.6g nohead dt 2 lw 1.4 lc rgb '#c92a2a'\n",
			thr, thr);
		fprintf(gp, "set label 1 ");
		gp_str(gp, "spike threshold %.0f us: %s's worst second %.0f "
		       "us + floor", thr, c->base->name, ceiling);
		fprintf(gp, " at graph 0.01, first %.6g offset 0, 0.7 font "
			"',10' tc rgb '#c92a2a' noenhanced\n", thr);
	}
	series_side(gp, c->base, "tl-base.dat", COLOR_BASE, &first);
	series_side(gp, c->cand, "tl-cand.dat", COLOR_CAND, &first);
	if (!first && n)
		fprintf(gp, ", 'tl-spikes.dat' using 1:2 with points pt 6 "
			"ps 1.8 lw 2 lc rgb '#c92a2a' title '%zu spike "
			"second%s'", n, n == 1 ? "" : "s");
	fputc('\n', gp);
	return 0;
}

/* The workload metrics a comparison judges, each once. */
static size_t cmp_metrics(const struct an_cmp *c, const char **names,
			  size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < c->res.nlines && n < max; i++) {
		const struct an_line *l = &c->res.lines[i];

		if (l->kind != AN_LINE_METRIC)
			continue;
		for (k = 0; k < n && strcmp(names[k], l->metric); k++)
			;
		if (k == n)
			names[n++] = l->metric;
	}
	return n;
}

/*
 * A workload metric's rounds per repetition: x the repetition (its
 * execution order when known), each round a point spread a little around
 * it, and a line through the repetitions' medians (what is judged).
 */
static int metric_data(struct plot_dir *d, const char *file,
		       const struct an_side *s, const char *metric,
		       double shift, const char **unit)
{
	FILE *f = plot_open(d, file);
	size_t r, m, i;

	if (!f)
		return -EIO;
	for (r = 0; r < s->nruns; r++) {
		const struct an_run *run = &s->runs[r];
		double x = s->order_known && run->order >= 0 ?
			   run->order + 1 : run->rep;

		for (m = 0; m < run->nmetrics; m++) {
			const struct an_values *v = &run->metrics[m];

			if (strcmp(v->name, metric) || !v->n)
				continue;
			*unit = v->unit;
			for (i = 0; i < v->n; i++)
				fprintf(f, "%g %.6g %.6g\n", x + shift +
					0.12 * ((double)i / v->n - 0.5),
					v->v[i], an_median(v->v, v->n));
		}
	}
	return fclose(f) ? -EIO : 0;
}

static void metric_script(FILE *gp, size_t idx, const struct an_cmp *c,
			  const char *metric, const char *unit)
{
	bool order = c->base->order_known && c->cand->order_known;

	fprintf(gp, "set output 'metric-%zu.svg'\nunset arrow\nunset label\n"
		"unset object\nunset logscale x\nunset logscale y\n"
		"set key outside right top vertical\n", idx);
	fprintf(gp, "set title ");
	gp_str(gp, "%s per round", metric);
	fprintf(gp, " noenhanced\nset xlabel '%s'\nset ylabel ",
		order ? "execution order" : "repetition");
	gp_str(gp, "%s", unit);
	fprintf(gp, " noenhanced\n");
	fprintf(gp, "set format y '%%g'\nset autoscale\nset offsets 0.5, "
		"0.5, 0, 0\nset xtics 1\nset yrange [0:*]\n");
	fprintf(gp, "plot 'metric-%zu-b.dat' using 1:2 with points pt 7 ps "
		"0.6 lc rgb '%s' title ", idx, COLOR_BASE);
	gp_str(gp, "%s", c->base->name);
	fprintf(gp, " noenhanced, 'metric-%zu-c.dat' using 1:2 with points "
		"pt 5 ps 0.6 lc rgb '%s' title ", idx, COLOR_CAND);
	gp_str(gp, "%s", c->cand->name);
	fprintf(gp, " noenhanced, 'metric-%zu-b.dat' using 1:3 with lines "
		"lw 1.4 lc rgb '%s' title 'median per repetition', "
		"'metric-%zu-c.dat' using 1:3 with lines lw 1.4 lc rgb '%s' "
		"notitle\n", idx, COLOR_BASE, idx, COLOR_CAND);
}

static int write_metric_plots(struct plot_dir *d, FILE *gp,
			      const struct an_cmp *c, const char **names,
			      size_t n)
{
	const char *unit = "";
	char name[64];
	size_t k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++) {
		snprintf(name, sizeof(name), "metric-%zu-b.dat", k);
		ret = metric_data(d, name, c->base, names[k], -0.15, &unit);
		snprintf(name, sizeof(name), "metric-%zu-c.dat", k);
		if (!ret)
			ret = metric_data(d, name, c->cand, names[k], 0.15,
					  &unit);
		if (!ret)
			metric_script(gp, k, c, names[k], unit);
	}
	return ret;
}

static int run_gnuplot(struct plot_dir *d)
{
	char log[PATH_MAX];
	char *argv[] = { "gnuplot", "plots.gp", NULL };
	/* toolrun: gnuplot dies with us, whatever kills us. */
	struct toolrun r = {
		.argv = argv, .cwd = d->path, .out_path = log,
		.timeout_ms = GNUPLOT_TIMEOUT_MS, .stop_on_pending = true,
	};
	int status, ret;

	if (rtpaths_fmt(log, sizeof(log), "%s/gnuplot.log", d->path))
		return -ENAMETOOLONG;
	snprintf(d->files[d->nfiles++], sizeof(d->files[0]), "gnuplot.log");
	ret = toolrun(&r, &status);
	if (ret == -ETIMEDOUT)
		pr_warn("gnuplot did not finish in %d s: no plots",
			GNUPLOT_TIMEOUT_MS / 1000);
	if (ret)
		return ret;
	if (status) {
		pr_warn("gnuplot failed with exit %d: no plots", status);
		return -EIO;
	}
	return 0;
}

static int read_svg(struct plot_dir *d, const char *name, const char *title,
		    struct an_plots *out)
{
	char path[PATH_MAX], *buf, *svg;
	size_t len;
	int ret;

	if (rtpaths_fmt(path, sizeof(path), "%s/%s", d->path, name))
		return -ENAMETOOLONG;
	snprintf(d->files[d->nfiles++], sizeof(d->files[0]), "%s", name);
	ret = fsio_read_all(path, &buf, &len);
	if (ret)
		return ret;
	svg = strstr(buf, "<svg");
	if (!svg) {
		free(buf);
		return -EINVAL;
	}
	memmove(buf, svg, strlen(svg) + 1);
	out->svg[out->n] = buf;
	snprintf(out->title[out->n], sizeof(out->title[0]), "%s", title);
	out->n++;
	return 0;
}

static bool cmp_has_hist(const struct an_cmp *c, size_t j)
{
	const struct an_side *s[2] = { c->base, c->cand };
	size_t k, r;

	for (k = 0; k < 2; k++)
		for (r = 0; r < s[k]->nruns; r++)
			if (!an_cpu_has_hist(&s[k]->runs[r].cpus[j]))
				return false;
	return true;
}

static int write_plots(struct plot_dir *d, const struct an_cmp *c,
		       size_t ncpus, bool *drawn, const char **metrics,
		       size_t nmetrics)
{
	struct an_cpu pb, pc;
	char name[32];
	FILE *gp;
	size_t j;
	int ret = 0;

	gp = plot_open(d, "plots.gp");
	if (!gp)
		return -EIO;
	/*
	 * gnuplot runs in the directory (run_gnuplot()): the script names
	 * its data and its SVGs by name, never by a path, which may hold any
	 * byte (TMPDIR).
	 */
	fprintf(gp, "set terminal svg size 720,400 dynamic enhanced "
		"font 'sans,11' background rgb 'white'\n"
		"set grid\nset key top center\n");
	for (j = 0; j < ncpus && j < 32 && !ret; j++) {
		drawn[j] = cmp_has_hist(c, j);
		if (!drawn[j])
			continue;
		ret = pool_cpu(c->base, j, &pb);
		if (!ret)
			ret = pool_cpu(c->cand, j, &pc);
		snprintf(name, sizeof(name), "hist-%zu-b.dat", j);
		if (!ret)
			ret = hist_data(d, name, &pb);
		snprintf(name, sizeof(name), "hist-%zu-c.dat", j);
		if (!ret)
			ret = hist_data(d, name, &pc);
		if (!ret)
			hist_script(gp, j, c, &pb, &pc);
		an_cpu_release(&pb);
		an_cpu_release(&pc);
	}
	if (!ret && ncpus)
		ret = maxima_data(d, c->base, "max-base.dat", ncpus, -0.08);
	if (!ret && ncpus)
		ret = maxima_data(d, c->cand, "max-cand.dat", ncpus, 0.08);
	if (!ret && ncpus)
		maxima_script(gp, c, ncpus);
	if (!ret)
		ret = write_metric_plots(d, gp, c, metrics, nmetrics);
	if (!ret && (an_side_has_series(c->base) ||
		     an_side_has_series(c->cand)))
		ret = write_series_plot(d, gp, c);
	if (fclose(gp) && !ret)
		ret = -EIO;
	return ret;
}

int an_plot_cmp(const struct an_cmp *c, struct an_plots *out)
{
	struct plot_dir d = { 0 };
	const char *tmp = getenv("TMPDIR");
	bool drawn[32] = { false };
	const char *metrics[8];
	char name[32], title[96];
	size_t ncpus, nmetrics, j;
	sigset_t stop, old;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!c->base->nruns || !c->cand->nruns)
		return 0;
	ncpus = c->base->runs[0].ncpus < c->cand->runs[0].ncpus ?
		c->base->runs[0].ncpus : c->cand->runs[0].ncpus;
	nmetrics = cmp_metrics(c, metrics, 8);
	if (!ncpus && !nmetrics && !an_side_has_series(c->base) &&
	    !an_side_has_series(c->cand))
		return 0;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(d.path, sizeof(d.path), "%s/rtgate-plot.XXXXXX", tmp);
	/* A stop signal waits until the directory is gone (toolrun.h). */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	if (!mkdtemp(d.path)) {
		ret = -errno;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return ret;
	}
	ret = write_plots(&d, c, ncpus, drawn, metrics, nmetrics);
	if (!ret)
		ret = run_gnuplot(&d);
	for (j = 0; j < ncpus && j < 32 && !ret; j++) {
		if (!drawn[j])
			continue;
		snprintf(name, sizeof(name), "hist-%zu.svg", j);
		snprintf(title, sizeof(title), "CPU %zu latency histogram", j);
		ret = read_svg(&d, name, title, out);
	}
	if (!ret && ncpus)
		ret = read_svg(&d, "maxima.svg", "Maxima per repetition", out);
	for (j = 0; j < nmetrics && !ret; j++) {
		snprintf(name, sizeof(name), "metric-%zu.svg", j);
		snprintf(title, sizeof(title), "%.60s per round", metrics[j]);
		ret = read_svg(&d, name, title, out);
	}
	if (!ret && (an_side_has_series(c->base) ||
		     an_side_has_series(c->cand))) {
		ret = read_svg(&d, "timeline.svg", "Latency over time "
			       "(per-second maxima, spikes circled)", out);
		if (!ret)
			out->wide[out->n - 1] = true;
	}
	plot_dir_remove(&d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		an_plots_release(out);
	return ret;
}

void an_plots_release(struct an_plots *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->svg[i]);
	p->n = 0;
}
