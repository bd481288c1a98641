// SPDX-License-Identifier: GPL-2.0-only
/*
 * A night is the unit (issue 36 item 2): tonight and the nights before it
 * as one series per line, and the change in it (history_priv.h).
 *
 * Each stored night becomes one value per line: a CPU's p99 of the
 * night's repetitions pooled, the CPU's worst wake-up of the night, the
 * CPU's p99 against the other CPUs' (a host's burst moves every CPU of a
 * night at once; a latency of the kernel or a spinner moves one), and a
 * workload's gate metric (the median of its rounds). The analyzer's
 * statistics do the rest (analyze.h, "A series of nights"): the split of
 * the series E-divisive finds among the last nights, and the nights since
 * it against the mean and the between-night variance of the K nights
 * before it. A change seen on tonight alone is held (one night is not a
 * step); seen on two nights or more it is a step, dated to its first
 * night. Only a change for the worse is looked for (a CPU against the
 * others falls when another CPU rises, which that CPU's line shows; and
 * the nightly asks whether the kernel got worse): each line is tested
 * one-sided at the scenario's share of alpha split over the lines (one
 * split a line: the one with the largest divergence), and every night
 * since the split must also be beyond the gate's practical floor from
 * the median of the nights before it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "analyze/analyze.h"
#include "history.h"
#include "history_priv.h"

#define LINES_MAX	48

struct night_line {
	char name[96];		/* "CPU 1 p99 against the other CPUs" */
	char unit[16];		/* "us", "x" (a ratio), a metric's */
	bool ratio, higher_better;
	int own;		/* a ratio line: the line of the CPU's p99 */
	double *v;		/* one value a night, NAN: none */
};

static double q99(const struct an_cpu *c)
{
	bool ge;

	return c->cycles ? an_cpu_quantile(c, 0.99, &ge) : NAN;
}

/* The median of the values of v[0..n) that are not NAN. */
static double median_of(const double *v, size_t n)
{
	double *w = malloc((n ? n : 1) * sizeof(*w)), m;
	size_t i, k = 0;

	if (!w)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			w[k++] = v[i];
	m = an_median(w, k);
	free(w);
	return m;
}

/* The lines of @s's nights (runs in night order, tonight last). */
static size_t make_lines(const struct an_side *s, const struct an_gate *gate,
			 struct night_line *l, size_t max)
{
	size_t ncpu = 0, n = s->nruns, i, j, k, nl = 0;
	bool metric = an_metric_kind(gate->metric) == AN_METRIC_WORKLOAD;

	for (i = 0; i < n; i++)
		if (s->runs[i].ncpus > ncpu)
			ncpu = s->runs[i].ncpus;
	if (metric && nl < max) {
		l[nl].v = calloc(n, sizeof(double));
		snprintf(l[nl].name, sizeof(l[nl].name), "%s", gate->metric);
		for (i = 0; i < n; i++) {
			const struct an_run *r = &s->runs[i];

			l[nl].v[i] = NAN;
			for (k = 0; k < r->nmetrics; k++)
				if (!strcmp(r->metrics[k].name, gate->metric)) {
					l[nl].v[i] = an_median(r->metrics[k].v,
							       r->metrics[k].n);
					snprintf(l[nl].unit, sizeof(l[nl].unit),
						 "%s", r->metrics[k].unit);
					l[nl].higher_better =
						r->metrics[k].higher_better;
				}
		}
		l[nl].own = -1;
		nl++;
	}
	for (j = 0; j < ncpu && nl + 3 <= max; j++) {
		struct night_line *p = &l[nl], *m = &l[nl + 1];

		p->v = calloc(n, sizeof(double));
		m->v = calloc(n, sizeof(double));
		for (i = 0; i < n; i++) {
			const struct an_run *r = &s->runs[i];

			p->v[i] = j < r->ncpus ? q99(&r->cpus[j]) : NAN;
			m->v[i] = j < r->ncpus && r->cpus[j].cycles ?
				  (double)r->cpus[j].max_us : NAN;
		}
		snprintf(p->name, sizeof(p->name), "CPU %d p99",
			 j < s->runs[n - 1].ncpus ?
			 s->runs[n - 1].cpus[j].cpu : (int)j);
		snprintf(m->name, sizeof(m->name), "CPU %d max",
			 j < s->runs[n - 1].ncpus ?
			 s->runs[n - 1].cpus[j].cpu : (int)j);
		snprintf(p->unit, sizeof(p->unit), "us");
		snprintf(m->unit, sizeof(m->unit), "us");
		p->own = m->own = -1;
		nl += 2;
	}
	/* Each CPU's p99 against the others': what one CPU alone did. */
	for (j = 0; ncpu > 1 && j < ncpu && nl < max; j++) {
		struct night_line *r = &l[nl];
		size_t pj = (metric ? 1 : 0) + 2 * j;
		double others[64];

		if (pj >= nl)
			break;
		r->v = calloc(n, sizeof(double));
		for (i = 0; i < n; i++) {
			size_t no = 0;

			for (k = 0; k < ncpu && no < 64; k++) {
				size_t pk = (metric ? 1 : 0) + 2 * k;

				if (k != j && pk < nl && !isnan(l[pk].v[i]))
					others[no++] = log1p(l[pk].v[i]);
			}
			r->v[i] = no && !isnan(l[pj].v[i]) ?
				  exp(log1p(l[pj].v[i]) -
				      an_median(others, no)) : NAN;
		}
		snprintf(r->name, sizeof(r->name), "%s against the other "
			 "CPUs", l[pj].name);
		snprintf(r->unit, sizeof(r->unit), "x");
		r->ratio = true;
		r->own = (int)pj;
		nl++;
	}
	return nl;
}

/* Every night since the split beyond the gate's floor from before it. */
static bool beyond_floor(const struct night_line *own, size_t tau, size_t n,
			 size_t npre, int dir, const struct an_gate *gate)
{
	double med = median_of(own->v + tau - npre, npre), floor;
	size_t i;

	if (isnan(med))
		return false;
	floor = gate->min_increase_pct / 100 * fabs(med);
	if (strcmp(own->unit, "us") == 0 && gate->min_increase_us > floor)
		floor = gate->min_increase_us;
	for (i = tau; i < n; i++)
		if (isnan(own->v[i]) || dir * (own->v[i] - med) < floor)
			return false;
	return true;
}

static void fmt_val(char *buf, size_t len, const struct night_line *l,
		    double v)
{
	if (l->ratio)
		snprintf(buf, len, "%.2fx", v);
	else
		snprintf(buf, len, "%.3g %s", v, l->unit);
}

int history_nights_judge(const struct an_side *nights,
			 const struct an_gate *gate, unsigned int kpre,
			 size_t window, struct history_night_step *out)
{
	struct night_line l[LINES_MAX];
	size_t nl, i, k, n = nights->nruns;
	double level, y[256], a, b, lo, hi;
	char va[48], vb[48], vl[48], vh[48];
	struct an_night_step st;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (n < 4 || n > 256)
		return 0;
	memset(l, 0, sizeof(l));
	nl = make_lines(nights, gate, l, LINES_MAX);
	level = an_gate_share(gate);
	/* One split a line (the largest divergence), one direction. */
	out->level = an_alpha_share(level, nl);
	for (i = 0; i < nl; i++) {
		const struct night_line *own = l[i].own >= 0 ? &l[l[i].own] :
					       &l[i];
		double floor = 0;
		bool ok = true;
		int kind;

		if (!l[i].v)
			continue;
		for (k = 0; k < n && ok; k++) {
			ok = !isnan(l[i].v[k]) && l[i].v[k] >= 0;
			y[k] = ok ? (l[i].ratio ? log(l[i].v[k]) :
				     log1p(l[i].v[k])) : 0;
		}
		if (!ok)
			continue;
		/* Half a histogram bucket: the resolution of a latency. */
		if (strcmp(own->unit, "us") == 0)
			floor = 0.5 / (1 + median_of(own->v, n));
		/* Only worse: a CPU against the others falls when another
		 * CPU rises (that CPU's own line shows it), and the nightly
		 * asks whether tonight's kernel got worse. */
		if (an_night_step(y, n, kpre, window, floor, &st) ||
		    st.dir != (l[i].higher_better ? -1 : 1) ||
		    st.p >= out->level ||
		    !beyond_floor(own, st.tau, n, st.npre, st.dir, gate))
			continue;
		kind = st.npost >= 2 ? HISTORY_NIGHTS_STEP :
		       HISTORY_NIGHTS_HELD;
		if (kind < out->found || (kind == out->found &&
					  st.p >= out->p))
			continue;
		out->found = kind;
		out->tau = st.tau;
		out->npost = st.npost;
		out->npre = st.npre;
		out->p = st.p;
		out->dir = l[i].higher_better ? -st.dir : st.dir;
		a = median_of(l[i].v + st.tau - st.npre, st.npre);
		b = median_of(l[i].v + st.tau, st.npost);
		lo = hi = l[i].v[st.tau - st.npre];
		for (k = st.tau - st.npre; k < st.tau; k++) {
			lo = fmin(lo, l[i].v[k]);
			hi = fmax(hi, l[i].v[k]);
		}
		fmt_val(va, sizeof(va), &l[i], a);
		fmt_val(vb, sizeof(vb), &l[i], b);
		fmt_val(vl, sizeof(vl), &l[i], lo);
		fmt_val(vh, sizeof(vh), &l[i], hi);
		snprintf(out->line, sizeof(out->line), "%s", l[i].name);
		snprintf(out->words, sizeof(out->words), "%s %s from %s to "
			 "%s (the median of the %zu night%s since, against "
			 "the %zu before: %s..%s; t=%.2f, p=%.2g, a change "
			 "needs p<%.2g)", l[i].name, st.dir > 0 ? "rose" :
			 "fell", va, vb, st.npost, st.npost == 1 ? "" : "s",
			 st.npre, vl, vh, fabs(st.t), st.p, out->level);
	}
	for (i = 0; i < nl; i++)
		free(l[i].v);
	return 0;
}

double history_nights_bar(const double *v, size_t n, unsigned int k,
			  double level, double min_us, double min_pct, bool us,
			  bool higher_better)
{
	double y[256], mean = 0, var = 0, med, floor, t, bar, sd;
	size_t i, m = n < k ? n : k;
	int dir = higher_better ? -1 : 1;

	if (m < 3 || m > 256)
		return NAN;
	for (i = 0; i < m; i++) {
		if (isnan(v[n - m + i]) || v[n - m + i] < 0)
			return NAN;
		y[i] = log1p(v[n - m + i]);
		mean += y[i] / (double)m;
	}
	for (i = 0; i < m; i++)
		var += (y[i] - mean) * (y[i] - mean) / (double)(m - 1);
	med = median_of(v + n - m, m);
	sd = sqrt(var + (us ? pow(0.5 / (1 + med), 2) : 0));
	t = gsl_cdf_tdist_Qinv(level, (double)m - 1);
	bar = expm1(mean + dir * t * sd * sqrt(1.0 / (double)m + 0.5));
	floor = min_pct / 100 * fabs(med);
	if (us && min_us > floor)
		floor = min_us;
	return dir > 0 ? fmax(bar, med + floor) : fmin(bar, med - floor);
}
