// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history store: round trip of recorded runs, migrations, pending runs,
 * and bad input that must leave the database unchanged.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "fsio.h"
#include "history/history.h"
#include "log.h"

#define REC "tests/fixtures/nightly/recorded"
#define RUN1 "20261130-195359-quick"
#define RUN2 "20261130-195420-quick"

struct fx {
	char dir[64];
	char db[128];
	struct history h;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/rtgate-hist.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->db, sizeof(f->db), "%s/rtgate.db", f->dir);
	log_set_level(LOG_LEVEL_ERR);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[160];

	history_close(&f->h);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static long long count(struct history *h, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int integrity_ok(struct history *h)
{
	sqlite3_stmt *st;
	int ok = 0;

	if (sqlite3_prepare_v2(h->db, "PRAGMA integrity_check", -1, &st, NULL))
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		ok = !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	return ok;
}

static void test_round_trip(void **state)
{
	struct history_import_stats stats = { 0 };
	struct fx *f = *state;
	struct history_scenario *sc;
	struct history_rep *reps;
	struct history_run run;
	size_t n, ns;

	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_schema_version(&f->h), HISTORY_SCHEMA_VERSION);
	assert_int_equal(history_import_path(&f->h, REC, &stats), 0);
	assert_int_equal(stats.imported, 7);
	assert_int_equal(stats.failed, 0);

	assert_int_equal(history_find_run(&f->h, RUN1, &run), 0);
	assert_string_equal(run.suite, "quick");
	assert_string_equal(run.status, "complete");
	assert_int_equal(history_scenarios(&f->h, run.id, &sc, &ns), 0);
	assert_int_equal(ns, 2);
	assert_string_equal(sc[0].name, "idle");
	assert_string_equal(sc[1].compare, "idle");
	free(sc);

	/* What cyclictest.json said is what comes back: max, cycles, hist. */
	assert_int_equal(history_load_reps(&f->h, run.id, "idle", &reps, &n),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(reps[0].nr_cpus, 2);
	assert_true(reps[0].cpus[0].max_us == 502.0);
	assert_true(reps[0].cpus[0].cycles == 9999);
	assert_int_equal(reps[0].cpus[0].overflows, 0);
	assert_non_null(strstr(reps[0].cpus[0].histogram, "\"14\":"));
	history_free_reps(reps, n);

	/* Importing again changes nothing. */
	memset(&stats, 0, sizeof(stats));
	assert_int_equal(history_import_path(&f->h, REC "/" RUN1, &stats), 0);
	assert_int_equal(stats.unchanged, 1);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM runs"), 7);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM cpu_metrics"),
			 7 * 2 * 2 * 2);

	/* A changed run is replaced; its verdict against history stays. */
	{
		struct history_verdict v = {
			.run_id = RUN1, .scenario = "idle", .metric = "max",
			.verdict = "NO CHANGE", .p_value = -1,
		};

		assert_int_equal(history_store_verdict(&f->h, &v), 0);
		assert_int_equal(history_exec(&f->h, "UPDATE runs SET status ="
					      " 'incomplete' WHERE run_id = '"
					      RUN1 "'"), 0);
		memset(&stats, 0, sizeof(stats));
		assert_int_equal(history_import_path(&f->h, REC "/" RUN1,
						     &stats), 0);
		assert_int_equal(stats.imported, 1);
		assert_int_equal(history_find_run(&f->h, RUN1, &run), 0);
		assert_string_equal(run.status, "complete");
		assert_int_equal(count(&f->h, "SELECT count(*) FROM verdicts"),
				 1);
		assert_int_equal(count(&f->h, "SELECT count(*) FROM "
				       "cpu_metrics"), 7 * 2 * 2 * 2);
	}
	history_close(&f->h);

	/* And it is all still there after a reopen. */
	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM reps"), 7 * 4);
	assert_true(integrity_ok(&f->h));
}

static void test_baseline_query(void **state)
{
	struct history_import_stats stats = { 0 };
	struct history_baseline_query q = {
		.suite = "quick", .host = "vm", .scenario = "idle",
		.limit = 3,
	};
	struct fx *f = *state;
	struct history_run *runs, last;
	size_t n;

	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_import_path(&f->h, REC, &stats), 0);
	assert_int_equal(history_find_run(&f->h, "20261130-195603-quick",
					  &last), 0);
	q.before = last.start_time;
	q.exclude_run_id = last.run_id;
	assert_int_equal(history_baseline(&f->h, &q, &runs, &n), 0);
	assert_int_equal(n, 3);
	/* Newest first, and never the candidate. */
	assert_string_equal(runs[0].run_id, "20261130-195542-quick");
	assert_string_equal(runs[2].run_id, "20261130-195501-quick");
	free(runs);

	/* An incomplete run is never a baseline. */
	assert_int_equal(history_exec(&f->h, "UPDATE runs SET status = "
				      "'incomplete' WHERE run_id = "
				      "'20261130-195542-quick'"), 0);
	assert_int_equal(history_baseline(&f->h, &q, &runs, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(runs[0].run_id, "20261130-195522-quick");
	free(runs);

	/* Reference kernels by glob; none matches this one. */
	q.reference = "6.1.*-rt*";
	assert_int_equal(history_baseline(&f->h, &q, &runs, &n), 0);
	assert_int_equal(n, 0);
	free(runs);
	q.reference = "6.18.*";
	q.scenario = "no-such-scenario";
	assert_int_equal(history_baseline(&f->h, &q, &runs, &n), 0);
	assert_int_equal(n, 0);
	free(runs);
}

static void test_migration(void **state)
{
	struct history_verdict v = {
		.run_id = "old-run", .scenario = "idle", .verdict = "NO CHANGE",
		.metric = "max", .p_value = -1,
	};
	struct fx *f = *state;

	/* A version-1 database with a run in it, as an old rtgate left it. */
	assert_int_equal(history_open_version(&f->h, f->db, 1), 0);
	assert_int_equal(history_schema_version(&f->h), 1);
	assert_int_equal(history_exec(&f->h, "INSERT INTO runs (run_id, suite,"
				      " host, status, imported_at) VALUES "
				      "('old-run', 'quick', 'vm', 'complete',"
				      " '2026-01-01T00:00:00Z')"), 0);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM sqlite_master "
			       "WHERE name = 'verdicts'"), 0);
	history_close(&f->h);

	/* Opening it migrates to the current version, keeping the data. */
	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_schema_version(&f->h), HISTORY_SCHEMA_VERSION);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM runs WHERE "
			       "run_id = 'old-run'"), 1);
	assert_int_equal(history_store_verdict(&f->h, &v), 0);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM verdicts"), 1);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM runs WHERE "
			       "report IS NULL"), 1);
	history_close(&f->h);

	/* A database from a newer rtgate is refused, not damaged. */
	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_exec(&f->h, "PRAGMA user_version = 99"), 0);
	history_close(&f->h);
	assert_int_equal(history_open(&f->h, f->db), -EPROTO);
	assert_null(f->h.db);
}

static void test_pending(void **state)
{
	struct history_import_stats stats = { 0 };
	struct fx *f = *state;
	struct history_run run;

	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_begin_pending(&f->h, "tok1", "quick", "vm",
					       "running"), 0);
	assert_int_equal(history_find_run(&f->h, "tok1", &run), 0);
	assert_string_equal(run.status, "incomplete");

	/* The real run replaces the placeholder in one transaction. */
	assert_int_equal(history_import_replacing(&f->h, REC "/" RUN1, "tok1",
						  &stats), 0);
	assert_int_equal(history_find_run(&f->h, "tok1", &run), -ENOENT);
	assert_int_equal(history_find_run(&f->h, RUN1, &run), 0);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM pending"), 0);

	/* A nightly that died: its placeholder stays, incomplete. */
	assert_int_equal(history_begin_pending(&f->h, "tok2", "quick", "vm",
					       "running"), 0);
	assert_int_equal(history_reap_pending(&f->h, "killed"), 1);
	assert_int_equal(history_find_run(&f->h, "tok2", &run), 0);
	assert_string_equal(run.status, "incomplete");
	assert_string_equal(run.status_reason, "killed");
	assert_int_equal(history_reap_pending(&f->h, "killed"), 0);
}

static void test_record_run(void **state)
{
	struct fx *f = *state;
	struct history_run run;
	char cmd[300], dir[200];

	/* The runner's one call: the history beside the run directory. */
	snprintf(dir, sizeof(dir), "%s/" RUN2, f->dir);
	snprintf(cmd, sizeof(cmd), "cp -r " REC "/" RUN2 " '%s'", dir);
	assert_int_equal(system(cmd), 0);
	unsetenv("RTGATE_DB");
	assert_int_equal(history_record_run(dir), 0);
	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_find_run(&f->h, RUN2, &run), 0);
	assert_string_equal(run.status, "complete");
}

static void test_bad_input(void **state)
{
	struct history_import_stats stats = { 0 };
	struct fx *f = *state;
	char dir[200], path[260];
	static const char bad[] = "{ \"schema\": \"rtgate-manifest/1\", "
				  "\"run_id\": \"x\", \"status\": \"fine\", "
				  "\"suite\": {\"name\": \"q\"}, \"host\": "
				  "{\"hostname\": \"h\"} }\n";

	assert_int_equal(history_open(&f->h, f->db), 0);
	snprintf(dir, sizeof(dir), "%s/badrun", f->dir);
	assert_int_equal(fsio_mkdir_p(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	assert_int_equal(fsio_write_atomic(path, bad, strlen(bad)), 0);
	assert_int_equal(history_import_run(&f->h, dir, &stats), -EINVAL);
	assert_int_equal(stats.failed, 1);
	/* Truncated JSON: refused too. */
	assert_int_equal(fsio_write_atomic(path, bad, 40), 0);
	assert_int_equal(history_import_run(&f->h, dir, &stats), -EINVAL);
	assert_int_equal(count(&f->h, "SELECT count(*) FROM runs"), 0);
}

/*
 * Two runs under one id and host (two lab guests, each "(none)" to
 * itself, that started one suite in the same second): the second is
 * refused and the first stays as it was, never swapped for the other.
 */
static void test_id_collision(void **state)
{
	struct history_import_stats stats = { 0 };
	struct fx *f = *state;
	struct history_run run;
	char cmd[1024], other[160];

	assert_int_equal(history_open(&f->h, f->db), 0);
	assert_int_equal(history_import_path(&f->h, REC "/" RUN1, &stats), 0);
	snprintf(other, sizeof(other), "%s/" RUN1, f->dir);
	snprintf(cmd, sizeof(cmd), "cp -r " REC "/" RUN1 " '%s' && sed -i "
		 "'s/\"release\": *\"[^\"]*\"/\"release\": \"9.9.9-other\"/' "
		 "'%s/manifest.json' && grep -q 9.9.9-other '%s/manifest.json'",
		 other, other, other);
	assert_int_equal(system(cmd), 0);
	memset(&stats, 0, sizeof(stats));
	assert_int_equal(history_import_run(&f->h, other, &stats), -EEXIST);
	assert_int_equal(stats.failed, 1);
	assert_int_equal(stats.imported, 0);
	assert_int_equal(history_find_run(&f->h, RUN1, &run), 0);
	assert_string_not_equal(run.kernel_release, "9.9.9-other");
	assert_int_equal(count(&f->h, "SELECT count(*) FROM runs"), 1);
	/* The same run again is still news when it changed. */
	assert_int_equal(history_exec(&f->h, "UPDATE runs SET status ="
				      " 'incomplete'"), 0);
	memset(&stats, 0, sizeof(stats));
	assert_int_equal(history_import_path(&f->h, REC "/" RUN1, &stats), 0);
	assert_int_equal(stats.imported, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_baseline_query, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_migration, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_id_collision, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
