/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Root-cause attribution: what kept a measured thread (cyclictest's) from
 * running. For each wake-up, the window from its timer's expiry (or the
 * wake-up itself when the expiry is not in the trace) to its switch-in on
 * that CPU is split into: a late timer irq, irqs and softirqs by name,
 * other tasks by comm/pid/policy (and whether they ran under a granted
 * slice extension), and the rest. The worst windows are kept and told in
 * words; culprits of two sets of runs are compared.
 *
 * This is the analyzer's interface to traces (docs/tracing.md).
 */
#ifndef RTGATE_TRACE_ATTR_H
#define RTGATE_TRACE_ATTR_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "trace_read.h"

#define TRACE_ATTR_PARTS	6	/* largest parts kept per window */
#define TRACE_ATTR_TOP		10	/* default number of worst windows */

enum trace_attr_kind {
	TRACE_ATTR_TASK,
	TRACE_ATTR_IRQ,
	TRACE_ATTR_SOFTIRQ,
	TRACE_ATTR_TIMER_LATE,	/* the timer irq came after the expiry */
	TRACE_ATTR_OTHER,	/* idle, the switch itself, what is left */
};

struct trace_attr_part {
	int kind;		/* enum trace_attr_kind */
	char name[TRACE_NAME_LEN];	/* comm, irq or softirq name */
	int pid;		/* tasks */
	int prio;		/* tasks: kernel prio */
	int irq;		/* irqs: the number, -1 for a vector */
	bool extended;		/* ran under a granted slice extension */
	unsigned long long ns;
};

struct trace_attr_window {
	int cpu;		/* where the thread was switched in */
	int tid;
	unsigned long long start_ns;	/* timer expiry, else the wake-up */
	unsigned long long wake_ns;
	unsigned long long run_ns;	/* switch-in */
	unsigned long long latency_ns;	/* run_ns - start_ns */
	bool from_timer;	/* start_ns is the timer's expiry */
	bool is_break;		/* cyclictest's break (-b) */
	bool partial;		/* events were lost inside the window */
	int nr_parts;
	struct trace_attr_part part[TRACE_ATTR_PARTS];	/* largest first */
	unsigned long long other_ns;
};

struct trace_attr_params {
	unsigned int top_n;	/* worst windows kept; 0: TRACE_ATTR_TOP */
	const char *comm;	/* measured threads; NULL: "cyclictest" */
	const int *tids;	/* or exactly these threads */
	unsigned int nr_tids;
	int break_tid;		/* cyclictest's "# Break thread:"; 0: none */
	unsigned long break_us;	/* its "# Break value:"; 0: unknown */
};

struct trace_attr_result {
	struct trace_attr_window *win;	/* worst first; break appended */
	unsigned int nr_win;
	int break_idx;			/* index of the break window, or -1 */
	unsigned long long nr_wakeups;	/* windows seen in the trace */
	unsigned long long first_ts, last_ts;
	unsigned long long missed;	/* events the buffer lost */
	unsigned long long unseen_switches;	/* switches not in the trace */
	unsigned long long unmatched;	/* wake-ups, switch-in not seen */
};

/* Whole file: 0, or the errors of trace_file_read(). */
int trace_attr_file(const char *path, const struct trace_attr_params *p,
		    struct trace_attr_result *r);

/* Incremental use: feed trace_attr_event() (a trace_file_read callback). */
struct trace_attr;
struct trace_attr *trace_attr_new(const struct trace_attr_params *p);
int trace_attr_event(const struct trace_ev *ev, void *attr);
/* Fills r and frees a. */
int trace_attr_finish(struct trace_attr *a, struct trace_attr_result *r);
void trace_attr_result_free(struct trace_attr_result *r);

/* "CPU 3, 35 us: extend-sched/1234 (nice 0) ran 31 us under ..." */
int trace_attr_explain(const struct trace_attr_window *w, char *buf,
		       size_t len);
void trace_attr_print(FILE *f, const struct trace_attr_result *r);

/* Schema rtgate-trace-attr/1 (docs/tracing.md). */
cJSON *trace_attr_to_json(const struct trace_attr_result *r);
int trace_attr_from_json(const cJSON *j, struct trace_attr_result *r);

/*
 * Culprit names stable across runs (no pids, per-CPU thread numbers
 * folded): "inject (rt 99)", "extend-sched (nice 0) under extension",
 * "irq local_timer", "softirq TIMER", "timer irq late", "other".
 */
void trace_attr_part_key(const struct trace_attr_part *p, char *buf,
			 size_t len);

struct trace_attr_culprit {
	char key[64];
	unsigned int windows[2];	/* [0] baseline, [1] candidate */
	unsigned long long ns[2];	/* its time, summed over them */
};

struct trace_attr_culprits {
	unsigned int total[2];		/* windows on each side */
	struct trace_attr_culprit *c;	/* by candidate share, then time */
	unsigned int nr;
};

/*
 * A part is a culprit of its window when it took at least 10 % of it
 * (and 1 us). The windows are every result's kept windows.
 */
int trace_attr_culprits(const struct trace_attr_result *base,
			unsigned int nr_base,
			const struct trace_attr_result *cand,
			unsigned int nr_cand, struct trace_attr_culprits *out);
void trace_attr_culprits_print(FILE *f, const struct trace_attr_culprits *c);
/* "new: inject (rt 99), 298 us in 80 % of the worst wake-ups"; 0 or -ENOENT */
int trace_attr_culprits_headline(const struct trace_attr_culprits *c,
				 char *buf, size_t len);
void trace_attr_culprits_free(struct trace_attr_culprits *c);

#endif
