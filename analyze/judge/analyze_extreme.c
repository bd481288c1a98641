// SPDX-License-Identifier: GPL-2.0-only
/*
 * Worst case is worst case (docs/statistics.md): the size of a maximum is
 * evidence. The baseline's tail gets an extreme-value law and the
 * candidate's largest sample is judged against it, so one wake-up delayed
 * by 50 ms where the baseline's tail makes 100 us rare is a regression
 * even from one repetition a side.
 *
 * With at least five maxima (repetitions x CPUs, at equal counts) the law
 * is a Gumbel law of the baseline's maxima on log(1 + us): the
 * candidate's largest maximum, standardised by their mean and standard
 * deviation, is judged against the same statistic's law simulated for
 * that many maxima (free of the law's location and scale, so the
 * uncertainty of the fit is in the p-value). This serves pasted T: lines
 * and histograms alike.
 *
 * With fewer maxima (one or two repetitions of few CPUs) and histograms,
 * the law is the peaks-over-threshold (Pareto) tail of the baseline's
 * pooled samples, its shape xi by Hill's estimator on the top k samples
 * (those beyond the histogram limit censored at it, the maximum exact),
 * and never lighter than what makes the baseline's own maximum typical.
 * The test is pivotal: with E the candidate maximum's log-excess over the
 * threshold, E / xi_hat has a law free of xi (a Pareto excess is
 * exponential with mean xi, xi_hat / xi is Gamma(m, 1/m)).
 *
 * The same tail laws give each side's latency exceeded once per million
 * wake-ups (struct an_exceedance).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

/* The tail fit uses the top 0.1 % of the samples, within these bounds. */
#define TAIL_K_MIN		20
#define TAIL_K_MAX		1000
#define TAIL_FRACTION		1e-3
/* -ln P(the baseline's own maximum is exceeded) = -ln 0.99. */
#define OWN_MAX_RATE		4.60517
/*
 * From one repetition neither the spread of its CPUs' maxima nor its tail
 * says much of the next run's worst case (a rare SMI or host pause reaches
 * many times the usual maxima): a maximum counts as beyond the law only at
 * this many times the baseline's largest too.
 */
#define ONE_RUN_FACTOR		10
/* Maxima needed for a Gumbel law of them (reps x CPUs). */
#define GUMBEL_MIN		5
#define GUMBEL_SIMS		20000
/*
 * A simulated null's smallest p-value is 1 / (draws + 1): it must lie
 * below the level a line is judged at, or the line could never decide.
 * Draws are raised to GUMBEL_FLOOR_SHARE / level (the floor a quarter of
 * the level), up to GUMBEL_SIMS_MAX (a floor of 1e-6).
 */
#define GUMBEL_FLOOR_SHARE	4
#define GUMBEL_SIMS_MAX		1000000
/* The per-wake-up probability of the reported exceedance latency. */
#define EXCEED_P		1e-6
/* Its interval: the shape's two-sided 90 % interval. */
#define EXCEED_ALPHA		0.05

/* A Pareto tail above u (values as 1 + us): P(X > x) = k/n (x/u)^-1/xi. */
struct tail_law {
	double u;		/* 1 + the (k+1)-th largest sample */
	double k, n;		/* samples above u, in all */
	double m;		/* uncensored among the k (xi's information) */
	double xi;		/* Hill's estimate */
};

/*
 * Hill's estimator on the top k samples of a pooled histogram. Overflows
 * (at or above the limit, value unknown) count as censored at the limit,
 * except the maximum, which is known. conservative: for a test, the shape
 * is raised as below; for an estimate it is Hill's. Returns false when
 * the tail cannot be fitted (too few samples, a threshold at 0).
 */
static bool hill_fit(const struct an_cpu *c, struct tail_law *law,
		     bool conservative)
{
	double n = c->cycles, k, sum = 0, lim = c->limit + 1.0;
	uint64_t o = c->overflows, need, got = 0;
	uint32_t i;

	if (!an_cpu_has_hist(c) || n < 10.0 * TAIL_K_MIN)
		return false;
	k = fmin(fmax(TAIL_FRACTION * n, TAIL_K_MIN), TAIL_K_MAX);
	/* The threshold must lie inside the histogram. */
	k = fmax(k, (double)o + 10);
	if (k > n / 10)
		return false;
	need = (uint64_t)k + 1;
	/* Walk down from the top to the (k+1)-th largest sample. */
	for (i = c->nbuckets; i-- > 0 && got < need;) {
		got += c->b[i].n;
		if (got >= need) {
			law->u = c->b[i].us + 1.0;
			break;
		}
	}
	if (got < need || law->u <= 1.0)
		return false;
	/* Sum of log excesses of the top k. */
	got = 0;
	if (o) {
		sum += log((c->max_us + 1.0) / law->u);
		sum += (double)(o - 1) * log(lim / law->u);
		got = o;
	}
	for (i = c->nbuckets; i-- > 0 && got < (uint64_t)k;) {
		uint64_t take = c->b[i].n;
		double x = c->b[i].us + 1.0;

		if (x <= law->u)
			break;
		if (got + take > (uint64_t)k)
			take = (uint64_t)k - got;
		sum += (double)take * log(x / law->u);
		got += take;
	}
	law->k = got;
	law->n = n;
	law->m = (double)got - (o > 1 ? (double)(o - 1) : 0);
	if (law->m < TAIL_K_MIN / 2 || !(sum > 0))
		return false;
	law->xi = sum / law->m;
	/*
	 * The law must find the baseline's own maximum unremarkable: a tail
	 * fitted to a plateau (a burst's hundreds of delayed samples) below
	 * rare host pauses would call the next pause impossible. So the shape
	 * is at least the one under which the baseline's maximum would be
	 * exceeded by 99 of 100 runs of its own sample count:
	 * k (x / u)^(-1 / xi) = -ln 0.01. One run says little about the next
	 * run's worst case; this says as little as that.
	 */
	if (conservative && c->max_us + 1.0 > law->u &&
	    law->k > 2 * OWN_MAX_RATE)
		law->xi = fmax(law->xi, log((c->max_us + 1.0) / law->u) /
				       log(law->k / OWN_MAX_RATE));
	return true;
}

/*
 * P(the largest of n candidate samples has a log-excess over u of at
 * least t xi_hat), the candidate's exceedances of u being Poisson with
 * mean lambda = n k / n_base. Given xi_hat / xi = G ~ Gamma(m, 1/m) the
 * probability is 1 - exp(-lambda e^(-t G)) <= lambda e^(-t G), whose mean
 * over G is lambda (1 + t / m)^-m (the Gamma law's moment generating
 * function): a bound that is tight where a test decides (small p) and
 * never below the truth. Large probabilities take xi_hat as exact.
 */
static double hill_p(const struct tail_law *law, double n, double t)
{
	double lambda = n * law->k / law->n;
	double bound = lambda * exp(-law->m * log1p(t / law->m));

	if (t > 0 && bound < 0.5)
		return bound;
	return -expm1(-lambda * exp(-t));
}

/* The candidate maximum the law exceeds with probability p (the inverse). */
static double hill_x(const struct tail_law *law, double n, double p)
{
	double lambda = n * law->k / law->n, t;

	t = law->m * expm1(log(lambda / p) / law->m);
	if (!(t > 0) || hill_p(law, n, t) >= 0.5)
		t = log(lambda / -log1p(-p));
	return law->u * exp(law->xi * t) - 1;
}

static int hill_line(struct an_prep *p, size_t j, bool deciding)
{
	const struct an_cpu *cb = &p->b[j].pool, *cc = &p->c[j].pool;
	struct tail_law law;
	struct an_line *l;
	struct an_line_test *t;
	double xc = cc->max_us + 1.0, med;

	if (!hill_fit(cb, &law, true))
		return 0;
	l = an_cmp_line_new(p, AN_LINE_EXCEED, "max", j);
	if (!l)
		return -ENOMEM;
	t = cmp_test(p, l);
	l->deciding = deciding;
	med = hill_x(&law, cc->cycles, 0.5);
	l->base = med;
	l->cand = cc->max_us;
	an_cmp_line_effect_us(p, l);
	t->kind = AN_TEST_EXCEED;
	if (p->sb->nruns == 1)
		t->min_us = ONE_RUN_FACTOR * cb->max_us;
	t->u = law.u;
	t->rate = law.k / law.n;
	t->shape = law.m;
	t->xi = law.xi;
	t->n = cc->cycles;
	t->x = xc;
	rtpaths_fmt(l->evidence, sizeof(l->evidence), "the candidate's largest "
		    "of %.0f samples against the baseline's Pareto tail above "
		    "%.0f us (top %.0f of %.0f samples, shape %.2f): a maximum "
		    "of %.0f us is its median", (double)cc->cycles, law.u - 1,
		    law.k, law.n, law.xi, med);
	return 0;
}

/* ---- without histograms: a Gumbel law of the maxima ---- */

/*
 * The law of the rank-th largest of nc draws of (Y - mean) / sd, with mean
 * and sd of m draws, for Gumbel Y: simulated (it is free of the law's
 * location and scale), sorted, from a fixed seed so verdicts repeat.
 * Replays judge thousands of comparisons of the same shape: the last few
 * laws are kept (the process is single-threaded).
 */
#define GUMBEL_CACHE	64

static const double *gumbel_null(size_t m, size_t nc, size_t rank,
				 size_t sims)
{
	static struct {
		size_t m, nc, rank, sims;
		double *t;
	} cache[GUMBEL_CACHE];
	static size_t next_slot;
	gsl_rng *rng;
	double *t, y[m];
	size_t s, i, slot;

	for (i = 0; i < GUMBEL_CACHE; i++)
		if (cache[i].t && cache[i].m == m && cache[i].nc == nc &&
		    cache[i].rank == rank && cache[i].sims == sims)
			return cache[i].t;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	t = malloc(sims * sizeof(*t));
	if (!rng || !t) {
		gsl_rng_free(rng);
		free(t);
		return NULL;
	}
	gsl_rng_set(rng, 4711 + m * 131 + nc * 7 + rank);
	for (s = 0; s < sims; s++) {
		double mean, sd, first = -INFINITY, second = -INFINITY;

		for (i = 0; i < m; i++)
			y[i] = gsl_ran_gumbel1(rng, 1, 1);
		mean = an_mean(y, m);
		sd = sqrt(an_var(y, m));
		for (i = 0; i < nc; i++) {
			double v = (gsl_ran_gumbel1(rng, 1, 1) - mean) / sd;

			if (v > first) {
				second = first;
				first = v;
			} else if (v > second) {
				second = v;
			}
		}
		t[s] = rank > 1 ? second : first;
	}
	gsl_rng_free(rng);
	gsl_sort(t, 1, sims);
	slot = next_slot++ % GUMBEL_CACHE;
	free(cache[slot].t);
	cache[slot].m = m;
	cache[slot].nc = nc;
	cache[slot].rank = rank;
	cache[slot].sims = sims;
	cache[slot].t = t;
	return t;
}

/* Draws whose p-value floor lies below level (0: the default). */
static size_t gumbel_sims(double level)
{
	double want = level > 0 ? ceil(GUMBEL_FLOOR_SHARE / level) : 0;

	return (size_t)fmin(GUMBEL_SIMS_MAX, fmax(GUMBEL_SIMS, want));
}

static int gumbel_lines(struct an_prep *p, bool deciding)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, m = nb * p->ncpus;
	/*
	 * With three or more candidate repetitions the second largest of
	 * their maxima is judged: one host pause in one repetition is not a
	 * kernel's worst case (a budget, max_us, catches any single one).
	 */
	size_t rank = nc >= 3 ? 2 : 1;
	double y[m ? m : 1], mean, sd, ymax = 0;
	const double *null;
	size_t r, j, k = 0;
	int ret = 0;

	if (m < GUMBEL_MIN)
		return 0;
	for (r = 0; r < nb; r++)
		for (j = 0; j < p->ncpus; j++)
			y[k++] = log1p(p->b[j].mx[r]);
	mean = an_mean(y, m);
	sd = sqrt(an_var(y, m));
	for (k = 0; k < m; k++)
		ymax = fmax(ymax, y[k]);
	if (!(sd > 0))
		sd = 1.0 / (2 * sqrt(3) * (1 + expm1(mean)));
	null = gumbel_null(m, nc, rank, GUMBEL_SIMS);
	if (!null)
		return -ENOMEM;
	for (j = 0; j < p->ncpus && !ret; j++) {
		struct an_line *l;
		struct an_line_test *t;
		double best = 0, second = 0, tobs;

		for (r = 0; r < nc; r++) {
			double v = p->c[j].mx[r];

			if (v > best) {
				second = best;
				best = v;
			} else if (v > second) {
				second = v;
			}
		}
		if (rank > 1)
			best = second;
		l = an_cmp_line_new(p, AN_LINE_EXCEED, "max", j);
		if (!l) {
			ret = -ENOMEM;
			break;
		}
		t = cmp_test(p, l);
		tobs = (log1p(best) - mean) / sd;
		l->deciding = deciding;
		l->base = expm1(mean + sd * null[GUMBEL_SIMS / 2]);
		l->cand = best;
		an_cmp_line_effect_us(p, l);
		t->kind = AN_TEST_EXCEED;
		if (nb == 1)
			t->min_us = ONE_RUN_FACTOR * expm1(ymax);
		t->gumbel = true;
		t->u = mean;
		t->rate = sd;
		t->shape = m;
		t->n = nc;
		t->rank = rank;
		t->x = tobs;
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "the candidate's "
			    "%s maximum against a Gumbel law of the baseline's "
			    "%zu maxima (per repetition and CPU, at equal "
			    "counts); %.0f us is its median", rank > 1 ?
			    "second largest" : "largest", m, l->base);
	}
	return ret;
}

static double gumbel_p(const struct an_line_test *t, double level)
{
	size_t sims = gumbel_sims(level);
	const double *null = gumbel_null((size_t)t->shape, (size_t)t->n,
					 t->rank, sims);
	double r;
	size_t lo = 0, hi = sims;

	if (!null)
		return NAN;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (null[mid] < t->x)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The share at or above, never 0: a simulation sees no further. */
	r = (double)(sims - lo + 1) / (sims + 1);
	return r;
}

static double gumbel_x(const struct an_line_test *t, double p, double level)
{
	size_t sims = gumbel_sims(level);
	const double *null = gumbel_null((size_t)t->shape, (size_t)t->n,
					 t->rank, sims);
	size_t i;

	if (!null)
		return NAN;
	i = (size_t)fmin(sims - 1, fmax(0, (1 - p) * sims));
	return expm1(t->u + t->rate * null[i]);
}

/* The candidate's maximum in us. */
static double cand_max(const struct an_line_test *t)
{
	return t->gumbel ? expm1(t->u + t->rate * t->x) : t->x - 1;
}

double an_cmp_exceed_p(const struct an_line_test *t, double level)
{
	struct tail_law law = { .u = t->u, .k = t->rate, .n = 1,
				.m = t->shape, .xi = t->xi };

	if (cand_max(t) < t->min_us)
		return 1;
	if (t->gumbel)
		return gumbel_p(t, level);
	return hill_p(&law, t->n, log(t->x / t->u) / t->xi);
}

double an_cmp_exceed_p_min(const struct an_line_test *t, double level)
{
	/* A simulated null's share at or above its largest draw. */
	return t->gumbel ? 1.0 / (gumbel_sims(level) + 1) : 0;
}

double an_cmp_exceed_x(const struct an_line_test *t, double p, double level)
{
	struct tail_law law = { .u = t->u, .k = t->rate, .n = 1,
				.m = t->shape, .xi = t->xi };
	double x = t->gumbel ? gumbel_x(t, p, level) : hill_x(&law, t->n, p);

	/* Below min_us nothing is beyond: the interval says so too. */
	return p < 0.5 ? fmax(x, t->min_us) : x;
}

int an_cmp_exceed_lines(struct an_prep *p)
{
	bool deciding = !strcmp(p->gate->metric, "max");
	size_t j;
	int ret = 0;

	/*
	 * With enough maxima (repetitions x CPUs) their own law; only with
	 * fewer, the tail of the samples: a run's top samples may be a
	 * burst's plateau that says nothing about the rarer host pauses
	 * above it, while maxima are the pauses themselves.
	 */
	if (p->ncpus && p->sb->nruns * p->ncpus >= GUMBEL_MIN)
		return gumbel_lines(p, deciding);
	for (j = 0; j < p->ncpus && !ret; j++)
		if (p->b[j].hist)
			ret = hill_line(p, j, deciding);
	return ret;
}

/* ---- the latency exceeded once per million wake-ups ---- */

static int add_exceedance(struct an_result *res, const struct an_side *s,
			  bool cand, int cpu, const struct an_cpu *c)
{
	struct an_exceedance *e;
	struct tail_law law;
	double np = c->cycles * EXCEED_P;
	bool ge;

	e = realloc(res->exceed, (res->nexceed + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	res->exceed = e;
	e = &e[res->nexceed++];
	*e = (struct an_exceedance){ .candidate = cand, .cpu = cpu,
				     .p = EXCEED_P, .us = NAN, .lo = NAN,
				     .hi = NAN, .samples = c->cycles,
				     .max_us = c->max_us };
	if (!hill_fit(c, &law, false)) {
		rtpaths_fmt(e->why, sizeof(e->why), "too few samples in the "
			    "histogram's tail to fit a law");
		return 0;
	}
	if (np >= law.k) {
		/* Within the data: the measured quantile. */
		e->us = an_cpu_quantile(c, 1 - EXCEED_P, &ge);
		e->measured = true;
		if (ge) {
			e->us = NAN;
			rtpaths_fmt(e->why, sizeof(e->why), "it lies beyond "
				    "the %u us histogram", c->limit);
		}
		return 0;
	}
	/*
	 * A tail law taken far beyond its data says more about the law than
	 * about the machine (estimates of seconds from 15 s of wake-ups):
	 * only within AN_EXTRAP_MAX times the samples, only when its
	 * samples beyond the threshold are independent and fit the law
	 * (an_tail_check(), whose figures are the evidence either way), and
	 * only when the whole interval stays within AN_EXCEED_MAX_FACTOR
	 * times the largest wake-up measured.
	 */
	e->checked = true;
	an_tail_check(s, (size_t)cpu, c, law.u, law.xi, &e->check);
	if (1 / EXCEED_P > AN_EXTRAP_MAX * (double)c->cycles) {
		rtpaths_fmt(e->why, sizeof(e->why), "the tail law would be "
			    "taken %.2g times beyond them (at most %d)", 1 /
			    EXCEED_P / c->cycles, AN_EXTRAP_MAX);
		return 0;
	}
	if (e->check.why[0]) {
		rtpaths_fmt(e->why, sizeof(e->why), "%s", e->check.why);
		return 0;
	}
	e->us = law.u * pow(law.k / np, law.xi) - 1;
	e->lo = law.u * pow(law.k / np, law.xi * 2 * law.m /
			    an_chisq_inv(1 - EXCEED_ALPHA, 2 * law.m)) - 1;
	e->hi = law.u * pow(law.k / np, law.xi * 2 * law.m /
			    an_chisq_inv(EXCEED_ALPHA, 2 * law.m)) - 1;
	if (!(e->hi <= AN_EXCEED_MAX_FACTOR * fmax(c->max_us, 1.0)) ||
	    !(e->lo >= 0)) {
		rtpaths_fmt(e->why, sizeof(e->why), "the tail law's interval "
			    "reaches %.3g us, more than %d times the largest "
			    "wake-up measured (%ld us)", e->hi,
			    AN_EXCEED_MAX_FACTOR, c->max_us);
		e->us = e->lo = e->hi = NAN;
	}
	return 0;
}

int an_cmp_exceedances(struct an_prep *p)
{
	size_t j;
	int ret = 0;

	for (j = 0; j < p->ncpus && !ret; j++) {
		if (!p->b[j].hist)
			continue;
		ret = add_exceedance(p->res, p->sb, false, j, &p->b[j].pool);
		if (!ret)
			ret = add_exceedance(p->res, p->sc, true, j,
					     &p->c[j].pool);
	}
	return ret;
}

/* ---- a spike: the candidate's largest wake-up against two laws ---- */

/*
 * A wake-up this many times the baseline's worst on its CPU is never
 * passed, whatever the laws say of it (issue 23: a planted 10x spike is
 * named, never dropped): a pass would claim the baseline's repetitions
 * knew a tail they never reached.
 */
#define SPIKE_FACTOR		5
/* The profile's pause size is quoted at this rate per repetition. */
#define SPIKE_PAUSE_P		1e-3

struct spike {
	size_t cpu, rep;
	double x;		/* the candidate's largest wake-up, us */
	double base_max;	/* the baseline's, same CPU */
	double p;		/* under the baseline's law, this CPU alone */
	bool far;		/* beyond SPIKE_FACTOR x base_max */
	struct an_line_test law;	/* its test (x NAN: no law) */
};

/*
 * How many maxima at the baseline's equal count the candidate's
 * repetitions on CPU j stand for (a longer repetition is more draws).
 */
static double spike_draws(const struct an_prep *p, size_t j)
{
	double n = 0, nref = p->c[j].nref > 0 ? p->c[j].nref : 1;
	size_t r;

	for (r = 0; r < p->sc->nruns; r++)
		n += fmax(1, ceil(p->sc->runs[r].cpus[j].cycles / nref - 0.1));
	return n;
}

/* CPU j's largest candidate wake-up and its p; false: no law for it. */
static bool spike_cpu(struct an_prep *p, size_t j, struct spike *s)
{
	size_t nb = p->sb->nruns, m = nb * p->ncpus, r, k = 0;
	double y[m ? m : 1], mean, sd;

	*s = (struct spike){ .cpu = j, .x = -1, .p = 1 };
	for (r = 0; r < p->sc->nruns; r++)
		if (p->sc->runs[r].cpus[j].max_us > s->x) {
			s->x = p->sc->runs[r].cpus[j].max_us;
			s->rep = r;
		}
	for (r = 0; r < nb; r++)
		s->base_max = fmax(s->base_max, p->sb->runs[r].cpus[j].max_us);
	if (s->x < 0)
		return false;
	s->far = s->x >= SPIKE_FACTOR * fmax(s->base_max, AN_RES_US);
	s->law = (struct an_line_test){ .kind = AN_TEST_EXCEED, .x = NAN };
	if (nb == 1)
		s->law.min_us = ONE_RUN_FACTOR * s->base_max;
	if (m >= GUMBEL_MIN) {
		for (r = 0; r < nb; r++)
			for (size_t i = 0; i < p->ncpus; i++)
				y[k++] = log1p(p->b[i].mx[r]);
		mean = an_mean(y, m);
		sd = sqrt(an_var(y, m));
		if (!(sd > 0))
			sd = 1.0 / (2 * sqrt(3) * (1 + expm1(mean)));
		s->law.gumbel = true;
		s->law.u = mean;
		s->law.rate = sd;
		s->law.shape = m;
		s->law.rank = 1;
		s->law.n = spike_draws(p, j);
		s->law.x = (log1p(s->x) - mean) / sd;
	} else if (p->b[j].hist) {
		struct tail_law law;

		if (!hill_fit(&p->b[j].pool, &law, true))
			return s->far;
		s->law.u = law.u;
		s->law.rate = law.k / law.n;
		s->law.shape = law.m;
		s->law.xi = law.xi;
		s->law.n = p->c[j].pool.cycles;
		s->law.x = fmax(s->x + 1, law.u);
	} else {
		/* No law: only SPIKE_FACTOR times the worst speaks. */
		return s->far;
	}
	s->p = an_cmp_exceed_p(&s->law, 0);
	return true;
}

static void fmt_spike_us(char *buf, size_t len, double us)
{
	if (us >= 10000)
		rtpaths_fmt(buf, len, "%.1f ms", us / 1000);
	else if (us >= 1000)
		rtpaths_fmt(buf, len, "%.2f ms", us / 1000);
	else
		rtpaths_fmt(buf, len, "%.0f us", us);
}

/*
 * The profile's law of a repetition's maximum on CPU cpu: Student's t on
 * log(1 + us) with the profile's mean, scatter and degrees of freedom.
 * Returns P(one of n repetition maxima reaches x) and the maximum reached
 * with probability SPIKE_PAUSE_P per repetition; false: no such line.
 */
static bool spike_pause_law(const struct an_profile *pr, int cpu, double x,
			    double n, double *p, double *pause)
{
	const struct an_profile_line *l = NULL;
	double sd, p1;
	size_t i;

	for (i = 0; pr && i < pr->nlines; i++)
		if (pr->lines[i].cpu == cpu &&
		    !strcmp(pr->lines[i].metric, "max"))
			l = &pr->lines[i];
	if (!l || !(l->var > 0) || !(pr->df >= 1))
		return false;
	sd = sqrt(l->var * (1 + 1.0 / fmax(pr->nreps, 1)));
	p1 = an_t_sf((log1p(x) - l->mean) / sd, pr->df);
	*p = -expm1(n * log1p(-fmin(p1, 1 - 1e-16)));
	*pause = expm1(l->mean + sd * an_t_isf(SPIKE_PAUSE_P, pr->df));
	return true;
}

/*
 * In virtual time the other explanation of a spike is the same kernel's
 * rare slow path, which the baseline's repetitions did not happen to
 * reach. Under "the same kernel", the repetitions' maxima on CPU j are
 * exchangeable: the chance that the m repetitions above the baseline's
 * worst are all the candidate's is C(nc, m) / C(nb + nc, m). One spike in
 * ten repetitions against ten is 1/2: never a REGRESSION; a rare long
 * spin in most repetitions is (10 of 10: 5e-6).
 */
static double spike_precedence_p(const struct an_prep *p, size_t j,
				 double base_max, size_t *m)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns, r, i;
	double q = 1;

	*m = 0;
	for (r = 0; r < nc; r++)
		if (p->sc->runs[r].cpus[j].max_us > base_max)
			(*m)++;
	for (i = 0; i < *m; i++)
		q *= (double)(nc - i) / (double)(nb + nc - i);
	return q;
}

int an_cmp_spike_line(struct an_prep *p)
{
	struct spike s, best = { .p = 2 }, farthest = { .far = false };
	double share = an_gate_share(p->gate);
	char x[32], b[32], pz[32], tail[192];
	struct an_line *l;
	struct an_line_test *t;
	double pause = NAN, q;
	size_t j, n = 0;

	for (j = 0; j < p->ncpus; j++) {
		if (!spike_cpu(p, j, &s))
			continue;
		n++;
		if (s.p < best.p || (s.p == best.p && s.x > best.x))
			best = s;
		if (s.far && (!farthest.far || s.x / fmax(s.base_max, 1) >
			      farthest.x / fmax(farthest.base_max, 1)))
			farthest = s;
	}
	if (!n)
		return 0;
	/* No CPU beyond the law: the one furthest beyond its worst. */
	if (farthest.far && !(n * best.p < share / 2))
		best = farthest;
	l = an_cmp_line_new(p, AN_LINE_SPIKE, "spike", best.cpu);
	if (!l)
		return -ENOMEM;
	t = cmp_test(p, l);
	/* The law's test, judged again at the family's level. */
	*t = best.law;
	t->kind = AN_TEST_SPIKE;
	t->nspike = n;
	/* The CPU with the least likely wake-up, over the CPUs looked at. */
	t->p_base = fmin(1, n * best.p);
	t->far = best.far;
	t->p_prof = NAN;
	/* A latency gate's; shown beside a workload metric's. */
	l->deciding = !strcmp(p->gate->metric, "max") ||
		      !strcmp(p->gate->metric, "avg") ||
		      an_metric_quantile(p->gate->metric, &q);
	l->base = best.base_max;
	l->cand = best.x;
	an_cmp_line_effect_us(p, l);
	fmt_spike_us(x, sizeof(x), best.x);
	fmt_spike_us(b, sizeof(b), best.base_max);
	if (p->sc->virtual_clock &&
	    p->sc->runs[best.rep].host_io == AN_HOST_IO_SILENT) {
		size_t above;

		/*
		 * In virtual time a host pause cannot reach the guest: the
		 * kernel's, this one's or the baseline's own rare path.
		 */
		t->virtual = true;
		t->p_prof = spike_precedence_p(p, best.cpu, best.base_max,
					       &above);
		rtpaths_fmt(tail, sizeof(tail), "a silent repetition in "
			    "virtual time (no host pause): the kernel's; %zu "
			    "of %zu repetitions above the baseline's worst, "
			    "p=%.2g", above, p->sc->nruns, t->p_prof);
	} else if (spike_pause_law(p->gate->profile, best.cpu, best.x,
			    (double)p->sc->nruns * p->ncpus, &t->p_prof,
			    &pause)) {
		fmt_spike_us(pz, sizeof(pz), pause);
		rtpaths_fmt(tail, sizeof(tail), "this machine's pauses reach "
			    "%s at %g per repetition", pz, SPIKE_PAUSE_P);
	} else {
		rtpaths_fmt(tail, sizeof(tail), "no noise profile (rtgate "
			    "calibrate) to tell it from a host pause");
	}
	rtpaths_fmt(l->evidence, sizeof(l->evidence), "one wake-up of %s on "
		    "CPU %zu in repetition %zu; the baseline's worst %s; %s", x,
		    best.cpu, best.rep + 1, b, tail);
	return 0;
}
