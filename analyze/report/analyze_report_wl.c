// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads of a side in the reports: what each one did in each
 * repetition (its summary's work_done and errors), so that a reader sees
 * the load really ran beside the measurement, and the values of its
 * metrics (ns/read, ns/call) pooled over the repetitions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analyze/report/report.h"

/* Workload names in the order of their first appearance. */
static size_t wl_names(const struct an_side *s, const char **names,
		       size_t max)
{
	size_t r, w, k, n = 0;

	for (r = 0; r < s->nruns; r++)
		for (w = 0; w < s->runs[r].nwls; w++) {
			const char *name = s->runs[r].wls[w].name;

			for (k = 0; k < n && strcmp(names[k], name); k++)
				;
			if (k == n && n < max)
				names[n++] = name;
		}
	return n;
}

static const struct an_workload *wl_in(const struct an_run *run,
					const char *name)
{
	size_t w;

	for (w = 0; w < run->nwls; w++)
		if (!strcmp(run->wls[w].name, name))
			return &run->wls[w];
	return NULL;
}

static void wl_line(FILE *f, const struct an_side *s, const char *name)
{
	const struct an_workload *wl = NULL, *first = NULL;
	double errors = 0;
	size_t r;

	fprintf(f, "workload %s: work done", name);
	for (r = 0; r < s->nruns; r++) {
		wl = wl_in(&s->runs[r], name);
		if (!wl) {
			fprintf(f, "%s-", r ? " | " : " ");
			continue;
		}
		if (!first)
			first = wl;
		errors += wl->errors;
		if (isnan(wl->work_done))
			fprintf(f, "%s?", r ? " | " : " ");
		else
			fprintf(f, "%s%.0f", r ? " | " : " ", wl->work_done);
	}
	fprintf(f, " %s (per repetition), errors %.0f\n",
		first && first->unit[0] ? first->unit : "units", errors);
}

static void metric_line(FILE *f, const struct an_side *s, const char *name)
{
	const struct an_values *mv = NULL;
	double *all = NULL, *tmp, mean;
	size_t r, m, i, n = 0;

	for (r = 0; r < s->nruns; r++)
		for (m = 0; m < s->runs[r].nmetrics; m++) {
			if (strcmp(s->runs[r].metrics[m].name, name))
				continue;
			mv = &s->runs[r].metrics[m];
			tmp = realloc(all, (n + mv->n + 1) * sizeof(*all));
			if (!tmp)
				goto out;
			all = tmp;
			for (i = 0; i < mv->n; i++)
				all[n++] = mv->v[i];
		}
	if (!n)
		goto out;
	gsl_sort(all, 1, n);
	mean = gsl_stats_mean(all, 1, n);
	fprintf(f, "metric %s: median %.6g %s, min %.6g, max %.6g, CV %.1f%% "
		"(%zu values, %s is better)\n", name,
		gsl_stats_median_from_sorted_data(all, 1, n), mv->unit, all[0],
		all[n - 1], n > 1 && mean ?
		100 * gsl_stats_sd_m(all, 1, n, mean) / mean : 0.0, n,
		mv->higher_better ? "higher" : "lower");
out:
	free(all);
}

/*
 * "kernel rseq/stats: sgrant 912 | 850, sexpir 3 | 1, ... (per
 * repetition)": the kernel's own count of the extensions, beside the
 * workload's. Nothing when no repetition had the counters.
 */
static void rseq_line(FILE *f, const struct an_side *s)
{
	size_t r, i;
	bool any = false;

	for (r = 0; r < s->nruns && !any; r++)
		any = !isnan(s->runs[r].rseq[0]);
	if (!any)
		return;
	fprintf(f, "kernel rseq/stats:");
	for (i = 0; i < AN_RSEQ_NR; i++) {
		fprintf(f, "%s %s", i ? "," : "", an_rseq_names[i]);
		for (r = 0; r < s->nruns; r++) {
			double v = s->runs[r].rseq[i];

			fprintf(f, "%s", r ? " | " : " ");
			if (isnan(v))
				fprintf(f, "-");
			else
				fprintf(f, "%.0f", v);
		}
	}
	fprintf(f, " (per repetition)\n");
}

void an_report_workloads(FILE *f, const struct an_side *s)
{
	const char *names[32];
	size_t n = wl_names(s, names, 32), i, r, m, k;
	const char *seen[32];
	size_t nseen = 0;

	for (i = 0; i < n; i++)
		wl_line(f, s, names[i]);
	rseq_line(f, s);
	for (r = 0; r < s->nruns; r++)
		for (m = 0; m < s->runs[r].nmetrics; m++) {
			const char *name = s->runs[r].metrics[m].name;

			for (k = 0; k < nseen && strcmp(seen[k], name); k++)
				;
			if (k < nseen || nseen == 32)
				continue;
			seen[nseen++] = name;
			metric_line(f, s, name);
		}
}

cJSON *an_workloads_json(const struct an_side *s)
{
	const char *names[32];
	size_t n = wl_names(s, names, 32), i, r;
	cJSON *arr = cJSON_CreateArray();

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject(), *done, *errs;
		const struct an_workload *wl;
		const char *unit = "";

		cJSON_AddStringToObject(o, "name", names[i]);
		done = cJSON_AddArrayToObject(o, "work_done");
		errs = cJSON_AddArrayToObject(o, "errors");
		for (r = 0; r < s->nruns; r++) {
			wl = wl_in(&s->runs[r], names[i]);
			if (wl && wl->unit[0])
				unit = wl->unit;
			cJSON_AddItemToArray(done, wl && !isnan(wl->work_done) ?
					     cJSON_CreateNumber(wl->work_done) :
					     cJSON_CreateNull());
			cJSON_AddItemToArray(errs, wl ?
					     cJSON_CreateNumber(wl->errors) :
					     cJSON_CreateNull());
		}
		cJSON_AddStringToObject(o, "work_unit", unit);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}
