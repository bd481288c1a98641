/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plots of a comparison drawn by gnuplot as SVG: per-CPU latency
 * histograms on a log y axis, baseline and candidate overlaid, the
 * maxima per repetition, and, when the runs have a series, latency over
 * time: each repetition's per-second maxima with the candidate's spikes
 * (an_series_threshold) circled.
 */
#ifndef RTGATE_ANALYZE_PLOT_H
#define RTGATE_ANALYZE_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze_report.h"

struct an_plots {
	char *svg[64];		/* <svg ...>...</svg>, ready to inline */
	char title[64][96];
	bool wide[64];		/* drawn for the page's whole width */
	size_t n;
};

/*
 * The x range of a CPU's histogram plot: it always reaches both sides'
 * measured maxima (their markers stand inside the frame), log scale when
 * the tail is far from the body. The part beyond the histogram's limit is
 * shaded.
 */
void an_plot_hist_xrange(const struct an_cpu *b, const struct an_cpu *k,
			 long *lo, long *hi, bool *log_x);

/* Returns 0, -ENOENT when gnuplot is not installed, or -errno. */
int an_plot_cmp(const struct an_cmp *c, struct an_plots *out);
void an_plots_release(struct an_plots *p);

#endif
