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

/**
 * history_default_path() - the default database of a results directory
 * @results_dir: the folder of the runs (results/)
 * @buf: gets RESULTS/rtgate.db
 * @len: its size
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int history_default_path(const char *results_dir, char *buf, size_t len);

/**
 * history_open() - opens a history, creating it when absent
 * @h: filled
 * @path: the database file
 *
 * An older schema is migrated to HISTORY_SCHEMA_VERSION.
 *
 * Return: 0 (close it with history_close()); after a message naming
 * @path: -EIO (cannot be opened), -EINVAL (not an SQLite database),
 * -EPROTO (a newer schema than this rtgate's), -errno of a folder that
 * cannot be trusted or a migration that failed.
 */
int history_open(struct history *h, const char *path);
/**
 * history_open_existing() - opens a history that must exist
 * @h: filled
 * @path: the database file
 *
 * For a command that only reads the history (list, changepoints, the
 * dashboard, compare --history): never an empty database created to
 * answer with nothing.
 *
 * Return: as history_open(); -ENOENT (said) when @path is no file.
 */
int history_open_existing(struct history *h, const char *path);
/**
 * history_open_version() - opens a history, migrating only so far
 * @h: filled
 * @path: the database file
 * @version: the schema version to migrate to at most (tests of the
 *           migrations)
 *
 * Return: as history_open().
 */
int history_open_version(struct history *h, const char *path, int version);
/**
 * history_close() - closes a history
 * @h: opened or not
 */
void history_close(struct history *h);
/**
 * history_schema_version() - the schema version of an open history
 * @h: the history
 *
 * Return: SQLite's user_version, or -EIO when it cannot be read.
 */
int history_schema_version(struct history *h);

/**
 * history_exec() - runs a statement with no result rows
 * @h: the history
 * @sql: BEGIN, COMMIT, …
 *
 * Return: 0, or -EIO after a message naming the database.
 */
int history_exec(struct history *h, const char *sql);

/* --- noise profiles (history_profile.c) --- */

/**
 * history_profile_store() - stores one calibration's noise profile
 * @h: the history
 * @host: the machine it was measured on
 * @pr: the profile; its key names the measurement it holds for
 * @run_id: the calibration's run
 *
 * Calibrations accumulate: history_profile_load() pools every one stored
 * for a host and key, so a machine calibrated on several days knows the
 * noise of all of them.
 *
 * Return: 0, -ENOMEM, or -EIO after a message.
 */
int history_profile_store(struct history *h, const char *host,
			  const struct an_profile *pr, const char *run_id);
/**
 * history_profile_load() - the pooled noise profile of a host
 * @h: the history
 * @host: the machine
 * @key: the measurement (an_profile's key)
 * @out: gets every calibration stored for them, pooled: variances by
 *       their degrees of freedom, bursts and repetitions added; a line
 *       not every calibration had is left out
 *
 * Return: 0 (free @out with an_profile_free()); 1 when there is none;
 * -EINVAL for a stored profile that cannot be read; -EIO.
 */
int history_profile_load(struct history *h, const char *host,
			 const char *key, struct an_profile *out);

/* --- import (history_import.c) --- */

struct history_import_stats {
	unsigned int imported;	/* runs written */
	unsigned int unchanged;	/* already stored with the same status */
	unsigned int failed;	/* results directories that could not be read */
};

/**
 * history_import_run() - imports one results directory
 * @h: the history
 * @run_dir: results/<run-id>/
 * @stats: its counts are raised: imported, unchanged (stored already with
 *         the same content) or failed
 *
 * One transaction, replacing what was stored for that run id; nothing is
 * written when it fails.
 *
 * Return: 0; -EINVAL for a manifest that cannot be read (the message
 * names the file); -ENOMEM, -ENAMETOOLONG, -EIO.
 */
int history_import_run(struct history *h, const char *run_dir,
		       struct history_import_stats *stats);
/**
 * history_record_run() - the runner's: stores a run in its history
 * @run_dir: results/<run-id>/; the history is RUN_DIR/../rtgate.db, or
 *           $RTGATE_DB
 *
 * Call it once the first manifest is written (a run killed later stays
 * visible, incomplete) and again at the end, after the analyzer's report.
 *
 * Return: 0, or -errno after a warning: the run itself is never failed by
 * its history.
 */
int history_record_run(const char *run_dir);

/**
 * history_import_replacing() - imports a run in the place of a
 * placeholder
 * @h: the history
 * @run_dir: results/<run-id>/
 * @token: the placeholder of history_begin_pending(); NULL: none, as
 *         history_import_run()
 * @stats: its counts are raised
 *
 * Return: as history_import_run().
 */
int history_import_replacing(struct history *h, const char *run_dir,
			     const char *token,
			     struct history_import_stats *stats);
/**
 * history_import_path() - imports one run directory or a folder of them
 * @h: the history
 * @path: a run directory (it has manifest.json), or a directory of them,
 *        imported oldest first; those without a manifest are skipped
 * @stats: its counts are raised
 *
 * Return: 0; the first run's error (the others are still imported);
 * -errno when @path cannot be read.
 */
int history_import_path(struct history *h, const char *path,
			struct history_import_stats *stats);

/**
 * history_begin_pending() - stores a run that has started
 * @h: the history
 * @token: names the placeholder (and is its run id until the results
 *         replace it)
 * @suite: the suite it runs
 * @host: where
 * @reason: its status reason until then
 *
 * The nightly records one before each suite: stored as `incomplete`, so
 * that a nightly killed mid-run leaves the run visible and marked
 * incomplete.
 *
 * Return: 0, or -EIO after a message (nothing is stored).
 */
int history_begin_pending(struct history *h, const char *token,
			  const char *suite, const char *host,
			  const char *reason);
/**
 * history_fail_pending() - a placeholder's run never produced results
 * @h: the history
 * @token: the placeholder's
 * @reason: why; it stays incomplete with it
 *
 * Return: 0, or -EIO.
 */
int history_fail_pending(struct history *h, const char *token,
			 const char *reason);
/**
 * history_reap_pending() - ends the placeholders of nightlies that died
 * @h: the history
 * @reason: their status reason; they stay incomplete
 *
 * The caller holds the nightly lock, so their owners are gone.
 *
 * Return: how many, or -EIO.
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

/**
 * history_baseline() - the runs a baseline is built from
 * @h: the history
 * @q: the suite, host and scenario (measured: ok or partial), the
 *     reference kernels, scale, clock, and K
 * @runs: gets the last K complete runs matching @q, newest first (free
 *        it)
 * @n: gets how many: fewer than K, or 0, is not an error
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_baseline(struct history *h, const struct history_baseline_query *q,
		     struct history_run **runs, size_t *n);
/**
 * history_runs() - every stored run, oldest first
 * @h: the history
 * @suite: only this suite's; NULL: all
 * @runs: gets them (free it)
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_runs(struct history *h, const char *suite,
		 struct history_run **runs, size_t *n);
/**
 * history_find_run() - a stored run by its id
 * @h: the history
 * @run_id: the run's id
 * @run: filled
 *
 * Return: 0; -ENOENT when none; -EEXIST (said) when runs of several hosts
 * carry that id (a run is its id on its host); -EIO.
 */
int history_find_run(struct history *h, const char *run_id,
		     struct history_run *run);
/**
 * history_find_run_host() - a stored run by its id and host
 * @h: the history
 * @run_id: the run's id
 * @host: its host; NULL: as history_find_run()
 * @run: filled
 *
 * Return: 0, -ENOENT when none, -EIO.
 */
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

/**
 * history_load_reps() - the repetitions of one scenario of a stored run
 * @h: the history
 * @run: the run's row id
 * @scenario: the scenario's name
 * @reps: gets the ok ones, each with its CPUs (free it with
 *        history_free_reps())
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_load_reps(struct history *h, long long run, const char *scenario,
		      struct history_rep **reps, size_t *n);
/**
 * history_free_reps() - frees loaded repetitions
 * @reps: from history_load_reps()
 * @n: how many
 */
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

/**
 * history_load_metrics() - the workload metrics of a stored scenario
 * @h: the history
 * @run: the run's row id
 * @scenario: the scenario's name
 * @m: gets every metric of its ok repetitions (free it with
 *     history_free_metrics())
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_load_metrics(struct history *h, long long run,
			 const char *scenario, struct history_rep_metric **m,
			 size_t *n);
/**
 * history_free_metrics() - frees loaded metrics
 * @m: from history_load_metrics()
 * @n: how many
 */
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

/**
 * history_series() - a scenario's trend
 * @h: the history
 * @suite: the suite
 * @host: the machine
 * @scenario: the scenario, where it was measured (ok or partial)
 * @pts: gets a point per complete run, oldest first, with the verdict
 *       against history stored for it (free it)
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_series(struct history *h, const char *suite, const char *host,
		   const char *scenario, struct history_point **pts, size_t *n);
/**
 * history_series_steps() - where a series stepped
 * @pts: the series, from history_series()
 * @n: its length
 * @step: gets, for each night i, the index of the night whose verdict
 *        dates a step to night i (a REGRESSION after a night that was
 *        not one: i itself; a step that stays: the night that confirmed
 *        it, and i the night it began, held then), or -1
 */
void history_series_steps(const struct history_point *pts, size_t n,
			  long *step);
/**
 * history_nights_bar() - what the next two nights would have to show to
 * be a step
 * @v: nightly values, oldest first: latencies in us, or a workload metric
 * @n: how many
 * @k: the last @k of them are the nights before the split
 * @level: the one-sided level of history_nights.c's test, one split
 * @min_us: the gate's floor in us (latencies only)
 * @min_pct: the gate's floor in % of the nights' median
 * @us: @v are latencies in us (the resolution joins their scatter)
 * @higher_better: a rise is an improvement: the bar is below
 *
 * Return: the value both nights' mean must pass, and each must pass by
 * the floor from their median; NAN with fewer than 3 nights (or a night
 * without a value).
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
/**
 * history_keys() - every trend the history holds
 * @h: the history
 * @keys: gets the distinct (suite, host, scenario) of complete runs, for
 *        the dashboard (free it)
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int history_keys(struct history *h, struct history_key **keys, size_t *n);

/* The scenarios of a stored run, in suite order. */
struct history_scenario {
	char name[128];
	char compare[128];		/* "" for a baseline */
	char status[16];
	char reason[256];
};

/**
 * history_scenarios() - the scenarios of a stored run, in suite order
 * @h: the history
 * @run: the run's row id
 * @sc: gets them (free it)
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
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

/**
 * history_verdict_counts() - the verdict a row counts as for a gate
 * @v: the row
 *
 * Return: its counts_as (a control's), else its verdict.
 */
const char *history_verdict_counts(const struct history_verdict_row *v);

/**
 * history_verdicts() - every verdict stored for a run
 * @h: the history
 * @run: the run's row id
 * @v: gets the analyzer's and the history's, in the order stored (free
 *     it)
 * @n: gets how many
 *
 * Return: 0, -ENOMEM or -EIO.
 */
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

/**
 * history_store_verdict() - stores a verdict against history
 * @h: the history
 * @v: the verdict, of the run by row id (else by run id); it replaces
 *     the one stored for that run and scenario
 *
 * Return: 0; -ENOENT when no such run is stored; -EIO after a message.
 */
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

/**
 * history_judge_run() - judges a stored run against its history
 * @h: the history
 * @run_id: the run; its id must name one run (history_find_run())
 * @p: K, the reference kernels, the metric, whether to store, intended
 * @out: gets a judgement per measured scenario (free it)
 * @n: gets how many
 *
 * Every measured scenario against the last K complete runs of the same
 * suite, host and scenario (on a reference kernel), with the analyzer's
 * an_compare().
 *
 * Return: 0; -ENOENT (said) when no such run is stored; -EEXIST, -ENOMEM,
 * -EIO.
 */
int history_judge_run(struct history *h, const char *run_id,
		      const struct history_judge_params *p,
		      struct history_judgement **out, size_t *n);
/**
 * history_judge_run_host() - judges a stored run of a host against its
 * history
 * @h: the history
 * @run_id: the run
 * @host: its host; NULL: the one run of that id
 * @p: K, the reference kernels, the metric, whether to store, intended
 * @out: gets a judgement per measured scenario (free it)
 * @n: gets how many
 *
 * Return: as history_judge_run().
 */
int history_judge_run_host(struct history *h, const char *run_id,
			   const char *host,
			   const struct history_judge_params *p,
			   struct history_judgement **out, size_t *n);

/**
 * history_judgements_exit() - the exit code of a run's judgements
 * @j: the judgements
 * @n: how many
 *
 * A gate never passes what it could not see.
 *
 * Return: the worst of their exit codes; at least EXITCODE_INCONCLUSIVE when
 * nothing was judged (every scenario SKIPPED, e.g. no history yet).
 */
int history_judgements_exit(const struct history_judgement *j, size_t n);
/**
 * history_night_family() - how many comparisons a stored night shares
 * alpha among
 * @h: the history
 * @run: the night's row id
 * @family: gets the family history_judge_run() judged the night's
 *          scenarios in: its scenarios measured (ok or partial), each one
 *          comparison, controls left out (an_family()); at least 1
 *
 * What the night's judgement, `compare --history` and the dashboard's
 * "what the next night would have to show" share alpha among.
 *
 * Return: 0; -ENOENT when no such run is stored; -ENOMEM, -EIO.
 */
int history_night_family(struct history *h, long long run, size_t *family);
/**
 * history_side_add() - appends a stored scenario's repetitions to a side
 * @side: the analyzer's side; an an_run per ok repetition, labelled
 *        RUN_ID/REP, an an_cpu per CPU, and the workload metrics
 * @h: the history
 * @run: the run's row id
 * @run_id: its id, for the labels
 * @scenario: the scenario
 * @limit: the histograms' size in us (the run's -h)
 *
 * Used for baselines and for pooled quantiles.
 *
 * Return: 0, -ENOMEM, -EINVAL for a stored histogram that cannot be read,
 * -EIO.
 */
int history_side_add(struct an_side *side, struct history *h, long long run,
		     const char *run_id, const char *scenario,
		     unsigned int limit);
/**
 * history_manifest_limit() - the histogram's size a run measured with
 * @m: its manifest
 *
 * Return: suite.measure.histogram_us; 0 when unknown.
 */
unsigned int history_manifest_limit(const struct cJSON *m);

/**
 * history_judge_missing() - judges every run that has no verdict against
 * history
 * @h: the history
 * @p: how (its store is what keeps the verdicts)
 * @rejudge: drop every verdict against history first: judge them all
 *
 * Return: 0, or the first error of history_judge_run_host().
 */
int history_judge_missing(struct history *h,
			  const struct history_judge_params *p, bool rejudge);

/**
 * history_run_manifest() - the whole manifest of a stored run
 * @h: the history
 * @run: the run's row id
 * @text: gets its JSON text (free it)
 *
 * Return: 0, -ENOENT when no such run, -ENOMEM, -EIO.
 */
int history_run_manifest(struct history *h, long long run, char **text);

/**
 * history_resolve_db() - which database a command uses
 * @opt: --db; NULL: none given
 * @buf: gets @opt, else $RTGATE_DB, else $RTGATE_RESULTS_DIR/rtgate.db
 *       (results/rtgate.db), its folder created
 * @len: its size
 *
 * Return: 0, -ENAMETOOLONG, or -errno when the folder cannot be made.
 */
int history_resolve_db(const char *opt, char *buf, size_t len);

/**
 * history_cmd_history() - `rtgate history import|list|changepoints`
 * @argc: the number of arguments
 * @argv: "history", a subcommand and its arguments (docs/nightly.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int history_cmd_history(int argc, char **argv);
/**
 * history_cmd_changepoints() - `rtgate history changepoints`
 * @argc: the number of arguments
 * @argv: "changepoints" and its options
 *
 * Every night against the nights before it: where a metric stepped, and
 * what changed.
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int history_cmd_changepoints(int argc, char **argv);
/**
 * history_cmd_compare_history() - `rtgate compare RUN --history`
 * @argc: the number of arguments
 * @argv: "compare", the run and its options
 *
 * The run against the history's last K runs. rtgate/main.c routes a
 * compare line with --history (before a --) here, any other to the
 * analyzer's an_cmd_compare(), which knows nothing of the history.
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int history_cmd_compare_history(int argc, char **argv);

#endif
