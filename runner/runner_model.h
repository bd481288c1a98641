/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run did, as the manifest (docs/results.md) and the end-of-run
 * summary show it. Built by the runner, written by runner_manifest.c; it
 * holds no live process state, so tests can build one by hand.
 */
#ifndef RTGATE_RUNNER_MODEL_H
#define RTGATE_RUNNER_MODEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <cjson/cJSON.h>

#include "ctline.h"
#include "runner_suite.h"

enum runner_rep_status { REP_OK, REP_INVALID, REP_SKIPPED, REP_ABORTED };
enum runner_run_status { RUN_INCOMPLETE, RUN_COMPLETE, RUN_ABORTED };

struct runner_rep_proc {
	char *name;
	char **argv;
	long pid;		/* 0: never started */
	bool workload;
	char *cpus;		/* workloads: as given, or NULL */
	char *policy;
	bool has_nice;
	int nice;
	double ready_s;		/* to "ready", s; < 0: never ready */
	bool exited;
	int code;		/* exit code, when !sig */
	int sig;		/* terminating signal, 0 if none */
	bool by_runner;		/* the signal was rtgate's */
	char *error;		/* could not start: why */
};

struct runner_rep_result {
	unsigned int rep;
	enum runner_rep_status status;
	char *reason;
	char dir[128];		/* "<scenario>/<rep>" */
	struct timespec start, end;
	struct runner_rep_proc *procs;
	size_t nr_procs;
	cJSON *workloads;	/* alias -> summary object */
	struct ctline *finals;	/* cyclictest's final T: lines */
	size_t nr_finals;
	cJSON *trace;		/* what was captured (runner_trace.h) */
	cJSON *rseq_stats;	/* debugfs rseq/stats, after - before; NULL
				 * when the kernel has none (runner_kstat.h) */
	cJSON *rtla_aa;		/* rtla's auto-analysis (runner_timerlat.h) */
};

struct runner_scen_result {
	const struct runner_suite_scenario *sc;
	bool skipped;
	char *reason;		/* why skipped */
	cJSON *tunables;	/* manifest key -> value */
	struct runner_rep_result *reps;
	size_t nr_reps;
};

struct runner_step {
	size_t scen;
	unsigned int rep;
};

struct runner_run {
	const struct runner_suite *suite;
	char suite_sha256[65];
	char id[128];
	char dir[PATH_MAX];
	double scale;
	unsigned int repetitions;
	unsigned int duration_s;	/* scaled; 0 with loops or tool none */
	unsigned long long loops;	/* scaled; 0 with duration */
	int trace;		/* enum trace_capture, as run */
	enum runner_run_status status;
	char reason[256];
	struct timespec start, end;
	bool ended;
	cJSON *env;		/* host, kernel, environment, tools */
	cJSON *tunables_before;
	cJSON *tunables_after;
	struct runner_step *order;	/* as executed */
	size_t nr_order;
	struct runner_scen_result *scens;	/* one per suite scenario */
	cJSON *noise_profile;	/* the machine's, as the gate uses it */
	cJSON *sequential;	/* --until-decided: budget, looks, stops */
};

/* ok | skipped | invalid | partial | not_run (docs/results.md). */
const char *runner_scen_status_name(const struct runner_scen_result *sr);
const char *runner_rep_status_name(enum runner_rep_status st);
const char *runner_run_status_name(enum runner_run_status st);

void runner_run_model_free(struct runner_run *run);

#endif
