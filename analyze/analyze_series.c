// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time: the per-second maxima the runner kept for each
 * repetition (<rep>/timeline.json, schema rtgate-timeline/1), read into
 * the run as the maximum over its CPUs, and the seconds of a candidate
 * that rise beyond anything its baseline showed (an_series_threshold).
 * The series is never evidence for a verdict: it says when.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_compare.h"
#include "analyze_input.h"
#include "analyze_report.h"
#include "jsonio.h"
#include "log.h"

#define SERIES_MAX_SECONDS	(366L * 24 * 3600)

static int bad(const char *path, const char *what)
{
	pr_warn("%s: %s: the repetition's latency over time is left out",
		path, what);
	return -EINVAL;
}

/* One thread's max_us into the run's all-CPU maxima. */
static int take_thread(const char *path, const cJSON *mx, double *v,
		       size_t n)
{
	const cJSON *e;
	size_t k = 0;

	cJSON_ArrayForEach(e, mx) {
		if (k >= n)
			return bad(path, "a thread has more seconds than "
				   "\"seconds\"");
		if (cJSON_IsNumber(e)) {
			if (!isfinite(e->valuedouble) || e->valuedouble < 0)
				return bad(path, "a maximum is not a latency");
			if (isnan(v[k]) || e->valuedouble > v[k])
				v[k] = e->valuedouble;
		} else if (!cJSON_IsNull(e)) {
			return bad(path, "a maximum is neither a number nor "
				   "null");
		}
		k++;
	}
	return 0;
}

int an_parse_series(const char *path, struct an_run *run)
{
	const cJSON *threads, *t, *mx;
	struct json_error jerr;
	double seconds, *v;
	cJSON *json;
	size_t n, k;
	int ret;

	if (json_read_file(path, &json, &jerr))
		return bad(path, jerr.msg);
	ret = -EINVAL;
	seconds = json_get_num(json, "seconds", -1);
	threads = cJSON_GetObjectItemCaseSensitive(json, "threads");
	if (strcmp(json_get_str(json, "schema", ""), "rtgate-timeline/1")) {
		bad(path, "not an rtgate-timeline/1 file");
		goto out;
	}
	if (!(seconds >= 0 && seconds <= SERIES_MAX_SECONDS) ||
	    seconds != floor(seconds) || !cJSON_IsArray(threads)) {
		bad(path, "no whole \"seconds\" or no \"threads\" array");
		goto out;
	}
	n = (size_t)seconds;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0; k < n; k++)
		v[k] = NAN;
	cJSON_ArrayForEach(t, threads) {
		mx = cJSON_GetObjectItemCaseSensitive(t, "max_us");
		if (!cJSON_IsArray(mx)) {
			bad(path, "a thread without a \"max_us\" array");
			free(v);
			goto out;
		}
		if (take_thread(path, mx, v, n)) {
			free(v);
			goto out;
		}
	}
	free(run->series_us);
	run->series_us = v;
	run->nseries = n;
	ret = 0;
out:
	cJSON_Delete(json);
	return ret;
}

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
