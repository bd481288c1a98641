// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening the history database: journal mode, busy timeout, and the
 * schema migrations. The schema version is SQLite's user_version; each
 * migration moves the database one version up inside a transaction, so a
 * migration interrupted half-way leaves the old version intact.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>

#include "fsio.h"
#include "history.h"
#include "history_priv.h"
#include "log.h"

/*
 * The columns of runs between run_id and imported_at as version 1 made
 * them; version 6 rebuilds the table with the same ones. Part of two
 * released migrations: never edit it either.
 */
#define RUNS_V1_COLUMNS \
	"  suite TEXT NOT NULL," \
	"  suite_sha256 TEXT," \
	"  host TEXT NOT NULL," \
	"  cpu_model TEXT," \
	"  cpus INTEGER," \
	"  kernel_release TEXT," \
	"  kernel_version TEXT," \
	"  kernel_machine TEXT," \
	"  kernel_cmdline TEXT," \
	"  preempt_model TEXT," \
	"  preempt_rt INTEGER," \
	"  config_sha256 TEXT," \
	"  rtgate_version TEXT," \
	"  rt_tests_version TEXT," \
	"  start_time TEXT," \
	"  end_time TEXT," \
	"  status TEXT NOT NULL CHECK (status IN" \
	"    ('complete', 'incomplete', 'aborted'))," \
	"  status_reason TEXT," \
	"  duration_scale REAL," \
	"  results_dir TEXT," \
	"  manifest TEXT,"

/*
 * Version 1: runs, scenarios, repetitions, per-CPU metrics, workloads.
 * Version 2: verdicts (run-internal and against history), and the run's
 * report path, so the dashboard can link each point to its report.
 * Version 3: what a run's verdict counts as for the gate (a flagged
 * positive control passes), its control kind, and the deciding line's
 * unit and words, so the exports tell the analyzer's story.
 * Version 4: noise profiles (rtgate calibrate), per host and measurement.
 * Version 5: the night a step that stays began.
 * Version 6: a run is keyed by its run id and its host (two hosts' runs
 * of one id never collide), and the SHA-256 of the report.json it was
 * imported with (a run judged again is imported again).
 * Never edit a released migration: add the next one.
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id TEXT NOT NULL UNIQUE,"
	RUNS_V1_COLUMNS
	"  imported_at TEXT NOT NULL);"
	"CREATE INDEX runs_lookup ON runs (suite, host, status, start_time);"
	"CREATE TABLE scenarios ("
	"  id INTEGER PRIMARY KEY,"
	"  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  compare TEXT,"
	"  status TEXT,"
	"  reason TEXT,"
	"  UNIQUE (run, name));"
	"CREATE TABLE reps ("
	"  id INTEGER PRIMARY KEY,"
	"  scenario INTEGER NOT NULL REFERENCES scenarios (id)"
	"    ON DELETE CASCADE,"
	"  rep INTEGER NOT NULL,"
	"  status TEXT,"
	"  reason TEXT,"
	"  start_time TEXT,"
	"  end_time TEXT,"
	"  UNIQUE (scenario, rep));"
	"CREATE TABLE cpu_metrics ("
	"  rep INTEGER NOT NULL REFERENCES reps (id) ON DELETE CASCADE,"
	"  cpu INTEGER NOT NULL,"
	"  cycles INTEGER,"
	"  overflows INTEGER,"
	"  min_us REAL, avg_us REAL, max_us REAL,"
	"  p50_us REAL, p99_us REAL, p999_us REAL, p9999_us REAL,"
	"  p99999_us REAL,"
	"  histogram TEXT,"
	"  PRIMARY KEY (rep, cpu));"
	"CREATE TABLE workloads ("
	"  rep INTEGER NOT NULL REFERENCES reps (id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  summary TEXT,"
	"  PRIMARY KEY (rep, name));"
	"CREATE TABLE pending ("
	"  token TEXT PRIMARY KEY,"
	"  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE);",
	/* 1 -> 2 */
	"ALTER TABLE runs ADD COLUMN report TEXT;"
	"CREATE TABLE verdicts ("
	"  id INTEGER PRIMARY KEY,"
	"  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	"  scenario TEXT NOT NULL,"
	"  source TEXT NOT NULL CHECK (source IN ('run', 'history')),"
	"  baseline TEXT,"
	"  baseline_runs INTEGER,"
	"  metric TEXT,"
	"  verdict TEXT NOT NULL,"
	"  reason TEXT,"
	"  candidate REAL,"
	"  baseline_value REAL,"
	"  p_value REAL,"
	"  prev_run TEXT,"
	"  changed TEXT,"
	"  UNIQUE (run, scenario, source));",
	/* 2 -> 3 */
	"ALTER TABLE verdicts ADD COLUMN counts_as TEXT;"
	"ALTER TABLE verdicts ADD COLUMN control TEXT;"
	"ALTER TABLE verdicts ADD COLUMN unit TEXT;"
	"ALTER TABLE verdicts ADD COLUMN measured TEXT;",
	/* 3 -> 4 */
	"CREATE TABLE noise_profiles ("
	"  id INTEGER PRIMARY KEY,"
	"  host TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  created TEXT NOT NULL,"
	"  repetitions INTEGER NOT NULL,"
	"  run_id TEXT,"
	"  profile TEXT NOT NULL);"
	"CREATE INDEX noise_profiles_key ON noise_profiles (host, key);",
	/* 4 -> 5: a step that stays is dated to the night it began */
	"ALTER TABLE verdicts ADD COLUMN since_run TEXT;",
	/*
	 * 5 -> 6: UNIQUE (run_id, host), and report_sha256. SQLite changes
	 * a table's constraints only by rebuilding it (with foreign keys
	 * off: history_open_version()); the row ids, and so every child
	 * row, stay.
	 */
	"CREATE TABLE runs_new ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id TEXT NOT NULL,"
	RUNS_V1_COLUMNS
	"  imported_at TEXT NOT NULL,"
	"  report TEXT,"
	"  report_sha256 TEXT,"
	"  UNIQUE (run_id, host));"
	"INSERT INTO runs_new (id, run_id, suite, suite_sha256, host,"
	"  cpu_model, cpus, kernel_release, kernel_version, kernel_machine,"
	"  kernel_cmdline, preempt_model, preempt_rt, config_sha256,"
	"  rtgate_version, rt_tests_version, start_time, end_time, status,"
	"  status_reason, duration_scale, results_dir, manifest, imported_at,"
	"  report)"
	" SELECT id, run_id, suite, suite_sha256, host, cpu_model, cpus,"
	"  kernel_release, kernel_version, kernel_machine, kernel_cmdline,"
	"  preempt_model, preempt_rt, config_sha256, rtgate_version,"
	"  rt_tests_version, start_time, end_time, status, status_reason,"
	"  duration_scale, results_dir, manifest, imported_at, report"
	" FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_new RENAME TO runs;"
	"CREATE INDEX runs_lookup ON runs (suite, host, status, start_time);",
};

#define NR_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

_Static_assert(NR_MIGRATIONS == HISTORY_SCHEMA_VERSION,
	       "one migration per schema version");

int history_default_path(const char *results_dir, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/rtgate.db", results_dir) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int history_exec(struct history *h, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(h->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	pr_err("%s: %s", h->path, msg ? msg : sqlite3_errmsg(h->db));
	sqlite3_free(msg);
	return -EIO;
}

int history_prepare(struct history *h, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
	return -EIO;
}

void history_col(sqlite3_stmt *st, int col, char *buf, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	snprintf(buf, len, "%s", s ? (const char *)s : "");
}

int history_exec_bound(struct history *h, const char *sql, const char *arg)
{
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return ret;
}

int history_resolve_db(const char *opt, char *buf, size_t len)
{
	const char *env = getenv("RTGATE_DB");
	const char *res = getenv("RTGATE_RESULTS_DIR");

	if (opt || (env && *env))
		return snprintf(buf, len, "%s", opt ? opt : env) >= (int)len ?
		       -ENAMETOOLONG : 0;
	if (!res || !*res)
		res = "results";
	if (fsio_mkdir_p(res, 0755))
		return -errno;
	return history_default_path(res, buf, len);
}

int history_schema_version(struct history *h)
{
	sqlite3_stmt *st;
	int v = -EIO;

	if (sqlite3_prepare_v2(h->db, "PRAGMA user_version", -1, &st, NULL))
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* One migration, all or nothing: BEGIN IMMEDIATE also serializes openers. */
static int migrate_one(struct history *h, int to)
{
	char sql[64];
	int ret, cur;

	ret = history_exec(h, "BEGIN IMMEDIATE");
	if (ret)
		return ret;
	/* Another process may have migrated while we waited for the lock. */
	cur = history_schema_version(h);
	if (cur < 0) {
		ret = cur;
		goto rollback;
	}
	if (cur >= to)
		return history_exec(h, "COMMIT");
	ret = history_exec(h, migrations[to - 1]);
	if (ret)
		goto rollback;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", to);
	ret = history_exec(h, sql);
	if (ret)
		goto rollback;
	return history_exec(h, "COMMIT");
rollback:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* PRAGMA foreign_key_check: 0 when no row points at a missing parent. */
static int fk_check(struct history *h)
{
	sqlite3_stmt *st;
	int rc;

	if (history_prepare(h, "PRAGMA foreign_key_check", &st))
		return -EIO;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	pr_err("%s: a migration left rows without their parent", h->path);
	return -EIO;
}

#define BUSY_TIMEOUT_MS	60000

/*
 * WAL: readers (the dashboard) never block the nightly's writes, and a
 * writer killed mid-transaction leaves the last commit intact.
 *
 * Switching a database to WAL takes a read lock, then the write lock to
 * change its header. When another process holds the write lock meanwhile
 * (the other of two imports creating the same new database, each
 * switching it), SQLite returns SQLITE_BUSY at once without calling the
 * busy handler, since waiting with a read lock held could deadlock. So
 * retry the whole statement, which starts with no lock, until the other
 * is done.
 */
static int set_wal(struct history *h)
{
	unsigned int waited_ms = 0, step_ms;
	char *msg = NULL;
	int rc;

	for (;;) {
		rc = sqlite3_exec(h->db, "PRAGMA journal_mode = WAL", NULL,
				  NULL, &msg);
		if (rc != SQLITE_BUSY || waited_ms >= BUSY_TIMEOUT_MS)
			break;
		sqlite3_free(msg);
		msg = NULL;
		/* 5-20 ms: two that collided should not collide again. */
		step_ms = 5 + (unsigned int)(getpid() + waited_ms) % 16;
		usleep(step_ms * 1000);
		waited_ms += step_ms;
	}
	if (rc == SQLITE_OK)
		return 0;
	pr_err("%s: %s", h->path, msg ? msg : sqlite3_errmsg(h->db));
	sqlite3_free(msg);
	return -EIO;
}

static int configure(struct history *h)
{
	int ret;

	/* Two writers wait for each other instead of failing at once. */
	sqlite3_busy_timeout(h->db, BUSY_TIMEOUT_MS);
	ret = history_exec(h, "PRAGMA foreign_keys = ON");
	if (ret)
		return ret;
	ret = set_wal(h);
	if (ret)
		return ret;
	return history_exec(h, "PRAGMA synchronous = NORMAL");
}

/*
 * The database, its journal and WAL live in one directory: one that
 * nobody else could change (fsio_dir_trusted), and the file no symlink
 * (SQLITE_OPEN_NOFOLLOW).
 */
static int db_dir_trusted(const char *path)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	ret = fsio_dir_trusted(dirname(dir), why, sizeof(why));
	if (ret == -EPERM) {
		pr_err("%s: %s: the history database is written only where "
		       "nobody else could plant a path (docs/runner.md, --out)",
		       path, why);
		return ret;
	}
	/* A directory that is not there: sqlite says so. */
	return 0;
}

int history_open_version(struct history *h, const char *path, int version)
{
	int ret, v;

	memset(h, 0, sizeof(*h));
	snprintf(h->path, sizeof(h->path), "%s", path);
	ret = db_dir_trusted(path);
	if (ret)
		goto fail;
	if (sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX |
			    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		pr_err("%s: cannot open the history database: %s", path,
		       h->db ? sqlite3_errmsg(h->db) : "out of memory");
		ret = -EIO;
		goto fail;
	}
	ret = configure(h);
	if (ret)
		goto fail;
	v = history_schema_version(h);
	if (v < 0) {
		pr_err("%s: not an SQLite database (or unreadable)", path);
		ret = -EINVAL;
		goto fail;
	}
	if (v > HISTORY_SCHEMA_VERSION) {
		pr_err("%s: schema version %d is newer than this rtgate's (%d);"
		       " upgrade rtgate", path, v, HISTORY_SCHEMA_VERSION);
		ret = -EPROTO;
		goto fail;
	}
	/*
	 * A migration that rebuilds a table (6) runs with foreign keys off,
	 * as SQLite prescribes (a dropped parent would take its children),
	 * and is checked after: no child row may have lost its parent.
	 */
	if (v < version && v < HISTORY_SCHEMA_VERSION) {
		ret = history_exec(h, "PRAGMA foreign_keys = OFF");
		for (v = v + 1; !ret && v <= version &&
		     v <= HISTORY_SCHEMA_VERSION; v++) {
			ret = migrate_one(h, v);
			if (ret)
				pr_err("%s: migration to schema version %d "
				       "failed", path, v);
		}
		if (!ret)
			ret = fk_check(h);
		if (history_exec(h, "PRAGMA foreign_keys = ON") && !ret)
			ret = -EIO;
		if (ret)
			goto fail;
	}
	return 0;
fail:
	history_close(h);
	return ret;
}

int history_open_existing(struct history *h, const char *path)
{
	struct stat st;

	memset(h, 0, sizeof(*h));
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		pr_err("%s: %s: a command that reads the history never "
		       "creates one (`rtgate history import` does)", path,
		       errno == ENOENT ? "no history database there" :
		       "not a history database (not a regular file)");
		return -ENOENT;
	}
	return history_open(h, path);
}

int history_open(struct history *h, const char *path)
{
	return history_open_version(h, path, HISTORY_SCHEMA_VERSION);
}

void history_close(struct history *h)
{
	if (h->db)
		sqlite3_close(h->db);
	h->db = NULL;
}
