// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload's one-line JSON summary (wl_summary.h): work done, its unit,
 * errors and the workload's own keys.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "workloads/common/core/wl_summary.h"

static double round_to(double v, int decimals)
{
	double scale = pow(10, decimals);

	if (!isfinite(v))
		return 0;
	return round(v * scale) / scale;
}

cJSON *wl_summary_new(const char *workload, const struct wl_work *work)
{
	cJSON *s = cJSON_CreateObject();

	if (!s)
		return NULL;
	wl_summary_str(s, "workload", workload);
	wl_summary_str(s, "version", RTGATE_VERSION);
	wl_summary_num(s, "work_done", work->work_done, 3);
	wl_summary_str(s, "work_unit", work->unit);
	wl_summary_u64(s, "errors", work->errors);
	wl_summary_num(s, "duration_s", work->duration_s, 3);
	return s;
}

cJSON *wl_summary_bare(const char *workload)
{
	cJSON *s = cJSON_CreateObject();

	if (s)
		wl_summary_str(s, "workload", workload);
	return s;
}

void wl_summary_num(cJSON *obj, const char *key, double v, int decimals)
{
	cJSON_AddNumberToObject(obj, key, round_to(v, decimals));
}

void wl_summary_u64(cJSON *obj, const char *key, uint64_t v)
{
	cJSON_AddNumberToObject(obj, key, (double)v);
}

void wl_summary_str(cJSON *obj, const char *key, const char *v)
{
	cJSON_AddStringToObject(obj, key, v ? v : "");
}

void wl_summary_bool(cJSON *obj, const char *key, int v)
{
	cJSON_AddBoolToObject(obj, key, v);
}

int wl_summary_metric(cJSON *summary, const char *name, const char *unit,
		      const char *better, const double *values, size_t n)
{
	cJSON *metrics, *m, *arr;
	size_t i;

	metrics = cJSON_GetObjectItemCaseSensitive(summary, "metrics");
	if (!metrics)
		metrics = cJSON_AddObjectToObject(summary, "metrics");
	m = metrics ? cJSON_AddObjectToObject(metrics, name) : NULL;
	if (!m)
		return -ENOMEM;
	cJSON_AddStringToObject(m, "unit", unit);
	cJSON_AddStringToObject(m, "better", better);
	arr = cJSON_AddArrayToObject(m, "values");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cJSON *v = cJSON_CreateNumber(round_to(values[i], 3));

		cJSON_AddItemToArray(arr, v);
	}
	return 0;
}

int wl_summary_print(cJSON *summary)
{
	char *text = cJSON_PrintUnformatted(summary);
	int ret = 0;

	cJSON_Delete(summary);
	if (!text) {
		pr_err("cannot format the summary: out of memory");
		return -ENOMEM;
	}
	if (printf("%s\n", text) < 0 || fflush(stdout)) {
		ret = -errno;
		pr_err("stdout: %s", strerror(errno));
	}
	free(text);
	return ret;
}
