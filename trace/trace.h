/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtgate's tracing layer (capture): one tracefs instance per session, never
 * the top-level buffer a user may be using. Events only: function tracing
 * may be locked on the machine, and nothing here needs it.
 *
 * The instance is named rtgate-<pid>-<starttime>-<seq>, so that the next
 * session (of any rtgate process) recognises one left behind by a process
 * that was killed and removes it: trace_instances_clean().
 *
 * Lifecycle: trace_session_init, _start, _stop, _save, _destroy.
 * Saved files are trace-cmd's trace.dat (trace-cmd report, KernelShark).
 */
#ifndef RTGATE_TRACE_H
#define RTGATE_TRACE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct tracefs_instance;
struct tep_handle;
struct trace_spool;

/* How a run is captured (suite option `trace`, `rtgate run --trace`). */
enum trace_capture {
	TRACE_CAPTURE_OFF,
	TRACE_CAPTURE_SPIKES,	/* the tail around cyclictest's break */
	TRACE_CAPTURE_ON,	/* the whole run, size-bounded */
};

int trace_capture_parse(const char *s, enum trace_capture *out);
const char *trace_capture_name(enum trace_capture c);

/* Where the events go while tracing runs. */
enum trace_mode {
	TRACE_MODE_RING,	/* kernel ring buffer, overwriting: the tail */
	TRACE_MODE_STREAM,	/* drained to disk from the start, capped */
};

enum trace_events {
	TRACE_EVENTS_LATENCY,	/* everything that explains a wake-up */
	TRACE_EVENTS_SWITCH,	/* sched_switch only: slice runtimes */
};

struct trace_params {
	enum trace_mode mode;
	enum trace_events events;
	unsigned int buffer_kb;		/* per CPU; 0: 4096 ring, 2048 stream */
	unsigned int max_mb;		/* stream: cap of raw data; 0: 512 */
	const char *spool_dir;		/* stream: raw pages; NULL: TMPDIR */
	const cpu_set_t *cpus;		/* CPUs traced; NULL: all */
	bool no_kallsyms;		/* save without kernel symbols */
};

struct trace_session {
	struct tracefs_instance *inst;
	struct tep_handle *tep;		/* live decoding, made on first use */
	struct trace_spool *spool;	/* raw per-CPU pages on disk */
	struct trace_params params;
	char name[64];			/* the tracefs instance */
	char features[256];		/* feature events found, "sys:ev ..." */
	char missing[256];		/* wanted events this kernel lacks */
	unsigned int nr_events;		/* events enabled */
	bool running;
	bool truncated;			/* stream: cap reached, tracing off */
};

/* Per-CPU ring buffer counters, summed over the traced CPUs. */
struct trace_stats {
	unsigned long long entries;	/* events still in the buffer */
	unsigned long long overrun;	/* overwritten before they were read */
	unsigned long long dropped;	/* lost: full, not overwriting */
	unsigned long long spooled_bytes;
	bool truncated;
};

/*
 * Checks that tracefs is usable, mounting it when it is not mounted.
 * Returns 0, or -errno with a sentence in why (for summaries and SKIPs).
 */
int trace_available(char *why, size_t len);

int trace_session_init(struct trace_session *s, const struct trace_params *p);
int trace_session_start(struct trace_session *s);
int trace_session_stop(struct trace_session *s);
/* Stops if needed, then writes trace.dat to path (atomically). */
int trace_session_save(struct trace_session *s, const char *path);
/* Stops tracing and removes the instance; safe on a failed init. */
void trace_session_destroy(struct trace_session *s);
int trace_session_stats(struct trace_session *s, struct trace_stats *st);
/*
 * Spikes: stops the session's buffer in the kernel the moment one of these
 * threads exits. cyclictest's measuring threads exit at their break (-b),
 * so the tail holds the spike even when user space is too slow to stop
 * tracing in time. Called again, it replaces the thread list.
 */
int trace_session_stop_on_exit(struct trace_session *s, const int *tids,
			       unsigned int nr);
/*
 * The same before the threads are known: any task of that comm exiting
 * (cyclictest's threads drop to SCHED_OTHER before they exit, so the
 * priority cannot tell them apart). Narrow it with the tids when known.
 */
int trace_session_stop_on_exit_comm(struct trace_session *s,
				    const char *comm);
/* The SCHED_FIFO/RR threads of process pid (cyclictest's measuring ones). */
int trace_rt_threads(int pid, int *tids, unsigned int max);
/*
 * Every thread of process pid: what the stop is narrowed to. A measuring
 * thread that broke early has already dropped to SCHED_OTHER, and any
 * thread of our cyclictest ending means its measurement ended.
 */
int trace_proc_threads(int pid, int *tids, unsigned int max);
/* Writes a marker (ftrace print event) into the session's buffer. */
int trace_session_marker(struct trace_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Removes rtgate instances whose owning process is gone (kill -9, crash).
 * Returns how many were removed, or -errno.
 */
int trace_instances_clean(void);
/* Removes one instance by name (the runner's undo); 0 when already gone. */
int trace_instance_remove(const char *name);
/*
 * "rtgate-<pid>-<start>": what every instance name of this process begins
 * with (the runner records it for its undo before creating any).
 */
int trace_instance_owner_prefix(char *buf, size_t len);
/* Removes every instance named PREFIX-*; returns how many, or -errno. */
int trace_instances_remove_prefix(const char *prefix);

/*
 * Markers for workloads: the runner puts its instance's name in
 * RTGATE_TRACE_INSTANCE; without it the marker functions do nothing.
 */
#define TRACE_INSTANCE_ENV "RTGATE_TRACE_INSTANCE"

struct trace_marker {
	struct tracefs_instance *inst;
};

/* 0 when markers go to an instance, -ENOENT when none is named. */
int trace_marker_open(struct trace_marker *m);
void trace_marker_printf(struct trace_marker *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void trace_marker_close(struct trace_marker *m);

#endif
