/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace capture during a repetition (suite `trace =`, `rtgate run
 * --trace`): one tracefs instance of trace/ per repetition, its raw pages
 * spooled into the repetition's directory and saved there as trace.dat,
 * the worst wake-ups attributed into trace-attr.json. The manifest's
 * repetition gets a "trace" object saying what was captured
 * (docs/results.md). A failure to trace never invalidates a repetition:
 * it is said in that object.
 */
#ifndef RTGATE_RUNNER_TRACE_H
#define RTGATE_RUNNER_TRACE_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "runner_cyclictest.h"
#include "trace/trace.h"

#define RTRACE_TOP		50	/* worst windows kept per repetition */
#define RTRACE_FILE		"trace.dat"
#define RTRACE_ATTR_FILE	"trace-attr.json"

struct runner_state;

struct runner_rep_trace {
	struct trace_session s;
	enum trace_capture mode;
	bool active;		/* the instance exists */
	int nr_armed;		/* tids the stop trigger watches */
	cJSON *info;		/* the manifest's "trace" object */
};

/*
 * Records the run's instances in the state file (once, before any is
 * created), so that the guardian or the next start removes them.
 */
int runner_trace_prepare(enum trace_capture mode, struct runner_state *st);
/*
 * Before the workloads: creates and starts the instance and names it in
 * RTGATE_TRACE_INSTANCE for the workloads.
 */
void runner_trace_begin(struct runner_rep_trace *t, enum trace_capture mode,
			const char *dir);
/* spikes: just before cyclictest starts, any cyclictest's exit stops. */
void runner_trace_before_cyclictest(struct runner_rep_trace *t);
/* spikes: narrowed to the measuring threads of cyclictest @pid. */
void runner_trace_arm(struct runner_rep_trace *t, int pid);
/* cyclictest ended: tracing stops (in spikes mode it may have already). */
void runner_trace_stop(struct runner_rep_trace *t);
/*
 * After the repetition: saves trace.dat (unless @save is false), writes
 * the attribution of cyclictest's threads (@finals), removes the instance
 * and hands the "trace" object to *@info.
 */
void runner_trace_finish(struct runner_rep_trace *t, const char *dir, bool save,
			 const struct runner_ct_run *ctr,
			 const struct ctline *finals, size_t nr_finals,
			 cJSON **info);

#endif
