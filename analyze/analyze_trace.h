/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Root causes: for a run traced with `trace = spikes|on`, what delayed the
 * worst wake-ups of each scenario, from the attribution the runner saved
 * next to each repetition's trace.dat (trace-attr.json; computed from
 * trace.dat when it is missing). The reports print one section per traced
 * scenario: its culprits, its worst wake-ups in words with their time in
 * the trace, the trace files for trace-cmd and KernelShark, and for a
 * scenario compared with a traced baseline, the culprits of both sides.
 */
#ifndef RTGATE_ANALYZE_TRACE_H
#define RTGATE_ANALYZE_TRACE_H

#include <limits.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "analyze_report.h"
#include "trace/trace.h"

#define AN_TRACE_WORST	5	/* worst wake-ups told per scenario */

struct an_trace_rep {
	int rep;
	char dat[PATH_MAX];	/* trace.dat, as the report names it */
	char mode[16];		/* spikes | on */
	char stopped[48];	/* break | end of the measurement | end */
	struct trace_attr_result res;
};

struct an_trace_scen {
	char name[128];
	char compare[128];	/* its baseline, "" for a baseline */
	struct an_trace_rep *reps;
	size_t nreps;
};

struct an_trace {
	struct an_trace_scen *scens;	/* only scenarios with a trace */
	size_t nscens;
};

/* Reads the attributions of a results directory; 0 with none is fine. */
int an_trace_load(const char *run_dir, struct an_trace *t);
void an_trace_free(struct an_trace *t);

/* The reports' sections; nothing when the run was not traced. */
void an_trace_txt(const struct an_report *r, FILE *f);
void an_trace_html(const struct an_report *r, FILE *f);
/* The "root_causes" array of report.json (docs/report-schema.md). */
cJSON *an_trace_json(const struct an_report *r);

#endif
