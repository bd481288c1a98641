/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One thread's latency histogram: quantiles, order statistics, tail counts
 * and pooling. Buckets are 1 us wide; samples at or above the histogram
 * limit are overflows whose values are unknown except the maximum, so a
 * statistic that falls among them is "at least the limit" (*ge = true).
 */
#ifndef RTGATE_ANALYZE_HIST_H
#define RTGATE_ANALYZE_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze.h"

static inline bool an_cpu_has_hist(const struct an_cpu *c)
{
	return c->b != NULL && c->limit > 0;
}

/* Smallest latency v with P(X <= v) >= q; NAN without a histogram. */
double an_cpu_quantile(const struct an_cpu *c, double q, bool *ge);
/*
 * The k-th largest sample, k >= 1; a fractional k interpolates between
 * neighbouring order statistics. k = 1 is the maximum.
 */
double an_cpu_kth_largest(const struct an_cpu *c, double k, bool *ge);
/* Samples strictly above t us; t must be below the limit. */
uint64_t an_cpu_count_above(const struct an_cpu *c, double t);
/* Sample variance of the latencies in the histogram (overflows excluded). */
double an_cpu_hist_var(const struct an_cpu *c);

/*
 * Adds src into dst (an accumulator that starts zeroed, thread set): sums
 * histograms, cycles, overflows; min/max/avg combined. Histograms of
 * different limits are cut at the smaller one. Returns 0 or -ENOMEM.
 */
int an_cpu_pool(struct an_cpu *dst, const struct an_cpu *src);
void an_cpu_release(struct an_cpu *c);

#endif
