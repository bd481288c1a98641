// SPDX-License-Identifier: GPL-2.0-only
/* Round statistics through GSL's gsl_stats_*. */
#include <math.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>

#include "workloads/common/core/wl_stats.h"

void wl_stats_compute(const double *v, size_t n, struct wl_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	gsl_stats_minmax(&out->min, &out->max, v, 1, n);
	out->mean = gsl_stats_mean(v, 1, n);
	if (n < 2)
		return;
	out->sd = gsl_stats_sd_m(v, 1, n, out->mean);
	if (out->mean != 0)
		out->cv_pct = 100 * out->sd / fabs(out->mean);
}
