/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Slice runtimes: how long each watched task ran between its switch-in and
 * its switch-out (the hrtick thread's metric, as `perf sched` reports it).
 * Fed by trace_ev events, from a live session or a saved file.
 */
#ifndef RTGATE_TRACE_RUNTIME_H
#define RTGATE_TRACE_RUNTIME_H

#include "trace_read.h"

#define TRACE_RUNTIME_TASKS	16

struct trace_runtime_task {
	int pid;
	char comm[TRACE_COMM_LEN];
	unsigned long long count;	/* complete slices */
	unsigned long long over;	/* slices above the threshold */
	unsigned long long max_ns, sum_ns;
	unsigned long long in_ts;	/* switched in at; 0: not running */
	int in_cpu;
};

struct trace_runtime {
	struct trace_runtime_task task[TRACE_RUNTIME_TASKS];
	int nr;
	unsigned long long threshold_ns;
	unsigned long long missed;	/* lost events: slices dropped */
	unsigned long long switches;	/* sched_switch events seen */
};

void trace_runtime_init(struct trace_runtime *rt,
			unsigned long long threshold_ns);
int trace_runtime_watch(struct trace_runtime *rt, int pid);
/* A trace_file_read / trace_session_read callback; ctx is the runtime. */
int trace_runtime_event(const struct trace_ev *ev, void *ctx);
/* Totals over every watched task. */
void trace_runtime_total(const struct trace_runtime *rt,
			 struct trace_runtime_task *sum);

#endif
