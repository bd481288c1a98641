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
#include <stdio.h>

#include <cjson/cJSON.h>

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
	TRACE_EVENTS_HRTICK,	/* ... and the hrtimers' starts and expiries */
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
/*
 * Every thread of process pid: what the stop is narrowed to. A measuring
 * thread that broke early has already dropped to SCHED_OTHER, and any
 * thread of our cyclictest ending means its measurement ended.
 */
int trace_proc_threads(int pid, int *tids, unsigned int max);

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

/* ---- Reading ---- */

/*
 * Events, decoded once into one plain struct, from a saved trace.dat
 * (libtracecmd) or from a live session (libtracefs). Everything that
 * interprets a trace (attribution, slice runtimes) sees only these.
 */

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

/* ---- Slice runtimes ---- */

/*
 * Slice runtimes: how long each watched task ran between its switch-in and
 * its switch-out (the hrtick thread's metric, as `perf sched` reports it).
 * Fed by trace_ev events, from a live session or a saved file.
 */

#define TRACE_RUNTIME_TASKS	16
/* The runs' lengths in 100 us bins up to 20 ms; the last bin: longer. */
#define TRACE_RUNTIME_BIN_NS	100000ULL
#define TRACE_RUNTIME_BINS	201

struct trace_runtime_task {
	int pid;
	char comm[TRACE_COMM_LEN];
	unsigned long long count;	/* complete slices */
	unsigned long long over;	/* slices above the threshold */
	unsigned long long past_hrtick;	/* runs on past an expired hrtick */
	unsigned long long max_ns, sum_ns;
	unsigned long long in_ts;	/* switched in at; 0: not running */
	int in_cpu;
	unsigned long long hrtick_ts;	/* its hrtick expired at, this run */
	bool rearmed;			/* ... and was armed again since */
};

struct trace_runtime {
	struct trace_runtime_task task[TRACE_RUNTIME_TASKS];
	int nr;
	unsigned long long threshold_ns;
	/* The hrtick's function (kallsyms); 0: past_hrtick not counted. */
	unsigned long long hrtick_fn, late_ns;
	unsigned long long hrtick_expiries;
	unsigned long long missed;	/* lost events: slices dropped */
	unsigned long long switches;	/* sched_switch events seen */
	unsigned long long hist[TRACE_RUNTIME_BINS];
};

void trace_runtime_init(struct trace_runtime *rt,
			unsigned long long threshold_ns);
int trace_runtime_watch(struct trace_runtime *rt, int pid);
/*
 * Count the runs that went on more than late_ns past an expiry of the
 * hrtick (the timer whose function is hrtick_fn) with no hrtick armed
 * again since: the scheduler picked the task again at its slice's end
 * and left it without a timer, so it ran on to whatever came next (the
 * regular tick). A repick that re-arms the hrtick is not counted, however
 * long its run. Needs TRACE_EVENTS_HRTICK.
 */
void trace_runtime_set_hrtick(struct trace_runtime *rt,
			      unsigned long long hrtick_fn,
			      unsigned long long late_ns);
/* A trace_file_read / trace_session_read callback; ctx is the runtime. */
int trace_runtime_event(const struct trace_ev *ev, void *ctx);
/* Totals over every watched task. */
void trace_runtime_total(const struct trace_runtime *rt,
			 struct trace_runtime_task *sum);

/* ---- Attribution ---- */

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

/* ---- The command ---- */

/*
 * `rtgate trace`: record a command into rtgate's own instance, explain the
 * worst wake-ups of a trace.dat, compare culprits of two sets of traces,
 * count a file's events, remove instances left by killed processes.
 */

int trace_cmd_trace(int argc, char **argv);

#endif
