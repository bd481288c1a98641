/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside runner/: a run (struct runner), its results as they are
 * recorded (the run model), the manifest written from them, and the
 * noise profile the run is judged with.
 */
#ifndef RTGATE_RUNNER_PRIV_H
#define RTGATE_RUNNER_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <cjson/cJSON.h>
#include <stdint.h>

#include "analyze/analyze.h"
#include "ctline.h"
#include "runner/machine/machine.h"
#include "runner/measure/measure.h"
#include "runner/suite/suite.h"
#include "trace/trace.h"

/* ---- model ---------------------------------------------------- */
/*
 * What a run did, as the manifest (docs/results.md) and the end-of-run
 * summary show it. Built by the runner, written by runner_manifest.c; it
 * holds no live process state, so tests can build one by hand.
 */

enum runner_rep_status {
	RUNNER_REP_OK,
	RUNNER_REP_INVALID,
	RUNNER_REP_SKIPPED,
	RUNNER_REP_ABORTED,
};
enum runner_run_status {
	RUNNER_RUN_INCOMPLETE,
	RUNNER_RUN_COMPLETE,
	RUNNER_RUN_ABORTED,
};

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
	cJSON *trace;		/* what was captured (measure.h) */
	cJSON *rseq_stats;	/* debugfs rseq/stats, after - before; NULL
				 * when the kernel has none (measure.h) */
	cJSON *rtla_aa;		/* rtla's auto-analysis (measure.h) */
	/* --silent: what crossed to the host while it measured */
	struct runner_hostio_delta host_io;
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

/* ---- manifest ------------------------------------------------- */
/*
 * manifest.json (schema rtgate-manifest/1, docs/results.md): rewritten
 * atomically after every repetition, so an interrupted run leaves one that
 * says how far it got. It copies each scenario's [reference] and the
 * suite's gate, so readers never need the suite parser.
 */

#define MANIFEST_SCHEMA "rtgate-manifest/1"

/* Writes <run->dir>/manifest.json; 0 or -errno. */
int runner_manifest_write(const struct runner_run *run);

/* ---- profile -------------------------------------------------- */
/*
 * The machine's noise profile for a run (docs/statistics.md): which
 * measurement a profile holds for (its key), finding the pooled profile
 * of this host in the history, saying before the run what the suite can
 * see here, and keeping the profile in the manifest for the analyzer.
 */

/*
 * The measurement key: cyclictest's options as the suite gives them, the
 * duration (or loops) as run, the histogram size and the online CPUs. A
 * profile is the noise of exactly this measurement.
 */
void runner_measure_key(const struct runner_suite *s, double scale, char *buf,
			size_t len);
/* The history database a run of RESULTS (or NULL: the default) uses. */
void runner_history_db(const char *results, char *buf, size_t len);
/* This host's pooled profile for key: 0, 1 (none) or -errno. */
int runner_profile_find(const char *db, const char *key,
			struct an_profile *out);
/*
 * One line per CPU: the smallest p99 and maximum rise a suite of reps
 * repetitions a side would call a regression here, at the share of alpha
 * its comparisons get, and the repetitions that would reach the floor.
 */
void runner_profile_print(const struct an_profile *pr,
			  const struct runner_suite *s, unsigned int reps);

/* ---- priv ----------------------------------------------------- */
/*
 * The state of one `rtgate run`, shared by its files: runner_run.c (the
 * order of business) over runner_sequential.c (--until-decided) over
 * runner_steps.c (the order, one step at a time) over runner_rep.c (one
 * repetition) over runner_lookup.c (where the suite, programs, tools and
 * tunables are).
 */

#define STOP_GRACE_S		5	/* SIGTERM, then SIGKILL */

struct runner_run_params {
	const char *suite;	/* NAME or a path */
	double scale;		/* --duration-scale, or from --duration */
	bool have_scale;	/* --duration-scale was given */
	unsigned int duration_s;	/* --duration; 0: the suite's */
	unsigned int repeat;	/* --repeat; 0: the suite's */
	const char *out;	/* --out, or NULL */
	bool no_history;	/* --no-history */
	enum trace_capture trace;	/* --trace */
	bool have_trace;
	bool until_decided;	/* --until-decided */
	uint64_t budget_ns;	/* --budget; 0: the suite's, else 10 min */
	unsigned int max_reps;	/* --max-repetitions; 0: the budget's */
	bool json;		/* --json: report.json alone on stdout */
	bool silent;		/* --silent: nothing leaves during a rep */
};

/* --silent (runner_silence.c): the stage, the held output. */
struct runner_silence {
	bool on;
	bool holding;
	char stage[PATH_MAX];	/* the stage in memory, "" without */
	char dest[PATH_MAX];	/* the run's results directory */
	int held[2];		/* memfds holding stdout, stderr */
	int saved[2];		/* the real stdout, stderr */
};

struct runner {
	struct runner_run_params params;
	struct runner_suite suite;
	char suite_path[PATH_MAX];
	struct runner_run run;
	struct runner_state state;
	struct runner_guard guard;
	struct runner_progress progress;
	char bin_dir[PATH_MAX];		/* workloads: rtpaths_libexec() */
	char cyclictest[PATH_MAX];	/* its path, "" with tool = none */
	char rtla[PATH_MAX];		/* its path, "" without timerlat */
	char rtla_aa_path[PATH_MAX];	/* the rtla that auto-analyses */
	int rtla_aa;			/* -1 not asked yet, 0 no, 1 yes */
	char rtla_aa_why[256];		/* why not */
	char debugfs[PATH_MAX];		/* mount points, "" if absent */
	char tracefs[PATH_MAX];
	char cgroup[PATH_MAX];		/* the run's cgroup, "" without */
	char scale_str[32];
	struct runner_tunable *tunables; /* every tunable the suite touches */
	size_t nr_tunables;
	size_t step;			/* 1-based, names and progress */
	double started_mono;		/* when the repetitions began */
	bool bad_input;			/* the kernel refused a suite value */
	char stop_reason[512];		/* what stopped the run, if not "" */
	struct runner_silence silence;
};

/* runner_lookup.c */
/* The run's tunable that a suite line names, or NULL. */
struct runner_tunable *runner_tunable_lookup(struct runner *r,
			       const struct runner_suite_tunable *st);
/* cyclictest, rtla and every workload program are there; else -ENOENT. */
int runner_check_tools(struct runner *r);
/* Where the program of @tool is (rtla's is chosen with its versions). */
const char *runner_tool_path(const struct runner *r,
			     const struct an_tool *tool);
/*
 * A suite by name (./suites/NAME.suite, else rtgate's own suites/: the
 * clone's or the installed ones, rtpaths_in_top()) or path, into buf;
 * -ENOENT (said) when there is none.
 */
int runner_resolve_suite(const char *arg, char *buf, size_t len);
/*
 * A workload's executable: PROGRAM in the workload directory
 * (rtpaths_libexec(): the clone's bin/, an installed PREFIX/libexec/rtgate),
 * or PROGRAM when it has a '/'.
 */
void runner_program_path(const struct runner *r, const char *program,
			 char *buf, size_t len);
/*
 * Runs repetition @rep of scenario @scen into @rr. Returns 0 (whatever
 * the repetition's status) or -errno when the run cannot go on.
 */
int runner_rep_run(struct runner *r, size_t scen, unsigned int rep,
		   struct runner_rep_result *rr);
/* runner_steps.c */
/*
 * One step of the order: the repetition run, recorded in the order and
 * the manifest, with its progress lines. 0, or -errno when the run cannot
 * go on (a skipped scenario's step does nothing).
 */
int runner_run_step(struct runner *r, struct runner_step st);
/* @steps in a random order (a round's scenarios); 0 or -ENOMEM. */
int runner_shuffle_steps(struct runner_step *steps, size_t n);
/* Every step of the suite's order, until one fails or a stop signal. */
int runner_run_steps(struct runner *r);
/*
 * --until-decided: rounds of the undecided comparisons' scenarios until
 * each is decided, or budget_ns is spent (0: no time budget), or a
 * scenario has max_reps repetitions (0: no such bound), alpha spent over
 * the looks (runner_sequential.c). 0 or -errno.
 */
int runner_until_decided(struct runner *r, uint64_t budget_ns,
			 unsigned int max_reps);
/*
 * Whether --until-decided runs another round for @v: every INCONCLUSIVE
 * comparison, whatever its "more repetitions" figure says (the analyzer's
 * replay of the rule, an_replay_sequential(), continues the same ones).
 */
bool runner_until_decided_open(const struct an_run_verdict *v);
/* runner_silence.c */
/* A new stage in memory ($RTGATE_STAGE_DIR or /dev/shm); 0 or -errno. */
int runner_silence_stage(struct runner *r);
/* run.dir (made in the results) moves to the stage; 0 or -errno. */
int runner_silence_move_run(struct runner *r);
/* Where the run's results are (the destination when staged). */
const char *runner_silence_results_dir(const struct runner *r);
/* Copies what changed in the stage to the results; 0 or -EIO (said). */
int runner_silence_sync(struct runner *r);
/*
 * The last copy, then the stage removed and run.dir the results again;
 * on a failed copy the stage stays (said) and -errno is returned.
 */
int runner_silence_finish(struct runner *r);
/* Output held in memory (consoles drained first), then printed. */
void runner_silence_hold(struct runner *r);
void runner_silence_release(struct runner *r);
/* The end-of-run table (until the analyzer reports). */
void runner_summary_print(const struct runner_run *run, const char *results);

#endif
