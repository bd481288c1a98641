/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The analyzer's contract: the data it judges, the comparison, the reports.
 *
 * Data flows one way: inputs (cyclictest --json, --histfile text, pasted
 * T: lines, results directories; analyze_input.h) become an_side objects in
 * memory; an_compare() judges a candidate side against a baseline side and
 * fills an an_result; the report writers (analyze_report.h) print it.
 * Callers that hold samples elsewhere (the nightly history in SQLite) build
 * an_side objects themselves and call an_compare() directly:
 *
 *	struct an_side *base = an_side_new("last-week"), *cand = ...;
 *	struct an_run *run = an_side_add_run(base, "night 1", 4);
 *	run->cpus[0] = (struct an_cpu){ .thread = 0, .cycles = ..., ... };
 *	an_cpu_set_hist(&run->cpus[0], buckets, nbuckets, limit);
 *	struct an_gate gate;
 *	an_gate_default(&gate);
 *	struct an_result res;
 *	if (!an_compare(base, cand, &gate, &res))
 *		printf("%s: %s\n", an_verdict_name(res.verdict), res.reason);
 *	an_result_release(&res);
 *	an_side_free(base);
 *
 * docs/statistics.md explains the method; docs/report-schema.md the JSON.
 */
#ifndef RTGATE_ANALYZE_H
#define RTGATE_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One cyclictest thread (one CPU with --smp) of one run. */
struct an_cpu {
	int thread;		/* T: number */
	int cpu;		/* CPU it ran on; -1 unknown */
	int prio;		/* P:; -1 unknown */
	long tid;		/* ( tid ) of pasted lines; 0 unknown */
	long interval_us;	/* I:; 0 unknown */
	uint64_t cycles;	/* C: samples taken */
	uint64_t overflows;	/* samples at or above limit, not in hist */
	long min_us;
	long act_us;		/* Act: of pasted lines; -1 unknown */
	double avg_us;
	long max_us;
	uint32_t limit;		/* histogram size (-h US); 0 unknown */
	uint32_t nhist;		/* hist[] length (last non-empty bucket + 1) */
	uint64_t *hist;		/* hist[i] = samples of i us; NULL: summary */
};

/* A workload metric: one value per measured round (workloads/README.md). */
struct an_values {
	char name[96];		/* "WORKLOAD.METRIC" */
	char unit[16];
	bool higher_better;
	double *v;
	size_t n;
};

/* A workload's one-line summary in one repetition (workloads/README.md). */
struct an_workload {
	char name[64];		/* its alias in the suite */
	char unit[48];		/* work_unit: what work_done counts */
	double work_done;	/* NAN when the summary had none */
	double errors;
};

/* One repetition. */
struct an_run {
	char label[64];		/* "rep 2", a file name */
	int rep;		/* 1-based */
	int order;		/* position in execution order; -1 unknown */
	double seconds;		/* how long it ran (end - start); 0 unknown */
	struct an_cpu *cpus;
	size_t ncpus;
	struct an_values *metrics;
	size_t nmetrics;
	struct an_workload *wls;
	size_t nwls;
};

/* Published numbers printed beside the measured ones (never judged). */
struct an_reference {
	char source[256];
	struct an_cpu *cpus;	/* from T: lines */
	size_t ncpus;
	char (*value_names)[96];
	double *values;
	size_t nvalues;
};

enum an_side_status {
	AN_SIDE_OK,
	AN_SIDE_SKIPPED,	/* the scenario did not run (a requirement) */
	AN_SIDE_INVALID,	/* it ran but the treatment did not happen */
};

/* All repetitions of one scenario, or of one file / directory of files. */
struct an_side {
	char name[128];
	char origin[512];	/* where it was read from */
	enum an_side_status status;
	char reason[256];
	bool incomplete;	/* from a run that did not complete */
	bool order_known;	/* run[].order is the real execution order */
	struct an_run *runs;
	size_t nruns;
	struct an_reference *ref;
};

/* How a comparison is judged: suite [gate], overridden by options. */
struct an_gate {
	char metric[96];	/* max, avg, p50 ... p99.999, WORKLOAD.METRIC */
	double alpha;
	double min_increase_us;
	double min_increase_pct;
};

/* Ordered by severity: the worst verdict of a report decides its exit. */
enum an_verdict {
	AN_NO_CHANGE,
	AN_IMPROVEMENT,
	AN_SKIPPED,
	AN_INCONCLUSIVE,
	AN_INVALID,
	AN_REGRESSION,
};

enum an_line_kind {
	AN_LINE_MAX,		/* maxima across repetitions */
	AN_LINE_TAIL,		/* an upper quantile and the pooled tail */
	AN_LINE_AVG,
	AN_LINE_METRIC,		/* a workload metric */
};

/* One piece of evidence: a metric on one CPU (or all), both sides. */
struct an_line {
	enum an_line_kind kind;
	char metric[96];	/* "max", "p99.9", "avg", "WORKLOAD.METRIC" */
	char unit[16];		/* "us", or the workload metric's unit */
	int cpu;		/* thread number; -1: all CPUs */
	double q;		/* quantile level of a tail line */
	double base, cand;	/* the metric on each side, as judged */
	bool base_ge, cand_ge;	/* censored: "at least" (histogram limit) */
	double raw_base;	/* maxima as measured, before equal counts; */
	double raw_cand;	/* NAN when the same as base/cand */
	double delta;		/* cand - base */
	double delta_pct;	/* relative to base */
	double worse;		/* delta signed so that > 0 is worse */
	double lo, hi;		/* interval of delta; NAN when none */
	double p_worse;		/* one-sided p-values, NAN when no test */
	double p_better;
	double p_adj;		/* Holm-adjusted p of the verdict's direction */
	double floor;		/* practical floor for this line, in unit */
	double drift;		/* A/B/A drift of the same quantity; NAN: n/a */
	bool deciding;		/* the gate judges on this line */
	enum an_verdict verdict;	/* this line alone */
	bool hint;		/* INCONCLUSIVE with a sign of change */
	char evidence[224];	/* one phrase: what the test saw */
};

struct an_result {
	enum an_verdict verdict;
	char reason[640];	/* one sentence */
	struct an_gate gate;
	size_t nbase, ncand;	/* repetitions used */
	bool drift_checked;
	bool settled;		/* NO CHANGE shown within the floor everywhere */
	int decisive;		/* lines[] index of the line the verdict rests
				 * on (the one its reason names); -1: none */
	char notes[4][224];	/* caveats: one run per side, counts differ */
	size_t nnotes;
	struct an_line *lines;
	size_t nlines;
};

/* Sides: created empty, runs appended; an_side_free() frees everything. */
struct an_side *an_side_new(const char *name);
void an_side_free(struct an_side *side);
struct an_run *an_side_add_run(struct an_side *side, const char *label,
			       size_t ncpus);
/*
 * Copies buckets[0..n) (bucket i: samples of i us; n <= limit, trailing
 * zeros trimmed). Set c->cycles first: overflows = cycles - sum(buckets)
 * (cycles is raised to the sum when smaller). Also set min/avg/max_us.
 */
int an_cpu_set_hist(struct an_cpu *c, const uint64_t *buckets, size_t n,
		    uint32_t limit);
int an_run_add_metric(struct an_run *run, const char *name, const char *unit,
		      bool higher_better, const double *v, size_t n);
int an_run_add_workload(struct an_run *run, const struct an_workload *wl);

void an_gate_default(struct an_gate *gate);
/* "p99.9" -> 0.999; false for names that are not quantiles. */
bool an_metric_quantile(const char *metric, double *q);
/* Checks metric name and ranges; returns 0 or -EINVAL with a message. */
int an_gate_check(const struct an_gate *gate);

/*
 * Judges cand against base. Returns 0 with res filled (free it with
 * an_result_release), or -ENOMEM. Bad data was refused by the parsers;
 * sides that cannot be compared (skipped, invalid, no common CPUs) give
 * the SKIPPED or INVALID verdict, not an error.
 */
int an_compare(const struct an_side *base, const struct an_side *cand,
	       const struct an_gate *gate, struct an_result *res);
void an_result_release(struct an_result *res);

const char *an_verdict_name(enum an_verdict v);
/* The exit code of a set of verdicts (docs/exit-codes.md). */
int an_verdict_exit(enum an_verdict worst);

/* Parameters of `rtgate compare` and `rtgate report` (and the runner). */
enum an_format {
	AN_FMT_TXT = 1 << 0,
	AN_FMT_MD = 1 << 1,
	AN_FMT_JSON = 1 << 2,
	AN_FMT_JUNIT = 1 << 3,
	AN_FMT_HTML = 1 << 4,
	AN_FMT_ALL = 0x1f,
};

struct analyze_params {
	const char *metric;	/* NULL: the suite's gate, else "max" */
	double alpha;		/* < 0: the suite's, else 0.05 */
	double min_increase_us;	/* < 0: the suite's, else 5 */
	double min_increase_pct;	/* < 0: the suite's, else 10 */
	unsigned int formats;	/* AN_FMT_*; report_run: 0 means all */
	const char *out_dir;	/* compare: where reports go */
	const char *labels;	/* compare RUN_A RUN_B [RUN_A2]: columns */
	bool quiet;		/* no verdict table on stdout */
};

void analyze_params_init(struct analyze_params *p);

/*
 * For a finished (or interrupted) run: judges every comparison its suite
 * declares, writes report.{txt,md,json,html} and junit.xml into run_dir,
 * prints the verdict table, and returns the exit code (0 pass, 1 regression,
 * 2 inconclusive/invalid, 3 bad input, 5 run incomplete).
 */
int analyze_report_run(const char *run_dir, const struct analyze_params *p);

int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
