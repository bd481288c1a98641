// SPDX-License-Identifier: GPL-2.0-only
/* Splits of recorded repetitions through an_compare() (validate.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/validate/validate.h"
#include "analyze/stats/stats.h"

/* xorshift64*: a small deterministic generator for the draws. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Rounds both sides have: rep numbers present in a and in b. */
static size_t common_rounds(const struct an_side *a, const struct an_side *b,
			    int *reps)
{
	size_t i, j, n = 0;

	for (i = 0; i < a->nruns; i++)
		for (j = 0; j < b->nruns; j++)
			if (a->runs[i].rep == b->runs[j].rep) {
				reps[n++] = a->runs[i].rep;
				break;
			}
	return n;
}

static const struct an_run *run_of(const struct an_side *s, int rep)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].rep == rep)
			return &s->runs[i];
	return NULL;
}

/*
 * A side that borrows k runs of src (a shallow copy: the runs' data stay
 * src's); the execution order is kept, so drift checks still work.
 */
static void borrow(struct an_side *dst, const struct an_side *src,
		   struct an_run *runs, const int *reps, size_t k)
{
	size_t i;

	*dst = *src;
	dst->ref = NULL;
	for (i = 0; i < k; i++)
		runs[i] = *run_of(src, reps[i]);
	dst->runs = runs;
	dst->nruns = k;
}

/* The rounds of a and b, drawn split after split into k-run sides. */
struct splits {
	int *reps;
	struct an_run *rb, *rc;
	size_t n, need;
	uint64_t st;
};

static int splits_open(struct splits *sp, const struct an_side *a,
		       const struct an_side *b, size_t k, uint64_t seed)
{
	*sp = (struct splits){ .need = a == b ? 2 * k : k,
			       .st = seed * 2 + 1 };
	sp->reps = calloc(a->nruns + 1, sizeof(*sp->reps));
	sp->rb = calloc(k + 1, sizeof(*sp->rb));
	sp->rc = calloc(k + 1, sizeof(*sp->rc));
	if (!sp->reps || !sp->rb || !sp->rc)
		return -ENOMEM;
	sp->n = common_rounds(a, b, sp->reps);
	return sp->n < sp->need || !k ? -EINVAL : 0;
}

/* The next split: a partial Fisher-Yates draws the first need rounds. */
static void splits_next(struct splits *sp, const struct an_side *a,
			const struct an_side *b, size_t k, struct an_side *sb,
			struct an_side *sc)
{
	size_t i;

	for (i = 0; i < sp->need; i++) {
		size_t j = i + next(&sp->st) % (sp->n - i);
		int t = sp->reps[i];

		sp->reps[i] = sp->reps[j];
		sp->reps[j] = t;
	}
	borrow(sb, a, sp->rb, sp->reps, k);
	borrow(sc, b, sp->rc, a == b ? sp->reps + k : sp->reps, k);
}

static void splits_close(struct splits *sp)
{
	free(sp->reps);
	free(sp->rb);
	free(sp->rc);
}

int an_replay(const struct an_side *a, const struct an_side *b, size_t k,
	      size_t nsplits, uint64_t seed, const struct an_gate *gate,
	      bool same_condition, struct an_replay_count *out)
{
	struct splits sp;
	size_t s;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = splits_open(&sp, a, b, k, seed);
	for (s = 0; !ret && s < nsplits; s++) {
		struct an_side sb, sc;
		struct an_result res;

		splits_next(&sp, a, b, k, &sb, &sc);
		/* A/A: either side is the baseline, half the time each. */
		if (a != b && same_condition && s % 2) {
			struct an_side t = sb;

			sb = sc;
			sc = t;
		}
		if (an_compare(&sb, &sc, gate, &res)) {
			ret = -ENOMEM;
			break;
		}
		out->verdict[res.verdict]++;
		if (res.verdict == AN_REGRESSION && res.decisive >= 0 &&
		    res.lines[res.decisive].kind == AN_LINE_REL)
			out->rel_regressions++;
		out->splits++;
		an_result_release(&res);
	}
	splits_close(&sp);
	return ret;
}

/*
 * cpu with its smallest wake-up replaced by one of x us; b must have
 * room for one bucket more than cpu has. The counts stay.
 */
static void plant(struct an_cpu *c, struct an_bucket *b, uint32_t x)
{
	const struct an_cpu *o = c;
	uint32_t i, n = 0;
	double removed = c->min_us;
	bool put = x >= c->limit;

	for (i = 0; i < o->nbuckets; i++) {
		struct an_bucket v = o->b[i];

		if (i == 0) {
			removed = v.us;
			if (--v.n == 0)
				continue;
		}
		if (!put && x < v.us) {
			b[n++] = (struct an_bucket){ .us = x, .n = 1 };
			put = true;
		} else if (!put && x == v.us) {
			v.n++;
			put = true;
		}
		b[n++] = v;
	}
	if (!put)
		b[n++] = (struct an_bucket){ .us = x, .n = 1 };
	if (x >= c->limit)
		c->overflows++;
	if (c->cycles)
		c->avg_us += (x - removed) / (double)c->cycles;
	c->b = b;
	c->nbuckets = n;
	c->max_us = x;
}

int an_replay_spike(const struct an_side *a, size_t k, size_t nsplits,
		    uint64_t seed, const struct an_gate *gate, double factor,
		    struct an_replay_count *out)
{
	struct an_cpu *cpus = NULL;
	struct an_bucket *bk = NULL;
	struct splits sp;
	size_t s, r;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = splits_open(&sp, a, a, k, seed);
	if (!ret && !a->runs[0].ncpus)
		ret = -EINVAL;
	for (s = 0; !ret && s < nsplits; s++) {
		struct an_side sb, sc;
		struct an_result res;
		const struct an_cpu *c0;
		struct an_run *rc = sp.rc;
		size_t j;
		long worst = 0;

		splits_next(&sp, a, a, k, &sb, &sc);
		j = s % rc[0].ncpus;
		for (r = 0; r < k; r++)
			if (j < sp.rb[r].ncpus && sp.rb[r].cpus[j].max_us > worst)
				worst = sp.rb[r].cpus[j].max_us;
		/* rc[0] gets its own CPUs, one of them its own buckets. */
		free(cpus);
		free(bk);
		c0 = &rc[0].cpus[j];
		cpus = malloc(rc[0].ncpus * sizeof(*cpus));
		bk = malloc((c0->nbuckets + 1) * sizeof(*bk));
		if (!cpus || !bk) {
			ret = -ENOMEM;
			break;
		}
		memcpy(cpus, rc[0].cpus, rc[0].ncpus * sizeof(*cpus));
		rc[0].cpus = cpus;
		if (cpus[j].b)
			plant(&cpus[j], bk, (uint32_t)fmin(4e9,
				factor * fmax(worst, 1)));
		else
			cpus[j].max_us = (long)(factor * fmax(worst, 1));
		if (an_compare(&sb, &sc, gate, &res)) {
			ret = -ENOMEM;
			break;
		}
		out->verdict[res.verdict]++;
		if (res.verdict == AN_INCONCLUSIVE &&
		    strstr(res.reason, "one wake-up of"))
			out->spikes_named++;
		out->splits++;
		an_result_release(&res);
	}
	free(cpus);
	free(bk);
	splits_close(&sp);
	return ret;
}

int an_replay_sequential(const struct an_side *a, const struct an_side *b,
			 size_t k0, size_t kmax, size_t norders, uint64_t seed,
			 const struct an_gate *gate, bool same_condition,
			 struct an_replay_count *out)
{
	double share = an_gate_share(gate);
	struct splits sp;
	size_t s, k;
	int ret;

	memset(out, 0, sizeof(*out));
	if (a == b || !k0 || k0 > kmax)
		return -EINVAL;
	/* Each order draws all kmax rounds; its looks take the first k. */
	ret = splits_open(&sp, a, b, kmax, seed);
	for (s = 0; !ret && s < norders; s++) {
		struct an_side sb, sc;
		enum an_verdict v = AN_INCONCLUSIVE;
		double spent = 0;

		splits_next(&sp, a, b, kmax, &sb, &sc);
		if (same_condition && s % 2) {
			struct an_side t = sb;

			sb = sc;
			sc = t;
		}
		for (k = k0; k <= kmax; k++) {
			struct an_gate g = *gate;
			struct an_side lb = sb, lc = sc;
			struct an_result res;
			double now = an_alpha_spent(share, (double)k / kmax);

			/*
			 * Each look spends what it adds, and judges at its
			 * group-sequential boundary, as a run's looks do.
			 */
			g.level = now - spent;
			spent = now;
			for (g.nlooks = 0; g.nlooks <= k - k0; g.nlooks++)
				g.look_t[g.nlooks] = (double)(k0 + g.nlooks) /
						     kmax;
			g.look_share = share;
			lb.nruns = lc.nruns = k;
			if (an_compare(&lb, &lc, &g, &res)) {
				ret = -ENOMEM;
				break;
			}
			v = res.verdict;
			an_result_release(&res);
			if (v != AN_INCONCLUSIVE)
				break;
		}
		out->verdict[v]++;
		out->reps_used += k > kmax ? kmax : k;
		out->splits++;
	}
	splits_close(&sp);
	return ret;
}
