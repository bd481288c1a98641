/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Round statistics for the microbenchmarks: the seed threads report the
 * mean of the measured rounds and their coefficient of variation.
 */
#ifndef RTGATE_WL_STATS_H
#define RTGATE_WL_STATS_H

#include <stddef.h>

struct wl_stats {
	size_t n;
	double mean;
	double sd;		/* sample standard deviation (n - 1) */
	double cv_pct;		/* 100 * sd / mean; 0 for n < 2 */
	double min;
	double max;
};

void wl_stats_compute(const double *v, size_t n, struct wl_stats *out);

#endif
