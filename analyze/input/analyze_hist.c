// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sparse histograms: b[] holds the non-empty 1 us buckets in ascending
 * order; samples at or above the limit are overflows (their values are
 * unknown but for the maximum).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"

double an_cpu_quantile(const struct an_cpu *c, double q, bool *ge)
{
	uint64_t target, cum = 0;
	uint32_t i;

	*ge = false;
	if (!an_cpu_has_hist(c) || !c->cycles)
		return NAN;
	/* The rank of the quantile among cycles samples, at least 1. */
	target = (uint64_t)ceil(q * (double)c->cycles - 1e-9);
	if (target < 1)
		target = 1;
	for (i = 0; i < c->nbuckets; i++) {
		cum += c->b[i].n;
		if (cum >= target)
			return c->b[i].us;
	}
	*ge = true;
	return c->limit;
}

/* The r-th largest sample (r >= 1 integer). */
static double rank_from_top(const struct an_cpu *c, uint64_t r, bool *ge)
{
	uint64_t cum = 0;
	uint32_t i;

	*ge = false;
	if (r <= 1)
		return c->max_us;
	if (r > c->cycles)
		return c->min_us;
	if (r <= c->overflows) {
		*ge = true;
		return c->limit;
	}
	r -= c->overflows;
	for (i = c->nbuckets; i-- > 0;) {
		cum += c->b[i].n;
		if (cum >= r)
			return c->b[i].us;
	}
	return c->min_us;
}

double an_cpu_kth_largest(const struct an_cpu *c, double k, bool *ge)
{
	uint64_t k1;
	double frac, v1, v2;
	bool ge1, ge2;

	*ge = false;
	if (k <= 1.0 || !an_cpu_has_hist(c))
		return c->max_us;
	k1 = (uint64_t)floor(k);
	frac = k - (double)k1;
	v1 = rank_from_top(c, k1, &ge1);
	if (frac < 1e-12) {
		*ge = ge1;
		return v1;
	}
	v2 = rank_from_top(c, k1 + 1, &ge2);
	*ge = ge1 || ge2;
	if (*ge)
		return c->limit;
	return v1 + frac * (v2 - v1);
}

uint64_t an_cpu_count_above(const struct an_cpu *c, double t)
{
	uint64_t n = c->overflows;
	uint32_t i;

	for (i = c->nbuckets; i-- > 0 && c->b[i].us > t;)
		n += c->b[i].n;
	return n;
}

/* Cuts a histogram at limit: buckets from there on become overflows. */
static void cut_at(struct an_cpu *c, uint32_t limit)
{
	while (c->nbuckets && c->b[c->nbuckets - 1].us >= limit)
		c->overflows += c->b[--c->nbuckets].n;
	c->limit = limit;
}

/* dst's buckets and src's below limit, merged; the rest overflows. */
static int merge_buckets(struct an_cpu *dst, const struct an_cpu *src,
			 uint32_t limit)
{
	struct an_bucket *m;
	uint32_t i = 0, j = 0, k = 0, n = dst->nbuckets + src->nbuckets;

	m = malloc((n ? n : 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	while (i < dst->nbuckets || j < src->nbuckets) {
		if (j == src->nbuckets ||
		    (i < dst->nbuckets && dst->b[i].us < src->b[j].us)) {
			m[k++] = dst->b[i++];
		} else if (src->b[j].us >= limit) {
			dst->overflows += src->b[j++].n;
		} else if (i < dst->nbuckets && dst->b[i].us == src->b[j].us) {
			m[k] = dst->b[i++];
			m[k++].n += src->b[j++].n;
		} else {
			m[k++] = src->b[j++];
		}
	}
	free(dst->b);
	dst->b = m;
	dst->nbuckets = k;
	dst->overflows += src->overflows;
	return 0;
}

int an_cpu_pool(struct an_cpu *dst, const struct an_cpu *src)
{
	uint64_t total = dst->cycles + src->cycles;
	int ret;

	if (!src->cycles)
		return 0;
	if (!dst->cycles) {
		dst->min_us = src->min_us;
		dst->max_us = src->max_us;
		dst->cpu = src->cpu;
		dst->prio = src->prio;
		dst->interval_us = src->interval_us;
		dst->limit = src->limit;
	} else {
		dst->min_us = src->min_us < dst->min_us ? src->min_us :
							  dst->min_us;
		dst->max_us = src->max_us > dst->max_us ? src->max_us :
							  dst->max_us;
	}
	dst->avg_us = (dst->avg_us * dst->cycles +
		       src->avg_us * src->cycles) / total;
	if (an_cpu_has_hist(src) && (dst->b || !dst->cycles)) {
		uint32_t limit = dst->cycles && src->limit > dst->limit ?
				 dst->limit : src->limit;

		cut_at(dst, limit);
		ret = merge_buckets(dst, src, limit);
		if (ret)
			return ret;
	} else {
		/* One summary-only input makes the pool summary-only. */
		free(dst->b);
		dst->b = NULL;
		dst->nbuckets = 0;
		dst->limit = 0;
		dst->overflows = 0;
	}
	dst->cycles = total;
	return 0;
}

void an_cpu_release(struct an_cpu *c)
{
	free(c->b);
	c->b = NULL;
	c->nbuckets = 0;
}
