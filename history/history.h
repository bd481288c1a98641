/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The history store: every run rtgate sees, kept in one SQLite database
 * (results/rtgate.db by default). docs/nightly.md describes the schema.
 *
 * Writes are transactions (BEGIN IMMEDIATE, WAL journal, a busy timeout),
 * so two processes importing at once both succeed, and a process killed
 * mid-write leaves the database as it was before that write. A run is
 * stored with the status its manifest says; only `complete` runs are ever
 * used as a baseline.
 */
#ifndef RTGATE_HISTORY_H
#define RTGATE_HISTORY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct sqlite3;
struct an_side;
struct an_profile;
struct cJSON;

/* The schema this code writes; older databases are migrated on open. */
#define HISTORY_SCHEMA_VERSION	6

struct history {
	struct sqlite3 *db;
	char path[PATH_MAX];
};

/* The default database of a results directory: RESULTS/rtgate.db. */
int history_default_path(const char *results_dir, char *buf, size_t len);

/* Opens (creating when absent) and migrates to HISTORY_SCHEMA_VERSION. */
int history_open(struct history *h, const char *path);
/*
 * The same for a command that only reads the history (list, changepoints,
 * the dashboard, compare --history): a path with no database is -ENOENT
 * (said), never an empty database created to answer with nothing.
 */
int history_open_existing(struct history *h, const char *path);
/* Opens and migrates only up to @version (tests of the migrations). */
int history_open_version(struct history *h, const char *path, int version);
void history_close(struct history *h);
int history_schema_version(struct history *h);

/* Runs a statement with no result rows (BEGIN, COMMIT, …); 0 or -EIO. */
int history_exec(struct history *h, const char *sql);

/* --- noise profiles (history_profile.c) --- */

/*
 * Stores one calibration's profile of HOST for measurement KEY (see
 * an_profile). Calibrations accumulate: history_profile_load pools every
 * one stored for HOST and KEY, so a machine calibrated on several days
 * knows the noise of all of them. 0 or -errno.
 */
int history_profile_store(struct history *h, const char *host,
			  const struct an_profile *pr, const char *run_id);
/*
 * The pooled profile of HOST and KEY (variances pooled by their degrees
 * of freedom, bursts and repetitions added): 0, 1 when there is none, or
 * -errno. Free it with an_profile_free().
 */
int history_profile_load(struct history *h, const char *host,
			 const char *key, struct an_profile *out);

/* --- import (history_import.c) --- */

struct history_import_stats {
	unsigned int imported;	/* runs written */
	unsigned int unchanged;	/* already stored with the same status */
	unsigned int failed;	/* results directories that could not be read */
};

/*
 * Imports one results directory (results/<run-id>/) in one transaction,
 * replacing what was stored for that run id. A manifest that cannot be
 * read is an error naming the file (-EINVAL); nothing is written then.
 */
int history_import_run(struct history *h, const char *run_dir,
		       struct history_import_stats *stats);
/*
 * For the runner: stores RUN_DIR in the history of its results directory
 * (RUN_DIR/../rtgate.db, or $RTGATE_DB). Call it once the first manifest
 * is written (a run killed later stays visible, incomplete) and again at
 * the end, after the analyzer's report. A failure is a warning: the run
 * itself is never failed by its history.
 */
int history_record_run(const char *run_dir);

/* The same, replacing the placeholder of history_begin_pending(@token). */
int history_import_replacing(struct history *h, const char *run_dir,
			     const char *token,
			     struct history_import_stats *stats);
/*
 * Imports RESULTS_DIR: either one run directory (it has manifest.json) or
 * a directory of them. Directories without a manifest are skipped.
 */
int history_import_path(struct history *h, const char *path,
			struct history_import_stats *stats);

/*
 * A run that has started but whose results are not in yet (the nightly
 * records one before each suite): stored as `incomplete`, so that a
 * nightly killed mid-run leaves the run visible and marked incomplete.
 */
int history_begin_pending(struct history *h, const char *token,
			  const char *suite, const char *host,
			  const char *reason);
/* The run never produced results: the placeholder stays, incomplete. */
int history_fail_pending(struct history *h, const char *token,
			 const char *reason);
/*
 * Placeholders of nightlies that died (the caller holds the nightly lock,
 * so their owners are gone): they stay incomplete with @reason. Returns
 * how many, or -errno.
 */
int history_reap_pending(struct history *h, const char *reason);

/* --- queries (history_query.c) --- */

struct history_run {
	long long id;			/* database row id */
	char run_id[128];
	char suite[128];
	char host[128];
	char kernel_release[128];
	char kernel_version[256];
	char config_sha256[72];
	char start_time[32];
	char status[16];
	char status_reason[256];
	char results_dir[PATH_MAX];
	double duration_scale;		/* --duration-scale; 1 a full run */
};

struct history_baseline_query {
	const char *suite;
	const char *host;
	const char *scenario;		/* runs where this scenario was ok */
	const char *reference;		/* SQLite GLOB on the kernel release */
	const char *before;		/* start_time before it (NULL: any) */
	const char *exclude_run_id;	/* never the candidate itself */
	unsigned int limit;		/* K: the newest K runs */
	double scale;			/* only runs at this --duration-scale
					 * (0: any): a scaled run is not
					 * comparable with full ones */
	const char *clock;		/* only runs measured in this clock
					 * (manifest lab.clock.name; "host"
					 * outside the lab); NULL: any */
};

/*
 * The last K complete runs matching @q, newest first. *runs is malloc'ed
 * (free it); *n may be less than K, and 0 is not an error.
 */
int history_baseline(struct history *h, const struct history_baseline_query *q,
		     struct history_run **runs, size_t *n);
/* Every stored run, oldest first, optionally of one suite (NULL: all). */
int history_runs(struct history *h, const char *suite,
		 struct history_run **runs, size_t *n);
/*
 * The run @run_id: 0, -ENOENT when none, -EEXIST (said) when runs of
 * several hosts carry that id (a run is its id on its host).
 */
int history_find_run(struct history *h, const char *run_id,
		     struct history_run *run);
/* The run @run_id of @host: 0, or -ENOENT. */
int history_find_run_host(struct history *h, const char *run_id,
			  const char *host, struct history_run *run);

/* One CPU of one repetition, as stored. */
struct history_cpu {
	int cpu;
	long long cycles;
	long long overflows;
	double min_us, avg_us, max_us;
	char *histogram;		/* cyclictest's {"us": count} */
};

struct history_rep {
	int rep;
	char status[16];
	size_t nr_cpus;
	struct history_cpu *cpus;
};

/* The repetitions of one scenario of a stored run (status ok only). */
int history_load_reps(struct history *h, long long run, const char *scenario,
		      struct history_rep **reps, size_t *n);
void history_free_reps(struct history_rep *reps, size_t n);

/* One workload metric of one repetition: its summary's values. */
struct history_rep_metric {
	int rep;
	char name[96];			/* WORKLOAD.METRIC */
	char unit[16];
	bool higher_better;
	double *v;
	size_t n;
};

/* Every workload metric of the ok repetitions of a stored scenario. */
int history_load_metrics(struct history *h, long long run,
			 const char *scenario, struct history_rep_metric **m,
			 size_t *n);
void history_free_metrics(struct history_rep_metric *m, size_t n);

/* One point of a trend: the run-level statistic of a scenario. */
struct history_point {
	struct history_run run;
	double max_us;			/* max over CPUs and repetitions */
	double p9999_us;		/* pooled p99.99; < 0 unknown */
	bool p9999_lower_bound;		/* beyond the histogram: "≥" */
	double p99_us;			/* p99 likewise */
	char verdict[24];		/* history verdict stored, "" if none */
	char metric[96];		/* the metric it was judged on */
	char report[PATH_MAX];		/* its report.html, or "" */
	char since_run[128];		/* a step that stays: its first night */
	char reason[640];		/* the history verdict's, "" if none */
};

int history_series(struct history *h, const char *suite, const char *host,
		   const char *scenario, struct history_point **pts, size_t *n);
/*
 * Where a series stepped: step[i] is the index of the night whose
 * verdict dates a step to night i (a REGRESSION after a night that was
 * not one: i itself; a step that stays: the night that confirmed it, and
 * i the night it began, held then), or -1.
 */
void history_series_steps(const struct history_point *pts, size_t n,
			  long *step);
/*
 * What the next two nights would have to show to be a step on a series of
 * nightly values @v[0..n) (oldest first; latencies in us, or a workload
 * metric, @higher_better): with the last @k of them as the nights before
 * the split, the value both nights' mean must pass (history_nights.c's
 * test, one split, at @level) and each must pass (the gate's floor from
 * their median). NAN when fewer than 3 nights.
 */
double history_nights_bar(const double *v, size_t n, unsigned int k,
			  double level, double min_us, double min_pct,
			  bool us, bool higher_better);

/* Distinct (suite, host, scenario) of complete runs, for the dashboard. */
struct history_key {
	char suite[128];
	char host[128];
	char scenario[128];
};
int history_keys(struct history *h, struct history_key **keys, size_t *n);

/* The scenarios of a stored run, in suite order. */
struct history_scenario {
	char name[128];
	char compare[128];		/* "" for a baseline */
	char status[16];
	char reason[256];
};

int history_scenarios(struct history *h, long long run,
		      struct history_scenario **sc, size_t *n);

/* A stored verdict (source "run": the analyzer's report; "history"). */
struct history_verdict_row {
	char scenario[128];
	char source[16];
	char baseline[512];
	char metric[32];
	char verdict[24];
	char reason[512];
	double candidate;		/* NAN when unknown */
	double baseline_value;
	double p_value;
	char prev_run[128];
	char changed[1024];
	char counts_as[24];		/* what the gate counts it as; "" old */
	char control[12];		/* positive | negative | "" */
	char unit[16];			/* of candidate/baseline_value */
	char measured[160];		/* "CPU 1 p99 43 -> 273 us" */
	char since_run[128];		/* a step: the night it began */
};

/* The verdict a row counts as for a gate: counts_as, else the verdict. */
const char *history_verdict_counts(const struct history_verdict_row *v);

int history_verdicts(struct history *h, long long run,
		     struct history_verdict_row **v, size_t *n);

/* --- verdicts against history (stored by compare --history / nightly) --- */

struct history_verdict {
	long long run;			/* the run's row id; 0: by run_id */
	const char *run_id;
	const char *scenario;
	const char *metric;
	const char *verdict;		/* REGRESSION, NO CHANGE, … */
	const char *reason;
	unsigned int baseline_runs;	/* K actually used */
	const char *baseline_ids;	/* comma-separated run ids */
	double candidate;		/* the metric, candidate and baseline */
	double baseline;
	double p_value;			/* <0 unknown */
	const char *prev_run_id;	/* the newest baseline run */
	const char *changed;		/* kernel identity changes since it */
	const char *since_run_id;	/* a step: the night it began, or "" */
};

int history_store_verdict(struct history *h, const struct history_verdict *v);

/* --- judging a run against its history (history_judge.c) --- */

struct history_judge_params {
	unsigned int history;		/* K: baseline runs (default 7) */
	const char *reference;		/* glob on the release, or NULL */
	const char *metric;		/* NULL: the suite's gate metric */
	bool store;			/* write the verdicts to the database */
	const char *intended;		/* settings tonight may differ in
					 * from its nights (an_like_diff());
					 * NULL: none */
};

/* One scenario of a run against the last K runs of it. */
struct history_judgement {
	char scenario[128];
	char verdict[24];		/* an_verdict_name(): REGRESSION, … */
	int exit_code;			/* an_verdict_exit() of it */
	char reason[640];
	char metric[96];
	double cand, base;		/* the deciding line; NAN if none */
	double p_value;
	unsigned int baseline_runs;
	char baseline_ids[1024];	/* newest first, comma-separated */
	/* The changepoint view: what the kernel identity changed since the
	 * newest baseline run ("" when nothing did). */
	char prev_run_id[128];
	char changed[1024];
	/* A step that stays: the night it began ("" when tonight decided
	 * alone, or nothing stepped). */
	char since_run_id[128];
	/* Tonight rose (fell) alone on a line one night cannot decide: held
	 * INCONCLUSIVE, the next night decides. */
	bool held;
	/* "judged at 0.017 of alpha: alpha 0.05 shared by the run's 3
	 * scenarios"; "" when it had all of alpha */
	char level_note[160];
};

/*
 * Judges every measured scenario of stored run @run_id against the last K
 * complete runs of the same suite, host and scenario (on a reference
 * kernel), with the analyzer's an_compare(). *out is malloc'ed.
 */
int history_judge_run(struct history *h, const char *run_id,
		      const struct history_judge_params *p,
		      struct history_judgement **out, size_t *n);
/* The same for the run of @host (NULL: the one run of that id). */
int history_judge_run_host(struct history *h, const char *run_id,
			   const char *host,
			   const struct history_judge_params *p,
			   struct history_judgement **out, size_t *n);

/*
 * The exit code of a run's judgements: the worst of them, and
 * EXIT_INCONCLUSIVE when nothing was judged (every scenario SKIPPED, e.g.
 * no history yet): a gate never passes what it could not see.
 */
int history_judgements_exit(const struct history_judgement *j, size_t n);
/*
 * Adds the --intended (intended =) names @arg to the comma list @list:
 * 0, or -EINVAL when one is no setting (an_like_intended_check()) and
 * @list then says so, for the caller's message.
 */
int history_intended_add(char *list, size_t len, const char *arg);

/*
 * Appends every ok repetition of @scenario of stored run @run to an
 * analyzer side (an_run per repetition, an_cpu per CPU with its histogram
 * of @limit us, the run's -h). Used for baselines and for pooled quantiles.
 */
int history_side_add(struct an_side *side, struct history *h, long long run,
		     const char *run_id, const char *scenario,
		     unsigned int limit);
/* suite.measure.histogram_us of a manifest; 0 when unknown. */
unsigned int history_manifest_limit(const struct cJSON *m);

/* Judges every complete run without a verdict against history (all of
 * them again with @rejudge), storing the verdicts. */
int history_judge_missing(struct history *h,
			  const struct history_judge_params *p, bool rejudge);

/* The whole manifest of a stored run (malloc'ed JSON text). */
int history_run_manifest(struct history *h, long long run, char **text);

/* The database: OPT, else $RTGATE_DB, else $RTGATE_RESULTS_DIR/rtgate.db. */
int history_resolve_db(const char *opt, char *buf, size_t len);

/* `rtgate history ...` */
int history_cmd_history(int argc, char **argv);
int history_cmd_changepoints(int argc, char **argv);
/*
 * `rtgate compare RUN --history`: the run against the history's last K
 * runs. rtgate/main.c routes a compare line with --history (before a --)
 * here, any other to the analyzer's an_cmd_compare, which knows nothing
 * of the history.
 */
int history_cmd_compare_history(int argc, char **argv);

#endif
