/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one-line JSON summary a workload prints on stdout at exit
 * (workloads/README.md). Built with cJSON, common fields first:
 *   {"workload":…,"version":…,"work_done":…,"work_unit":…,"errors":…,
 *    "duration_s":…, <the workload's own fields>, "metrics":{…}}
 */
#ifndef RTGATE_WL_SUMMARY_H
#define RTGATE_WL_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

struct wl_work {
	double work_done;	/* > 0: the load really ran */
	const char *unit;	/* "hackbench runs", "spins", … */
	uint64_t errors;	/* failures of the work itself */
	double duration_s;	/* wall time of the work */
};

/* A new summary with the common fields; NULL on allocation failure. */
cJSON *wl_summary_new(const char *workload, const struct wl_work *work);

/*
 * A summary with "workload" only: the one-line answer of a helper mode
 * that runs no load (extend-sched --abi, kbuild --prepare).
 */
cJSON *wl_summary_bare(const char *workload);

/* Numbers rounded to a few decimals so the line stays readable. */
void wl_summary_num(cJSON *obj, const char *key, double v, int decimals);
void wl_summary_u64(cJSON *obj, const char *key, uint64_t v);
void wl_summary_str(cJSON *obj, const char *key, const char *v);
void wl_summary_bool(cJSON *obj, const char *key, int v);

/*
 * Adds metrics.NAME = {"unit":…, "better":"lower"|"higher", "values":[…]}:
 * the measured rounds of a benchmark, warm-ups excluded.
 */
int wl_summary_metric(cJSON *summary, const char *name, const char *unit,
		      const char *better, const double *values, size_t n);

/* Prints the summary as one line on stdout and frees it. */
int wl_summary_print(cJSON *summary);

#endif
