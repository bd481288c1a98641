// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>

#include "workloads/common/wl_stats.h"

void wl_stats_compute(const double *v, size_t n, struct wl_stats *out)
{
	double sum = 0, ss = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->min = out->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = sum / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = sqrt(ss / (n - 1));
	if (out->mean != 0)
		out->cv_pct = 100 * out->sd / fabs(out->mean);
}
