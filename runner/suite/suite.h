/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The suite a run follows: the parsed .suite file (its measurement,
 * scenarios, workloads, tunables, expectations) and the requirements a
 * scenario may name. The runner's suite/ part; it changes nothing on the
 * machine.
 */
#ifndef RTGATE_RUNNER_SUITE_H
#define RTGATE_RUNNER_SUITE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/analyze.h"

/* ---- suite ---------------------------------------------------- */
/*
 * Suite files (suites/README.md): the model and its parser.
 *
 * runner_suite_load() reads a .suite file with inih and checks everything that
 * can be checked without touching the machine. On error it fills
 * err->msg with "FILE:LINE: what is wrong" and returns -EINVAL (a bad
 * suite: exit 3) or another -errno (the file could not be read).
 */

enum runner_suite_order {
	RUNNER_SUITE_ORDER_INTERLEAVED,	/* A B C A B C ... */
	RUNNER_SUITE_ORDER_BLOCKED,	/* A A A B B B ... */
	/*
	 * Rounds as interleaved, each round in its own random order (B A C
	 * A C B): a scenario's carry-over into the next one hits every
	 * scenario alike.
	 */
	RUNNER_SUITE_ORDER_RANDOMIZED,
};

enum runner_tunable_kind {
	RUNNER_TUNABLE_SYSCTL,		/* /proc/sys/NAME */
	RUNNER_TUNABLE_SCHED_FEATURE,	/* debugfs sched/features */
	RUNNER_TUNABLE_BASE_SLICE,	/* debugfs sched/base_slice_ns */
	RUNNER_TUNABLE_DEBUGFS,		/* any debugfs file */
};

struct runner_suite_tunable {
	enum runner_tunable_kind kind;
	char *name;		/* dotted sysctl, FEATURE, or debugfs path */
	char *value;		/* for a feature: FEATURE or NO_FEATURE */
	unsigned int line;
};

struct runner_suite_workload {
	char *text;		/* as written, scaled() unexpanded */
	char *alias;		/* as=, else the program's base name */
	char *program;		/* a bin/ name, or a path (has a '/') */
	char *cpus;		/* cpus= as written, or NULL */
	cpu_set_t cpuset;
	char *policy;		/* policy= as written, or NULL */
	int sched_policy;	/* SCHED_OTHER, SCHED_FIFO, ... */
	int sched_prio;
	bool has_nice;
	int nice;
	unsigned int line;
};

enum runner_expect_op {
	RUNNER_EXPECT_GT,
	RUNNER_EXPECT_GE,
	RUNNER_EXPECT_LT,
	RUNNER_EXPECT_LE,
	RUNNER_EXPECT_EQ,
	RUNNER_EXPECT_NE,
};

struct runner_suite_expect {
	char *text;		/* "inject.spins > 0" */
	char *workload;		/* alias, or "rseq-stats" (the kernel's) */
	char *key;		/* key (dotted path) in its summary */
	char *why;		/* after ": ", the reason when false; or NULL */
	enum runner_expect_op op;
	double value;
	unsigned int line;
};

struct runner_suite_refvalue {
	char *metric;
	double value;
};

struct runner_suite_reference {
	char *scenario;
	char *source;
	char **T;		/* NULL-terminated cyclictest T: lines */
	struct runner_suite_refvalue *values;
	size_t nr_values;
	unsigned int line;
};

/* A control scenario: its comparison checks the gate, not the kernel. */
enum runner_suite_control {
	RUNNER_CONTROL_NONE,
	RUNNER_CONTROL_POSITIVE,	/* must be flagged: a known latency */
	/* must not differ: the workload minus its cause */
	RUNNER_CONTROL_NEGATIVE,
};

struct runner_suite_scenario {
	char *name;
	char *description;
	char *compare;		/* NULL for a baseline */
	enum runner_suite_control control;
	unsigned int line;
	unsigned int compare_line;
	unsigned int control_line;
	struct runner_suite_workload *workloads;
	size_t nr_workloads;
	struct runner_suite_tunable *tunables;
	size_t nr_tunables;
	char **requires;	/* NULL-terminated, the suite's included */
	struct runner_suite_expect *expects;
	size_t nr_expects;
	const struct runner_suite_reference *reference;	/* or NULL */
	/* tool = in the scenario, else [measure]'s (analyze.h's table) */
	const struct an_tool *tool;
	bool has_tool;
	char *metric;		/* the gate metric of its comparison, or NULL */
};

#define READY_TIMEOUT_DEFAULT_S	30	/* a workload's "ready" */
#define WATCHDOG_DEFAULT_S	30	/* beyond a measurement's duration */

/* A tool's options in [measure] (`cyclictest =`, `timerlat =`). */
struct runner_suite_opts {
	char **argv;		/* NULL-terminated; NULL: none given */
	char *text;		/* as the suite wrote them */
};

struct runner_suite_measure {
	const struct an_tool *tool;	/* the table's first: cyclictest */
	/* Each tool's options, by its place in the table (an_tool_index). */
	struct runner_suite_opts opts[AN_TOOL_MAX];
	uint64_t duration_ns;	/* 0 when loops is used */
	uint64_t loops;		/* 0 when duration is used */
	unsigned int histogram_us;
	uint64_t timeout_ns;	/* longest a repetition may take */
	uint64_t ready_timeout_ns;	/* longest a workload may take to be ready */
	uint64_t watchdog_ns;	/* a timed measurement's margin: a
				 * repetition not ended within its duration
				 * plus this is killed and INVALID */
	int trace;		/* enum trace_capture: `trace =` */
	bool timeline_off;	/* `timeline = off`: no per-second maxima
				 * (cyclictest without -v -o) */
};

/* [gate] pNN_us / max_us: an absolute limit no repetition may pass. */
struct runner_suite_budget {
	char metric[16];	/* "max", "p99", ... */
	double us;
};

#define SUITE_EXPECT_RSEQ	"rseq-stats"	/* an expect on the kernel's rseq/stats */
#define SUITE_MAX_BUDGETS	8
#define SUITE_MAX_LAB_CPUS	64	/* as `lab run --cpus` */

struct runner_suite_gate {
	char *metric;
	double alpha;
	double min_increase_us;
	double min_increase_pct;
	struct runner_suite_budget budgets[SUITE_MAX_BUDGETS];
	size_t nr_budgets;
	uint64_t until_decided_ns;	/* repetitions until decided; 0 off */
};

struct runner_suite {
	char *path;		/* as given */
	char *name;
	char *description;
	unsigned int repetitions;
	enum runner_suite_order order;
	char **requires;	/* the suite-wide requirements */
	unsigned int lab_cpus;	/* the vCPUs a lab boots for it; 0: unsaid */
	struct runner_suite_measure measure;
	struct runner_suite_gate gate;
	struct runner_suite_scenario *scenarios;
	size_t nr_scenarios;
	struct runner_suite_reference *references;
	size_t nr_references;
};

struct runner_suite_error {
	char msg[512];
};

int runner_suite_load(const char *path, struct runner_suite *suite,
		      struct runner_suite_error *err);
void runner_suite_free(struct runner_suite *suite);

/*
 * Whether any scenario measures with a tool that runs @program ("rtla"),
 * or with NULL, any program at all.
 */
bool runner_suite_uses_program(const struct runner_suite *suite,
			       const char *program);
/* The options [measure] gives @tool (its `NAME =`): never NULL. */
const struct runner_suite_opts *
runner_suite_opts(const struct runner_suite_measure *m,
		  const struct an_tool *tool);
/* Whether any scenario compares (a calibration suite compares nothing). */
bool runner_suite_compares(const struct runner_suite *suite);
/* The comparisons that share alpha, as the judge counts them (an_family). */
size_t runner_suite_family(const struct runner_suite *suite);

const struct runner_suite_scenario *
runner_suite_find(const struct runner_suite *suite, const char *name);

/*
 * The argv of a workload at duration scale @scale (scaled(N) expanded):
 * argv[0] is PROGRAM as written. The caller frees it with vec_strv_free().
 */
int runner_suite_workload_argv(const struct runner_suite_workload *wl,
			       double scale, char ***argv, char *err,
			       size_t len);

const char *runner_suite_tunable_kind_name(enum runner_tunable_kind kind);

/* "positive", "negative", or NULL for RUNNER_CONTROL_NONE. */
const char *runner_suite_control_name(enum runner_suite_control c);

/* ---- req ------------------------------------------------------ */
/*
 * Requirements (suites/README.md, "Requirements"): what a scenario needs
 * from the running kernel. An unmet one makes the scenario SKIPPED with
 * the reason, never a silent pass.
 */

struct runner_req_env {
	const char *debugfs;	/* mount point, or NULL when absent */
	const char *tracefs;
};

/* Syntax only (for the suite parser): a known requirement, well formed. */
bool runner_req_valid(const char *req);
/* True when checking @req needs debugfs or tracefs mounted. */
bool runner_req_needs_debugfs(const char *req);
bool runner_req_needs_tracefs(const char *req);
/* Returns 1 when met, 0 when not, with @reason saying why not. */
int runner_req_check(const char *req, const struct runner_req_env *env,
		     char *reason, size_t len);

#endif
