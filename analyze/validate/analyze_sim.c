// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency models for the calibration (docs/statistics.md, "Calibration").
 *
 * One thread of one run is a mixture: a log-normal body above a floor, a
 * Pareto tail holding a small fraction of the samples, a few host noise
 * spikes, and now and then a burst: a host pause that delays a run of
 * consecutive wake-ups (1-4 % of a run's samples by hundreds of us). What
 * real runs on the test VM show (tests/fixtures/real) is built in: every
 * repetition draws a host state shared by its CPUs (body location, tail
 * weight, bursts that hit both CPUs at once) besides each CPU's own, and
 * the tail weight scatters from run to run with a coefficient of
 * variation near 1. The body is drawn per 1 us bucket (Poisson counts),
 * tail, spikes and bursts sample by sample. The variates are GSL's
 * (gsl_ran_*, from one seeded gsl_rng_mt19937: a seed draws the same
 * sides everywhere).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "analyze/validate/validate.h"

struct model {
	double floor_us;	/* the fastest possible wake-up */
	double body_med;	/* log-normal body above the floor */
	double body_sigma;
	double body_jitter;	/* run-to-run sd of log(body_med) */
	double cpu_step;	/* per-CPU change of log(body_med) */
	double tail_w;		/* fraction of samples in the tail */
	double tail_tau;	/* run-to-run sd of log(tail_w) */
	double tail_off;	/* tail starts at floor + tail_off */
	double tail_xm, tail_alpha;	/* Pareto scale and shape */
	double spikes;		/* mean host-noise spikes per run and CPU */
	double spike_lo, spike_hi;	/* log-uniform spike latency */
	double rep_jitter;	/* per repetition, all CPUs: sd of log body */
	double rep_tau;		/* per repetition, all CPUs: sd of log w */
	double burst_p;		/* P(a burst in a repetition) */
	double burst_both;	/* P(it hits every CPU of the repetition) */
	double burst_frac;	/* share of a CPU's samples it delays, at most */
	double burst_lo, burst_hi;	/* uniform delay of a burst */
	uint32_t limit;		/* histogram size */
};

/* What one repetition's host did to all its CPUs. */
struct rep_state {
	double body;		/* added to log(body_med) */
	double tail;		/* added to log(tail_w) */
	bool burst;
	double burst_frac;
	int burst_cpu;		/* -1: every CPU */
};

static const struct model models[] = {
	[AN_SIM_RT] = {
		.floor_us = 2.0, .body_med = 1.2, .body_sigma = 0.35,
		.body_jitter = 0.03, .cpu_step = 0.05,
		.tail_w = 2e-3, .tail_tau = 0.3, .tail_off = 1.5,
		.tail_xm = 2.0, .tail_alpha = 3.0,
		.spikes = 0.2, .spike_lo = 15, .spike_hi = 40,
		.rep_jitter = 0.02, .rep_tau = 0.15,
		.burst_p = 0.02, .burst_both = 0.5, .burst_frac = 0.002,
		.burst_lo = 15, .burst_hi = 30,
		.limit = 1000,
	},
	[AN_SIM_VM] = {
		.floor_us = 9.0, .body_med = 9.0, .body_sigma = 0.18,
		.body_jitter = 0.03, .cpu_step = 0.02,
		.tail_w = 1e-2, .tail_tau = 0.35, .tail_off = 15,
		.tail_xm = 5.0, .tail_alpha = 1.6,
		.spikes = 2.0, .spike_lo = 300, .spike_hi = 8000,
		.rep_jitter = 0.1, .rep_tau = 0.75,
		.burst_p = 0.08, .burst_both = 0.5, .burst_frac = 0.04,
		.burst_lo = 300, .burst_hi = 800,
		.limit = 5000,
	},
};

/* P(body <= x) for the log-normal body above the floor. */
static double body_cdf(double x, double floor_us, double mu, double sigma)
{
	return x <= floor_us ? 0 : gsl_cdf_lognormal_P(x - floor_us, mu, sigma);
}

/* A Poisson count; GSL's draw for a positive mean. */
static uint64_t poisson(gsl_rng *r, double mean)
{
	return mean > 0 ? gsl_ran_poisson(r, mean) : 0;
}

struct hist_acc {
	uint64_t *h;
	uint32_t limit;
	uint64_t ovf;
	double max, sum, n;
};

static void add_sample(struct hist_acc *a, double v, uint64_t count)
{
	if (!count)
		return;
	if (v < 0)
		v = 0;
	if (v >= a->limit)
		a->ovf += count;
	else
		a->h[(uint32_t)v] += count;
	a->max = fmax(a->max, floor(v));
	a->sum += floor(v) * count;
	a->n += count;
}

static void draw_body(const struct model *m, gsl_rng *rng,
		      struct hist_acc *a, double n, double mu, double shift)
{
	double lo = m->floor_us + shift, prev, cur;
	double hi = lo + exp(mu + 7 * m->body_sigma) + 2;
	uint32_t i;

	prev = body_cdf(floor(lo), lo, mu, m->body_sigma);
	for (i = (uint32_t)floor(lo); i < hi && i < a->limit; i++) {
		cur = body_cdf(i + 1, lo, mu, m->body_sigma);
		add_sample(a, i, poisson(rng, n * (cur - prev)));
		prev = cur;
	}
}

static void draw_cpu(const struct an_sim_params *p, const struct model *m,
		     gsl_rng *rng, size_t j, bool cand,
		     const struct rep_state *rs, struct an_cpu *c)
{
	double shift = cand ? p->shift_us : 0, n, w, mu;
	double body_shift = p->how == AN_SHIFT_ALL ? shift : 0;
	struct hist_acc a = { .limit = m->limit };
	uint64_t k, i, total;

	n = (double)p->cycles / (1.0 + j / 2.0);
	w = m->tail_w * exp(gsl_ran_gaussian(rng, m->tail_tau) + rs->tail);
	mu = log(m->body_med) + m->cpu_step * j +
	     gsl_ran_gaussian(rng, m->body_jitter) + rs->body;
	a.h = calloc(m->limit, sizeof(*a.h));
	if (!a.h)
		return;
	draw_body(m, rng, &a, n * (1 - fmin(w, 0.5)), mu, body_shift);
	k = poisson(rng, n * fmin(w, 0.5));
	for (i = 0; i < k; i++)
		add_sample(&a, m->floor_us + m->tail_off + shift +
			   gsl_ran_pareto(rng, m->tail_alpha, m->tail_xm), 1);
	/* Spikes: log-uniform between spike_lo and spike_hi. */
	k = poisson(rng, m->spikes);
	for (i = 0; i < k; i++)
		add_sample(&a, exp(gsl_ran_flat(rng, log(m->spike_lo),
						log(m->spike_hi))) + shift, 1);
	/* A burst: consecutive wake-ups, each later than the last. */
	if (rs->burst && (rs->burst_cpu < 0 || rs->burst_cpu == (int)j)) {
		k = (uint64_t)(n * rs->burst_frac);
		for (i = 0; i < k; i++)
			add_sample(&a, gsl_ran_flat(rng, m->burst_lo,
						    m->burst_hi), 1);
	}
	total = (uint64_t)a.n;
	c->thread = j;
	c->interval_us = 1000 + 500 * j;
	c->prio = 95;
	c->cycles = total;
	c->max_us = a.max;
	c->avg_us = total ? a.sum / total : 0;
	for (i = 0; i < m->limit && !a.h[i]; i++)
		;
	c->min_us = i;
	if (!p->summary_only)
		an_cpu_set_hist(c, a.h, m->limit, m->limit);
	free(a.h);
}

struct an_side *an_sim_side(const struct an_sim_params *p, bool candidate,
			    gsl_rng *rng)
{
	const struct model *m = &models[p->model];
	struct an_side *s = an_side_new(candidate ? "candidate" : "baseline");
	size_t r, j;

	if (!s)
		return NULL;
	for (r = 0; r < p->reps; r++) {
		struct an_run *run = an_side_add_run(s, "sim", p->cpus);
		struct rep_state rs = {
			.body = gsl_ran_gaussian(rng, m->rep_jitter),
			.tail = gsl_ran_gaussian(rng, m->rep_tau),
		};

		if (!run) {
			an_side_free(s);
			return NULL;
		}
		rs.burst = gsl_ran_bernoulli(rng, m->burst_p);
		rs.burst_frac = gsl_ran_flat(rng, 0, m->burst_frac);
		rs.burst_cpu = gsl_ran_bernoulli(rng, m->burst_both) ? -1 :
			       (int)gsl_rng_uniform_int(rng, p->cpus);
		for (j = 0; j < p->cpus; j++)
			draw_cpu(p, m, rng, j, candidate, &rs, &run->cpus[j]);
	}
	return s;
}

int an_sim_run(const struct an_sim_params *p, const struct an_gate *gate,
	       size_t pairs, uint64_t seed, size_t count[AN_REGRESSION + 1])
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct an_result res;
	size_t i;
	int ret = 0;

	memset(count, 0, (AN_REGRESSION + 1) * sizeof(*count));
	if (!rng)
		return -1;
	gsl_rng_set(rng, seed);
	for (i = 0; i < pairs && !ret; i++) {
		struct an_side *b = an_sim_side(p, false, rng);
		struct an_side *c = an_sim_side(p, true, rng);

		ret = b && c ? an_compare(b, c, gate, &res) : -1;
		if (!ret) {
			count[res.verdict]++;
			an_result_release(&res);
		}
		an_side_free(b);
		an_side_free(c);
	}
	gsl_rng_free(rng);
	return ret;
}
