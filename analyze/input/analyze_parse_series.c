// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time, read: the per-second maxima the runner kept for each
 * repetition (<rep>/timeline.json, schema rtgate-timeline/1), into the run
 * as the maximum over its CPUs (run->series_us).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
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
