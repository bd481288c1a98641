/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state of one `rtgate run`, shared by its files: runner_run.c (the
 * order of business) over runner_sequential.c (--until-decided) over
 * runner_steps.c (the order, one step at a time) over runner_rep.c (one
 * repetition) over runner_lookup.c (where the suite, programs, tools and
 * tunables are).
 */
#ifndef RTGATE_RUNNER_PRIV_H
#define RTGATE_RUNNER_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner_guard.h"
#include "runner_model.h"
#include "runner_progress.h"
#include "runner_state.h"
#include "runner_suite.h"
#include "runner_tunable.h"
#include "trace/trace.h"

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
	bool json;		/* --json: report.json alone on stdout */
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
};

/* runner_lookup.c */
/* The run's tunable that a suite line names, or NULL. */
struct runner_tunable *runner_tunable_lookup(struct runner *r,
			       const struct runner_suite_tunable *st);
/* cyclictest, rtla and every workload program are there; else -ENOENT. */
int runner_check_tools(struct runner *r);
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
 * each is decided or budget_ns is spent, alpha spent over the looks
 * (runner_sequential.c). 0 or -errno.
 */
int runner_until_decided(struct runner *r, uint64_t budget_ns);
/* The end-of-run table (until the analyzer reports). */
void runner_summary_print(const struct runner_run *run, const char *results);

#endif
