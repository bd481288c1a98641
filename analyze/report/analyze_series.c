// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time: the seconds of a candidate that rise beyond anything
 * its baseline showed (an_series_threshold), from the per-second maxima
 * analyze_parse_series.c read. The series is never evidence for a
 * verdict: it says when.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
#include "analyze/judge/judge.h"
#include "analyze/report/report.h"
#include "jsonio.h"
#include "log.h"

bool an_side_has_series(const struct an_side *s)
{
	size_t r;

	for (r = 0; s && r < s->nruns; r++)
		if (s->runs[r].series_us && s->runs[r].nseries)
			return true;
	return false;
}

double an_series_threshold(const struct an_side *base,
			   const struct an_gate *gate, double *ceiling)
{
	double top = NAN;
	size_t r, k;

	for (r = 0; base && r < base->nruns; r++)
		for (k = 0; k < base->runs[r].nseries; k++) {
			double v = base->runs[r].series_us[k];

			if (!isnan(v) && (isnan(top) || v > top))
				top = v;
		}
	if (ceiling)
		*ceiling = top;
	if (isnan(top))
		return NAN;
	return top + fmax(gate->min_increase_us,
			  gate->min_increase_pct / 100.0 * top);
}

size_t an_series_spikes(const struct an_side *cand, double threshold,
			struct an_spike *out, size_t max, size_t *seconds)
{
	size_t r, k, n = 0, secs = 0;

	for (r = 0; cand && r < cand->nruns; r++) {
		const struct an_run *run = &cand->runs[r];

		secs += run->nseries;
		for (k = 0; k < run->nseries && !isnan(threshold); k++) {
			if (!(run->series_us[k] > threshold))
				continue;
			if (out && n < max)
				out[n] = (struct an_spike){
					.rep = run->rep, .second = k,
					.us = run->series_us[k],
				};
			n++;
		}
	}
	if (seconds)
		*seconds = secs;
	return n;
}

void an_series_note(struct an_cmp *c)
{
	struct an_spike sp[3];
	double ceiling, thr;
	size_t n, secs, i;
	char list[160] = "";
	int len = 0;

	if (!an_side_has_series(c->base) || !an_side_has_series(c->cand))
		return;
	thr = an_series_threshold(c->base, &c->res.gate, &ceiling);
	n = an_series_spikes(c->cand, thr, sp, 3, &secs);
	for (i = 0; i < n && i < 3 && len >= 0 &&
	     (size_t)len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len,
				"%srep %d at %zu s (%.0f us)", i ? ", " : ": ",
				sp[i].rep, sp[i].second, sp[i].us);
	an_cmp_note(&c->res, "over time: %zu of %zu seconds of %s beyond "
		    "%s's worst second (%.0f us) by more than the floor%s%s",
		    n, secs, c->cand->name, c->base->name, ceiling, list,
		    n > 3 ? ", ..." : "");
}
