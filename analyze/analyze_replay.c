// SPDX-License-Identifier: GPL-2.0-only
/* Splits of recorded repetitions through an_compare() (analyze_replay.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_replay.h"

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

int an_replay(const struct an_side *a, const struct an_side *b, size_t k,
	      size_t nsplits, uint64_t seed, const struct an_gate *gate,
	      bool same_condition, struct an_replay_count *out)
{
	size_t n, i, s, need = a == b ? 2 * k : k;
	int *reps, ret = 0;
	struct an_run *rb, *rc;
	uint64_t st = seed * 2 + 1;

	memset(out, 0, sizeof(*out));
	reps = calloc(a->nruns + 1, sizeof(*reps));
	rb = calloc(k + 1, sizeof(*rb));
	rc = calloc(k + 1, sizeof(*rc));
	if (!reps || !rb || !rc) {
		ret = -ENOMEM;
		goto out;
	}
	n = common_rounds(a, b, reps);
	if (n < need || !k) {
		ret = -EINVAL;
		goto out;
	}
	for (s = 0; s < nsplits; s++) {
		struct an_side sb, sc;
		struct an_result res;

		/* A partial Fisher-Yates: the first need rounds are drawn. */
		for (i = 0; i < need; i++) {
			size_t j = i + next(&st) % (n - i);
			int t = reps[i];

			reps[i] = reps[j];
			reps[j] = t;
		}
		borrow(&sb, a, rb, reps, k);
		borrow(&sc, b, rc, a == b ? reps + k : reps, k);
		/* A/A: either side is the baseline, half the time each. */
		if (a != b && same_condition && s % 2) {
			struct an_side t = sb;

			sb = sc;
			sc = t;
		}
		if (an_compare(&sb, &sc, gate, &res)) {
			ret = -ENOMEM;
			goto out;
		}
		out->verdict[res.verdict]++;
		if (res.verdict == AN_REGRESSION && res.decisive >= 0 &&
		    res.lines[res.decisive].kind == AN_LINE_REL)
			out->rel_regressions++;
		out->splits++;
		an_result_release(&res);
	}
out:
	free(reps);
	free(rb);
	free(rc);
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
	size_t n, i, s, r;
	int *reps, ret = 0;
	struct an_run *rb, *rc;
	struct an_cpu *cpus = NULL;
	struct an_bucket *bk = NULL;
	uint64_t st = seed * 2 + 1;

	memset(out, 0, sizeof(*out));
	reps = calloc(a->nruns + 1, sizeof(*reps));
	rb = calloc(k + 1, sizeof(*rb));
	rc = calloc(k + 1, sizeof(*rc));
	if (!reps || !rb || !rc) {
		ret = -ENOMEM;
		goto out;
	}
	n = common_rounds(a, a, reps);
	if (n < 2 * k || !k || !a->runs[0].ncpus) {
		ret = -EINVAL;
		goto out;
	}
	for (s = 0; s < nsplits; s++) {
		struct an_side sb, sc;
		struct an_result res;
		const struct an_cpu *c0;
		size_t j;
		long worst = 0;

		for (i = 0; i < 2 * k; i++) {
			size_t t = i + next(&st) % (n - i);
			int v = reps[i];

			reps[i] = reps[t];
			reps[t] = v;
		}
		borrow(&sb, a, rb, reps, k);
		borrow(&sc, a, rc, reps + k, k);
		j = s % rc[0].ncpus;
		for (r = 0; r < k; r++)
			if (j < rb[r].ncpus && rb[r].cpus[j].max_us > worst)
				worst = rb[r].cpus[j].max_us;
		/* rc[0] gets its own CPUs, one of them its own buckets. */
		free(cpus);
		free(bk);
		c0 = &rc[0].cpus[j];
		cpus = malloc(rc[0].ncpus * sizeof(*cpus));
		bk = malloc((c0->nbuckets + 1) * sizeof(*bk));
		if (!cpus || !bk) {
			ret = -ENOMEM;
			goto out;
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
			goto out;
		}
		out->verdict[res.verdict]++;
		if (res.verdict == AN_INCONCLUSIVE &&
		    strstr(res.reason, "one wake-up of"))
			out->spikes_named++;
		out->splits++;
		an_result_release(&res);
	}
out:
	free(cpus);
	free(bk);
	free(reps);
	free(rb);
	free(rc);
	return ret;
}
