// SPDX-License-Identifier: GPL-2.0-only
/*
 * The comparison: evidence lines and the verdict (docs/statistics.md).
 *
 * A line is one metric on one CPU (or all) with an effect, a test and a
 * practical floor. Lines are computed from the per-run, per-CPU data of
 * both sides: maxima at equal sample counts across repetitions, the pooled
 * tail above common thresholds, averages, workload metrics. The gate
 * metric says which lines decide; Holm's procedure keeps the family's
 * false-positive rate at alpha/2 in each direction.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "analyze_hist.h"
#include "analyze_stats.h"
#include "analyze_util.h"

/* A quantile is judged only with this many expected samples above it. */
#define TAIL_MIN_EXCEED	20
/*
 * With one run a side the run-to-run scatter of tail rates cannot be
 * measured; this much is assumed (the coefficient of variation seen
 * between A/A runs on a loaded VM, docs/statistics.md).
 */
#define TAIL_CV_PRIOR	0.35
/* Resolution of cyclictest's numbers: 1 us. */
#define RES_US		1.0

static const double tail_levels[] = { 0.99, 0.999, 0.9999, 0.99999 };
#define NR_LEVELS (sizeof(tail_levels) / sizeof(tail_levels[0]))

/* One side's data for one CPU. */
struct side_cpu {
	double *mx;		/* maxima at equal counts, per run */
	bool *mx_ge;
	double *avg;		/* per run */
	struct an_cpu pool;	/* all runs pooled */
	bool hist;		/* every run has a histogram */
	double nref;		/* the equal sample count of this CPU */
};

struct prep {
	const struct an_side *sb, *sc;
	const struct an_gate *gate;
	struct an_result *res;
	size_t ncpus, cap;
	struct side_cpu *b, *c;
	double sigma;		/* Gumbel scale for summary-only maxima */
	bool drift;		/* A/B/A: the baseline ran before and after */
	size_t *early, *late, nhalf;
};

/* ---- lines ---- */

static struct an_line *line_new(struct prep *p, enum an_line_kind kind,
				const char *metric, int cpu)
{
	struct an_result *res = p->res;
	struct an_line *l;

	if (res->nlines == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;

		l = realloc(res->lines, cap * sizeof(*l));
		if (!l)
			return NULL;
		res->lines = l;
		p->cap = cap;
	}
	l = &res->lines[res->nlines++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->cpu = cpu;
	snprintf(l->metric, sizeof(l->metric), "%s", metric);
	snprintf(l->unit, sizeof(l->unit), "us");
	l->lo = l->hi = l->p_worse = l->p_better = l->p_adj = NAN;
	l->raw_base = l->raw_cand = NAN;
	l->drift = NAN;
	l->verdict = AN_INCONCLUSIVE;
	return l;
}

/* Effect, percentage and floor of a latency line (lower is better). */
static void line_effect_us(struct prep *p, struct an_line *l)
{
	l->delta = l->cand - l->base;
	l->worse = l->delta;
	l->delta_pct = l->base > 0 ? 100.0 * l->delta / l->base : NAN;
	l->floor = fmax(p->gate->min_increase_us,
			p->gate->min_increase_pct / 100.0 * fabs(l->base));
	if (l->floor <= 0)
		l->floor = 1e-9;
}

static void note(struct an_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_reason(struct an_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Reasons are one sentence; a long one is cut, never overflows. */
static void set_reason(struct an_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

static void note(struct an_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nnotes >= sizeof(res->notes) / sizeof(res->notes[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nnotes++], sizeof(res->notes[0]), fmt, ap);
	va_end(ap);
}

/* ---- preparation: equal counts, pools, drift halves ---- */

static bool side_cpu_hist(const struct an_side *s, size_t j)
{
	size_t r;

	for (r = 0; r < s->nruns; r++)
		if (!an_cpu_has_hist(&s->runs[r].cpus[j]))
			return false;
	return true;
}

/*
 * Scale of the Gumbel law of maxima from their scatter, for inputs without
 * histograms: within (side, CPU) across runs when there are repetitions,
 * else across CPUs within a side. NAN when nothing scatters.
 */
static double gumbel_sigma(const struct prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	double ss = 0, df = 0, v;
	size_t s, j, r;

	for (s = 0; s < 2; s++)
		for (j = 0; j < p->ncpus && sides[s]->nruns > 1; j++) {
			double m = 0;

			for (r = 0; r < sides[s]->nruns; r++)
				m += sides[s]->runs[r].cpus[j].max_us;
			m /= sides[s]->nruns;
			for (r = 0; r < sides[s]->nruns; r++) {
				v = sides[s]->runs[r].cpus[j].max_us - m;
				ss += v * v;
			}
			df += sides[s]->nruns - 1;
		}
	if (df < 2 && p->ncpus > 1) {
		ss = df = 0;
		for (s = 0; s < 2; s++) {
			double m = 0;

			for (j = 0; j < p->ncpus; j++)
				m += sides[s]->runs[0].cpus[j].max_us;
			m /= p->ncpus;
			for (j = 0; j < p->ncpus; j++) {
				v = sides[s]->runs[0].cpus[j].max_us - m;
				ss += v * v;
			}
			df += p->ncpus - 1;
		}
	}
	if (df < 1 || ss <= 0)
		return NAN;
	return sqrt(ss / df) * sqrt(6.0) / M_PI;
}

static int prep_side(struct prep *p, const struct an_side *s,
		     struct side_cpu *sc, const double *nref)
{
	size_t j, r;
	int ret;

	for (j = 0; j < p->ncpus; j++) {
		struct side_cpu *x = &sc[j];

		x->mx = calloc(s->nruns, sizeof(*x->mx));
		x->mx_ge = calloc(s->nruns, sizeof(*x->mx_ge));
		x->avg = calloc(s->nruns, sizeof(*x->avg));
		if (!x->mx || !x->mx_ge || !x->avg)
			return -ENOMEM;
		x->hist = side_cpu_hist(p->sb, j) && side_cpu_hist(p->sc, j);
		x->nref = nref[j];
		x->pool.thread = j;
		for (r = 0; r < s->nruns; r++) {
			const struct an_cpu *c = &s->runs[r].cpus[j];
			double k = (double)c->cycles / nref[j];

			x->avg[r] = c->avg_us;
			if (x->hist)
				x->mx[r] = an_cpu_kth_largest(c, k,
							      &x->mx_ge[r]);
			else if (!isnan(p->sigma))
				x->mx[r] = fmax(c->min_us, c->max_us -
						p->sigma * log(k));
			else
				x->mx[r] = c->max_us;
			ret = an_cpu_pool(&x->pool, c);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct an_side *s = arg;
	int x = s->runs[*(const size_t *)a].order;
	int y = s->runs[*(const size_t *)b].order;

	return (x > y) - (x < y);
}

/*
 * A/B/A: when the baseline ran both before and after candidate runs, its
 * early half and its late half (by execution order) measure the drift.
 */
static int prep_drift(struct prep *p)
{
	const struct an_side *b = p->sb, *c = p->sc;
	int cmin = -1, cmax = -1;
	bool before = false, after = false;
	size_t r, n = b->nruns, *idx;

	if (!b->order_known || !c->order_known || n < 2)
		return 0;
	for (r = 0; r < c->nruns; r++) {
		if (c->runs[r].order < 0)
			return 0;
		if (cmin < 0 || c->runs[r].order < cmin)
			cmin = c->runs[r].order;
		if (c->runs[r].order > cmax)
			cmax = c->runs[r].order;
	}
	for (r = 0; r < n; r++) {
		if (b->runs[r].order < 0)
			return 0;
		before |= b->runs[r].order < cmax;
		after |= b->runs[r].order > cmin;
	}
	if (!before || !after)
		return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (r = 0; r < n; r++)
		idx[r] = r;
	qsort_r(idx, n, sizeof(*idx), cmp_order, (void *)b);
	p->nhalf = n / 2;
	p->early = idx;
	p->late = idx + (n - p->nhalf);
	p->drift = true;
	return 0;
}

static int prep_init(struct prep *p)
{
	double *nref;
	size_t j, r, s;
	const struct an_side *sides[2] = { p->sb, p->sc };
	int ret;

	p->ncpus = p->sb->runs[0].ncpus < p->sc->runs[0].ncpus ?
		   p->sb->runs[0].ncpus : p->sc->runs[0].ncpus;
	if (p->sb->runs[0].ncpus != p->sc->runs[0].ncpus)
		note(p->res, "the baseline measured %zu threads and the "
		     "candidate %zu: the first %zu are compared",
		     p->sb->runs[0].ncpus, p->sc->runs[0].ncpus, p->ncpus);
	p->b = calloc(p->ncpus, sizeof(*p->b));
	p->c = calloc(p->ncpus, sizeof(*p->c));
	nref = calloc(p->ncpus, sizeof(*nref));
	if (!p->b || !p->c || !nref) {
		free(nref);
		return -ENOMEM;
	}
	/* Equal counts: every run of a CPU is judged at the smallest count. */
	for (j = 0; j < p->ncpus; j++)
		for (s = 0; s < 2; s++)
			for (r = 0; r < sides[s]->nruns; r++) {
				double n = sides[s]->runs[r].cpus[j].cycles;

				if (!nref[j] || n < nref[j])
					nref[j] = n;
			}
	p->sigma = NAN;
	for (j = 0; j < p->ncpus; j++)
		if (!side_cpu_hist(p->sb, j) || !side_cpu_hist(p->sc, j))
			p->sigma = gumbel_sigma(p);
	ret = prep_side(p, p->sb, p->b, nref);
	if (!ret)
		ret = prep_side(p, p->sc, p->c, nref);
	free(nref);
	if (!ret)
		ret = prep_drift(p);
	return ret;
}

static void prep_release(struct prep *p)
{
	struct side_cpu *sides[2] = { p->b, p->c };
	size_t s, j;

	for (s = 0; s < 2; s++)
		for (j = 0; sides[s] && j < p->ncpus; j++) {
			free(sides[s][j].mx);
			free(sides[s][j].mx_ge);
			free(sides[s][j].avg);
			an_cpu_release(&sides[s][j].pool);
		}
	free(p->b);
	free(p->c);
	free(p->early);
}

/* ---- maxima across repetitions ---- */

static double subset_median(const double *v, const size_t *idx, size_t n)
{
	double buf[n ? n : 1];
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = v[idx[i]];
	return an_median(buf, n);
}

/* Overall (all CPUs) equal-count maximum of each run of a side. */
static void overall_max(const struct prep *p, const struct side_cpu *x,
			size_t nruns, double *out, bool *ge)
{
	size_t r, j;

	for (r = 0; r < nruns; r++) {
		out[r] = 0;
		ge[r] = false;
		for (j = 0; j < p->ncpus; j++)
			if (x[j].mx[r] >= out[r]) {
				out[r] = x[j].mx[r];
				ge[r] = x[j].mx_ge[r];
			}
	}
}

static bool any(const bool *v, size_t n)
{
	while (n--)
		if (v[n])
			return true;
	return false;
}

/* Measured maxima (before equal counts) of CPU j (-1: all) per run. */
static double raw_max_median(const struct an_side *s, int j, size_t ncpus)
{
	double v[s->nruns];
	size_t r, k;

	for (r = 0; r < s->nruns; r++) {
		v[r] = 0;
		for (k = 0; k < ncpus; k++)
			if (j < 0 || (size_t)j == k)
				v[r] = fmax(v[r], s->runs[r].cpus[k].max_us);
	}
	return an_median(v, s->nruns);
}

static void set_raw(const struct prep *p, struct an_line *l)
{
	double b = raw_max_median(p->sb, l->cpu, p->ncpus);
	double c = raw_max_median(p->sc, l->cpu, p->ncpus);

	l->raw_base = l->raw_cand = NAN;
	/* Censored at the limit, the measured maxima still say more. */
	if (fabs(b - l->base) >= 0.5 || fabs(c - l->cand) >= 0.5 ||
	    l->base_ge || l->cand_ge) {
		l->raw_base = b;
		l->raw_cand = c;
	}
}

/* Welch on log(1 + max): maxima scatter multiplicatively. */
static void max_test(struct prep *p, struct an_line *l, const double *b,
		     size_t nb, const double *c, size_t nc)
{
	double lb[nb], lc[nc], res;
	struct an_tstat t;
	size_t i;
	int above = 0, below = 0;
	double bmin = INFINITY, bmax = 0, cmin = INFINITY, cmax = 0;

	for (i = 0; i < nb; i++) {
		lb[i] = log1p(b[i]);
		bmin = fmin(bmin, b[i]);
		bmax = fmax(bmax, b[i]);
	}
	for (i = 0; i < nc; i++) {
		lc[i] = log1p(c[i]);
		cmin = fmin(cmin, c[i]);
		cmax = fmax(cmax, c[i]);
		above += c[i] > bmax;
		below += c[i] < bmin;
	}
	/* Geometric means: the test, the effect and its interval agree. */
	l->base = expm1(an_mean(lb, nb));
	l->cand = expm1(an_mean(lc, nc));
	line_effect_us(p, l);
	res = RES_US / (1.0 + l->base);
	t = an_welch(lb, nb, lc, nc, res * res / 4);
	l->p_worse = an_tstat_p_up(&t);
	l->p_better = an_tstat_p_down(&t);
	an_tstat_interval(&t, 2 * p->gate->alpha, &l->lo, &l->hi);
	l->lo = (1.0 + l->base) * expm1(l->lo);
	l->hi = (1.0 + l->base) * expm1(l->hi);
	snprintf(l->evidence, sizeof(l->evidence),
		 "maxima per repetition %.0f..%.0f vs %.0f..%.0f us, %s",
		 bmin, bmax, cmin, cmax,
		 above == (int)nc ? "all candidate maxima above the baseline's "
		 "range" : below == (int)nc ? "all candidate maxima below "
		 "the baseline's range" : "ranges overlap");
}

/* Candidate samples above the baseline's maximum, against exchangeable. */
static void precedence(const struct side_cpu *b, const struct side_cpu *c,
		       char *buf, size_t len)
{
	uint64_t k;
	double exp_k, pv;

	if (!b->hist || b->pool.max_us >= (long)b->pool.limit) {
		buf[0] = '\0';
		return;
	}
	k = an_cpu_count_above(&c->pool, b->pool.max_us);
	exp_k = (double)c->pool.cycles / (b->pool.cycles + 1.0);
	pv = an_precedence_p(b->pool.cycles, c->pool.cycles, k);
	snprintf(buf, len, "; %llu samples above the baseline max %ld us "
		 "(exchangeable: %.1f, p=%.2g)", (unsigned long long)k,
		 b->pool.max_us, exp_k, pv);
}

static int max_lines_reps(struct prep *p, bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, j;
	double ob[nb], oc[nc];
	bool gb[nb], gc[nc];
	struct an_line *l;

	for (j = 0; j < p->ncpus; j++) {
		char extra[sizeof(l->evidence)];

		l = line_new(p, AN_LINE_MAX, "max", j);
		if (!l)
			return -ENOMEM;
		max_test(p, l, p->b[j].mx, nb, p->c[j].mx, nc);
		l->base_ge = any(p->b[j].mx_ge, nb);
		l->cand_ge = any(p->c[j].mx_ge, nc);
		set_raw(p, l);
		snprintf(extra, sizeof(extra), "%s", l->evidence);
		an_sfmt(l->evidence, sizeof(l->evidence), "at %.0f samples "
			"each, %s", p->b[j].nref, extra);
		l->deciding = deciding;
		if (p->drift)
			l->drift = subset_median(p->b[j].mx, p->late,
						 p->nhalf) -
				   subset_median(p->b[j].mx, p->early,
						 p->nhalf);
		precedence(&p->b[j], &p->c[j], extra, sizeof(extra));
		snprintf(l->evidence + strlen(l->evidence),
			 sizeof(l->evidence) - strlen(l->evidence), "%s",
			 extra);
	}
	overall_max(p, p->b, nb, ob, gb);
	overall_max(p, p->c, nc, oc, gc);
	l = line_new(p, AN_LINE_MAX, "max", -1);
	if (!l)
		return -ENOMEM;
	max_test(p, l, ob, nb, oc, nc);
	l->base_ge = any(gb, nb);
	l->cand_ge = any(gc, nc);
	set_raw(p, l);
	l->deciding = deciding;
	if (p->drift)
		l->drift = subset_median(ob, p->late, p->nhalf) -
			   subset_median(ob, p->early, p->nhalf);
	return 0;
}

/*
 * One run on a side: the CPUs are the replicates. Each CPU's maximum
 * (median over runs where there are several) is paired with the other
 * side's; the test is on the log ratios.
 */
static int max_line_paired(struct prep *p, bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, j, n = p->ncpus;
	double d[n], mb[n], mc[n], res, bo = 0, co = 0;
	struct an_tstat t;
	struct an_line *l;
	int up = 0;

	for (j = 0; j < n; j++) {
		mb[j] = an_median(p->b[j].mx, nb);
		mc[j] = an_median(p->c[j].mx, nc);
		d[j] = log1p(mc[j]) - log1p(mb[j]);
		up += mc[j] > mb[j];
		bo = fmax(bo, mb[j]);
		co = fmax(co, mc[j]);
		l = line_new(p, AN_LINE_MAX, "max", j);
		if (!l)
			return -ENOMEM;
		l->base = mb[j];
		l->cand = mc[j];
		l->base_ge = any(p->b[j].mx_ge, nb);
		l->cand_ge = any(p->c[j].mx_ge, nc);
		line_effect_us(p, l);
		set_raw(p, l);
		snprintf(l->evidence, sizeof(l->evidence),
			 "one value per side: no test on its own");
	}
	l = line_new(p, AN_LINE_MAX, "max", -1);
	if (!l)
		return -ENOMEM;
	l->base = bo;
	l->cand = co;
	if (n >= 2)	/* the mean ratio over CPUs, on the overall max */
		l->cand = (1.0 + bo) * exp(an_mean(d, n)) - 1.0;
	line_effect_us(p, l);
	set_raw(p, l);
	l->deciding = deciding;
	if (n < 2) {
		snprintf(l->evidence, sizeof(l->evidence),
			 "one maximum per side: no test is possible");
		return 0;
	}
	res = RES_US / (1.0 + bo);
	t = an_paired(d, n, res * res / 4);
	l->p_worse = an_tstat_p_up(&t);
	l->p_better = an_tstat_p_down(&t);
	an_tstat_interval(&t, 2 * p->gate->alpha, &l->lo, &l->hi);
	l->lo = (1.0 + bo) * expm1(l->lo);
	l->hi = (1.0 + bo) * expm1(l->hi);
	snprintf(l->evidence, sizeof(l->evidence),
		 "paired over %zu CPUs: %d higher, %zu lower or equal; "
		 "mean ratio %.2f", n, up, n - up, exp(t.delta));
	return 0;
}

/* ---- the pooled tail ---- */

/* One side's runs of one CPU, with above[r][x] = samples > x us. */
struct tail_runs {
	size_t n;
	const struct an_cpu **cpu;
	uint64_t **above;
};

static uint64_t tr_above(const struct tail_runs *t, size_t r, long x)
{
	const struct an_cpu *c = t->cpu[r];

	if (x < 0)
		return c->cycles;
	if ((uint64_t)x >= c->nhist)
		return c->overflows;
	return t->above[r][x];
}

static void tail_runs_release(struct tail_runs *t)
{
	size_t r;

	for (r = 0; t->above && r < t->n; r++)
		free(t->above[r]);
	free(t->above);
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}

static int tail_runs_init(struct tail_runs *t, const struct an_side *s,
			  size_t j)
{
	size_t r;
	long x;

	t->n = s->nruns;
	t->cpu = calloc(t->n, sizeof(*t->cpu));
	t->above = calloc(t->n, sizeof(*t->above));
	if (!t->cpu || !t->above)
		return -ENOMEM;
	for (r = 0; r < t->n; r++) {
		const struct an_cpu *c = &s->runs[r].cpus[j];
		uint64_t acc = c->overflows;

		t->cpu[r] = c;
		t->above[r] = malloc((c->nhist ? c->nhist : 1) *
				     sizeof(**t->above));
		if (!t->above[r])
			return -ENOMEM;
		for (x = (long)c->nhist - 1; x >= 0; x--) {
			t->above[r][x] = acc;
			acc += c->hist[x];
		}
	}
	return 0;
}

struct tail_z {
	double z, df, phi, kb, nb, kc, nc;
};

/*
 * Quasi-binomial comparison of the baseline's rate above tb with the
 * candidate's above tc: binomial noise, inflated by the run-to-run
 * scatter of the rates (the dispersion phi, at least 1).
 */
static struct tail_z tail_z(const struct tail_runs *b,
			    const struct tail_runs *c, long tb, long tc)
{
	const struct tail_runs *sides[2] = { b, c };
	long th[2] = { tb, tc };
	struct tail_z z = { .phi = 1 };
	double k[2] = { 0, 0 }, n[2] = { 0, 0 }, pi[2], pbar, chi = 0, se;
	size_t s, r;

	for (s = 0; s < 2; s++) {
		for (r = 0; r < sides[s]->n; r++) {
			k[s] += tr_above(sides[s], r, th[s]);
			n[s] += sides[s]->cpu[r]->cycles;
		}
		pi[s] = k[s] / n[s];
	}
	z.kb = k[0];
	z.nb = n[0];
	z.kc = k[1];
	z.nc = n[1];
	z.df = (double)b->n + c->n - 2;
	pbar = (k[0] + k[1]) / (n[0] + n[1]);
	if (pbar <= 0 || pbar >= 1)
		return z;
	for (s = 0; s < 2 && z.df > 0; s++)
		for (r = 0; r < sides[s]->n; r++) {
			double cyc = sides[s]->cpu[r]->cycles;
			double dk = tr_above(sides[s], r, th[s]) - cyc * pi[s];

			chi += dk * dk / (cyc * pbar * (1 - pbar));
		}
	if (z.df > 0)
		z.phi = fmax(1.0, chi / z.df);
	se = z.phi * pbar * (1 - pbar) * (1 / n[0] + 1 / n[1]);
	if (z.df <= 0)
		se += 2 * TAIL_CV_PRIOR * TAIL_CV_PRIOR * pbar * pbar;
	se = sqrt(se);
	z.z = (pi[1] - pi[0]) / se;
	return z;
}

static double z_sf(double z, double df)
{
	return df > 0 ? an_t_sf(z, df) : an_norm_sf(z);
}

/*
 * Interval of the tail's shift by test inversion: the shifts d for which
 * "candidate = baseline moved by d us" is not rejected, the candidate's
 * threshold being t + d. z falls as d grows, so each end is a bisection.
 */
static void tail_interval(const struct tail_runs *b, const struct tail_runs *c,
			  long t, long limit, double alpha, double *lo,
			  double *hi)
{
	double df = (double)b->n + c->n - 2;
	double crit = df > 0 ? an_t_isf(alpha, df) : an_t_isf(alpha, 1e9);
	long a, e, dmin = -t, dmax = limit - 1 - t;

	/* Lower end: the first shift not significantly below the data. */
	a = dmin;
	e = dmax;
	if (tail_z(b, c, t, t + dmin).z <= crit) {
		*lo = dmin;
	} else if (tail_z(b, c, t, t + dmax).z > crit) {
		*lo = dmax;
	} else {
		while (e - a > 1) {
			long m = a + (e - a) / 2;

			if (tail_z(b, c, t, t + m).z > crit)
				a = m;
			else
				e = m;
		}
		*lo = e;
	}
	/* Upper end: the last shift not significantly above the data. */
	if (tail_z(b, c, t, t + dmax).z >= -crit) {
		*hi = INFINITY;	/* beyond the histogram: cannot exclude */
		return;
	}
	a = dmin;
	e = dmax;
	while (e - a > 1) {
		long m = a + (e - a) / 2;

		if (tail_z(b, c, t, t + m).z >= -crit)
			a = m;
		else
			e = m;
	}
	*hi = a;
}

static double subset_quantile(const struct an_side *s, size_t j,
			      const size_t *idx, size_t n, double q)
{
	struct an_cpu pool = { .thread = j };
	double v = NAN;
	bool ge;
	size_t i;

	for (i = 0; i < n; i++)
		if (an_cpu_pool(&pool, &s->runs[idx[i]].cpus[j]))
			goto out;
	v = an_cpu_quantile(&pool, q, &ge);
out:
	an_cpu_release(&pool);
	return v;
}

static int tail_line(struct prep *p, size_t j, double q, bool deciding,
		     bool forced, const struct tail_runs *tb,
		     const struct tail_runs *tc)
{
	struct an_cpu both = { .thread = j };
	struct an_line *l;
	struct tail_z z;
	char name[16];
	double nmin, t;
	bool ge;
	int ret;

	nmin = fmin(p->b[j].pool.cycles, p->c[j].pool.cycles);
	if (nmin * (1 - q) < TAIL_MIN_EXCEED && !forced)
		return 0;
	snprintf(name, sizeof(name), "p%g", q * 100);
	l = line_new(p, AN_LINE_TAIL, name, j);
	if (!l)
		return -ENOMEM;
	l->q = q;
	l->deciding = deciding;
	l->base = an_cpu_quantile(&p->b[j].pool, q, &l->base_ge);
	l->cand = an_cpu_quantile(&p->c[j].pool, q, &l->cand_ge);
	line_effect_us(p, l);
	if (nmin * (1 - q) < TAIL_MIN_EXCEED) {
		snprintf(l->evidence, sizeof(l->evidence),
			 "too few samples for %s: %.0f per side, %.0f needed",
			 name, nmin, TAIL_MIN_EXCEED / (1 - q));
		return 0;
	}
	ret = an_cpu_pool(&both, &p->b[j].pool);
	if (!ret)
		ret = an_cpu_pool(&both, &p->c[j].pool);
	t = an_cpu_quantile(&both, q, &ge);
	if (!ret && !ge && t >= 1) {
		/*
		 * Buckets are 1 us wide: the pooled quantile may sit on a
		 * big atom, leaving almost nothing strictly above it. Of
		 * "above t" and "at least t" take the one whose pooled rate
		 * is closer to 1 - q; the choice ignores which side is which.
		 */
		double n = both.cycles, f1, f2;

		f1 = an_cpu_count_above(&both, t) / n;
		f2 = an_cpu_count_above(&both, t - 1) / n;
		if (!f1 || fabs(log(f2 / (1 - q))) < fabs(log(f1 / (1 - q))))
			t -= 1;
	}
	an_cpu_release(&both);
	if (ret)
		return ret;
	if (ge) {
		snprintf(l->evidence, sizeof(l->evidence),
			 "%s is beyond the %u us histogram", name,
			 both.limit ? both.limit : p->b[j].pool.limit);
		return 0;
	}
	z = tail_z(tb, tc, t, t);
	l->p_worse = z.z == 0 && z.kb + z.kc == 0 ? 1 : z_sf(z.z, z.df);
	l->p_better = z.z == 0 && z.kb + z.kc == 0 ? 1 : z_sf(-z.z, z.df);
	tail_interval(tb, tc, t, fmin(p->b[j].pool.limit,
				      p->c[j].pool.limit),
		      p->gate->alpha, &l->lo, &l->hi);
	snprintf(l->evidence, sizeof(l->evidence),
		 "%.0f of %.0f vs %.0f of %.0f samples above %.0f us "
		 "(pooled %s), %s %.1f", z.kb, z.nb, z.kc, z.nc, t, name,
		 z.df > 0 ? "dispersion" : "one run a side: assumed "
		 "run-to-run CV", z.df > 0 ? z.phi : TAIL_CV_PRIOR);
	if (p->drift)
		l->drift = subset_quantile(p->sb, j, p->late, p->nhalf, q) -
			   subset_quantile(p->sb, j, p->early, p->nhalf, q);
	return 0;
}

static int tail_lines(struct prep *p, size_t j, bool is_max, bool has_q,
		      double q)
{
	struct tail_runs tb = { 0 }, tc = { 0 };
	size_t k;
	int ret;

	ret = tail_runs_init(&tb, p->sb, j);
	if (!ret)
		ret = tail_runs_init(&tc, p->sc, j);
	for (k = 0; !ret && k < NR_LEVELS; k++) {
		bool gate = has_q && fabs(q - tail_levels[k]) < 1e-12;

		ret = tail_line(p, j, tail_levels[k], is_max || gate, gate,
				&tb, &tc);
	}
	for (k = 0; has_q && k < NR_LEVELS; k++)
		if (fabs(q - tail_levels[k]) < 1e-12)
			break;
	if (!ret && has_q && k == NR_LEVELS)
		ret = tail_line(p, j, q, true, true, &tb, &tc);
	tail_runs_release(&tb);
	tail_runs_release(&tc);
	return ret;
}

/* ---- averages ---- */

/*
 * With repetitions on both sides each CPU's averages are compared across
 * runs; with one run on a side only the CPUs can replicate (paired).
 */
static int avg_lines(struct prep *p, bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, j, n = p->ncpus;
	bool reps = nb > 1 && nc > 1;
	double d[n];
	struct an_tstat t;
	struct an_line *l;

	for (j = 0; j < n; j++) {
		l = line_new(p, AN_LINE_AVG, "avg", j);
		if (!l)
			return -ENOMEM;
		l->base = p->b[j].pool.avg_us;
		l->cand = p->c[j].pool.avg_us;
		line_effect_us(p, l);
		d[j] = l->delta;
		if (!reps) {
			snprintf(l->evidence, sizeof(l->evidence),
				 "one value per side: no test on its own");
			continue;
		}
		l->deciding = deciding;
		t = an_welch(p->b[j].avg, nb, p->c[j].avg, nc, 1e-4);
		snprintf(l->evidence, sizeof(l->evidence),
			 "averages of %zu vs %zu repetitions", nb, nc);
		l->p_worse = an_tstat_p_up(&t);
		l->p_better = an_tstat_p_down(&t);
		an_tstat_interval(&t, 2 * p->gate->alpha, &l->lo, &l->hi);
		if (p->drift)
			l->drift = subset_median(p->b[j].avg, p->late,
						 p->nhalf) -
				   subset_median(p->b[j].avg, p->early,
						 p->nhalf);
	}
	if (reps)
		return 0;
	l = line_new(p, AN_LINE_AVG, "avg", -1);
	if (!l)
		return -ENOMEM;
	for (j = 0; j < n; j++) {
		l->base += p->b[j].pool.avg_us / n;
		l->cand += p->c[j].pool.avg_us / n;
	}
	line_effect_us(p, l);
	l->deciding = deciding;
	if (n < 2) {
		snprintf(l->evidence, sizeof(l->evidence),
			 "one value per side: no test is possible");
		return 0;
	}
	t = an_paired(d, n, 1e-4);
	l->p_worse = an_tstat_p_up(&t);
	l->p_better = an_tstat_p_down(&t);
	an_tstat_interval(&t, 2 * p->gate->alpha, &l->lo, &l->hi);
	snprintf(l->evidence, sizeof(l->evidence), "paired over %zu CPUs", n);
	return 0;
}

/* ---- workload metrics ---- */

static const struct an_values *run_metric(const struct an_run *r,
					  const char *name)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static bool side_has_metric(const struct an_side *s, const char *name)
{
	size_t r;

	for (r = 0; r < s->nruns; r++)
		if (!run_metric(&s->runs[r], name) ||
		    !run_metric(&s->runs[r], name)->n)
			return false;
	return s->nruns > 0;
}

/*
 * Per-run values, all rounds, and the largest within-run CV. A run's value
 * is the median of its rounds: on a quiet machine it is the mean (the
 * threads' CVs are below 1 %), on a shared one a round preempted by a
 * neighbour for milliseconds does not decide the run (docs/statistics.md).
 */
static size_t metric_values(const struct an_side *s, const char *name,
			    double *means, double *all, double *cv)
{
	size_t r, i, n = 0;

	*cv = 0;
	for (r = 0; r < s->nruns; r++) {
		const struct an_values *m = run_metric(&s->runs[r], name);
		double mean = an_mean(m->v, m->n);

		means[r] = an_median(m->v, m->n);
		if (m->n > 1 && mean != 0)
			*cv = fmax(*cv, sqrt(an_var(m->v, m->n)) /
				   fabs(mean));
		for (i = 0; i < m->n; i++)
			all[n++] = m->v[i];
	}
	return n;
}

static size_t metric_total(const struct an_side *s, const char *name)
{
	size_t r, n = 0;

	for (r = 0; r < s->nruns; r++)
		n += run_metric(&s->runs[r], name)->n;
	return n;
}

static int metric_line(struct prep *p, const struct an_values *m0,
		       bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns;
	size_t tb = metric_total(p->sb, m0->name);
	size_t tc = metric_total(p->sc, m0->name);
	double *buf, *mb, *mc, *ab, *ac, cvb, cvc, sign;
	struct an_tstat t;
	struct an_line *l;

	buf = malloc((nb + nc + tb + tc) * sizeof(*buf));
	l = line_new(p, AN_LINE_METRIC, m0->name, -1);
	if (!buf || !l) {
		free(buf);
		return -ENOMEM;
	}
	mb = buf;
	mc = mb + nb;
	ab = mc + nc;
	ac = ab + tb;
	metric_values(p->sb, m0->name, mb, ab, &cvb);
	metric_values(p->sc, m0->name, mc, ac, &cvc);
	snprintf(l->unit, sizeof(l->unit), "%s", m0->unit);
	sign = m0->higher_better ? -1 : 1;
	l->base = an_mean(mb, nb);
	l->cand = an_mean(mc, nc);
	l->delta = l->cand - l->base;
	l->worse = sign * l->delta;
	l->delta_pct = l->base ? 100 * l->delta / fabs(l->base) : NAN;
	/* Workload units are not us: only the relative floor applies. */
	l->floor = fmax(1e-12, p->gate->min_increase_pct / 100 *
			fabs(l->base));
	l->deciding = deciding;
	if (nb > 1 && nc > 1)
		t = an_welch(mb, nb, mc, nc, 0);
	else
		t = an_welch(ab, tb, ac, tc, 0);
	t.delta *= sign;
	l->p_worse = an_tstat_p_up(&t);
	l->p_better = an_tstat_p_down(&t);
	an_tstat_interval(&t, 2 * p->gate->alpha, &l->lo, &l->hi);
	if (sign < 0) {
		double lo = l->lo;

		l->lo = -l->hi;
		l->hi = -lo;
	}
	snprintf(l->evidence, sizeof(l->evidence),
		 "%zu vs %zu %s, CV %.2f%% / %.2f%%%s", nb > 1 && nc > 1 ? nb :
		 tb, nb > 1 && nc > 1 ? nc : tc, nb > 1 && nc > 1 ?
		 "repetitions" : "rounds", 100 * cvb, 100 * cvc,
		 m0->higher_better ? ", higher is better" : "");
	if (p->drift)
		l->drift = subset_median(mb, p->late, p->nhalf) -
			   subset_median(mb, p->early, p->nhalf);
	free(buf);
	return 0;
}

static int metric_lines(struct prep *p)
{
	const struct an_run *r0;
	size_t i;
	int ret;

	if (!p->sb->nruns)
		return 0;
	r0 = &p->sb->runs[0];
	for (i = 0; i < r0->nmetrics; i++) {
		const struct an_values *m = &r0->metrics[i];

		if (!side_has_metric(p->sb, m->name) ||
		    !side_has_metric(p->sc, m->name))
			continue;
		ret = metric_line(p, m, !strcmp(m->name, p->gate->metric));
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- verdict ---- */

/*
 * Each line alone: a change needs the Holm-adjusted one-sided p below
 * alpha/2 and an effect beyond the floor; "no change" needs the interval
 * inside the floor; the rest is inconclusive, with a sign of a change
 * when the effect is beyond the floor and the adjusted p below alpha.
 */
static void classify(struct prep *p)
{
	struct an_result *res = p->res;
	double half = p->gate->alpha / 2, *pw, *pb, *aw, *ab;
	size_t i, n = res->nlines;

	pw = calloc(4 * (n ? n : 1), sizeof(*pw));
	if (!pw)
		return;
	pb = pw + n;
	aw = pb + n;
	ab = aw + n;
	for (i = 0; i < n; i++) {
		pw[i] = res->lines[i].deciding ? res->lines[i].p_worse : NAN;
		pb[i] = res->lines[i].deciding ? res->lines[i].p_better : NAN;
	}
	an_holm(pw, aw, n);
	an_holm(pb, ab, n);
	for (i = 0; i < n; i++) {
		struct an_line *l = &res->lines[i];
		double adjw = l->deciding ? aw[i] : l->p_worse;
		double adjb = l->deciding ? ab[i] : l->p_better;

		l->p_adj = l->worse >= 0 ? adjw : adjb;
		l->hint = false;
		if (adjw < half && l->worse >= l->floor) {
			l->verdict = AN_REGRESSION;
		} else if (adjb < half && -l->worse >= l->floor &&
			   !l->base_ge) {
			l->verdict = AN_IMPROVEMENT;
		} else if (!isnan(l->lo) && !isnan(l->hi) &&
			   l->hi < l->floor && l->lo > -l->floor &&
			   !l->base_ge && !l->cand_ge) {
			l->verdict = AN_NO_CHANGE;
		} else {
			/*
			 * Beyond the floor, significant at alpha but not at
			 * alpha/2: a sign of a change.
			 */
			l->verdict = AN_INCONCLUSIVE;
			l->hint = (adjw < p->gate->alpha &&
				   l->worse >= l->floor) ||
				  (adjb < p->gate->alpha &&
				   -l->worse >= l->floor);
		}
	}
	free(pw);
}

/* Does drift explain the line? Then its verdict cannot stand. */
static bool drift_explains(const struct an_line *l)
{
	return !isnan(l->drift) && fabs(l->drift) >= fabs(l->delta);
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "+");
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* "CPU 1 p99 rose from 43 to 273 us (+230 us, +535%; p=6e-05)" */
static void describe(const struct an_line *l, char *buf, size_t len)
{
	char where[24] = "", pv[32], b[32], c[32], d[32], lo[32], hi[32];
	char eq[128] = "";
	bool raw = !isnan(l->raw_base);
	double rb = raw ? l->raw_base : l->base;
	double rc = raw ? l->raw_cand : l->cand;

	if (l->cpu >= 0)
		snprintf(where, sizeof(where), "CPU %d ", l->cpu);
	if (isnan(l->p_adj))
		snprintf(pv, sizeof(pv), "no test");
	else if (l->p_adj < 1e-12)
		snprintf(pv, sizeof(pv), "p<1e-12");
	else
		snprintf(pv, sizeof(pv), "p=%.2g", l->p_adj);
	fmt_num(b, sizeof(b), rb);
	fmt_num(c, sizeof(c), rc);
	fmt_num(d, sizeof(d), fabs(rc - rb));
	if (raw) {
		fmt_num(lo, sizeof(lo), l->delta);
		snprintf(eq, sizeof(eq), "; at equal sample counts %s%s %s",
			 l->delta >= 0 ? "+" : "", lo, l->unit);
	}
	if (!isnan(l->lo)) {
		fmt_num(lo, sizeof(lo), l->lo);
		fmt_num(hi, sizeof(hi), l->hi);
		snprintf(eq + strlen(eq), sizeof(eq) - strlen(eq),
			 "%sinterval %s..%s %s", raw ? ", " : "; ", lo, hi,
			 l->unit);
	}
	snprintf(buf, len, "%s%s %s from %s%s to %s%s %s (%s%s %s, %+.0f%%; "
		 "%s)%s", where, l->metric,
		 rc > rb ? "rose" : rc < rb ? "fell" : "stayed",
		 l->base_ge && !raw ? ">=" : "", b,
		 l->cand_ge && !raw ? ">=" : "", c, l->unit,
		 rc >= rb ? "+" : "-", d, l->unit,
		 rb ? 100 * (rc - rb) / fabs(rb) : 0.0, pv, eq);
}

/* The line that best stands for a verdict: strongest, then largest. */
static const struct an_line *strongest(const struct an_result *res,
				       enum an_verdict v, bool hint,
				       bool need_no_drift)
{
	const struct an_line *best = NULL;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!l->deciding || l->verdict != v || (hint && !l->hint))
			continue;
		if (need_no_drift && drift_explains(l))
			continue;
		if (!best || l->p_adj < best->p_adj ||
		    (l->p_adj == best->p_adj &&
		     fabs(l->worse) / l->floor >
		     fabs(best->worse) / best->floor))
			best = l;
	}
	return best;
}

/* Names the line the verdict rests on (an_result.decisive). */
static void rest_on(struct an_result *res, const struct an_line *l)
{
	res->decisive = l ? (int)(l - res->lines) : -1;
}

static void decide_change(struct prep *p, enum an_verdict v)
{
	struct an_result *res = p->res;
	const struct an_line *l = strongest(res, v, false, true), *other;
	char d[400], o[400], fl[32];

	if (!l) {
		l = strongest(res, v, false, false);
		rest_on(res, l);
		describe(l, d, sizeof(d));
		fmt_num(fl, sizeof(fl), l->drift);
		res->verdict = AN_INCONCLUSIVE;
		set_reason(res, "%s, but the baseline drifted by %s%s %s "
			   "between its early and late repetitions, as much "
			   "as the effect", d, l->drift > 0 ? "+" : "", fl,
			   l->unit);
		return;
	}
	rest_on(res, l);
	describe(l, d, sizeof(d));
	fmt_num(fl, sizeof(fl), l->floor);
	res->verdict = v;
	other = v == AN_REGRESSION ?
		strongest(res, AN_IMPROVEMENT, false, false) : NULL;
	if (other) {
		describe(other, o, sizeof(o));
		set_reason(res, "%s, beyond the %s %s floor; worse somewhere "
			   "is worse, although %s", d, fl, l->unit, o);
	} else {
		set_reason(res, "%s, beyond the %s %s floor", d, fl, l->unit);
	}
}

/* Any deciding line, when none has an interval. */
static const struct an_line *unsettled_any(const struct an_result *res)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].deciding)
			return &res->lines[i];
	return NULL;
}

static const struct an_line *bigger(const struct an_line *a,
				    const struct an_line *b)
{
	if (!a)
		return b;
	return fabs(b->worse) / b->floor > fabs(a->worse) / a->floor ? b : a;
}

/*
 * NO CHANGE needs every CPU settled by a deciding line that shows no
 * change (its maxima or one of its tail quantiles); without per-CPU
 * deciding lines, every all-CPU deciding line must show no change.
 * Returns the line that leaves a CPU unsettled, NULL when all are.
 */
static const struct an_line *unsettled(const struct prep *p)
{
	const struct an_result *res = p->res;
	const struct an_line *bad = NULL, *l;
	bool per_cpu = false;
	size_t i;
	int j;

	for (i = 0; i < res->nlines; i++)
		per_cpu |= res->lines[i].deciding && res->lines[i].cpu >= 0;
	if (!per_cpu) {
		for (i = 0; i < res->nlines; i++) {
			l = &res->lines[i];
			if (l->deciding && l->verdict != AN_NO_CHANGE)
				bad = bigger(bad, l);
		}
		return bad;
	}
	for (j = 0; j < (int)p->ncpus; j++) {
		const struct an_line *worst = NULL;
		bool ok = false;

		for (i = 0; i < res->nlines; i++) {
			l = &res->lines[i];
			if (!l->deciding || l->cpu != j)
				continue;
			if (l->verdict == AN_NO_CHANGE)
				ok = true;
			else
				worst = bigger(worst, l);
		}
		if (!ok && worst)
			bad = bigger(bad, worst);
	}
	return bad;
}

static bool any_deciding(const struct an_result *res)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].deciding)
			return true;
	return false;
}

/* The unsettled line with the narrowest interval for its floor. */
static const struct an_line *most_precise(const struct an_result *res)
{
	const struct an_line *best = NULL, *l;
	double w, bw = INFINITY;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		l = &res->lines[i];
		if (!l->deciding || isnan(l->lo) || isnan(l->hi) ||
		    l->verdict == AN_NO_CHANGE)
			continue;
		w = (l->hi - l->lo) / l->floor;
		if (!best || w < bw) {
			best = l;
			bw = w;
		}
	}
	return best ? best : unsettled_any(res);
}

static bool any_tested(const struct an_result *res)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].deciding && !isnan(res->lines[i].p_worse))
			return true;
	return false;
}

static void decide_no_change(struct prep *p)
{
	struct an_result *res = p->res;
	const struct an_line *big = NULL, *l;
	char d[400], fl[32];
	size_t i;

	res->verdict = AN_NO_CHANGE;
	for (i = 0; i < res->nlines; i++) {
		l = &res->lines[i];
		if (l->deciding && l->verdict == AN_NO_CHANGE)
			big = bigger(big, l);
	}
	rest_on(res, big);
	describe(big, d, sizeof(d));
	fmt_num(fl, sizeof(fl), big->floor);
	set_reason(res, "%s: inside the %s %s floor, and no evidence of a "
		   "larger change elsewhere", d, fl, big->unit);
}

static void decide(struct prep *p)
{
	struct an_result *res = p->res;
	const struct an_line *l;
	char d[400], fl[32];

	classify(p);
	if (!any_deciding(res)) {
		res->verdict = AN_INVALID;
		set_reason(res, "no data for the gate metric %s on both sides",
			   p->gate->metric);
		return;
	}
	if (strongest(res, AN_REGRESSION, false, false)) {
		decide_change(p, AN_REGRESSION);
		return;
	}
	if (strongest(res, AN_IMPROVEMENT, false, false)) {
		decide_change(p, AN_IMPROVEMENT);
		return;
	}
	l = strongest(res, AN_INCONCLUSIVE, true, false);
	if (l) {
		rest_on(res, l);
		describe(l, d, sizeof(d));
		res->verdict = AN_INCONCLUSIVE;
		set_reason(res, "%s: a sign of a change that is not enough "
			   "for the gate (a change needs p<%g and the floor); "
			   "more repetitions would tell", d,
			   p->gate->alpha / 2);
		return;
	}
	l = unsettled(p);
	if (!l) {
		res->settled = true;
		decide_no_change(p);
		return;
	}
	rest_on(res, l);
	describe(l, d, sizeof(d));
	fmt_num(fl, sizeof(fl), l->floor);
	if (!any_tested(res)) {
		res->verdict = AN_INCONCLUSIVE;
		set_reason(res, "no test was possible: %s; repetitions (or "
			   "more CPUs) would give one", d);
		return;
	}
	/*
	 * No evidence of a change, but not precise enough to exclude one of
	 * the floor's size: the verdict follows the evidence, the reason
	 * says how far its most precise line reaches (and report.json:
	 * "settled": false).
	 */
	l = most_precise(res);
	rest_on(res, l);
	describe(l, d, sizeof(d));
	fmt_num(fl, sizeof(fl), l->floor);
	res->verdict = AN_NO_CHANGE;
	set_reason(res, "no evidence of a change, but the measurement "
		   "cannot rule out one of the %s %s floor: %s; more "
		   "repetitions would narrow it", fl, l->unit, d);
}

/* ---- entry ---- */

static bool side_unusable(const struct an_side *s, struct an_result *res,
			  const char *role)
{
	if (s->status == AN_SIDE_SKIPPED) {
		res->verdict = AN_SKIPPED;
		set_reason(res, "the %s %s was "
			 "skipped: %s", role, s->name,
			 s->reason[0] ? s->reason : "no reason recorded");
		return true;
	}
	if (s->status == AN_SIDE_INVALID || !s->nruns) {
		res->verdict = AN_INVALID;
		set_reason(res, "the %s %s is "
			 "invalid: %s", role, s->name,
			 s->reason[0] ? s->reason : "no valid repetition");
		return true;
	}
	return false;
}

static int compute_lines(struct prep *p)
{
	const char *metric = p->gate->metric;
	bool is_max = !strcmp(metric, "max"), is_avg = !strcmp(metric, "avg");
	bool has_q, cyc = p->ncpus > 0;
	double q = 0;
	size_t j;
	int ret;

	has_q = an_metric_quantile(metric, &q);
	if (cyc) {
		if (p->sb->nruns > 1 && p->sc->nruns > 1)
			ret = max_lines_reps(p, is_max);
		else
			ret = max_line_paired(p, is_max);
		if (ret)
			return ret;
		for (j = 0; j < p->ncpus; j++) {
			if (!p->b[j].hist)
				continue;
			ret = tail_lines(p, j, is_max, has_q, q);
			if (ret)
				return ret;
		}
		ret = avg_lines(p, is_avg);
		if (ret)
			return ret;
	}
	return metric_lines(p);
}

/* A thread that took far fewer samples than its siblings was starved. */
static void note_starved(struct prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	size_t s, r, j, n = p->sb->nruns + p->sc->nruns, k;
	double c[n], med;

	for (j = 0; j < p->ncpus; j++) {
		for (s = 0, k = 0; s < 2; s++)
			for (r = 0; r < sides[s]->nruns; r++)
				c[k++] = sides[s]->runs[r].cpus[j].cycles;
		med = an_median(c, n);
		for (s = 0; s < 2; s++)
			for (r = 0; r < sides[s]->nruns; r++)
				if (sides[s]->runs[r].cpus[j].cycles < med / 2)
					note(p->res, "%s %s: thread %zu took "
					     "%llu samples, under half of the "
					     "median %.0f (starved?); maxima "
					     "are compared at that count",
					     sides[s]->name,
					     sides[s]->runs[r].label, j,
					     (unsigned long long)sides[s]->
					     runs[r].cpus[j].cycles, med);
	}
}

static void add_notes(struct prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	size_t s;

	if (p->ncpus)
		note_starved(p);

	for (s = 0; s < 2; s++)
		if (sides[s]->reason[0])
			note(p->res, "%s: %s", sides[s]->name,
			     sides[s]->reason);
	if (p->sb->nruns == 1 || p->sc->nruns == 1)
		note(p->res, "%s: run-to-run variation is not measured, so "
		     "the evidence counts within-run noise only; repetitions "
		     "make it stronger", p->sb->nruns == 1 &&
		     p->sc->nruns == 1 ? "one run per side" :
		     "one run on a side");
	if (p->ncpus && !isnan(p->sigma))
		note(p->res, "no histograms: maxima are brought to equal "
		     "sample counts with a Gumbel tail of scale %.2g us",
		     p->sigma);
	if (p->drift)
		p->res->drift_checked = true;
	else if (p->sb->nruns > 1)
		note(p->res, "no A/B/A drift check: the baseline did not "
		     "run both before and after the candidate%s",
		     p->sb->order_known ? "" : " (order unknown)");
}

int an_compare(const struct an_side *base, const struct an_side *cand,
	       const struct an_gate *gate, struct an_result *res)
{
	struct prep p = { .sb = base, .sc = cand, .gate = gate, .res = res };
	bool cyc;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->decisive = -1;
	res->gate = *gate;
	res->nbase = base->nruns;
	res->ncand = cand->nruns;
	/*
	 * A candidate this kernel cannot run is SKIPPED whatever became of
	 * its baseline: the reason a reader needs is the candidate's.
	 */
	if ((cand->status == AN_SIDE_SKIPPED &&
	     side_unusable(cand, res, "candidate")) ||
	    side_unusable(base, res, "baseline") ||
	    side_unusable(cand, res, "candidate"))
		return 0;
	cyc = base->runs[0].ncpus && cand->runs[0].ncpus;
	if (cyc) {
		ret = prep_init(&p);
	} else {
		ret = prep_drift(&p);
	}
	if (!ret)
		ret = compute_lines(&p);
	if (!ret) {
		add_notes(&p);
		decide(&p);
	}
	prep_release(&p);
	if (ret)
		an_result_release(res);
	return ret;
}

void an_result_release(struct an_result *res)
{
	free(res->lines);
	res->lines = NULL;
	res->nlines = 0;
}
