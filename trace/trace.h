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

/**
 * trace_capture_parse() - a capture's word
 * @s: "off", "spikes" or "on"
 * @out: gets the capture
 *
 * Return: 0, or -EINVAL for another word.
 */
int trace_capture_parse(const char *s, enum trace_capture *out);
/**
 * trace_capture_name() - a capture's word, as the suite writes it
 * @c: the capture
 *
 * Return: "off", "spikes" or "on".
 */
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

/**
 * trace_available() - checks that tracefs is usable
 * @why: gets a sentence saying why it is not (for summaries and SKIPs)
 * @len: its size
 *
 * Mounts tracefs when it is not mounted.
 *
 * Return: 0; -ENODEV (no tracefs), -errno of its instances folder (root
 * is needed), or -ENOENT (no sched_switch event), with @why filled.
 */
int trace_available(char *why, size_t len);

/**
 * trace_session_init() - creates a session's own tracefs instance
 * @s: the session, filled
 * @p: its mode, events, buffer size and CPUs; copied
 *
 * Removes instances that killed processes left, creates this one with its
 * events enabled and tracing off: nothing is recorded before
 * trace_session_start().
 *
 * Return: 0, or -errno after a message (the instance is then gone).
 */
int trace_session_init(struct trace_session *s, const struct trace_params *p);
/**
 * trace_session_start() - turns the session's tracing on
 * @s: an initialised session
 *
 * Return: 0; -EINVAL for a session without an instance; -errno after a
 * message.
 */
int trace_session_start(struct trace_session *s);
/**
 * trace_session_stop() - turns the session's tracing off; the events stay
 * @s: the session
 *
 * Return: 0, or -EINVAL for a session without an instance.
 */
int trace_session_stop(struct trace_session *s);
/**
 * trace_session_save() - writes what the session recorded as trace.dat
 * @s: the session; stopped first when it runs
 * @path: the file, written atomically and read back before it is renamed
 *        into place (never a file trace-cmd cannot read)
 *
 * Return: 0; -EINVAL for a session without an instance; -errno after a
 * message naming @path.
 */
int trace_session_save(struct trace_session *s, const char *path);
/**
 * trace_session_destroy() - stops tracing and removes the instance
 * @s: the session; safe on a failed init
 */
void trace_session_destroy(struct trace_session *s);
/**
 * trace_session_stats() - the ring buffer's counters now
 * @s: the session
 * @st: gets them, summed over the traced CPUs
 *
 * Return: 0, or -EINVAL for a session without an instance.
 */
int trace_session_stats(struct trace_session *s, struct trace_stats *st);
/**
 * trace_session_stop_on_exit() - stops the buffer when a thread exits
 * @s: the session
 * @tids: the threads; called again, it replaces the list
 * @nr: how many
 *
 * Spikes: stops the session's buffer in the kernel the moment one of
 * these threads exits (and, where the kernel has the event, when one of
 * them drops to SCHED_OTHER). cyclictest's measuring threads exit at
 * their break (-b), so the tail holds the spike even when user space is
 * too slow to stop tracing in time.
 *
 * Return: 0; -EINVAL without an instance or threads; -E2BIG for more
 * threads than a filter holds; -errno when the trigger cannot be set.
 */
int trace_session_stop_on_exit(struct trace_session *s, const int *tids,
			       unsigned int nr);
/**
 * trace_session_stop_on_exit_comm() - the same before the threads are
 * known
 * @s: the session
 * @comm: any task of this comm exiting stops it (15 characters at most)
 *
 * cyclictest's threads drop to SCHED_OTHER before they exit, so the
 * priority cannot tell them apart. Narrow it with the tids when known
 * (trace_session_stop_on_exit()).
 *
 * Return: 0; -EINVAL without an instance or for a comm that cannot be
 * a filter; -errno when the trigger cannot be set.
 */
int trace_session_stop_on_exit_comm(struct trace_session *s,
				    const char *comm);
/**
 * trace_proc_threads() - every thread of a process
 * @pid: the process
 * @tids: gets their ids
 * @max: room in @tids
 *
 * What the stop is narrowed to: a measuring thread that broke early has
 * already dropped to SCHED_OTHER, and any thread of our cyclictest ending
 * means its measurement ended.
 *
 * Return: how many (at most @max), or -errno when /proc has no such
 * process.
 */
int trace_proc_threads(int pid, int *tids, unsigned int max);

/**
 * trace_instances_clean() - removes instances whose owner is gone
 *
 * An owner is gone when its process (by pid and start time) no longer
 * runs: kill -9, a crash. Stale spool folders go too.
 *
 * Return: how many instances were removed.
 */
int trace_instances_clean(void);
/**
 * trace_instance_remove() - removes one instance by name (the runner's
 * undo)
 * @name: an rtgate instance's name
 *
 * Return: 0, also when it was already gone; -EINVAL for a name that is
 * not an rtgate instance's; -errno after a message.
 */
int trace_instance_remove(const char *name);
/**
 * trace_instance_owner_prefix() - what this process's instance names begin
 * with
 * @buf: gets "rtgate-<pid>-<start>" (the runner records it for its undo
 *       before creating any)
 * @len: its size
 *
 * Return: 0, or -errno when the process's start time cannot be read.
 */
int trace_instance_owner_prefix(char *buf, size_t len);
/**
 * trace_instances_remove_prefix() - removes every instance named PREFIX-*
 * @prefix: from trace_instance_owner_prefix()
 *
 * Return: how many were removed; -EINVAL for a prefix that is not an
 * rtgate instance's; -errno of the first that could not be.
 */
int trace_instances_remove_prefix(const char *prefix);

/*
 * Markers for workloads: the runner puts its instance's name in
 * RTGATE_TRACE_INSTANCE; without it the marker functions do nothing.
 */
#define TRACE_INSTANCE_ENV "RTGATE_TRACE_INSTANCE"

struct trace_marker {
	struct tracefs_instance *inst;
};

/**
 * trace_marker_open() - opens the marker of the runner's instance
 * @m: filled; with no instance, its functions do nothing
 *
 * Return: 0 when markers go to an instance; -ENOENT when none is named
 * (or it does not exist); -ENOMEM, -EIO.
 */
int trace_marker_open(struct trace_marker *m);
/**
 * trace_marker_printf() - writes a marker line into the trace
 * @m: from trace_marker_open()
 * @fmt: printf's format; the line is cut at 255 bytes
 * @...: its arguments
 *
 * A marker is a diagnostic: a failed write changes nothing.
 */
void trace_marker_printf(struct trace_marker *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/**
 * trace_marker_close() - closes the marker
 * @m: from trace_marker_open(), opened or not
 */
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
	TRACE_EV_SWITCH,
	TRACE_EV_WAKING,	/* sched_waking */
	TRACE_EV_WAKEUP,	/* sched_wakeup */
	TRACE_EV_WAKEUP_NEW,	/* sched_wakeup_new: a new task's first */
	TRACE_EV_MIGRATE,
	TRACE_EV_IRQ_ENTRY,	/* irq_handler_entry and x86 vectors */
	TRACE_EV_IRQ_EXIT,
	TRACE_EV_SOFTIRQ_ENTRY,
	TRACE_EV_SOFTIRQ_EXIT,
	TRACE_EV_HRTIMER_START,
	TRACE_EV_HRTIMER_ENTRY,
	TRACE_EV_HRTIMER_EXIT,
	TRACE_EV_MARKER,	/* ftrace print: trace_marker writes */
	TRACE_EV_EXT_GRANT,	/* a slice extension was granted */
	TRACE_EV_EXT_END,	/* ... and ended (yield, expiry) */
	TRACE_EV_NR_TYPES,
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
	unsigned long long per_type[TRACE_EV_NR_TYPES];
};

/**
 * trace_file_read() - every decoded event of a trace.dat
 * @path: the file
 * @fn: called for each event, in time order across CPUs (and across
 *      buffer instances, for files recorded with -B); returns 0 to go on,
 *      anything else to stop (a negative value is then returned); NULL
 *      reads the file through
 * @ctx: @fn's
 * @info: gets the file's counts; may be NULL
 *
 * Return: 0; -EINVAL for a file that is not a trace or is cut short (the
 * message names it); -errno when it cannot be opened; @fn's negative
 * value.
 */
int trace_file_read(const char *path,
		    int (*fn)(const struct trace_ev *ev, void *ctx), void *ctx,
		    struct trace_file_info *info);
/**
 * trace_file_check() - reads a trace.dat through, checking it
 * @path: the file
 * @info: gets its counts; may be NULL
 *
 * Return: as trace_file_read().
 */
int trace_file_check(const char *path, struct trace_file_info *info);

/**
 * trace_session_read() - consumes what a live session's buffer holds now
 * @s: the session; what is read is not saved
 * @fn: called for each event; returns 0 to go on
 * @ctx: @fn's
 *
 * Return: 0; -EINVAL without an instance; -EIO when the kernel's event
 * formats cannot be read; @fn's negative value.
 */
int trace_session_read(struct trace_session *s,
		       int (*fn)(const struct trace_ev *ev, void *ctx),
		       void *ctx);

/**
 * trace_ev_type_name() - an event type's name, for `trace events`
 * @type: an enum trace_ev_type
 *
 * Return: its name; "?" for another value.
 */
const char *trace_ev_type_name(int type);
/**
 * trace_softirq_name() - a softirq vector's name
 * @vec: its number
 *
 * Return: "TIMER", "NET_RX" ... as the kernel names them; "?" for
 * another number.
 */
const char *trace_softirq_name(unsigned int vec);
/**
 * trace_prio_str() - a kernel prio in words
 * @prio: the kernel's prio: < 0 deadline, < 100 RT, else fair
 * @buf: gets "rt 99", "nice 0" or "dl"
 * @len: its size
 */
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

/**
 * trace_runtime_init() - an empty count of slice runtimes
 * @rt: zeroed, no task watched
 * @threshold_ns: a slice longer than this counts as over
 */
void trace_runtime_init(struct trace_runtime *rt,
			unsigned long long threshold_ns);
/**
 * trace_runtime_watch() - adds a task whose slices are counted
 * @rt: the count
 * @pid: the task
 *
 * Return: 0, or -ENOSPC past TRACE_RUNTIME_TASKS tasks.
 */
int trace_runtime_watch(struct trace_runtime *rt, int pid);
/**
 * trace_runtime_set_hrtick() - counts the runs past an expired hrtick too
 * @rt: the count
 * @hrtick_fn: the hrtick timer's function (kallsyms)
 * @late_ns: how far past the expiry a run must go on
 *
 * Count the runs that went on more than @late_ns past an expiry of the
 * hrtick with no hrtick armed again since: the scheduler picked the task
 * again at its slice's end and left it without a timer, so it ran on to
 * whatever came next (the regular tick). A repick that re-arms the hrtick
 * is not counted, however long its run. Needs TRACE_EVENTS_HRTICK.
 */
void trace_runtime_set_hrtick(struct trace_runtime *rt,
			      unsigned long long hrtick_fn,
			      unsigned long long late_ns);
/**
 * trace_runtime_event() - feeds one event to a count of slice runtimes
 * @ev: the event
 * @ctx: the struct trace_runtime
 *
 * A trace_file_read() / trace_session_read() callback.
 *
 * Return: 0 (go on).
 */
int trace_runtime_event(const struct trace_ev *ev, void *ctx);
/**
 * trace_runtime_total() - totals over every watched task
 * @rt: the count
 * @sum: gets the slices, those over, those past the hrtick, their time
 *       and the longest
 */
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

/**
 * trace_attr_file() - attributes the worst wake-ups of a whole trace.dat
 * @path: the file
 * @p: the measured threads, how many windows to keep, the break
 * @r: filled (free it with trace_attr_result_free())
 *
 * Return: 0, -ENOMEM, or the errors of trace_file_read().
 */
int trace_attr_file(const char *path, const struct trace_attr_params *p,
		    struct trace_attr_result *r);

/* Incremental use: feed trace_attr_event() (a trace_file_read callback). */
struct trace_attr;
/**
 * trace_attr_new() - an attribution to feed events to
 * @p: the measured threads, how many windows to keep, the break; copied
 *
 * Return: the attribution, to end with trace_attr_finish(); NULL when out
 * of memory.
 */
struct trace_attr *trace_attr_new(const struct trace_attr_params *p);
/**
 * trace_attr_event() - feeds one event to an attribution
 * @ev: the event
 * @attr: the struct trace_attr
 *
 * A trace_file_read() / trace_session_read() callback.
 *
 * Return: 0 (go on), or -ENOMEM (stop).
 */
int trace_attr_event(const struct trace_ev *ev, void *attr);
/**
 * trace_attr_finish() - the worst windows of what was fed
 * @a: the attribution; freed
 * @r: filled: the worst windows first, the break's appended
 *
 * Return: 0, or -ENOMEM (also when an event could not be taken).
 */
int trace_attr_finish(struct trace_attr *a, struct trace_attr_result *r);
/**
 * trace_attr_result_free() - frees a result's windows
 * @r: the result; its counts stay
 */
void trace_attr_result_free(struct trace_attr_result *r);

/**
 * trace_attr_explain() - one window in words
 * @w: the window
 * @buf: gets "CPU 3, 35 us: extend-sched/1234 (nice 0) ran 31 us under
 *       ...": its parts of half a microsecond or more, then the rest
 * @len: its size
 *
 * Return: 0, or -ENOSPC when @buf was too small (the text is cut).
 */
int trace_attr_explain(const struct trace_attr_window *w, char *buf,
		       size_t len);
/**
 * trace_attr_print() - a result's windows, one line each
 * @f: where
 * @r: the result
 */
void trace_attr_print(FILE *f, const struct trace_attr_result *r);

/**
 * trace_attr_to_json() - a result as JSON, schema rtgate-trace-attr/1
 * @r: the result
 *
 * docs/tracing.md documents the schema.
 *
 * Return: a new object, the caller's to cJSON_Delete().
 */
cJSON *trace_attr_to_json(const struct trace_attr_result *r);
/**
 * trace_attr_from_json() - a result from its JSON
 * @j: an object of schema rtgate-trace-attr/1
 * @r: filled (free it with trace_attr_result_free())
 *
 * Return: 0; -EINVAL for another schema or a window that cannot be read;
 * -ENOMEM.
 */
int trace_attr_from_json(const cJSON *j, struct trace_attr_result *r);

/**
 * trace_attr_part_key() - a culprit's name, stable across runs
 * @p: a part of a window
 * @buf: gets "inject (rt 99)", "extend-sched (nice 0) under extension",
 *       "irq local_timer", "softirq TIMER", "timer irq late", "other":
 *       no pids, per-CPU thread numbers folded
 * @len: its size
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

/**
 * trace_attr_culprits() - the culprits of two sets of traces, side by side
 * @base: the baseline's results
 * @nr_base: how many
 * @cand: the candidate's results
 * @nr_cand: how many
 * @out: filled, by candidate share, then time (free it with
 *       trace_attr_culprits_free())
 *
 * A part is a culprit of its window when it took at least 10 % of it
 * (and 1 us). The windows are every result's kept windows.
 *
 * Return: 0 or -ENOMEM.
 */
int trace_attr_culprits(const struct trace_attr_result *base,
			unsigned int nr_base,
			const struct trace_attr_result *cand,
			unsigned int nr_cand, struct trace_attr_culprits *out);
/**
 * trace_attr_culprits_print() - the culprits as a table
 * @f: where
 * @c: the culprits: a line each with its share of windows and average
 *     time on both sides, "new" or "gone"
 */
void trace_attr_culprits_print(FILE *f, const struct trace_attr_culprits *c);
/**
 * trace_attr_culprits_headline() - the culprit that grew most, in words
 * @c: the culprits
 * @buf: gets "new: inject (rt 99), 298 us in 80 % of the worst wake-ups"
 *       ("grew:" for one the baseline had)
 * @len: its size
 *
 * Return: 0, or -ENOENT when no culprit grew.
 */
int trace_attr_culprits_headline(const struct trace_attr_culprits *c,
				 char *buf, size_t len);
/**
 * trace_attr_culprits_free() - frees the culprits
 * @c: from trace_attr_culprits()
 */
void trace_attr_culprits_free(struct trace_attr_culprits *c);

/* ---- The command ---- */

/**
 * trace_cmd_trace() - `rtgate trace`
 * @argc: the number of arguments
 * @argv: "trace", a subcommand and its arguments: record a command into
 *        rtgate's own instance, explain the worst wake-ups of a
 *        trace.dat, compare culprits of two sets of traces, count a
 *        file's events, remove instances left by killed processes
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int trace_cmd_trace(int argc, char **argv);

#endif
