/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/report: the reports (txt, md, html, json, junit), their plots
 * and the evidence they show beside the verdicts (traces, rtla's
 * auto-analysis, latency over time).
 */
#ifndef RTGATE_ANALYZE_REPORT_H
#define RTGATE_ANALYZE_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "trace/trace.h"

/* ---- Reports ---- */

/*
 * Reports of a set of comparisons: text (cyclictest's T: layout, then the
 * comparison table), Markdown, JSON (docs/report-schema.md), JUnit XML and
 * a self-contained HTML page with gnuplot's SVG plots.
 */

struct an_cmp {
	const struct an_side *base, *cand;
	struct an_result res;
	char control[12];	/* "positive", "negative", "shown" or "" */
	bool base_ref_applies;	/* the baseline's reference is the
				 * candidate's scenario's too (compare
				 * RUN_A RUN_B: one scenario, two kernels) */
};

/*
 * The verdict a comparison counts as for the gate: its own, except for a
 * positive control, which passes when it is flagged (the gate can see a
 * known latency here) and is INCONCLUSIVE when it is not (then nothing
 * this run says can be trusted). A comparison "shown" beside a positive
 * control (a timerlat control's IRQ latency) counts only when its data is
 * unusable (SKIPPED, INVALID).
 */
enum an_verdict an_cmp_counts(const struct an_cmp *c);
/*
 * Adds a note on the candidate's spikes over time (an_series_spikes),
 * when both sides have a series, so every report says it.
 */
void an_series_note(struct an_cmp *c);
/* Says in the reason what a control's verdict means. */
void an_cmp_apply_control(struct an_cmp *c);

/*
 * The machine and software a run measured, from its manifest: the header
 * of every report (rteval's reports lead with it) and junit.xml's
 * <properties>. Empty strings are unknown.
 */
struct an_system {
	char label[32];		/* a run's column name; "" for one run */
	char run_id[128];
	char host[128];
	char cpu_model[128];
	int cpus;		/* online; 0 unknown */
	char release[128];	/* uname -r */
	char version[192];	/* uname -v */
	char preempt[32];	/* the manifest's preempt_model */
	bool preempt_rt;	/* /sys/kernel/realtime */
	char cmdline[1024];
	char config_sha256[72];
	char cyclictest[32], stress_ng[32], rtgate[32];
	char suite[128], suite_sha256[72];
	char start_time[32], end_time[32];
	double scale;		/* --duration-scale; 0 unknown */
	char clock[32];		/* "host", "icount:3" (an_system_clock) */
	char clock_statement[320]; /* a lab run's; "" outside the lab */
	/*
	 * The manifest's "system" facts (runner/machine/machine.h), each
	 * as the header shows it, "absent" when the kernel had no such
	 * interface. A manifest from before they were recorded has no
	 * "system": @facts is false and every one of them is "".
	 */
	bool facts;
	char machine[300];	/* DMI vendor and product, microcode */
	char topology[300];	/* SMT, NUMA nodes and their CPUs */
	char clocksource[64];
	char cpuidle[600];	/* driver: states, exit latencies, disabled */
	char rt_throttle[128];	/* sched_rt_runtime_us of _period_us */
	char irqs[400];		/* how many IRQs may run on each CPU */
	char thp[64];
	/* isolcpus, nohz_full, stalld, tuned; "" when not recorded */
	char isolation[400];
	struct an_like like;	/* what must equal another run's */
};

/* Fills @sys from a results directory's manifest.json (cJSON). */
void an_system_from_manifest(const cJSON *m, const char *label,
			     struct an_system *sys);
/* Fills @sys's system facts and isolation from the manifest @m. */
void an_system_facts(const cJSON *m, struct an_system *sys);
/*
 * Like with like (analyze_like.c): the first of the @n systems against
 * each other. Latencies of different clocks are never compared: an error
 * naming both, -EINVAL. A setting that differs and is not in @intended:
 * 1 and @why names each (prefixed with the runs' labels when n > 2);
 * the comparisons are then INVALID (an_cmp_unlike()). 0 when alike.
 */
int an_systems_like_check(const struct an_system *sys, size_t n,
			  const char *intended, char *why, size_t len);
/* The comparison is INVALID: its sides are not alike (@why). */
void an_cmp_unlike(struct an_cmp *c, const char *why);
/*
 * Like with like for one comparison: @unlike (an_systems_like_check()'s
 * words, "" or NULL when the systems are alike) and its sides' CPUs
 * (an_like_cpus_diff()). Any difference: the comparison is INVALID
 * (an_cmp_unlike(), every difference named) and 1; else 0.
 */
int an_cmp_like(struct an_cmp *c, const char *unlike, const char *intended);
/* "rt (PREEMPT_RT)", "unknown (uname: PREEMPT_DYNAMIC)"; returns buf. */
const char *an_system_preempt(const struct an_system *s, char *buf,
			      size_t len);
/* "6.18.44 #1 SMP PREEMPT_DYNAMIC ..." (release and version). */
const char *an_system_kernel(const struct an_system *s, char *buf,
			     size_t len);
/* The header's lines as "key: value" pairs, for every format. */
#define AN_SYSTEM_ROWS	20	/* the most an_system_rows() gives */
struct an_system_row {
	const char *key;
	char value[1100];
};
size_t an_system_rows(const struct an_system *s, struct an_system_row *rows,
		      size_t max);

struct an_report {
	char title[160];	/* "suite quick, run ID" or "compare" */
	const char *run_dir;	/* NULL for `rtgate compare` */
	const char *run_id;
	const char *status;	/* the run's status; NULL for compare */
	struct an_gate gate;
	struct an_side **sides;	/* every scenario / input, in order */
	size_t nsides;
	struct an_cmp *cmps;
	size_t ncmps;
	/*
	 * The overall verdict: the worst counts_as of the comparisons that
	 * ran (SKIPPED only when every one was), set by an_report_finish().
	 */
	enum an_verdict worst;
	int exit_code;
	double scale;		/* the run's --duration-scale; 0 unknown */
	/* Sides made for one comparison (a candidate stopped early). */
	struct an_side **views;
	size_t nviews;
	const struct an_system *systems;	/* one per run; may be none */
	size_t nsystems;
};

/* Sets r->worst and r->exit_code from the comparisons (exit-codes.md). */
void an_report_finish(struct an_report *r, bool incomplete);
/* "2 comparisons, 1 REGRESSION (one the positive control), 1 SKIPPED". */
const char *an_report_counts(const struct an_report *r, char *buf,
			     size_t len);

/* The summary of one side's CPU over all its runs (a T: line). */
struct an_cpu_summary {
	int thread, prio;
	long interval_us, tid, act_us;
	unsigned long long cycles, overflows;
	long min_us, max_us;
	double avg_us;
};
void an_side_summary(const struct an_side *s, size_t j,
		     struct an_cpu_summary *out);
/* One published T: line (an_reference), as a summary. */
void an_ref_summary(const struct an_cpu *c, struct an_cpu_summary *out);

/*
 * The deciding evidence, one wording for every format:
 *   an_cmp_decisive()   the line the verdict rests on, NULL when none
 *   an_line_label()     "CPU 1 p99", "max" (all CPUs), "setparam.ns_per_call"
 *   an_line_values()    "43 -> 273 us": as measured (a max line: the median
 *                       of the repetitions' measured maxima)
 *   an_line_adjusted()  "judged at equal sample counts: >=1089 -> >=2027 us"
 *                       when the judged values differ from the measured
 *   an_cmp_measured()   the verdict row's cell: "CPU 1 p99 43 -> 273 us"
 *   an_cmp_published()  "max 12 -> 36 us" where a reference applies, "-"
 */
const struct an_line *an_cmp_decisive(const struct an_cmp *c);
const char *an_line_label(char *buf, size_t len, const struct an_line *l);
const char *an_line_values(char *buf, size_t len, const struct an_line *l);
const char *an_line_adjusted(char *buf, size_t len, const struct an_line *l);
const char *an_cmp_measured(char *buf, size_t len, const struct an_cmp *c);
const char *an_cmp_published(char *buf, size_t len, const struct an_cmp *c);
/*
 * The verdict table's footnote on its measured cells where one shows a
 * max line: " (max: the largest wake-up measured; ...)", else "".
 */
const char *an_report_measured_note(const struct an_report *r);
/* What a comparison table's rows mean: the decisive line, max rows. */
const char *an_cmp_legend(const struct an_cmp *c, char *buf, size_t len);
/* The published reference applies to this comparison (its candidate's). */
bool an_cmp_has_refs(const struct an_cmp *c);
/* "published (idle): SOURCE" once per source, naming its scenarios. */
void an_report_sources(const struct an_report *r, FILE *f,
		       const char *prefix);
/* Word-wraps text to width columns, each line indented. */
void an_wrap(FILE *f, const char *text, int indent, int width);
/* Columns of the terminal f writes to; 100 for files and pipes. */
int an_term_width(FILE *f);

/* Formats "12", ">=2000", "-" (NAN); returns buf. */
const char *an_fmt_val(char *buf, size_t len, double v, bool ge);
const char *an_fmt_p(char *buf, size_t len, double p);
/* cyclictest's T: lines of a side (all runs pooled), published beneath. */
void an_report_tlines(FILE *f, const struct an_side *s);
const char *an_line_cpu(char *buf, size_t len, const struct an_line *l);
/* Lines the tables show: all with few CPUs, else the telling ones. */
bool an_line_shown(const struct an_result *res, size_t i, size_t ncpus);
/* "5 us and 10%", or "10%" for a workload metric (not in us). */
const char *an_fmt_floor(char *buf, size_t len, const struct an_gate *g);
/* The verdict column: "not judged" for a line the gate does not judge. */
const char *an_line_verdict(const struct an_line *l);
/* The published value beside a line, NAN when none. */
double an_ref_value(const struct an_side *s, const struct an_line *l);
/* The same for a comparison: NAN where the reference does not apply. */
double an_cmp_ref_base(const struct an_cmp *c, const struct an_line *l);
double an_cmp_ref_cand(const struct an_cmp *c, const struct an_line *l);
/* How long a comparison measured (both sides' repetitions), seconds. */
double an_cmp_seconds(const struct an_cmp *c);
/* CPUs both sides measured. */
size_t an_cmp_ncpus(const struct an_cmp *c);
/* A max line shown as measured (raw_base/raw_cand), not as judged. */
bool an_line_raw(const struct an_line *l);

/* The cells of one comparison table row, for the text and Markdown tables. */
struct an_row {
	char name[112], cpu[8], base[24], bref[24], cand[24], cref[24];
	char delta[24], pct[24], p[24], evidence[400];
};
/*
 * The next line from *i on that the tables show, its row filled; NULL
 * after the last. *i is left at the line's index:
 *	for (i = 0; (l = an_row_next(c, &i, &w)); i++) ...
 */
const struct an_line *an_row_next(const struct an_cmp *c, size_t *i,
				  struct an_row *w);
/* The published and candidate cells, in a format's own cell layout. */
void an_row_values(FILE *f, const struct an_row *w, bool refs,
		   const char *ref_cell, const char *cand_cell);

int an_report_txt(const struct an_report *r, FILE *f);
int an_report_md(const struct an_report *r, FILE *f);
cJSON *an_report_json(const struct an_report *r);
int an_report_junit(const struct an_report *r, FILE *f);
int an_report_html(const struct an_report *r, FILE *f);
/*
 * The verdict table printed at the end of `rtgate report` and runs, in
 * width columns (the reason wrapped under its row).
 */
void an_report_table(const struct an_report *r, FILE *f, int width);
/* The system header as text lines (txt report, terminal). */
void an_report_system_txt(const struct an_report *r, FILE *f);

/* "scaled run: durations and loop counts x 0.05 ..." (scale != 1). */
const char *an_report_scale_note(const struct an_report *r, char *buf,
				 size_t len);

/*
 * What each workload of a side did per repetition (work done, errors) and
 * its metrics pooled: text lines for the txt, md and html reports, and the
 * "workloads" array of report.json.
 */
void an_report_workloads(FILE *f, const struct an_side *s);
cJSON *an_workloads_json(const struct an_side *s);

/* Writes the requested formats into dir (report.txt ... junit.xml). */
int an_report_write(const struct an_report *r, const char *dir,
		    unsigned int formats);

/* ---- Plots ---- */

/*
 * Plots of a comparison drawn by gnuplot as SVG: per-CPU latency
 * histograms on a log y axis, baseline and candidate overlaid, the
 * maxima per repetition, and, when the runs have a series, latency over
 * time: each repetition's per-second maxima with the candidate's spikes
 * (an_series_threshold) circled.
 */

struct an_plots {
	char *svg[64];		/* <svg ...>...</svg>, ready to inline */
	char title[64][96];
	bool wide[64];		/* drawn for the page's whole width */
	size_t n;
};

/*
 * The x range of a CPU's histogram plot: it always reaches both sides'
 * measured maxima (their markers stand inside the frame), log scale when
 * the tail is far from the body. The part beyond the histogram's limit is
 * shaded.
 */
void an_plot_hist_xrange(const struct an_cpu *b, const struct an_cpu *k,
			 long *lo, long *hi, bool *log_x);

/* Returns 0, -ENOENT when gnuplot is not installed, or -errno. */
int an_plot_cmp(const struct an_cmp *c, struct an_plots *out);
void an_plots_release(struct an_plots *p);

/* ---- rtla timerlat auto-analysis ---- */

/*
 * rtla's own auto-analysis of timerlat scenarios run with `--trace
 * spikes|on` (docs/tracing.md, "rtla auto-analysis"): after each
 * repetition's histogram the runner let `rtla timerlat top --aa-only US`
 * catch one wake-up of US or more and kept what rtla said about it as
 * rtla-aa.txt (the manifest's "rtla_aa" says with which threshold, and
 * whether one came). This module parses that text and gives the reports
 * one section per scenario: per repetition, the CPU, its latency and
 * rtla's breakdown (IRQ handler delay, IRQ duration, the blocking thread,
 * IRQ / softirq / thread interference), the largest part named first.
 *
 *	struct an_aa aa;
 *	if (!an_aa_parse("rtla-aa.txt", text, &aa))
 *		an_aa_describe(&aa.cpus[0], buf, sizeof(buf));
 */

#define AN_AA_MAX_CPUS	8

/* One "## CPU N hit stop tracing, analyzing it ##" block. */
struct an_aa_cpu {
	int cpu;
	bool irq;		/* the IRQ latency hit (else the thread's) */
	double total_us;	/* the "(100%)" line */
	double irq_latency_us;
	double irq_delay_us, irq_delay_pct;	/* "IRQ handler delay" */
	bool from_idle;		/* "(exit from idle)" */
	double irq_duration_us;	/* "Timerlat IRQ duration" */
	double blocking_us;	/* "Blocking thread" (thread hits only) */
	char blocking[64];	/* comm:pid of the blocking thread */
	double nmi_us, irq_if_us, softirq_if_us, thread_if_us;
};

struct an_aa {
	struct an_aa_cpu cpus[AN_AA_MAX_CPUS];
	int nr_cpus;
	bool stopped;		/* "... hit stop tracing" */
	double max_latency_us;	/* "Max latency was" (no hit); -1 absent */
	double idle_max_us;	/* "Max timerlat IRQ latency from idle"; -1 */
	int idle_cpu;
};

/*
 * Parses rtla's output (@name for messages). 0; -EINVAL, said with
 * @name:line, for an analysis block cut before its total line or a number
 * that does not read.
 */
int an_aa_parse(const char *name, const char *text, struct an_aa *aa);
/* "CPU 1, thread latency 20053.1 us: blocking thread inject:212 ..." */
void an_aa_describe(const struct an_aa_cpu *c, char *buf, size_t len);

/* The reports' sections; nothing when no repetition has an analysis. */
void an_aa_txt(const struct an_report *r, FILE *f);
void an_aa_md(const struct an_report *r, FILE *f);
void an_aa_html(const struct an_report *r, FILE *f);
/* The "rtla_aa" array of report.json (docs/report-schema.md). */
cJSON *an_aa_json(const struct an_report *r);

/* ---- Traces ---- */

/*
 * Root causes: for a run traced with `trace = spikes|on`, what delayed the
 * worst wake-ups of each scenario, from the attribution the runner saved
 * next to each repetition's trace.dat (trace-attr.json; computed from
 * trace.dat when it is missing). The reports print one section per traced
 * scenario: its culprits, its worst wake-ups in words with their time in
 * the trace, the trace files for trace-cmd and KernelShark, and for a
 * scenario compared with a traced baseline, the culprits of both sides.
 */

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
