// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_hist.h"

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
	for (i = 0; i < c->nhist; i++) {
		cum += c->hist[i];
		if (cum >= target)
			return i;
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
	for (i = c->nhist; i-- > 0;) {
		cum += c->hist[i];
		if (cum >= r)
			return i;
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

	for (i = t < 0 ? 0 : (uint32_t)floor(t) + 1; i < c->nhist; i++)
		n += c->hist[i];
	return n;
}

double an_cpu_hist_var(const struct an_cpu *c)
{
	double s = 0, s2 = 0, n = 0, m;
	uint32_t i;

	for (i = 0; i < c->nhist; i++) {
		n += c->hist[i];
		s += (double)c->hist[i] * i;
		s2 += (double)c->hist[i] * i * i;
	}
	if (n < 2)
		return 0;
	m = s / n;
	return fmax(0, (s2 - n * m * m) / (n - 1));
}

/* Cuts a histogram at limit: buckets from there on become overflows. */
static void cut_at(struct an_cpu *c, uint32_t limit)
{
	uint32_t i;

	for (i = limit; i < c->nhist; i++)
		c->overflows += c->hist[i];
	if (c->nhist > limit)
		c->nhist = limit;
	c->limit = limit;
}

int an_cpu_pool(struct an_cpu *dst, const struct an_cpu *src)
{
	uint64_t total = dst->cycles + src->cycles;
	uint32_t i, n;

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
	if (an_cpu_has_hist(src) && (dst->hist || !dst->cycles)) {
		uint32_t limit = dst->cycles && src->limit > dst->limit ?
				 dst->limit : src->limit;

		cut_at(dst, limit);
		n = src->nhist < limit ? src->nhist : limit;
		if (n > dst->nhist) {
			uint64_t *h = realloc(dst->hist, n * sizeof(*h));

			if (!h)
				return -ENOMEM;
			memset(h + dst->nhist, 0,
			       (n - dst->nhist) * sizeof(*h));
			dst->hist = h;
			dst->nhist = n;
		}
		for (i = 0; i < n; i++)
			dst->hist[i] += src->hist[i];
		dst->overflows += src->overflows;
		for (i = n; i < src->nhist; i++)
			dst->overflows += src->hist[i];
		if (!dst->hist) {
			/* An empty histogram still marks the pool as one. */
			dst->hist = calloc(1, sizeof(*dst->hist));
			if (!dst->hist)
				return -ENOMEM;
		}
	} else {
		/* One summary-only input makes the pool summary-only. */
		free(dst->hist);
		dst->hist = NULL;
		dst->nhist = 0;
		dst->limit = 0;
		dst->overflows = 0;
	}
	dst->cycles = total;
	return 0;
}

void an_cpu_release(struct an_cpu *c)
{
	free(c->hist);
	c->hist = NULL;
	c->nhist = 0;
}
