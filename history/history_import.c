// SPDX-License-Identifier: GPL-2.0-only
/*
 * Results directory -> history database. Everything one run contributes
 * is written in one transaction: the database holds a run whole or not at
 * all, whatever happens to the importing process.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "analyze/analyze.h"
#include "fsio.h"
#include "history.h"
#include "history_priv.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "sha256.h"
#include "timefmt.h"

/* Binds a manifest string, or NULL when absent: fields are never invented. */
static void bind_str(sqlite3_stmt *st, int i, const cJSON *obj, const char *key)
{
	const char *s = json_get_str(obj, key, NULL);

	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (cJSON_IsNumber(v))
		sqlite3_bind_double(st, i, v->valuedouble);
	else if (cJSON_IsBool(v))
		sqlite3_bind_int(st, i, cJSON_IsTrue(v));
	else
		sqlite3_bind_null(st, i);
}

/*
 * Runs a prepared INSERT and finalizes it; *id (when id is not NULL) is
 * the new row's id. Returns 0, or -EIO after printing SQLite's error.
 */
static int insert_step(struct history *h, sqlite3_stmt *st, long long *id)
{
	int ret = 0;

	if (sqlite3_step(st) != SQLITE_DONE) {
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
		ret = -EIO;
	}
	if (id)
		*id = sqlite3_last_insert_rowid(h->db);
	sqlite3_finalize(st);
	return ret;
}

static int insert_run(struct history *h, const char *run_dir,
		      const cJSON *m, const char *text, const char *report_sha,
		      long long *id)
{
	static const char sql[] =
		"INSERT INTO runs (run_id, suite, suite_sha256, host, cpu_model,"
		" cpus, kernel_release, kernel_version, kernel_machine,"
		" kernel_cmdline, preempt_model, preempt_rt, config_sha256,"
		" rtgate_version, rt_tests_version, start_time, end_time,"
		" status, status_reason, duration_scale, results_dir, manifest,"
		" imported_at, report, report_sha256)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
		" ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,"
		" ?25)"
		/*
		 * A run stored before keeps its row, and so its verdicts; a
		 * run is its id on its host: another host's is another run.
		 */
		" ON CONFLICT (run_id, host) DO UPDATE SET suite = excluded.suite,"
		" suite_sha256 = excluded.suite_sha256,"
		" cpu_model = excluded.cpu_model, cpus = excluded.cpus,"
		" kernel_release = excluded.kernel_release,"
		" kernel_version = excluded.kernel_version,"
		" kernel_machine = excluded.kernel_machine,"
		" kernel_cmdline = excluded.kernel_cmdline,"
		" preempt_model = excluded.preempt_model,"
		" preempt_rt = excluded.preempt_rt,"
		" config_sha256 = excluded.config_sha256,"
		" rtgate_version = excluded.rtgate_version,"
		" rt_tests_version = excluded.rt_tests_version,"
		" start_time = excluded.start_time, end_time = excluded.end_time,"
		" status = excluded.status, status_reason = excluded.status_reason,"
		" duration_scale = excluded.duration_scale,"
		" results_dir = excluded.results_dir, manifest = excluded.manifest,"
		" imported_at = excluded.imported_at, report = excluded.report,"
		" report_sha256 = excluded.report_sha256";
	const cJSON *suite = cJSON_GetObjectItem(m, "suite");
	const cJSON *host = cJSON_GetObjectItem(m, "host");
	const cJSON *kernel = cJSON_GetObjectItem(m, "kernel");
	const cJSON *tools = cJSON_GetObjectItem(m, "tools");
	char abs[PATH_MAX], report[PATH_MAX + 16], now[32];
	sqlite3_stmt *st;
	int ret = 0;

	if (!realpath(run_dir, abs))
		snprintf(abs, sizeof(abs), "%s", run_dir);
	/* The report the analyzer wrote (report.json with it), if any. */
	snprintf(report, sizeof(report), "%s/report.html", abs);
	timefmt_iso8601_now(now, sizeof(now));
	if (history_prepare(h, sql, &st))
		return -EIO;
	bind_str(st, 1, m, "run_id");
	bind_str(st, 2, suite, "name");
	bind_str(st, 3, suite, "sha256");
	bind_str(st, 4, host, "hostname");
	bind_str(st, 5, host, "cpu_model");
	bind_num(st, 6, host, "cpus_online");
	bind_str(st, 7, kernel, "release");
	bind_str(st, 8, kernel, "version");
	bind_str(st, 9, kernel, "machine");
	bind_str(st, 10, kernel, "cmdline");
	bind_str(st, 11, kernel, "preempt_model");
	bind_num(st, 12, kernel, "preempt_rt");
	bind_str(st, 13, kernel, "config_sha256");
	bind_str(st, 14, m, "rtgate_version");
	bind_str(st, 15, tools, "cyclictest");
	bind_str(st, 16, m, "start_time");
	bind_str(st, 17, m, "end_time");
	bind_str(st, 18, m, "status");
	bind_str(st, 19, m, "status_reason");
	bind_num(st, 20, suite, "duration_scale");
	sqlite3_bind_text(st, 21, abs, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 22, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 23, now, -1, SQLITE_TRANSIENT);
	if (fsio_exists(report))
		sqlite3_bind_text(st, 24, report, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 24);
	if (*report_sha)
		sqlite3_bind_text(st, 25, report_sha, -1, SQLITE_TRANSIENT);
	ret = insert_step(h, st, NULL);
	if (ret)
		return ret;
	if (history_prepare(h, "SELECT id FROM runs WHERE run_id = ?1 AND"
			    " host = ?2", &st))
		return -EIO;
	bind_str(st, 1, m, "run_id");
	bind_str(st, 2, host, "hostname");
	ret = sqlite3_step(st) == SQLITE_ROW ? 0 : -EIO;
	*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return ret;
}

/*
 * One thread of cyclictest's --json output. Overflows are the samples
 * above the -h limit: cycles minus the histogram's sum.
 */
/*
 * The quantiles of one thread, by the analyzer's own an_cpu_quantile()
 * (beyond the histogram it gives the limit: stored as such, a lower bound).
 */
static void bind_quantiles(sqlite3_stmt *st, int first, const char *hist,
			   long long cycles, unsigned int limit)
{
	static const double q[] = { 0.5, 0.99, 0.999, 0.9999, 0.99999 };
	struct an_cpu c = { .cycles = cycles > 0 ? cycles : 0 };
	uint64_t *buckets;
	size_t n, i;
	bool ge;

	if (!hist || !limit || cycles <= 0 ||
	    history_hist_parse(hist, limit, &buckets, &n))
		return;
	if (!an_cpu_set_hist(&c, buckets, n, limit))
		for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
			sqlite3_bind_double(st, first + i,
					    an_cpu_quantile(&c, q[i], &ge));
	an_cpu_release(&c);
	free(buckets);
}

static int insert_cpu(struct history *h, long long rep, const cJSON *thr,
		      const char *name, unsigned int limit)
{
	static const char sql[] =
		"INSERT INTO cpu_metrics (rep, cpu, cycles, overflows, min_us,"
		" avg_us, max_us, histogram, p50_us, p99_us, p999_us,"
		" p9999_us, p99999_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
		" ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
	const cJSON *hist = cJSON_GetObjectItem(thr, "histogram");
	const cJSON *b;
	long long cycles = (long long)json_get_num(thr, "cycles", -1);
	long long sum = 0;
	double cpu = json_get_num(thr, "cpu", -1);
	sqlite3_stmt *st;
	char *text;
	int ret = 0;

	cJSON_ArrayForEach(b, hist)
		sum += (long long)b->valuedouble;
	if (cpu < 0)
		cpu = strtol(name, NULL, 10);
	text = hist ? cJSON_PrintUnformatted(hist) : NULL;
	if (history_prepare(h, sql, &st)) {
		free(text);
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, rep);
	sqlite3_bind_int(st, 2, (int)cpu);
	if (cycles >= 0) {
		sqlite3_bind_int64(st, 3, cycles);
		sqlite3_bind_int64(st, 4, hist && cycles > sum ? cycles - sum : 0);
	}
	bind_num(st, 5, thr, "min");
	bind_num(st, 6, thr, "avg");
	bind_num(st, 7, thr, "max");
	if (text)
		sqlite3_bind_text(st, 8, text, -1, SQLITE_TRANSIENT);
	bind_quantiles(st, 9, text, cycles, limit);
	ret = insert_step(h, st, NULL);
	free(text);
	return ret;
}

/* cyclictest.json of a repetition; absent is fine for a skipped one. */
static int import_cyclictest(struct history *h, long long rep,
			     const char *path, unsigned int limit)
{
	struct json_error err;
	const cJSON *thr;
	cJSON *ct;
	int ret;

	if (!fsio_exists(path))
		return 0;
	ret = json_read_file(path, &ct, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return ret;
	}
	cJSON_ArrayForEach(thr, cJSON_GetObjectItem(ct, "thread")) {
		ret = insert_cpu(h, rep, thr, thr->string, limit);
		if (ret)
			break;
	}
	cJSON_Delete(ct);
	return ret;
}

static int insert_workloads(struct history *h, long long rep,
			    const cJSON *wl)
{
	const cJSON *w;
	sqlite3_stmt *st;
	char *text;
	int ret = 0;

	cJSON_ArrayForEach(w, wl) {
		if (history_prepare(h, "INSERT OR REPLACE INTO workloads"
				    " (rep, name, summary) VALUES (?1, ?2, ?3)",
				    &st))
			return -EIO;
		text = cJSON_PrintUnformatted(w);
		sqlite3_bind_int64(st, 1, rep);
		sqlite3_bind_text(st, 2, w->string, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			ret = -EIO;
		sqlite3_finalize(st);
		free(text);
		if (ret)
			return ret;
	}
	return 0;
}

/* A manifest field bound to a column: a string, or a number. */
struct field {
	const char *key;
	bool num;
};

/*
 * INSERTs one child row of @parent (bound to ?1) with @fields of @obj
 * bound to ?2, ?3, ...; *id is the new row's id.
 */
static int insert_child(struct history *h, const char *sql, long long parent,
			const cJSON *obj, const struct field *fields,
			long long *id)
{
	sqlite3_stmt *st;
	int i;

	if (history_prepare(h, sql, &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, parent);
	for (i = 0; fields[i].key; i++) {
		if (fields[i].num)
			bind_num(st, i + 2, obj, fields[i].key);
		else
			bind_str(st, i + 2, obj, fields[i].key);
	}
	return insert_step(h, st, id);
}

static int insert_rep(struct history *h, const char *run_dir, long long scen,
		      const cJSON *r, unsigned int limit)
{
	static const struct field fields[] = {
		{ "rep", true }, { "status" }, { "reason" }, { "start_time" },
		{ "end_time" }, { NULL },
	};
	char path[PATH_MAX];
	const char *dir = json_get_str(r, "dir", NULL);
	long long id;
	int ret;

	ret = insert_child(h, "INSERT INTO reps (scenario, rep, status, reason,"
			   " start_time, end_time) VALUES (?1, ?2, ?3, ?4, ?5,"
			   " ?6)", scen, r, fields, &id);
	if (ret)
		return ret;
	ret = insert_workloads(h, id, cJSON_GetObjectItem(r, "workloads"));
	if (ret || !dir)
		return ret;
	if (!rtpaths_below(dir)) {
		pr_err("%s/manifest.json: repetition \"dir\" '%s' leaves the "
		       "results directory", run_dir, dir);
		return -EINVAL;
	}
	if (snprintf(path, sizeof(path), "%s/%s/cyclictest.json", run_dir,
		     dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return import_cyclictest(h, id, path, limit);
}

static int insert_scenario(struct history *h, const char *run_dir,
			   long long run, const cJSON *s, unsigned int limit)
{
	static const struct field fields[] = {
		{ "name" }, { "compare" }, { "status" }, { "reason" }, { NULL },
	};
	const cJSON *r;
	long long id;
	int ret;

	ret = insert_child(h, "INSERT INTO scenarios (run, name, compare,"
			   " status, reason) VALUES (?1, ?2, ?3, ?4, ?5)", run,
			   s, fields, &id);
	if (ret)
		return ret;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(s, "repetitions")) {
		ret = insert_rep(h, run_dir, id, r, limit);
		if (ret)
			return ret;
	}
	return 0;
}

/* The fields without which a run cannot be placed in history. */
static int check_manifest(const char *path, const cJSON *m)
{
	static const char *const status[] = { "complete", "incomplete",
					      "aborted" };
	const char *s = json_get_str(m, "status", "");
	const cJSON *suite = cJSON_GetObjectItem(m, "suite");
	const cJSON *host = cJSON_GetObjectItem(m, "host");
	size_t i;

	/* As strictly as the analyzer: names, scenarios, gate, UTF-8. */
	if (an_manifest_check(path, m))
		return -EINVAL;
	if (!json_get_str(m, "run_id", NULL) || !json_get_str(suite, "name", NULL)
	    || !json_get_str(host, "hostname", NULL)) {
		pr_err("%s: run_id, suite.name or host.hostname is missing",
		       path);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(status) / sizeof(status[0]); i++)
		if (!strcmp(s, status[i]))
			return 0;
	pr_err("%s: status \"%s\" is not complete, incomplete or aborted",
	       path, s);
	return -EINVAL;
}

/*
 * The SHA-256 of RUN/report.json, "" when there is none: what the run
 * was judged to, so that a run judged again is imported again.
 */
static void report_sha256(const char *run_dir, char *hex)
{
	char report[PATH_MAX];

	snprintf(report, sizeof(report), "%.4000s/report.json", run_dir);
	if (!fsio_exists(report) || sha256_file(report, hex))
		hex[0] = '\0';
}

/*
 * Already stored as it is now: the same run of the same host, with the
 * same manifest, and judged to the same report? Then nothing to do; any
 * change (a report written or rewritten since, a verdict that changed)
 * is news.
 */
static int is_unchanged(struct history *h, const cJSON *m, const char *text,
			const char *report_sha)
{
	sqlite3_stmt *st;
	int same = 0;

	if (history_prepare(h, "SELECT 1 FROM runs WHERE run_id = ?1 AND"
			    " host = ?2 AND status = ?3 AND end_time IS ?4"
			    " AND manifest IS ?5 AND report_sha256 IS ?6", &st))
		return 0;
	bind_str(st, 1, m, "run_id");
	bind_str(st, 2, cJSON_GetObjectItem(m, "host"), "hostname");
	bind_str(st, 3, m, "status");
	bind_str(st, 4, m, "end_time");
	sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
	if (*report_sha)
		sqlite3_bind_text(st, 6, report_sha, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 6);
	same = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return same;
}

/*
 * Is another run stored under this run's id and host? A run id is unique
 * only within one results directory: two lab guests (each "(none)" to
 * itself) that start one suite in the same second make the same id. A
 * run imported again keeps its suite, start and kernel; a stored run that
 * differs in any of them is another run, and replacing it would swap one
 * night for another without a word. 1 (said, both named) or 0.
 */
static int another_run(struct history *h, const char *path, const cJSON *m)
{
	const cJSON *kernel = cJSON_GetObjectItem(m, "kernel");
	sqlite3_stmt *st;
	int other;

	if (history_prepare(h, "SELECT start_time, kernel_release, suite,"
			    " results_dir FROM runs WHERE run_id = ?1 AND"
			    " host = ?2 AND NOT (suite IS ?3 AND start_time IS"
			    " ?4 AND kernel_release IS ?5 AND kernel_version"
			    " IS ?6)", &st))
		return 0;
	bind_str(st, 1, m, "run_id");
	bind_str(st, 2, cJSON_GetObjectItem(m, "host"), "hostname");
	bind_str(st, 3, cJSON_GetObjectItem(m, "suite"), "name");
	bind_str(st, 4, m, "start_time");
	bind_str(st, 5, kernel, "release");
	bind_str(st, 6, kernel, "version");
	other = sqlite3_step(st) == SQLITE_ROW;
	if (other)
		pr_err("%s: run id '%s' of host '%s' is stored already for "
		       "another run (suite %s, started %s, kernel %s, from "
		       "%s); this one is suite %s, started %s, kernel %s: not "
		       "imported (a run id is unique within one results "
		       "directory only: import one of them into another "
		       "database)", path, json_get_str(m, "run_id", "?"),
		       json_get_str(cJSON_GetObjectItem(m, "host"), "hostname",
				    "?"),
		       (const char *)sqlite3_column_text(st, 2) ?: "?",
		       (const char *)sqlite3_column_text(st, 0) ?: "?",
		       (const char *)sqlite3_column_text(st, 1) ?: "?",
		       (const char *)sqlite3_column_text(st, 3) ?: "?",
		       json_get_str(cJSON_GetObjectItem(m, "suite"), "name",
				    "?"),
		       json_get_str(m, "start_time", "?"),
		       json_get_str(kernel, "release", "?"));
	sqlite3_finalize(st);
	return other;
}

/* A statement on the rows of one run (?1 its id, ?2 its host). */
static int exec_run(struct history *h, const char *sql, const cJSON *m)
{
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	bind_str(st, 1, m, "run_id");
	bind_str(st, 2, cJSON_GetObjectItem(m, "host"), "hostname");
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	if (ret)
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
	sqlite3_finalize(st);
	return ret;
}

static int write_run(struct history *h, const char *run_dir, const cJSON *m,
		     const char *text, const char *token,
		     const char *report_sha)
{
	const cJSON *s;
	long long run;
	int ret = 0;

	/* The placeholder goes in the same transaction. */
	if (token)
		ret = history_exec_bound(h, "DELETE FROM runs WHERE id IN"
					 " (SELECT run FROM pending WHERE"
					 " token = ?1)", token);
	/*
	 * What the run directory says is replaced; verdicts against history
	 * are the history's own and stay.
	 */
	if (!ret)
		ret = exec_run(h, "DELETE FROM scenarios WHERE run IN (SELECT"
			       " id FROM runs WHERE run_id = ?1 AND host = ?2)",
			       m);
	if (!ret)
		ret = exec_run(h, "DELETE FROM verdicts WHERE source = 'run'"
			       " AND run IN (SELECT id FROM runs WHERE run_id ="
			       " ?1 AND host = ?2)", m);
	if (ret)
		return ret;
	ret = insert_run(h, run_dir, m, text, report_sha, &run);
	if (ret)
		return ret;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios")) {
		ret = insert_scenario(h, run_dir, run, s,
				      history_manifest_limit(m));
		if (ret)
			return ret;
	}
	return history_import_verdicts(h, run_dir, run);
}

int history_import_run(struct history *h, const char *run_dir,
		       struct history_import_stats *stats)
{
	return history_import_replacing(h, run_dir, NULL, stats);
}

int history_import_replacing(struct history *h, const char *run_dir,
			     const char *token,
			     struct history_import_stats *stats)
{
	char path[PATH_MAX], sha[SHA256_HEX_LEN + 1];
	struct json_error err;
	cJSON *m = NULL;
	char *text = NULL;
	size_t len;
	int ret;

	if (snprintf(path, sizeof(path), "%s/manifest.json", run_dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = fsio_read_input(path, &text, &len);
	if (ret) {
		pr_err("%s: %s", path, fsio_input_why(ret));
		if (ret != -ENOMEM)
			ret = -EINVAL;
		goto out;
	}
	ret = json_parse_buf(path, text, len, &m, &err);
	if (ret) {
		pr_err("%s", err.msg);
		goto out;
	}
	ret = check_manifest(path, m);
	if (ret)
		goto out;
	ret = history_exec(h, "BEGIN IMMEDIATE");
	if (ret)
		goto out;
	report_sha256(run_dir, sha);
	if (another_run(h, path, m)) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		ret = -EEXIST;
		goto out;
	}
	if (!token && is_unchanged(h, m, text, sha)) {
		stats->unchanged++;
		ret = history_exec(h, "COMMIT");
		goto out;
	}
	ret = write_run(h, run_dir, m, text, token, sha);
	if (!ret)
		ret = history_exec(h, "COMMIT");
	if (ret) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		pr_err("%s: not imported; the database is unchanged", run_dir);
		goto out;
	}
	stats->imported++;
out:
	if (ret)
		stats->failed++;
	cJSON_Delete(m);
	free(text);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int history_import_path(struct history *h, const char *path,
			struct history_import_stats *stats)
{
	struct dirent **ents;
	char sub[PATH_MAX];
	int n, i, ret = 0, r;

	if (snprintf(sub, sizeof(sub), "%s/manifest.json", path) >=
	    (int)sizeof(sub))
		return -ENAMETOOLONG;
	if (fsio_exists(sub))
		return history_import_run(h, path, stats);
	n = scandir(path, &ents, NULL, by_name);
	if (n < 0) {
		ret = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return ret;
	}
	/* Oldest first (run ids start with the date): history in order. */
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (name[0] != '.' && strcmp(name, "latest") &&
		    snprintf(sub, sizeof(sub), "%s/%s/manifest.json", path,
			     name) < (int)sizeof(sub) && fsio_exists(sub)) {
			snprintf(sub, sizeof(sub), "%s/%s", path, name);
			r = history_import_run(h, sub, stats);
			if (r && !ret)
				ret = r;
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/*
 * Runs one statement of a pending run's transaction: ?1..?@n bound to the
 * texts of @args (NULL: SQL NULL), ?@n+1 to the time now. 0 or -EIO (a
 * statement that does not prepare is said).
 */
static int exec_stamped(struct history *h, const char *sql,
			const char *const *args, int n)
{
	sqlite3_stmt *st;
	char now[32];
	int i, ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	for (i = 0; i < n; i++)
		if (args[i])
			sqlite3_bind_text(st, i + 1, args[i], -1,
					  SQLITE_TRANSIENT);
	timefmt_iso8601_now(now, sizeof(now));
	sqlite3_bind_text(st, n + 1, now, -1, SQLITE_TRANSIENT);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return ret;
}

int history_begin_pending(struct history *h, const char *token,
			  const char *suite, const char *host,
			  const char *reason)
{
	const char *const args[] = { token, suite, host, reason };
	int ret;

	ret = history_exec(h, "BEGIN IMMEDIATE");
	if (ret)
		return ret;
	ret = exec_stamped(h, "INSERT INTO runs (run_id, suite, host, status,"
			   " status_reason, start_time, imported_at) VALUES"
			   " (?1, ?2, ?3, 'incomplete', ?4, ?5, ?5)", args, 4);
	if (ret)
		goto rollback;
	ret = history_exec(h, "INSERT INTO pending (token, run) VALUES"
			   " ((SELECT run_id FROM runs WHERE id ="
			   " last_insert_rowid()), last_insert_rowid())");
	if (ret)
		goto rollback;
	return history_exec(h, "COMMIT");
rollback:
	pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

static int finish_pending(struct history *h, const char *token,
			  const char *reason)
{
	const char *const args[] = { token, reason };
	int ret;

	ret = history_exec(h, "BEGIN IMMEDIATE");
	if (ret)
		return ret;
	if (exec_stamped(h, "UPDATE runs SET status_reason = ?2,"
			 " end_time = ?3 WHERE id IN (SELECT run FROM"
			 " pending WHERE ?1 IS NULL OR token = ?1)", args, 2))
		goto rollback;
	if (history_exec_bound(h, "DELETE FROM pending WHERE ?1 IS NULL OR"
			       " token = ?1", token))
		goto rollback;
	ret = sqlite3_changes(h->db);
	if (history_exec(h, "COMMIT"))
		return -EIO;
	return ret;
rollback:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -EIO;
}

int history_fail_pending(struct history *h, const char *token,
			 const char *reason)
{
	int ret = finish_pending(h, token, reason);

	return ret < 0 ? ret : 0;
}

int history_reap_pending(struct history *h, const char *reason)
{
	return finish_pending(h, NULL, reason);
}

int history_record_run(const char *run_dir)
{
	struct history_import_stats stats = { 0 };
	char db[PATH_MAX], parent[PATH_MAX];
	const char *env = getenv("RTGATE_DB");
	struct history h;
	char *slash;
	int ret;

	if (env && *env) {
		snprintf(db, sizeof(db), "%s", env);
	} else {
		snprintf(parent, sizeof(parent), "%s", run_dir);
		slash = strrchr(parent, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(parent, sizeof(parent), ".");
		if (history_default_path(parent, db, sizeof(db)))
			return -ENAMETOOLONG;
	}
	ret = history_open(&h, db);
	if (!ret) {
		ret = history_import_run(&h, run_dir, &stats);
		history_close(&h);
	}
	if (ret)
		pr_warn("%s: the run was not recorded in the history %s",
			run_dir, db);
	return ret;
}
