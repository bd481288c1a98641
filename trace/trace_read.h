/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Events, decoded once into one plain struct, from a saved trace.dat
 * (libtracecmd) or from a live session (libtracefs). Everything that
 * interprets a trace (attribution, slice runtimes) sees only these.
 */
#ifndef RTGATE_TRACE_READ_H
#define RTGATE_TRACE_READ_H

#include <stdbool.h>

#include "trace.h"

#define TRACE_COMM_LEN	16
#define TRACE_NAME_LEN	32

enum trace_ev_type {
	TEV_SWITCH,
	TEV_WAKING,		/* sched_waking */
	TEV_WAKEUP,		/* sched_wakeup */
	TEV_WAKEUP_NEW,		/* sched_wakeup_new: a new task's first */
	TEV_MIGRATE,
	TEV_IRQ_ENTRY,		/* irq_handler_entry and x86 vectors */
	TEV_IRQ_EXIT,
	TEV_SOFTIRQ_ENTRY,
	TEV_SOFTIRQ_EXIT,
	TEV_HRTIMER_START,
	TEV_HRTIMER_ENTRY,
	TEV_HRTIMER_EXIT,
	TEV_MARKER,		/* ftrace print: trace_marker writes */
	TEV_EXT_GRANT,		/* a slice extension was granted */
	TEV_EXT_END,		/* ... and ended (yield, expiry) */
	TEV_NR_TYPES,
};

struct trace_task {
	char comm[TRACE_COMM_LEN];
	int pid;
	int prio;		/* kernel prio: <0 DL, <100 RT, else fair */
};

struct trace_ev {
	unsigned long long ts;	/* ns, the trace clock */
	int cpu;
	int type;		/* enum trace_ev_type */
	int pid;		/* the task the event happened in */
	unsigned int missed;	/* events lost just before this one */
	union {
		struct {
			struct trace_task prev, next;
			long prev_state;
		} sw;
		struct {
			struct trace_task task;
			int target_cpu;	/* wake-ups, migrations */
			int orig_cpu;	/* migrations */
		} wake;
		struct {
			int irq;	/* -1 for an x86 vector */
			char name[TRACE_NAME_LEN];
		} irq;
		struct {
			unsigned long long timer;
			unsigned long long function;
			long long expires;	/* hrtimer_start */
			long long now;		/* hrtimer_expire_entry */
		} hrt;
		struct {
			char event[TRACE_NAME_LEN * 2];	/* sys:name */
			int pid;
		} ext;
		char text[256];			/* marker */
	};
};

struct trace_file_info {
	unsigned long long first_ts, last_ts;
	unsigned long long nr_records;	/* all records, decoded or not */
	unsigned long long nr_events;	/* decoded ones */
	unsigned long long missed;	/* lost events the file reports */
	unsigned long long per_type[TEV_NR_TYPES];
};

/*
 * Calls fn for every decoded event of a trace.dat, in time order across
 * CPUs (and across buffer instances, for files recorded with -B). fn
 * returns 0 to go on, anything else to stop. Returns 0, or -EINVAL for a
 * file that is not a trace or is cut short (the message names it),
 * -errno when it cannot be opened.
 */
int trace_file_read(const char *path,
		    int (*fn)(const struct trace_ev *ev, void *ctx), void *ctx,
		    struct trace_file_info *info);
/* Opens and reads a file through, checking it; info may be NULL. */
int trace_file_check(const char *path, struct trace_file_info *info);

/* Live: consumes what the session's buffer holds now (not saved). */
int trace_session_read(struct trace_session *s,
		       int (*fn)(const struct trace_ev *ev, void *ctx),
		       void *ctx);

const char *trace_ev_type_name(int type);
const char *trace_softirq_name(unsigned int vec);
/* "rt 99", "nice 0", "dl" from a kernel prio. */
void trace_prio_str(int prio, char *buf, unsigned int len);

#endif
