/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The analyzer's contract: the data it judges, the comparison, the reports.
 *
 * Data flows one way: inputs (cyclictest --json, --histfile text, pasted
 * T: lines, results directories; input.h) become an_side objects in
 * memory; an_compare() judges a candidate side against a baseline side and
 * fills an an_result; the report writers (report.h) print it.
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

struct cJSON;

/* A non-empty histogram bucket: n samples of us microseconds. */
struct an_bucket {
	uint32_t us;
	uint64_t n;
};

/*
 * One cyclictest thread (one CPU with --smp) of one run. The histogram is
 * sparse: only non-empty buckets are held (cyclictest -h 100000 with a
 * few hundred buckets in use costs a few KB, not 800 KB).
 */
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
	uint32_t nbuckets;	/* non-empty buckets in b[] */
	struct an_bucket *b;	/* ascending us, all below limit; NULL:
				 * summary only (no histogram) */
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

#define AN_RSEQ_NR	5
extern const char *const an_rseq_names[AN_RSEQ_NR];

/* One repetition. */
enum an_host_io {
	AN_HOST_IO_UNKNOWN,
	AN_HOST_IO_SILENT,	/* nothing crossed */
	AN_HOST_IO_LOUD,	/* console bytes, interrupts or messages */
};

struct an_run {
	char label[64];		/* "rep 2", a file name */
	int rep;		/* 1-based */
	int order;		/* position in execution order; -1 unknown */
	char start_time[40];	/* cyclictest's start_time (--json); "" */
	uint64_t ident;		/* content hash: the same measurement read
				 * from two files (N.json, N.hist) is one
				 * repetition; 0 unknown */
	double seconds;		/* how long it ran (end - start); 0 unknown */
	struct an_cpu *cpus;
	size_t ncpus;
	struct an_values *metrics;
	size_t nmetrics;
	struct an_workload *wls;
	size_t nwls;
	/*
	 * The kernel's slice-extension counters over the repetition
	 * (manifest rseq_stats: sgrant, sexpir, srevok, syield, sabort);
	 * NAN when the run had none.
	 */
	double rseq[AN_RSEQ_NR];
	/*
	 * Latency over time (the repetition's timeline.json): the largest
	 * latency of each second of the measurement, over its CPUs; NAN
	 * for a second without a sample. NULL: the run has no series
	 * (recorded before it existed, traced, timerlat, pasted lines).
	 */
	double *series_us;
	size_t nseries;
	/*
	 * What crossed to the host while it measured (the manifest's
	 * host_io, `rtgate run --silent`): AN_HOST_IO_UNKNOWN for a run
	 * that did not record it.
	 */
	enum an_host_io host_io;
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
	/*
	 * Measured in the lab's virtual time (an_system_clock "icount:N"):
	 * no host pause reaches a silent repetition there.
	 */
	bool virtual_clock;
	struct an_run *runs;
	size_t nruns;
	struct an_reference *ref;
};

/* An absolute acceptance limit: no valid repetition above it. */
struct an_budget {
	char metric[16];	/* "max", "p99", "p99.9", ... */
	double us;
};

#define AN_MAX_BUDGETS	8

/*
 * The noise profile of a machine (rtgate calibrate, docs/statistics.md):
 * how much each evidence line scatters between identical repetitions
 * here. A gate takes it as the prior of the repetitions' variance; it is
 * what lets one repetition a side be judged at all.
 */
struct an_profile_line {
	int cpu;		/* thread number */
	char metric[16];	/* "p99", "max" */
	double mean;		/* of log(1 + us) over the repetitions */
	double var;		/* between repetitions, of log(1 + us) */
	unsigned int bursts;	/* repetitions more than 4 robust sd above
				 * their group: a host pause's burst */
};

struct an_profile {
	char origin[192];	/* where it came from, for the reports */
	char key[72];		/* the measurement it holds for */
	double df;		/* degrees of freedom of every var */
	size_t nreps;		/* repetitions it was made of */
	struct an_profile_line *lines;
	size_t nlines;
};

/* How a comparison is judged: suite [gate], overridden by options. */
/* Looks of --until-decided a gate can carry (an_gs_level's bound). */
#define AN_MAX_LOOKS		64

struct an_gate {
	char metric[96];	/* max, avg, p50 ... p99.999, WORKLOAD.METRIC */
	double alpha;		/* false alarms per comparison (or suite) */
	double min_increase_us;
	double min_increase_pct;
	/*
	 * The share of alpha this comparison is judged at, when a suite's
	 * comparisons or the looks of --until-decided share one alpha
	 * (<= 0: all of it), and what the reason says about the share.
	 */
	double level;
	char level_why[96];
	/*
	 * The looks of --until-decided up to this one (information
	 * fractions, the last this look's), and the share of alpha they
	 * spend together: lines are judged at the group-sequential boundary
	 * of this look (an_gs_level) where it is less strict than the
	 * increment in level. nlooks 0: no looks.
	 */
	double look_t[AN_MAX_LOOKS];
	size_t nlooks;
	double look_share;
	struct an_budget budgets[AN_MAX_BUDGETS];
	size_t nbudgets;
	const struct an_profile *profile;	/* the prior; NULL: none */
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
	AN_LINE_TAIL,		/* an upper quantile, per repetition */
	AN_LINE_AVG,
	AN_LINE_METRIC,		/* a workload metric */
	AN_LINE_EXCEED,		/* a maximum beyond the baseline's tail law */
	AN_LINE_BUDGET,		/* an absolute limit of the gate */
	AN_LINE_REL,		/* a quantile of one CPU against the others
				 * of the same repetitions */
	AN_LINE_SPIKE,		/* the candidate's largest wake-up against the
				 * baseline's law and the machine's pauses */
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
	/*
	 * A max line (AN_LINE_MAX): the largest wake-up each side measured
	 * (over its repetitions, and its CPUs when cpu is -1), which the
	 * reports show as "max"; base/cand are then its typical max, the
	 * geometric mean of the repetitions' maxima at equal sample counts
	 * (of the CPUs' for cpu -1), which is judged. NAN for other lines.
	 */
	double raw_base;
	double raw_cand;
	/*
	 * A line of per-repetition values (tail, max): the range of each
	 * side's repetitions in us, [min, max]; NAN for other lines.
	 */
	double range_base[2];
	double range_cand[2];
	double delta;		/* cand - base */
	double delta_pct;	/* relative to base */
	double worse;		/* delta signed so that > 0 is worse */
	double lo, hi;		/* interval of delta; NAN when none */
	/*
	 * The largest rise (oriented as worse) the pass rule leaves open:
	 * one-sided at alpha's share / 2, not divided over the family (an
	 * intersection-union test: NO CHANGE needs every deciding line's
	 * bound below its floor). NAN: no bound.
	 */
	double pass_hi;
	double p_worse;		/* one-sided p-values, NAN when no test */
	double p_better;
	double p_adj;		/* p of the verdict's direction, adjusted for
				 * every deciding line (the family) */
	double floor;		/* practical floor for this line, in unit */
	double see;		/* the smallest rise this line could call a
				 * regression, in unit; NAN: no test */
	int more_reps;		/* repetitions a side to add before see
				 * reaches the floor; 0: it does; -1: none
				 * would (the noise of this machine) */
	double df;		/* degrees of freedom of its test; 0: none */
	double drift;		/* A/B/A drift of the same quantity; NAN: n/a */
	/*
	 * A/B/A: the candidate lies beyond both halves of the baseline in
	 * the effect's direction, by the floor at each half's level (its
	 * median against both halves' medians): measured between them, no
	 * monotone drift puts it there.
	 */
	bool beyond_halves;
	bool deciding;		/* the gate judges on this line */
	enum an_verdict verdict;	/* this line alone */
	bool hint;		/* INCONCLUSIVE with a sign of change */
	char evidence[224];	/* one phrase: what the test saw */
};

/*
 * The checks a tail law passes before it is taken beyond the data
 * (analyze_tail_check.c): its threshold, the samples beyond it, and the
 * p-values of independence across repetitions and of the Pareto fit (NAN:
 * not checked; why says why, or which check failed).
 */
struct an_tail_check {
	double threshold_us, exceedances;
	size_t reps, bins;
	double disp_p, fit_p;
	char why[160];
};
/**
 * an_tail_check_text() - a tail law's checks in words, for the reports
 * @tc: the checks
 * @buf: gets "75 samples beyond 412 us in 5 repetitions; independence
 *       (dispersion) p=0.43, Pareto fit (chi-square) p=0.2 over 6 bins"
 *       ("not checked" for a p-value that is NAN)
 * @len: its size
 */
void an_tail_check_text(const struct an_tail_check *tc, char *buf,
			size_t len);

/*
 * The latency one side exceeds with probability p per wake-up (1e-6: once
 * in a million), from its tail law, with an interval (docs/statistics.md).
 */
struct an_exceedance {
	bool candidate;		/* false: the baseline */
	int cpu;
	double p;
	double us, lo, hi;	/* NAN when not estimable (why says why) */
	bool measured;		/* within the data: a quantile, not the law */
	double samples;		/* wake-ups it was estimated from */
	double max_us;		/* the largest of them */
	/*
	 * Not estimable: why, e.g. "the tail law would be taken 17 times
	 * beyond them (at most 10)"; "" when us is given.
	 */
	char why[192];
	bool checked;		/* a law was fitted: check holds its checks */
	struct an_tail_check check;
};
/*
 * A tail estimate is given only within these bounds (docs/statistics.md):
 * 1 / p at most AN_EXTRAP_MAX times the wake-ups fitted, and its whole
 * interval at most AN_EXCEED_MAX_FACTOR times the largest one measured.
 */
#define AN_EXTRAP_MAX		10
/*
 * A quantile q is a line of a CPU only where every repetition took at
 * least this many wake-ups beyond it: cycles * (1 - q) >= this.
 */
#define AN_LEVEL_MIN_EXCEED	10
#define AN_EXCEED_MAX_FACTOR	10
/**
 * an_level_supported() - whether a CPU's wake-ups hold a quantile as a line
 * @cycles: the wake-ups of each repetition (the fewest of them)
 * @q: the quantile level, 0.99 for p99
 *
 * That support, counted in integers: @q in parts per million (every level
 * rtgate names, p50 .. p99.9999, is exact there), so 100 wake-ups hold
 * p90 (10 beyond it) although 100 * (1 - 0.9) is 9.999999999999998 in
 * doubles.
 *
 * Return: true when @cycles * (1 - @q) >= AN_LEVEL_MIN_EXCEED; false for
 * a level with nothing beyond it (@q of 1).
 */
bool an_level_supported(uint64_t cycles, double q);
/**
 * an_level_needs() - the fewest wake-ups that hold a quantile
 * @q: the quantile level, 0.99 for p99
 *
 * Return: the smallest cycles for which an_level_supported() is true;
 * UINT64_MAX when none is (@q of 1).
 */
uint64_t an_level_needs(double q);

struct an_result {
	enum an_verdict verdict;
	char reason[640];	/* one sentence */
	struct an_gate gate;
	size_t nbase, ncand;	/* repetitions used */
	bool drift_checked;
	bool settled;		/* NO CHANGE shown within the floor everywhere */
	int decisive;		/* lines[] index of the line the verdict rests
				 * on (the one its reason names); -1: none */
	double level;		/* the one-sided level every deciding line was
				 * judged at (alpha's share / 2 / family) */
	size_t family;		/* deciding lines that were tested */
	bool profile_used;	/* the machine's noise profile was the prior */
	char notes[6][224];	/* caveats: one run per side, counts differ */
	size_t nnotes;
	struct an_line *lines;
	size_t nlines;
	struct an_exceedance *exceed;	/* per side and CPU, from the tail law */
	size_t nexceed;
};

/**
 * an_side_new() - an empty side, to which runs are appended
 * @name: its name (a scenario, "last-week"), copied
 *
 * Return: the side, to free with an_side_free(); NULL when out of memory.
 */
struct an_side *an_side_new(const char *name);
/**
 * an_side_free() - frees a side with its runs, CPUs, metrics and reference
 * @side: from an_side_new(); NULL does nothing
 */
void an_side_free(struct an_side *side);
/**
 * an_side_add_run() - appends a repetition to a side
 * @side: the side; its runs[] may move (earlier run pointers go stale)
 * @label: "rep 2", a file name; copied
 * @ncpus: threads to allocate: cpus[i].thread i, cpu, prio and act_us -1
 *
 * The run's rep is its 1-based position, its order -1 (unknown), its
 * rseq counters NAN; the caller fills the rest.
 *
 * Return: the new run, or NULL when out of memory.
 */
struct an_run *an_side_add_run(struct an_side *side, const char *label,
			       size_t ncpus);
/**
 * an_parse_file() - reads one cyclictest output file into a run
 * @path: cyclictest --json, --histfile text or T: lines, told apart by
 *        their content
 * @run: gets its cpus allocated and filled
 *
 * The one reader of cyclictest's files, the runner's check of a
 * repetition's JSON included.
 *
 * Return: 0; -EINVAL for bad input, after one message naming the file and
 * the line; -ENOMEM.
 */
int an_parse_file(const char *path, struct an_run *run);
/**
 * an_cpu_set_hist() - a CPU's histogram from dense buckets
 * @c: the CPU; set its cycles first, and its min/avg/max_us
 * @buckets: bucket i holds the samples of i us; copied, empty ones left out
 * @n: buckets given; those at or beyond @limit are ignored
 * @limit: the histogram's size (cyclictest -h)
 *
 * The samples the buckets do not hold are overflows: cycles - the sum
 * (cycles is raised to the sum when smaller).
 *
 * Return: 0, -ENOMEM, or -EOVERFLOW when the counts do not fit 64 bits.
 */
int an_cpu_set_hist(struct an_cpu *c, const uint64_t *buckets, size_t n,
		    uint32_t limit);
/**
 * an_cpu_set_buckets() - a CPU's histogram from sparse buckets
 * @c: the CPU; set its cycles first, and its min/avg/max_us
 * @b: non-empty buckets in any order, copied: duplicates are added, those
 *     at or above @limit count as overflows
 * @n: how many
 * @limit: the histogram's size (cyclictest -h)
 *
 * Return: 0, -ENOMEM, or -EOVERFLOW when the counts do not fit 64 bits.
 */
int an_cpu_set_buckets(struct an_cpu *c, const struct an_bucket *b, size_t n,
		       uint32_t limit);
/**
 * an_run_add_metric() - appends a workload metric's values to a run
 * @run: the repetition
 * @name: "WORKLOAD.METRIC"
 * @unit: its unit ("ns"); NULL none
 * @higher_better: a rise is an improvement (a rate), not a regression
 * @v: one value per measured round, copied
 * @n: how many
 *
 * Return: 0 or -ENOMEM.
 */
int an_run_add_metric(struct an_run *run, const char *name, const char *unit,
		      bool higher_better, const double *v, size_t n);
/**
 * an_run_add_workload() - appends a workload's summary to a run
 * @run: the repetition
 * @wl: the summary, copied
 *
 * Return: 0 or -ENOMEM.
 */
int an_run_add_workload(struct an_run *run, const struct an_workload *wl);

/**
 * an_gate_default() - the gate a suite gets where it says nothing
 * @gate: filled: metric max, alpha 0.05, the practical floor 5 us and 10 %
 *
 * The one place the defaults are written: the suite parser, the results
 * reader, `compare` and the lab gate start from it.
 */
void an_gate_default(struct an_gate *gate);
/**
 * an_gate_of_manifest() - a run's gate as its manifest's suite states it
 * @manifest: a manifest.json; where it says nothing, an_gate_default()'s
 * @gate: filled: metric, alpha, floor and budgets of suite.gate
 */
void an_gate_of_manifest(const struct cJSON *manifest, struct an_gate *gate);
/*
 * The gate metrics, one list for every part that names one (suite files,
 * --metric, history, the dashboard; docs/statistics.md):
 *   max, avg          of cyclictest's (or timerlat's) samples, us
 *   pN                a quantile: N in (0, 100), at most two digits before
 *                     and three after the point (p50, p97, p99.9, p99.999)
 *   WORKLOAD.METRIC   a workload's own metric (setparam.ns_per_call):
 *                     letters, digits, '-', '_' and '.'
 * an_metric_kind() says which, or AN_METRIC_UNKNOWN; AN_METRIC_NAMES is
 * the list in words, for messages.
 */
enum an_metric_kind {
	AN_METRIC_UNKNOWN,
	AN_METRIC_MAX,
	AN_METRIC_AVG,
	AN_METRIC_QUANTILE,
	AN_METRIC_WORKLOAD,
};
#define AN_METRIC_NAMES	"max, avg, pN (p50, p99.9 ...) or WORKLOAD.METRIC"
/**
 * an_metric_kind() - what a gate metric's name names
 * @metric: "max", "p99.9", "setparam.ns_per_call" ...
 *
 * Return: its kind, AN_METRIC_UNKNOWN for a name that is none of them.
 */
enum an_metric_kind an_metric_kind(const char *metric);

/*
 * Latency over time (analyze/report/analyze_series.c, docs/results.md): a
 * second of a candidate is a spike when its maximum is beyond the
 * baseline's ceiling -- the largest per-second maximum of any of its
 * repetitions -- by more than the gate's floor (min_increase_us and
 * min_increase_pct of the ceiling, the larger): beyond anything the
 * baseline showed, by a rise the suite calls practical.
 */
struct an_spike {
	int rep;		/* the candidate's repetition */
	size_t second;		/* 0-based second of its measurement */
	double us;
};

/**
 * an_side_has_series() - whether a side has latency over time
 * @s: the side; NULL has none
 *
 * Return: true when one of its runs has a per-second series.
 */
bool an_side_has_series(const struct an_side *s);
/**
 * an_series_threshold() - the latency beyond which a second is a spike
 * @base: the baseline side
 * @gate: its floor: min_increase_us and min_increase_pct of the ceiling
 * @ceiling: gets the baseline's largest per-second maximum (NAN: none);
 *           may be NULL
 *
 * Return: the threshold in us, the ceiling plus the larger floor; NAN
 * when @base has no series.
 */
double an_series_threshold(const struct an_side *base,
			   const struct an_gate *gate, double *ceiling);
/**
 * an_series_spikes() - the candidate's seconds beyond a threshold
 * @cand: the candidate side
 * @threshold: from an_series_threshold(); NAN finds none
 * @out: gets the first @max spikes, in repetition then second order;
 *       NULL: none
 * @max: room in @out
 * @seconds: gets how many seconds the candidate measured; may be NULL
 *
 * Return: how many spikes there are (more than @max, perhaps).
 */
size_t an_series_spikes(const struct an_side *cand, double threshold,
			struct an_spike *out, size_t max, size_t *seconds);
/**
 * an_metric_quantile() - a quantile metric's level
 * @metric: "p99.9"
 * @q: gets its level, 0.999
 *
 * Return: false for a name that is not a quantile (an_metric_kind()).
 */
bool an_metric_quantile(const char *metric, double *q);
/**
 * an_gate_check() - checks a gate's metric name and ranges
 * @gate: a known metric, alpha in (0, 0.5), a floor of at least 0
 *
 * Return: 0, or -EINVAL after a message saying what is wrong.
 */
int an_gate_check(const struct an_gate *gate);

/**
 * an_compare() - judges a candidate side against a baseline side
 * @base: the baseline
 * @cand: the candidate
 * @gate: the metric, alpha (or its share: level), floor, budgets and
 *        profile it is judged by
 * @res: filled with the verdict, its reason and the evidence lines
 *
 * Bad data was refused by the parsers; sides that cannot be compared
 * (skipped, invalid, no common CPUs) give the SKIPPED or INVALID verdict,
 * not an error.
 *
 * Return: 0 with @res filled (free it with an_result_release()), or
 * -ENOMEM.
 */
int an_compare(const struct an_side *base, const struct an_side *cand,
	       const struct an_gate *gate, struct an_result *res);
/**
 * an_result_release() - frees a result's lines and tail estimates
 * @res: from an_compare(); its verdict and reason stay readable
 */
void an_result_release(struct an_result *res);
/**
 * an_rel_family() - the family a comparison's CPU-against-others lines add
 * @ncpus: CPUs measured
 * @reps: repetitions a side
 *
 * Each CPU's lines against the other CPUs of the same repetitions are
 * tested for a rise only: half a line each.
 *
 * Return: the family size they add; 0 when there are none (one CPU, one
 * repetition).
 */
size_t an_rel_family(size_t ncpus, size_t reps);

/**
 * an_profile_build() - a noise profile from repetitions of no change
 * @groups: sides, each the repetitions of one unchanged condition (their
 *          variance is pooled within the groups), all on the same CPUs
 * @ngroups: how many
 * @out: filled: a line per CPU and level (p90 ... p99.999, max); its origin
 *       and key are the caller's to set
 *
 * Return: 0 (free @out with an_profile_free()); -EINVAL for fewer than
 * two repetitions more than groups, or runs on different CPUs; -ENOMEM.
 */
int an_profile_build(struct an_side *const *groups, size_t ngroups,
		     struct an_profile *out);
/**
 * an_profile_free() - frees a profile's lines and zeroes it
 * @pr: from an_profile_build(), an_profile_from_json() or the history
 */
void an_profile_free(struct an_profile *pr);
/**
 * an_profile_typical() - a line's typical value on this machine
 * @pr: the profile
 * @cpu: the thread number
 * @metric: "p99", "max"
 *
 * Return: the value in us (the geometric mean of the repetitions'), NAN
 * when the profile has no such line.
 */
double an_profile_typical(const struct an_profile *pr, int cpu,
			  const char *metric);
/**
 * an_profile_can_see() - the smallest rise a suite could call a regression
 * @pr: the profile
 * @cpu: the thread number
 * @metric: "p99", "max"
 * @reps: repetitions a side
 * @a: the one-sided level each line is judged at
 *
 * Return: the rise in us, from the line's typical value; NAN without the
 * line or repetitions.
 */
double an_profile_can_see(const struct an_profile *pr, int cpu,
			  const char *metric, size_t reps, double a);
/**
 * an_profile_reps_for() - the repetitions that bring what a suite sees to
 * its floor
 * @pr: the profile
 * @cpu: the thread number
 * @metric: "p99", "max"
 * @floor_us: the practical floor, in us
 * @a: the one-sided level each line is judged at
 *
 * Return: the fewest repetitions a side (at least 2) whose
 * an_profile_can_see() is within @floor_us; -1 when none up to 1000 is,
 * or the profile has no such line.
 */
int an_profile_reps_for(const struct an_profile *pr, int cpu,
			const char *metric, double floor_us, double a);
/**
 * an_profile_burst_rate() - how often a line carried a burst here
 * @pr: the profile
 * @cpu: the thread number
 * @metric: "p99", "max"
 *
 * A burst is a host pause that delays a run of wake-ups.
 *
 * Return: the share of the profile's repetitions with one (bursts /
 * nreps); NAN without the line.
 */
double an_profile_burst_rate(const struct an_profile *pr, int cpu,
			     const char *metric);
/**
 * an_profile_json() - a profile as JSON, schema rtgate-noise-profile/1
 * @pr: the profile
 *
 * Return: a new object, the caller's to cJSON_Delete().
 */
struct cJSON *an_profile_json(const struct an_profile *pr);
/**
 * an_profile_from_json() - a profile from its JSON
 * @what: where it was read, for the messages ("FILE: noise_profile")
 * @o: the object, schema rtgate-noise-profile/1
 * @pr: filled
 *
 * Return: 0 (free @pr with an_profile_free()); -EINVAL after a message
 * naming @what and what is wrong; -ENOMEM.
 */
int an_profile_from_json(const char *what, const struct cJSON *o,
			 struct an_profile *pr);
/**
 * an_system_clock() - the clock a run's latencies were measured in
 * @m: the run's manifest (its lab.clock, docs/kernels.md)
 * @name: gets "icount:3" in the quiet lab; "host" for a run outside the
 *        lab and a lab run on the host's clock
 * @nlen: its size
 * @statement: gets what its microseconds mean ("" outside the lab)
 * @slen: its size
 *
 * Runs of different clocks are never compared (rtgate compare refuses; a
 * history takes only its own).
 */
void an_system_clock(const struct cJSON *m, char *name, size_t nlen,
		     char *statement, size_t slen);

/**
 * an_system_clock_virtual() - whether a run was measured in virtual time
 * @m: the run's manifest
 *
 * Return: true when its lab.clock is of kind "icount": no host pause
 * reaches the guest's clock there.
 */
bool an_system_clock_virtual(const struct cJSON *m);

/*
 * A series of nights (analyze/stats/analyze_nights.c): one value a night,
 * oldest first, the last one tonight; where it stepped.
 */
struct an_night_step {
	size_t tau;		/* the first night after the split */
	size_t npre, npost;
	double q;		/* its energy divergence */
	double pre_mean, pre_median, pre_sd, post_mean;
	double t, p;		/* p: over the splits it was chosen among */
	size_t nsplits;
	int dir;		/* +1 rose, -1 fell, 0 none */
};

/**
 * an_median() - the median of some values
 * @v: the values; not changed (a copy is sorted)
 * @n: how many
 *
 * Return: the median; NAN for no values, or when out of memory.
 */
double an_median(const double *v, size_t n);
/**
 * an_energy_q() - how far a series' two parts lie apart
 * @x: the series
 * @n: its length
 * @tau: the split: x[0..tau) against x[tau..n)
 *
 * Return: the energy divergence of the two parts (E-divisive, alpha 1),
 * scaled by their sizes; 0 when one part is empty.
 */
double an_energy_q(const double *x, size_t n, size_t tau);
/**
 * an_night_step() - where a series of nights stepped, and how surely
 * @y: one value a night, oldest first
 * @n: how many
 * @kpre: the nights before a split that predict the ones after it (at
 *        least 2)
 * @window: the split is among the last @window nights
 * @sd_floor: the resolution: added (squared) to the nights' variance
 * @out: the split with the largest divergence (an_energy_q()), and the t
 *       of the nights since against the mean and between-night variance
 *       of the @kpre nights before it, one-sided in the direction it
 *       moved, df npre - 1; its p multiplied by the splits it was chosen
 *       among
 *
 * Return: 0 with @out filled; -1 when the series is too short (fewer
 * than 3 nights, or no split with @kpre nights before it).
 */
int an_night_step(const double *y, size_t n, size_t kpre, size_t window,
		  double sd_floor, struct an_night_step *out);

/*
 * Like with like (analyze/report/analyze_like.c, docs/nightly.md): what
 * must be equal before two runs are compared, each read from a manifest
 * into one string. A setting a manifest did not record is not known and
 * not compared. The kernel (release, version, config, preemption model)
 * is what a comparison tests and is not a setting.
 */
enum an_like_setting {
	AN_LIKE_TOOL,		/* "tool": the measuring tool and options */
	AN_LIKE_TOOL_VERSION,	/* "tool.version" */
	AN_LIKE_DMA,		/* "cpu_dma_latency" */
	AN_LIKE_IDLE_STATES,	/* "cpuidle.states" */
	AN_LIKE_IDLE_GOVERNOR,	/* "cpuidle.governor" */
	AN_LIKE_CPUFREQ,	/* "cpufreq.governor" */
	AN_LIKE_ISOLCPUS,	/* "isolcpus" */
	AN_LIKE_NOHZ_FULL,	/* "nohz_full" */
	AN_LIKE_IRQ,		/* "irq_affinity" */
	AN_LIKE_CLOCKSOURCE,	/* "clocksource" */
	AN_LIKE_SMT,		/* "smt" */
	AN_LIKE_CMDLINE,	/* "cmdline", compared as cmdline.PARAM */
	AN_LIKE_N
};

struct an_like {
	char clock[32];			/* an_system_clock(): never compared
					 * across */
	bool known[AN_LIKE_N];		/* recorded in the manifest */
	char value[AN_LIKE_N][1024];
};

/**
 * an_like_from_manifest() - a run's settings and clock, to compare
 * @m: the run's manifest
 * @l: filled; a setting the manifest did not record is not known
 */
void an_like_from_manifest(const struct cJSON *m, struct an_like *l);
/**
 * an_like_name() - a setting's --intended name
 * @s: the setting
 *
 * Return: "cpuidle.governor"; "?" for a value that is no setting.
 */
const char *an_like_name(enum an_like_setting s);
/**
 * an_like_diff() - whether two runs were measured alike
 * @a: the baseline's settings
 * @b: the candidate's
 * @intended: the settings that may differ, a comma list of names
 *            (cmdline.PARAM for one parameter); NULL: none
 * @why: gets each difference, "cpuidle.governor (the cpuidle governor):
 *       'menu' -> 'teo'", or why the clocks differ; "" alike
 * @len: its size
 *
 * Return: 0 alike; 1 when a setting not in @intended differs; -EINVAL
 * when the clocks differ (never compared, whatever is intended).
 */
int an_like_diff(const struct an_like *a, const struct an_like *b,
		 const char *intended, char *why, size_t len);
/**
 * an_like_intended_check() - checks an --intended list
 * @intended: a comma list of setting names or cmdline.PARAM; NULL: none
 * @bad: gets the first name that is no setting
 * @len: its size
 *
 * Return: 0, or -EINVAL with @bad filled.
 */
int an_like_intended_check(const char *intended, char *bad, size_t len);
/**
 * an_like_intended_add() - adds --intended (intended =) names to a list
 * @list: the comma list the names join; unchanged on an error
 * @len: its size
 * @arg: a comma list of setting names or cmdline.PARAM
 * @why: gets what is wrong, for the caller's message: "'foo' is no
 *       setting (tool, ..., cmdline.PARAM)", "'ARG' is one too many"
 * @wlen: its size
 *
 * The one rule of --intended, for compare, compare --history, history
 * changepoints, lab gate and the nightly's intended =.
 *
 * Return: 0; -EINVAL when a name is no setting; -E2BIG when @list has no
 * room for @arg.
 */
int an_like_intended_add(char *list, size_t len, const char *arg, char *why,
			 size_t wlen);
/**
 * an_like_settings() - every setting's name, for messages and --help
 * @buf: gets "tool, tool.version, ..., cmdline.PARAM"
 * @len: its size
 *
 * Return: @buf.
 */
const char *an_like_settings(char *buf, size_t len);
/**
 * an_like_cpus_diff() - whether two sides measured on the same CPUs
 * @base: the baseline; every repetition (a history's every night)
 * @cand: the candidate; every repetition, against its first
 * @intended: the settings that may differ; "cpus" lets the CPUs differ
 * @why: gets the first thread measured on another CPU; "" alike
 * @len: its size
 *
 * CPUs are paired by thread ("cpus", as --intended names it), so a
 * candidate measured on CPUs 5 and 7 against a baseline on 0 and 1
 * compares other CPUs. A CPU not recorded (-1: a .hist, pasted lines) is
 * not compared.
 *
 * Return: 1 when they differ and "cpus" is not in @intended; 0 else.
 */
int an_like_cpus_diff(const struct an_side *base, const struct an_side *cand,
		      const char *intended, char *why, size_t len);

/**
 * an_verdict_name() - a verdict in the reports' words
 * @v: the verdict
 *
 * Return: "NO CHANGE", "REGRESSION" ...; "?" for a value that is none.
 */
const char *an_verdict_name(enum an_verdict v);
/*
 * What a line's values are: one wording for every report and reason. An
 * end of a line's interval that puts the latency beyond AN_BOUND_FACTOR
 * times the largest value the line shows (its floor at least) is no
 * bound this data can give: "unbounded".
 */
#define AN_BOUND_FACTOR	10
/**
 * an_line_interval() - a line's interval of delta as the reports print it
 * @buf: gets "16.9..34.2 us", "unbounded..3 us", "-" without one
 * @len: its size
 * @l: the line
 *
 * An end below a latency of 0 is shown at 0 (-base); one beyond the bound
 * reads "unbounded" (for a max/law line the same holds for the law's
 * maximum that an end stands for).
 *
 * Return: @buf.
 */
const char *an_line_interval(char *buf, size_t len, const struct an_line *l);
/**
 * an_line_interval_ends() - the ends an_line_interval() prints, as numbers
 * @l: the line
 * @lo: gets the lower end, NAN: unbounded (or no interval)
 * @hi: gets the upper end, NAN: unbounded (or no interval)
 */
void an_line_interval_ends(const struct an_line *l, double *lo, double *hi);
/**
 * an_line_name() - what a line is called beside the values the tables show
 * @l: the line
 *
 * Return: "max" (the largest measured wake-up), "max/law", or the line's
 * metric ("p99"); a string that lives as long as @l.
 */
const char *an_line_name(const struct an_line *l);
/**
 * an_line_judged() - what a line's test judged, in words
 * @buf: gets "typical max" (the geometric mean of the maxima at equal
 *       sample counts), "p95 against the other CPUs", "p99"
 * @len: its size
 * @l: the line
 *
 * Return: @buf.
 */
const char *an_line_judged(char *buf, size_t len, const struct an_line *l);
/**
 * an_verdict_exit() - the exit code of a set of verdicts
 * @worst: the worst of them (enum an_verdict is ordered by severity)
 *
 * Return: EXITCODE_REGRESSION, EXITCODE_INCONCLUSIVE (INCONCLUSIVE, INVALID) or
 * EXITCODE_PASS (docs/exit-codes.md).
 */
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

struct an_params {
	const char *metric;	/* NULL: the suite's gate, else "max" */
	double alpha;		/* < 0: the suite's, else 0.05 */
	double min_increase_us;	/* < 0: the suite's, else 5 */
	double min_increase_pct;	/* < 0: the suite's, else 10 */
	unsigned int formats;	/* AN_FMT_*; report_run: 0 means all */
	const char *out_dir;	/* compare: where reports go */
	const char *labels;	/* compare RUN_A RUN_B [RUN_A2]: columns */
	const char *profile;	/* --profile FILE: a noise profile */
	unsigned int family;	/* compare --family N: comparisons sharing
				 * alpha; 0: a DIR:SCENARIO side's suite */
	bool interim;		/* a look while the run goes on: its own
				 * repetitions are a baseline already */
	bool quiet;		/* no verdict table on stdout */
	const char *intended;	/* settings whose difference is the one
				 * under test (an_like_diff()); NULL none */
};

/**
 * an_params_init() - parameters that take everything from the suite
 * @p: zeroed, with alpha and the floor < 0 (the suite's)
 */
void an_params_init(struct an_params *p);

/**
 * an_report_run() - judges a finished (or interrupted) run and reports it
 * @run_dir: the results directory
 * @p: what overrides the suite's gate, the formats (0: all), where the
 *     reports go (NULL out_dir: @run_dir), quiet
 *
 * Judges every comparison its suite declares, writes report.{txt,md,json,
 * html} and junit.xml, and prints the verdict table.
 *
 * Return: the exit code: 0 pass, 1 regression, 2 inconclusive/invalid,
 * 3 bad input, 4 a report that cannot be written, 5 run incomplete.
 */
int an_report_run(const char *run_dir, const struct an_params *p);

/* One comparison of a run, as an_judge_run() judged it. */
struct an_run_verdict {
	char candidate[128], baseline[128];
	char reason[640];
	enum an_verdict verdict;
	enum an_verdict counts_as;	/* a control's: flagged passes */
	bool control;
	int more_reps;		/* of the line the verdict rests on; -1 none */
	size_t nbase, ncand;	/* repetitions judged */
};

/**
 * an_judge_run() - an_report_run()'s judgement, nothing written or printed
 * @run_dir: the results directory
 * @p: as for an_report_run()
 * @out: gets an array of a verdict per comparison, to free()
 * @n: gets its length
 *
 * What --until-decided judges between rounds.
 *
 * Return: 0, or an exit code: 3 bad input, 4 environment.
 */
int an_judge_run(const char *run_dir, const struct an_params *p,
		 struct an_run_verdict **out, size_t *n);

/* ---- the measuring tools (analyze/input/analyze_tool.c) ---- */

/*
 * A measuring tool a scenario may name (`tool = NAME`): every fact about
 * it lives in its entry of the one table, which the suite parser, the
 * runner, the analyzer and the lab gate ask. How the runner drives its
 * program (command line, lines, end) is runner/measure/'s driver of it.
 */
#define AN_TOOL_MAX	8	/* entries of the table, at most */
#define AN_TOOL_SIDES	4	/* latencies one tool measures, at most */

/*
 * One latency a tool measures: sides[0] is the scenario's own (side name
 * S); each further one is a side of its own, S plus its suffix ("S.irq"),
 * and adds a comparison where both scenarios of a pair measure it.
 */
struct an_tool_side {
	const char *suffix;	/* "", ".irq"; NULL ends the list */
	const char *column;	/* rtla's column kind: "Thr", "IRQ", "CPU" */
	const char *what;	/* "IRQ latency", in messages */
};

struct an_tool;
typedef int (*an_tool_read_fn)(const struct an_tool *t, const char *rep_dir,
			       size_t side, uint32_t limit, struct an_run *run);

struct an_tool {
	const char *name;		/* `tool = NAME`; the manifest's "tool" */
	const char *program;		/* it runs; NULL: none (workloads) */
	const char *title;		/* in messages: "rtla timerlat hist" */
	const char *tracer;		/* the kernel tracer it needs (also a
					 * requirement's name); NULL: none */
	const char *const *env;		/* more environment; NULL-ended */
	bool own_tracer;		/* it traces: no second trace beside */
	bool auto_analysis;		/* rtla's auto-analysis may follow it */
	bool needs_duration;		/* runs for a time (-d), never loops */
	const char *args_key;		/* the manifest's key of its options */
	const char *owned_short;	/* -X letters the runner gives it */
	const char *const *owned_long;	/* --options the runner gives it */
	const char *owned_why;		/* why a suite may not give those */
	struct an_tool_side sides[AN_TOOL_SIDES];
	an_tool_read_fn read;		/* a repetition's files; NULL: no
					 * latency (tool = none) */
};

/**
 * an_tool_find() - the tool named @name
 * @name: `tool =`'s word, a manifest's "tool"
 *
 * Return: its entry, or NULL: an unknown tool is an error, never
 * cyclictest.
 */
const struct an_tool *an_tool_find(const char *name);
/**
 * an_tool_at() - the table's entries in order
 * @i: 0 is the default tool, the one a suite naming none measures with
 *
 * Return: the @i-th entry, NULL past the last.
 */
const struct an_tool *an_tool_at(size_t i);
/**
 * an_tool_index() - a tool's position in the table
 * @t: an entry of the table
 *
 * Return: its index, which an_tool_at() gives back.
 */
size_t an_tool_index(const struct an_tool *t);
/**
 * an_tool_names() - every tool's name, for messages
 * @buf: gets "cyclictest, none, timerlat or osnoise"
 * @len: its size
 */
void an_tool_names(char *buf, size_t len);
/**
 * an_tool_nsides() - how many latencies a tool measures
 * @t: the tool
 *
 * Return: its sides, 1 for most (timerlat: thread and IRQ, 2).
 */
size_t an_tool_nsides(const struct an_tool *t);
/**
 * an_tool_of() - the tool a run's scenario measured with
 * @manifest: the run's manifest.json
 * @scen: the scenario's object in it
 *
 * Return: the scenario's own `tool`, else its suite's, else (a manifest
 * from before tools) cyclictest; NULL when that name is in no entry.
 */
const struct an_tool *an_tool_of(const struct cJSON *manifest,
				 const struct cJSON *scen);
/**
 * an_tool_side_of() - whether a side's name is a further side of a
 * scenario
 * @side: a side's name: "S", "S.irq"
 * @base: gets the scenario's name (S)
 * @len: its size
 *
 * Return: the suffix (".irq") of any tool's further side, or NULL when
 * @side names none.
 */
const char *an_tool_side_of(const char *side, char *base, size_t len);
/**
 * an_tool_side_index() - which of a tool's sides has a suffix
 * @t: the tool
 * @suffix: "" (its own side), ".irq"
 *
 * Return: the side's index, (size_t)-1 when @t has none with @suffix.
 */
size_t an_tool_side_index(const struct an_tool *t, const char *suffix);

/* ---- sharing alpha (analyze/judge/analyze_family.c) ---- */

/*
 * A suite's comparisons share alpha (Bonferroni), so that ten comparisons
 * are not ten chances of a false alarm (docs/statistics.md, "The family
 * and the verdict"); the judge owns every rule of it.
 */
struct an_family_member {
	const struct an_tool *cand;	/* the scenario's tool */
	const struct an_tool *base;	/* its baseline's; NULL: not found */
	bool control;			/* a control tests the gate */
};

/**
 * an_pair_comparisons() - the comparisons one scenario pair makes
 * @cand: the candidate's tool
 * @base: the baseline's (NULL: unknown)
 *
 * Return: 1, plus one for each further latency both measure (a timerlat
 * pair: thread and IRQ, 2).
 */
size_t an_pair_comparisons(const struct an_tool *cand,
			   const struct an_tool *base);
/**
 * an_family() - how many comparisons share alpha
 * @m: a suite's compared scenarios
 * @n: how many
 *
 * Controls do not count.
 *
 * Return: the comparisons they make, at least 1.
 */
size_t an_family(const struct an_family_member *m, size_t n);
/**
 * an_suite_family() - the family of a run's suite, from its manifest
 * @manifest: the run's manifest.json
 *
 * Each comparison is judged at alpha / family by `rtgate run`, `report`
 * and `compare DIR:S DIR2:S`.
 *
 * Return: an_family() of @manifest's scenarios; a scenario whose tool is
 * unknown counts one comparison.
 */
size_t an_suite_family(const struct cJSON *manifest);
/**
 * an_gate_family() - the family of a gate over some of a run's scenarios
 * @manifest: the run's manifest
 * @only: the scenarios compared (NULL, @n 0: every one), each with itself
 *        on another kernel (`rtgate lab gate`)
 * @n: how many
 * @made: gets how many comparisons that makes
 *
 * Return: @made, or the suite's family when larger: a scenario compared
 * alone is judged at the level the whole suite judges it.
 */
size_t an_gate_family(const struct cJSON *manifest, const char *const *only,
		      size_t n, size_t *made);
/**
 * an_alpha_share() - one comparison's share of alpha
 * @alpha: the alpha its comparisons share (a gate's, or a look's)
 * @family: how many comparisons share it (an_family()); 0 counts as 1
 *
 * The one rule every sharer asks (Bonferroni): `rtgate run`, `report`,
 * `compare --history` and its night model's lines, the lab gate, the
 * nightly dashboard's bar, the noise profile's forecast.
 *
 * Return: @alpha / @family.
 */
double an_alpha_share(double alpha, size_t family);
/**
 * an_gate_share() - the share of alpha a gate judges a comparison at
 * @gate: its alpha, and its level where alpha is shared
 *        (an_share_alpha_among())
 *
 * Return: @gate's level, or all of its alpha when it has none (<= 0).
 */
double an_gate_share(const struct an_gate *gate);
/**
 * an_line_level() - the level each deciding line of a comparison is
 * judged at
 * @share: the comparison's share of alpha (an_alpha_share())
 * @lines: the deciding lines that are tested (a CPU against the others
 *         counts half: an_rel_family()); 0 counts as 1
 *
 * Each line is judged one-sided in each direction, so it takes half of
 * its part of the share (docs/statistics.md, "The family and the
 * verdict").
 *
 * Return: @share / 2 / @lines.
 */
double an_line_level(double share, size_t lines);
/**
 * an_share_alpha_among() - one of @family comparisons, judged alone
 * @gate: gets level alpha / @family, and level_why "alpha A shared by
 *        @among"; nothing changes when @family is 1 or less
 * @family: how many comparisons share alpha (an_family())
 * @among: who shares it, in words ("the run's 3 scenarios")
 *
 * `compare --history` judges each scenario of a night so, `compare
 * --family N` each comparison (with the looks of --until-decided the
 * level is the judge's own, an_judge_run()).
 */
void an_share_alpha_among(struct an_gate *gate, size_t family,
			  const char *among);

/**
 * an_cmd_compare() - `rtgate compare`: a candidate against a baseline
 * @argc: the number of arguments
 * @argv: "compare" and its arguments: files, directories, DIR:SCENARIO
 *        sides, options (README.md, "Judging results"); --json for a
 *        JSON answer
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int an_cmd_compare(int argc, char **argv);
/**
 * an_cmd_report() - `rtgate report RUN`: judges a finished run and writes
 * its reports
 * @argc: the number of arguments
 * @argv: "report", the results directory and options
 *
 * Return: the exit code (docs/exit-codes.md), as an_report_run().
 */
int an_cmd_report(int argc, char **argv);

/* ---- Histograms ---- */

/*
 * One thread's latency histogram (analyze_hist.c): quantiles, order
 * statistics, tail counts and pooling. Buckets are 1 us wide; samples at
 * or above the histogram limit are overflows whose values are unknown
 * except the maximum, so a statistic that falls among them is "at least
 * the limit" (*ge = true).
 */
/**
 * an_cpu_has_hist() - whether a CPU carries a histogram
 * @c: the CPU
 *
 * Return: false for a summary only (pasted T: lines, a summary row).
 */
static inline bool an_cpu_has_hist(const struct an_cpu *c)
{
	return c->b != NULL && c->limit > 0;
}

/**
 * an_cpu_quantile() - a quantile of a CPU's latencies
 * @c: the CPU
 * @q: the level, in (0, 1]
 * @ge: set when the quantile falls among the overflows: "at least"
 *
 * Return: the smallest latency v in us with P(X <= v) >= @q (the limit
 * when @ge); NAN without a histogram or samples.
 */
double an_cpu_quantile(const struct an_cpu *c, double q, bool *ge);
/**
 * an_cpu_kth_largest() - an order statistic from the top
 * @c: the CPU
 * @k: 1 is the maximum; a fractional k interpolates between neighbouring
 *     order statistics
 * @ge: set when it falls among the overflows: "at least"
 *
 * Return: the @k-th largest sample in us (the limit when @ge); max_us for
 * @k <= 1 or without a histogram.
 */
double an_cpu_kth_largest(const struct an_cpu *c, double k, bool *ge);
/**
 * an_cpu_count_above() - how many samples exceed a latency
 * @c: the CPU
 * @t: the latency in us, below the limit (the overflows always count)
 *
 * Return: the samples strictly above @t.
 */
uint64_t an_cpu_count_above(const struct an_cpu *c, double t);

/**
 * an_cpu_pool() - adds one CPU's samples into an accumulator
 * @dst: the accumulator: starts zeroed, its thread set
 * @src: the CPU added
 *
 * Sums histograms, cycles, overflows; min/max/avg combined. Histograms of
 * different limits are cut at the smaller one; one summary-only input
 * makes the pool summary-only.
 *
 * Return: 0 or -ENOMEM.
 */
int an_cpu_pool(struct an_cpu *dst, const struct an_cpu *src);
/**
 * an_cpu_release() - frees a CPU's histogram
 * @c: the CPU; it keeps its summary
 */
void an_cpu_release(struct an_cpu *c);

/* ---- Results directories ---- */

/* A results directory (docs/results.md) with its manifest. */
struct an_results {
	char dir[512];
	struct cJSON *manifest;
	const char *status;	/* complete | incomplete | aborted */
};

/**
 * an_results_open() - opens a results directory
 * @dir: the directory
 * @res: gets its manifest.json, checked as an_manifest_check() does
 *
 * Return: 0 (close it with an_results_close()); -EINVAL, said on stderr
 * with the file and the field, when it cannot be read or fails a check.
 */
int an_results_open(const char *dir, struct an_results *res);
/**
 * an_manifest_check() - checks a manifest as strictly as a suite
 * @path: the file it was read from, for the message
 * @m: the manifest
 *
 * The schema; a non-empty scenario list of unique names; each compare
 * names another scenario of the run, with no cycle; suite, scenario, host
 * and run names of the character set of parse_name() /
 * parse_host_name(); no negative budget or floor, alpha in (0, 1); every
 * string UTF-8.
 *
 * Return: 0, or -EINVAL after one message naming the file and the field.
 */
int an_manifest_check(const char *path, const struct cJSON *m);
/**
 * an_results_close() - frees what an_results_open() read
 * @res: the results directory
 */
void an_results_close(struct an_results *res);
/**
 * an_results_side() - one scenario of a run as a side
 * @res: the open results directory
 * @scenario: the scenario's name, or S.irq for a further side of S
 * @out: gets the side: its valid repetitions, status, reason and
 *       reference; free it with an_side_free()
 *
 * A scenario that did not run, or ran without a valid repetition, is a
 * SKIPPED or INVALID side with its reason, not an error.
 *
 * Return: 0; -EINVAL (said on stderr) for no such scenario, an unknown
 * tool or a repetition's file that cannot be read; -ENOMEM.
 */
int an_results_side(const struct an_results *res, const char *scenario,
		    struct an_side **out);
/**
 * an_results_gate() - the suite's gate from the run's manifest
 * @res: the open results directory
 * @gate: filled as an_gate_of_manifest() fills it
 */
void an_results_gate(const struct an_results *res, struct an_gate *gate);
/**
 * an_results_profile() - the noise profile the run was judged with
 * @res: the open results directory
 * @pr: filled from the manifest's noise_profile
 *
 * Return: 0 (free @pr with an_profile_free()); 1 when the run had none;
 * -EINVAL (said) for a profile that cannot be read; -ENOMEM.
 */
int an_results_profile(const struct an_results *res, struct an_profile *pr);

/* ---- Group-sequential looks (the runner's --until-decided) ---- */

/**
 * an_alpha_spent() - the part of alpha spent by an information fraction
 * @alpha: the whole error over all looks
 * @t: the information fraction, 0..1
 *
 * Lan-DeMets alpha spending of the Pocock type. Looks at t1 < t2 < ...
 * test at the increments, so the error over all looks stays at @alpha.
 *
 * Return: alpha * ln(1 + (e - 1) t); 0 for @t <= 0, @alpha for @t >= 1.
 */
double an_alpha_spent(double alpha, double t);

#define AN_GS_MAX_LOOKS		64
/**
 * an_gs_level() - the nominal level of a group-sequential look
 * @alpha: one-sided, spent by an_alpha_spent(), in (0, 0.5)
 * @t: the looks' information fractions, t[0] <= ... <= t[n-1], each in
 *     (0, 1]
 * @n: how many looks, at most AN_GS_MAX_LOOKS; the last is this one
 *
 * The boundary that makes the first crossing at the last look exactly as
 * likely as the increment spent there, given that the statistic did not
 * cross before (analyze_gs.c).
 *
 * Return: the one-sided level, never below the increment itself; NAN on
 * bad input.
 */
double an_gs_level(double alpha, const double *t, size_t n);

#endif
