// SPDX-License-Identifier: GPL-2.0-only
/*
 * gnuplot draws the plots: the data and a script go into a private
 * temporary directory, one gnuplot process writes every SVG of a
 * comparison, and the SVGs are read back to be inlined into the HTML.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze_hist.h"
#include "analyze_plot.h"
#include "analyze_util.h"
#include "fsio.h"
#include "log.h"
#include "toolrun.h"

#define COLOR_BASE	"#1f5fa8"
#define COLOR_CAND	"#d9480f"

struct plot_dir {
	char path[PATH_MAX];
	char files[96][64];
	size_t nfiles;
};

static FILE *plot_open(struct plot_dir *d, const char *name)
{
	char path[PATH_MAX];

	if (d->nfiles == sizeof(d->files) / sizeof(d->files[0]) ||
	    an_path_join(path, sizeof(path), d->path, name))
		return NULL;
	snprintf(d->files[d->nfiles++], sizeof(d->files[0]), "%s", name);
	return fopen(path, "w");
}

static void plot_dir_remove(struct plot_dir *d)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < d->nfiles; i++)
		if (!an_path_join(path, sizeof(path), d->path, d->files[i]))
			unlink(path);
	rmdir(d->path);
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
	bool gap = false;
	uint32_t i;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nhist; i++) {
		double y = 1e6 * c->hist[i] / c->cycles;

		if (!c->hist[i]) {
			if (!gap)
				fputc('\n', f);
			gap = true;
			continue;
		}
		fprintf(f, "%u %.6g\n%u %.6g\n", i, y, i + 1, y);
		gap = false;
	}
	return fclose(f) ? -EIO : 0;
}

static double median_us(const struct an_cpu *c)
{
	bool ge;
	double v = an_cpu_quantile(c, 0.5, &ge);

	return isnan(v) ? 0 : v;
}

static void hist_script(FILE *gp, size_t j, const struct an_cmp *c,
			const struct an_cpu *b, const struct an_cpu *k)
{
	long top = b->max_us > k->max_us ? b->max_us : k->max_us;
	uint32_t lim = b->limit < k->limit ? b->limit : k->limit;

	fprintf(gp, "set output 'hist-%zu.svg'\n", j);
	fprintf(gp, "set title 'CPU %zu: latency histogram' noenhanced\n", j);
	fprintf(gp, "set xlabel 'latency (us)'\nset ylabel 'samples per "
		"million (log)'\nset logscale y\nset format y '10^{%%L}'\n");
	/* A tail of host noise far from the body reads better on log x. */
	if (top > 50 * (median_us(b) + 1)) {
		fprintf(gp, "set logscale x\nset xrange [1:%ld]\n",
			(long)fmin(top * 1.2, lim + 2));
		fprintf(gp, "set xlabel 'latency (us, log)'\n");
	} else {
		fprintf(gp, "unset logscale x\nset xrange [0:%ld]\n",
			(long)fmin(top + 2, lim + 2));
	}
	fprintf(gp, "set yrange [*:*]\n");
	fprintf(gp, "unset arrow\nunset label\n");
	fprintf(gp, "set arrow 1 from %ld, graph 0 to %ld, graph 1 nohead "
		"dt 2 lw 1.2 lc rgb '%s'\n", b->max_us, b->max_us, COLOR_BASE);
	fprintf(gp, "set arrow 2 from %ld, graph 0 to %ld, graph 1 nohead "
		"dt 2 lw 1.2 lc rgb '%s'\n", k->max_us, k->max_us, COLOR_CAND);
	if (b->overflows || k->overflows)
		fprintf(gp, "set label 1 'beyond %u us: %llu vs %llu samples' "
			"at graph 0.98, graph 0.04 right\n", lim,
			(unsigned long long)b->overflows,
			(unsigned long long)k->overflows);
	fprintf(gp, "plot 'hist-%zu-b.dat' with lines lw 1.6 lc rgb '%s' "
		"title '%s (max %ld)' noenhanced, 'hist-%zu-c.dat' with lines "
		"lw 1.6 lc rgb '%s' title '%s (max %ld)' noenhanced\n", j,
		COLOR_BASE, c->base->name, b->max_us, j, COLOR_CAND,
		c->cand->name, k->max_us);
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
		"unset logscale x\n");
	fprintf(gp, "set title 'Maxima per repetition' noenhanced\n");
	fprintf(gp, "set xlabel '%s'\nset ylabel 'max latency (us, log)'\n",
		order ? "execution order" : "repetition");
	fprintf(gp, "set logscale y\nset format y '%%g'\nset autoscale\n"
		"set offsets 0.5, 0.5, 0, 0\nset xtics 1\n");
	fprintf(gp, "plot 'max-base.dat' using 1:%zu with linespoints pt 7 "
		"ps 1.3 lw 1.6 lc rgb '%s' title '%s (all CPUs)' noenhanced, "
		"'max-cand.dat' using 1:%zu with linespoints pt 5 ps 1.3 "
		"lw 1.6 lc rgb '%s' title '%s (all CPUs)' noenhanced",
		ncpus + 2,
		COLOR_BASE, c->base->name, ncpus + 2, COLOR_CAND,
		c->cand->name);
	for (j = 0; j < ncpus && ncpus > 1; j++)
		fprintf(gp, ", 'max-base.dat' using 1:%zu with points pt %zu "
			"ps 0.7 lc rgb '%s' title 'CPU %zu', 'max-cand.dat' "
			"using 1:%zu with points pt %zu ps 0.7 lc rgb '%s' "
			"notitle", j + 2, 1 + j % 4, COLOR_BASE, j, j + 2,
			1 + j % 4, COLOR_CAND);
	fputc('\n', gp);
}

static int run_gnuplot(struct plot_dir *d)
{
	char log[PATH_MAX], script[PATH_MAX];
	char *argv[] = { "gnuplot", script, NULL };
	int status, ret;

	if (an_path_join(log, sizeof(log), d->path, "gnuplot.log") ||
	    an_path_join(script, sizeof(script), d->path, "plots.gp"))
		return -ENAMETOOLONG;
	snprintf(d->files[d->nfiles++], sizeof(d->files[0]), "gnuplot.log");
	/* toolrun: gnuplot dies with us, whatever kills us. */
	ret = toolrun_simple(argv, NULL, log, &status);
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

	if (an_path_join(path, sizeof(path), d->path, name))
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
		       size_t ncpus, bool *drawn)
{
	struct an_cpu pb, pc;
	char name[32];
	FILE *gp;
	size_t j;
	int ret = 0;

	gp = plot_open(d, "plots.gp");
	if (!gp)
		return -EIO;
	/* The script finds its data and writes its SVGs beside itself. */
	fprintf(gp, "cd '%s'\n", d->path);
	fprintf(gp, "set terminal svg size 720,400 dynamic enhanced "
		"font 'sans,11' background rgb 'white'\n"
		"set grid\nset key top right\n");
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
	if (!ret)
		ret = maxima_data(d, c->base, "max-base.dat", ncpus, -0.08);
	if (!ret)
		ret = maxima_data(d, c->cand, "max-cand.dat", ncpus, 0.08);
	if (!ret)
		maxima_script(gp, c, ncpus);
	if (fclose(gp) && !ret)
		ret = -EIO;
	return ret;
}

int an_plot_cmp(const struct an_cmp *c, struct an_plots *out)
{
	struct plot_dir d = { 0 };
	const char *tmp = getenv("TMPDIR");
	bool drawn[32] = { false };
	char name[32], title[96];
	size_t ncpus, j;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!c->base->nruns || !c->cand->nruns)
		return 0;
	ncpus = c->base->runs[0].ncpus < c->cand->runs[0].ncpus ?
		c->base->runs[0].ncpus : c->cand->runs[0].ncpus;
	if (!ncpus)
		return 0;
	if (!tmp || !*tmp || strchr(tmp, '\''))
		tmp = "/tmp";
	snprintf(d.path, sizeof(d.path), "%s/rtgate-plot.XXXXXX", tmp);
	if (!mkdtemp(d.path))
		return -errno;
	ret = write_plots(&d, c, ncpus, drawn);
	if (!ret)
		ret = run_gnuplot(&d);
	for (j = 0; j < ncpus && j < 32 && !ret; j++) {
		if (!drawn[j])
			continue;
		snprintf(name, sizeof(name), "hist-%zu.svg", j);
		snprintf(title, sizeof(title), "CPU %zu latency histogram", j);
		ret = read_svg(&d, name, title, out);
	}
	if (!ret)
		ret = read_svg(&d, "maxima.svg", "Maxima per repetition", out);
	plot_dir_remove(&d);
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
