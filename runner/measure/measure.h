/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a repetition measures with: cyclictest (its command line, its
 * lines, per-second maxima), rtla timerlat, the kernel's counters, the
 * trace capture, and the progress shown while it runs. The runner's
 * measure/ part.
 */
#ifndef RTGATE_RUNNER_MEASURE_H
#define RTGATE_RUNNER_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <cjson/cJSON.h>

#include "ctline.h"
#include "runner/suite/suite.h"
#include "trace/trace.h"

/* ---- series --------------------------------------------------- */
/*
 * Latency over time: cyclictest's verbose stream reduced to the largest
 * latency of every second, per thread, kept as <rep>/timeline.json
 * (schema rtgate-timeline/1, docs/results.md).
 *
 * With -v cyclictest's measuring threads store each sample in a ring
 * buffer and its main thread prints them ("THREAD:CYCLE:US"); with -o N
 * it prints only the largest of every N samples and the cycle it was
 * taken at. Cycle k of a thread of interval I us is taken k * I us after
 * the thread's first wake-up, so a sample belongs to second
 * floor(k * I / 1e6) of the measurement. The runner keeps only these
 * per-second maxima in memory and on disk, never the sample stream.
 * Holds no process state: tests feed it lines by hand.
 */

/* One cyclictest thread's per-second maxima; -1: no sample that second. */
struct runner_series_thread {
	long interval_us;	/* "Thread N Interval: I"; 0 unknown */
	long *max_us;
	size_t nsec;		/* seconds seen: max_us[0 .. nsec - 1] */
	size_t cap;		/* max_us's length */
	unsigned long samples;	/* reduced samples (windows) taken in */
};

/* A sample line as read: the window's maximum and the cycle it was at. */
struct runner_series_sample {
	int thread;
	unsigned long cycle;
	long us;
};

struct runner_series {
	unsigned int window;	/* -o: samples per printed maximum */
	long default_interval_us;	/* -i, for a thread never announced */
	struct runner_series_thread *t;
	size_t nr;
};

/* The samples per window that keep a window at or under 10 ms. */
unsigned int runner_series_window(long interval_us);

void runner_series_init(struct runner_series *s, unsigned int window,
			long default_interval_us);
/*
 * One sample (a window's maximum): @us taken at @cycle of @thread goes
 * into its second. Returns 0, or -EINVAL (negative thread, a second
 * beyond a year) or -ENOMEM.
 */
int runner_series_add(struct runner_series *s, int thread,
		      unsigned long cycle, long us);
/*
 * One line of cyclictest -v output: a sample line or "Thread N
 * Interval: I". Returns 1 when it was a sample (@out is set), 2 for an
 * interval line, 0 for any other line, -errno on failure.
 */
int runner_series_line(struct runner_series *s, const char *line,
		       struct runner_series_sample *out);
/* The largest per-second maximum of @thread so far; -1 none. */
long runner_series_max(const struct runner_series *s, int thread);
/* Writes the series as JSON (atomically); 0 or -errno. */
int runner_series_write(const struct runner_series *s, const char *path);
void runner_series_free(struct runner_series *s);

/* ---- cyclictest ----------------------------------------------- */
/*
 * cyclictest, the measurement. The suite's options plus the runner's:
 * -D/-l, -h N --histfile=... --json=... (always both: rt-tests 2.4 can
 * crash on --json without -h) and never -q, because the live T: lines
 * drive the progress line. The JSON and histogram go to *.part names and
 * are renamed when cyclictest has finished them; cyclictest.log keeps the
 * header, any message, and the final T: line of each thread.
 *
 * With the series on (measure.h) the runner adds -v -o N as well:
 * cyclictest then prints the maxima of its sample windows instead of T:
 * lines. The live progress is drawn from those maxima, and the final T:
 * lines of cyclictest.log and of the manifest's summary are rebuilt from
 * its JSON (tid unknown: 0), so a traced run, which needs the measured
 * threads' tids, keeps the series off.
 */

#define CT_MAX_THREADS	1024

struct runner_ct_run {
	char dir[PATH_MAX];	/* the repetition's directory */
	char **argv;
	char *header;		/* lines before the first T: line */
	char *notes;		/* other lines (warnings, errors) */
	char *status_line;	/* the last "policy: ..." line */
	struct ctline last[CT_MAX_THREADS];
	bool have[CT_MAX_THREADS];
	int nr_threads;		/* highest thread seen + 1 */
	unsigned int expect_s;	/* -D, or 0 */
	unsigned long long expect_loops;	/* -l, or 0 */
	double elapsed_s;	/* how long it ran; the caller sets it */
	bool verbose;		/* -v -o N: the series is recorded */
	int prio;		/* -p, for the rebuilt T: lines; 0 unknown */
	struct runner_series series;
};

/* Scaled -D seconds (at least 1) or -l loops, for the manifest. */
unsigned int runner_ct_duration_s(const struct runner_suite_measure *m,
				  double scale);
unsigned long long runner_ct_loops(const struct runner_suite_measure *m,
				   double scale);

/*
 * @series: record the per-second maxima (adds -v -o N); the caller
 * turns it off for a traced run and the suite with `timeline = off`.
 */
int runner_ct_init(struct runner_ct_run *c,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir, bool series);
/*
 * Takes one output line; fills @t and returns true for a T: line (with
 * the series on: for a sample line, @t the thread's state so far).
 */
bool runner_ct_feed(struct runner_ct_run *c, const char *line,
		    struct ctline *t);
/*
 * Writes cyclictest.log; when @complete, renames the JSON and histogram
 * into place and checks that the measurement was not cut short: it ran
 * 90% of its -D, every thread took 10% of the samples -D implies or 90%
 * of -l (-ERANGE otherwise; a -b break is not checked); with the series
 * on, writes timeline.json. Returns 0, or -errno with @why said.
 */
int runner_ct_finish(struct runner_ct_run *c, bool complete, char *why,
		     size_t len);
void runner_ct_free(struct runner_ct_run *c);

/* ---- rtla NAME hist (timerlat, osnoise) ------------------------ */
/*
 * `rtla NAME hist`, the measurement of a `tool = NAME` scenario whose
 * program is rtla: the suite's `NAME =` options plus the runner's -d
 * (duration), -E (histogram entries, 1 us buckets: -b 1). rtla prints its
 * histogram and summary when the session ends; the runner keeps that text
 * as NAME.txt (written only when rtla finished normally) and everything
 * rtla said as NAME.log. The analyzer reads NAME.txt, one metric per
 * side of the tool (timerlat: thread and IRQ latency).
 */

struct runner_rtla_run {
	const struct an_tool *tool;
	char dir[PATH_MAX];	/* the repetition's directory */
	char **argv;
	char *out;		/* everything rtla printed */
	size_t len;
};

/* argv[0] is "rtla". 0 or -ENOMEM. */
int runner_rtla_init(struct runner_rtla_run *t, const struct an_tool *tool,
		     const struct runner_suite_measure *m, double scale,
		     const char *dir);
/* Takes one line of rtla's output. */
void runner_rtla_feed(struct runner_rtla_run *t, const char *line);
/*
 * Writes NAME.log; when @complete and the output has rtla's summary,
 * NAME.txt too. Returns 0, or -errno with @why said.
 */
int runner_rtla_finish(struct runner_rtla_run *t, bool complete, char *why,
		       size_t len);
void runner_rtla_free(struct runner_rtla_run *t);

/*
 * The repetition's worst latency (us): the largest `max:` of rtla's
 * columns but IRQ ones (timerlat's Thr and Usr, osnoise's CPU). 0, or
 * -ENODATA when the output has no summary.
 */
int runner_rtla_worst_us(const struct runner_rtla_run *t, unsigned long *us);

/*
 * rtla's auto-analysis of a timerlat scenario traced with `--trace
 * spikes|on` (docs/tracing.md, "rtla auto-analysis"). The histogram must
 * cover the whole repetition, so no threshold may stop it; instead, after
 * it and with the workloads still running, `rtla timerlat top --aa-only
 * US -d SECS` (plus the suite's `timerlat =` options) runs until a
 * wake-up reaches US (half the histogram's worst thread latency) and
 * prints rtla's analysis of that wake-up, kept as rtla-aa.txt.
 */
struct runner_tl_aa {
	char **argv;
	char *out;		/* everything rtla printed */
	size_t len;
	unsigned long threshold_us;
	unsigned int secs;
};

/* Whether @rtla has --aa-only (rtla 6.3 and later); @why when not. */
bool runner_tl_aa_supported(const char *rtla, char *why, size_t len);
/* Seconds the analysis may wait for its wake-up: @secs in 5..30. */
unsigned int runner_tl_aa_secs(unsigned int secs);
/* 0 or -ENOMEM; argv[0] is "rtla". */
int runner_tl_aa_init(struct runner_tl_aa *a, const struct an_tool *tool,
		      const struct runner_suite_measure *m,
		      unsigned long threshold_us, unsigned int secs);
void runner_tl_aa_feed(struct runner_tl_aa *a, const char *line);
/*
 * Writes @dir/rtla-aa.txt (everything rtla printed) and returns the
 * manifest's "rtla_aa" object: command, threshold, whether a wake-up hit
 * it and which CPUs, @how rtla ended, @error when not NULL.
 */
cJSON *runner_tl_aa_finish(struct runner_tl_aa *a, const char *dir,
			   const char *how, const char *error);
void runner_tl_aa_free(struct runner_tl_aa *a);

/* ---- kstat ---------------------------------------------------- */
/*
 * Kernel counters beside a repetition: debugfs rseq/stats (Linux 7.x with
 * CONFIG_RSEQ_STATS; the slice-extension lines sgrant, sexpir, srevok,
 * syield, sabort with CONFIG_RSEQ_SLICE_EXTENSION). Read before the
 * workloads start and after they stopped; the repetition keeps the
 * difference (manifest: repetitions[].rseq_stats), and `expect =
 * rseq-stats.KEY OP N` judges it. Read-only: nothing is ever written there.
 */

#define KSTAT_RSEQ_FILE		"rseq/stats"	/* under the debugfs mount */
#define KSTAT_MAX		32
#define KSTAT_NAME		16

struct runner_kstat_snap {
	size_t n;
	char name[KSTAT_MAX][KSTAT_NAME];
	unsigned long long val[KSTAT_MAX];
};

/*
 * Parses "name: number" lines (the file's own format, "sgrant:  ... 42").
 * 0, or -EINVAL when a line is neither (@line, 1-based, says which).
 */
int runner_kstat_parse(const char *text, struct runner_kstat_snap *s,
		       unsigned int *line);

/*
 * Reads @debugfs/rseq/stats: 0, -ENOENT when the kernel has none (or
 * @debugfs is NULL), -EXDEV when the file is not on debugfs (a planted
 * path is never read), other -errno as the read failed.
 */
int runner_kstat_read(const char *debugfs, struct runner_kstat_snap *s);

/*
 * {"sgrant": after - before, ...} for every counter in both, NULL when
 * either is empty. A counter that went down (it wrapped, or the kernel
 * reset it) gives -1, which no expect of "> 0" takes for a grant.
 */
cJSON *runner_kstat_delta(const struct runner_kstat_snap *before,
			  const struct runner_kstat_snap *after);

/* ---- trace ---------------------------------------------------- */
/*
 * Trace capture during a repetition (suite `trace =`, `rtgate run
 * --trace`): one tracefs instance of trace/ per repetition, its raw pages
 * spooled into the repetition's directory and saved there as trace.dat,
 * the worst wake-ups attributed into trace-attr.json. The manifest's
 * repetition gets a "trace" object saying what was captured
 * (docs/results.md). A failure to trace never invalidates a repetition:
 * it is said in that object.
 */

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

/* ---- progress ------------------------------------------------- */
/*
 * Progress on stdout. On a terminal: one live status line (step i/n,
 * scenario, repetition, time left in it and in the whole suite, current
 * max per CPU from cyclictest's T: lines: "max CPU0 1013 us, CPU1 772 us")
 * cut to the terminal's width, redrawn a few times a second, and one
 * permanent line per repetition, a long reason wrapped under it. Not on a
 * terminal (CI logs): plain timestamped lines, a live one every 10 s at
 * most. The suite's time left is the expected measurement time of the
 * steps to come plus each step's overhead as measured so far.
 */

#define PROGRESS_MAX_CPUS 64

struct runner_progress {
	bool tty;
	bool drawn;		/* a status line is on the screen */
	double last;		/* last live update (clocks_mono_s) */
	size_t step, nr_steps;
	char what[160];		/* "[2/9] hackbench rep 1/3" */
	double end;		/* expected end of the measurement, or 0 */
	long max_us[PROGRESS_MAX_CPUS];
	int nr_cpus;
	double step_s;		/* expected measurement of a step; 0 unknown */
	double step_start;	/* clocks_mono_s() at the current step's start */
	double done_s;		/* wall time of the finished steps */
	size_t done;		/* finished steps */
	bool held;		/* --silent: no live lines during a rep */
};

/* @step_s: the measurement each step is expected to take (0 unknown). */
void runner_progress_init(struct runner_progress *pg, size_t nr_steps,
			  double step_s);
/* "~2m10s" for the suite (0 when unknown) into buf. */
const char *runner_progress_suite_left(const struct runner_progress *pg,
				       double now, char *buf, size_t len);
void runner_progress_rep_start(struct runner_progress *pg, size_t step,
			       const char *scenario, unsigned int rep,
			       unsigned int nr_reps);
/* The measurement started: @seconds expected (0 if unknown). */
void runner_progress_measure(struct runner_progress *pg, double seconds);
void runner_progress_ctline(struct runner_progress *pg, const struct ctline *t);
/* Redraws the live line when it is due (no cyclictest: time only). */
void runner_progress_tick(struct runner_progress *pg);
/* A permanent line about the current repetition ("ok, max 40 43 us"). */
void runner_progress_rep_end(struct runner_progress *pg, const char *status,
			     const char *reason);
/* A permanent line of its own, printed above the status line. */
void runner_progress_note(struct runner_progress *pg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void runner_progress_clear(struct runner_progress *pg);

/* ---- tools ------------------------------------------------------------ */
/*
 * A measuring tool, what a scenario's `tool = NAME` says: every fact about
 * it (program, title, tracer, environment, sides, reader ...) is its entry
 * in analyze.h's table (struct an_tool); here is only how the runner
 * drives its program, one driver per file (runner_tool_<kind>.c) and one
 * line a tool in runner_tool.c's table. The repetition
 * (runner/runner_rep.c) starts the tool's program with the command line
 * ops->init built, in the measurement cgroup and under the watchdog;
 * feeds it every line the tool prints; stops it at the measurement's end
 * (SIGTERM) or when a workload dies; and hands the end to ops->finish,
 * which writes the tool's files into the repetition's directory, where
 * the table's reader finds them. A tool with no program ("none") has no
 * driver and leaves the measuring to the workloads: the repetition lasts
 * as long as they run.
 */
struct runner_tool_ops;

struct runner_tool_run {
	const struct an_tool *tool;	/* the scenario's tool */
	const struct runner_tool_ops *ops;	/* its driver; NULL: none */
	char **argv;		/* the command line init built (the tool's) */
	void *priv;		/* the driver's own state */
};

struct runner_tool_ops {
	/*
	 * Builds t->argv for a measurement of @m at duration scale @scale
	 * with t->tool, writing into @dir; @series asks for per-second maxima
	 * where the tool can record them. 0 or -errno.
	 */
	int (*init)(struct runner_tool_run *t,
		    const struct runner_suite_measure *m, double scale,
		    const char *dir, bool series);
	/* One line the tool printed; the live progress drawn from it. */
	void (*feed)(struct runner_tool_run *t, const char *line,
		     struct runner_progress *pg);
	/*
	 * After it ended (@complete: ran to its end and exited 0; it ran
	 * @elapsed_s seconds): its files written, its results checked.
	 * 0, or -errno with @why said.
	 */
	int (*finish)(struct runner_tool_run *t, bool complete,
		      double elapsed_s, char *why, size_t len);
	/*
	 * Its final per-thread lines (cyclictest's T: lines), at most @max
	 * into @out; returns how many it has. NULL: it prints none.
	 */
	size_t (*finals)(const struct runner_tool_run *t, struct ctline *out,
			 size_t max);
	/* The worst wake-up it measured, us: 0, or -ENODATA. */
	int (*worst_us)(const struct runner_tool_run *t, unsigned long *us);
	void (*release)(struct runner_tool_run *t);
};

/* The drivers: cyclictest's, and rtla's for every `rtla NAME hist` tool. */
extern const struct runner_tool_ops runner_tool_cyclictest;
extern const struct runner_tool_ops runner_tool_rtla;

/*
 * The driver of @tool's program; NULL for a tool without one ("none") or
 * one this runner has no driver for (its table is checked by the tests).
 */
const struct runner_tool_ops *runner_tool_get(const struct an_tool *tool);
/*
 * cyclictest's state, for the trace capture that keys on its wake-ups
 * and reads its break; NULL when @t is another tool's.
 */
const struct runner_ct_run *runner_tool_ct(const struct runner_tool_run *t);
/* Ends a tool's run: its state freed, *t zeroed. Safe on a zeroed one. */
void runner_tool_release(struct runner_tool_run *t);

#endif
