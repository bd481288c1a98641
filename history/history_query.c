// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading history back: baselines for compare --history, series for the
 * dashboard, stored repetitions for the analyzer, verdicts.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "history.h"
#include "history_priv.h"
#include "jsonio.h"
#include "log.h"

#define RUN_COLS "r.id, r.run_id, r.suite, r.host, r.kernel_release," \
	" r.kernel_version, r.config_sha256, r.start_time, r.status," \
	" r.status_reason, r.results_dir, r.duration_scale"
#define RUN_NCOLS 12	/* NCOLS(run_cols) */

/* A column copied into a member of a row struct. */
struct col {
	enum { COL_TEXT, COL_NUM, COL_INT64 } kind;
	size_t off;
	size_t len;		/* COL_TEXT: the char array's size */
	double null;		/* COL_NUM: the value of a NULL */
};

#define TEXT(type, m)	{ COL_TEXT, offsetof(type, m), sizeof(((type *)0)->m) }
#define NUM(type, m, null)	{ COL_NUM, offsetof(type, m), 0, null }
#define INT64(type, m)	{ COL_INT64, offsetof(type, m), 0, 0 }

/* Fills @row from columns @first.. of the current row, one per @cols. */
static void read_cols(sqlite3_stmt *st, int first, void *row,
		      const struct col *cols, size_t n)
{
	char *base = row;
	size_t i;
	int c;

	for (i = 0; i < n; i++) {
		c = first + (int)i;
		switch (cols[i].kind) {
		case COL_TEXT:
			history_col(st, c, base + cols[i].off, cols[i].len);
			break;
		case COL_NUM:
			*(double *)(base + cols[i].off) =
				sqlite3_column_type(st, c) == SQLITE_NULL ?
				cols[i].null : sqlite3_column_double(st, c);
			break;
		case COL_INT64:
			*(long long *)(base + cols[i].off) =
				sqlite3_column_int64(st, c);
			break;
		}
	}
}

#define NCOLS(cols)	(sizeof(cols) / sizeof(cols[0]))

static const struct col run_cols[] = {
	INT64(struct history_run, id),
	TEXT(struct history_run, run_id),
	TEXT(struct history_run, suite),
	TEXT(struct history_run, host),
	TEXT(struct history_run, kernel_release),
	TEXT(struct history_run, kernel_version),
	TEXT(struct history_run, config_sha256),
	TEXT(struct history_run, start_time),
	TEXT(struct history_run, status),
	TEXT(struct history_run, status_reason),
	TEXT(struct history_run, results_dir),
	NUM(struct history_run, duration_scale, 1),
};

static void read_run(sqlite3_stmt *st, struct history_run *r)
{
	memset(r, 0, sizeof(*r));
	read_cols(st, 0, r, run_cols, NCOLS(run_cols));
}

/* How a result row becomes a row struct: its columns, or fill(). */
struct row_def {
	size_t size;
	const struct col *cols;		/* columns 0.., in order */
	size_t ncols;
	void (*fill)(sqlite3_stmt *st, void *row);	/* NULL: cols */
};

#define ROW_DEF(type, cols)	{ sizeof(type), cols, NCOLS(cols), NULL }

static const struct row_def run_row = ROW_DEF(struct history_run, run_cols);

/*
 * Steps a prepared statement to its end into a malloc'ed array of rows as
 * @def makes them, each zeroed first. Returns 0 (*rows is NULL when there
 * are none), -ENOMEM, or -EIO after printing SQLite's error. The
 * statement stays the caller's to finalize.
 */
static int collect_rows(struct history *h, sqlite3_stmt *st,
			const struct row_def *def, void **rows, size_t *n)
{
	size_t cap = 0, cnt = 0, size = def->size;
	char *v = NULL, *t;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			t = realloc(v, cap * size);
			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
		}
		memset(v + cnt * size, 0, size);
		if (def->fill)
			def->fill(st, v + cnt * size);
		else
			read_cols(st, 0, v + cnt * size, def->cols,
				  def->ncols);
		cnt++;
	}
	if (rc != SQLITE_DONE) {
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
		free(v);
		return -EIO;
	}
	*rows = v;
	*n = cnt;
	return 0;
}

/* Steps a prepared statement of RUN_COLS rows into a malloc'ed array. */
static int collect_runs(struct history *h, sqlite3_stmt *st,
			struct history_run **runs, size_t *n)
{
	void *v;
	int ret = collect_rows(h, st, &run_row, &v, n);

	if (!ret)
		*runs = v;
	return ret;
}

/*
 * Prepares @sql, binds ?1 to @run when it is not negative, and collects
 * the rows as collect_rows() does.
 */
static int select_rows(struct history *h, const char *sql, long long run,
		       const struct row_def *def, void **rows, size_t *n)
{
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	if (run >= 0)
		sqlite3_bind_int64(st, 1, run);
	ret = collect_rows(h, st, def, rows, n);
	sqlite3_finalize(st);
	return ret;
}

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int history_baseline(struct history *h, const struct history_baseline_query *q,
		     struct history_run **runs, size_t *n)
{
	/*
	 * Only complete runs whose scenario was measured (ok or partial):
	 * an incomplete run, or a scenario that was skipped or invalid, is
	 * never evidence. Reference kernels by SQLite GLOB on the release.
	 */
	static const char sql[] =
		"SELECT " RUN_COLS " FROM runs r JOIN scenarios s"
		" ON s.run = r.id AND s.name = ?3"
		" AND s.status IN ('ok', 'partial')"
		" WHERE r.status = 'complete' AND r.suite = ?1 AND r.host = ?2"
		" AND (?4 IS NULL OR r.kernel_release GLOB ?4)"
		" AND (?5 IS NULL OR r.start_time < ?5)"
		" AND (?6 IS NULL OR r.run_id != ?6)"
		" AND (?8 IS NULL OR abs(coalesce(r.duration_scale, 1) - ?8)"
		"      < 1e-9)"
		" AND (?9 IS NULL OR coalesce(json_extract(r.manifest,"
		"      '$.lab.clock.name'), 'host') = ?9)"
		" ORDER BY r.start_time DESC, r.run_id DESC LIMIT ?7";
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	bind_opt(st, 1, q->suite);
	bind_opt(st, 2, q->host);
	bind_opt(st, 3, q->scenario);
	bind_opt(st, 4, q->reference);
	bind_opt(st, 5, q->before);
	bind_opt(st, 6, q->exclude_run_id);
	sqlite3_bind_int(st, 7, q->limit ? (int)q->limit : -1);
	if (q->scale > 0)
		sqlite3_bind_double(st, 8, q->scale);
	bind_opt(st, 9, q->clock);
	ret = collect_runs(h, st, runs, n);
	sqlite3_finalize(st);
	return ret;
}

int history_runs(struct history *h, const char *suite,
		 struct history_run **runs, size_t *n)
{
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, "SELECT " RUN_COLS " FROM runs r WHERE"
			    " (?1 IS NULL OR r.suite = ?1)"
			    " ORDER BY r.start_time, r.run_id", &st))
		return -EIO;
	bind_opt(st, 1, suite);
	ret = collect_runs(h, st, runs, n);
	sqlite3_finalize(st);
	return ret;
}

int history_find_run_host(struct history *h, const char *run_id,
			  const char *host, struct history_run *run)
{
	struct history_run other;
	sqlite3_stmt *st;
	int ret = -ENOENT;

	if (history_prepare(h, "SELECT " RUN_COLS " FROM runs r"
			    " WHERE r.run_id = ?1 AND (?2 IS NULL OR"
			    " r.host = ?2) ORDER BY r.host", &st))
		return -EIO;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	bind_opt(st, 2, host);
	if (sqlite3_step(st) == SQLITE_ROW) {
		read_run(st, run);
		ret = 0;
	}
	/* Two hosts' runs of one id: which one is not ours to guess. */
	if (!ret && !host && sqlite3_step(st) == SQLITE_ROW) {
		read_run(st, &other);
		pr_err("%s: run id '%s' is stored for hosts %s and %s%s", h->path,
		       run_id, run->host, other.host, sqlite3_step(st) ==
		       SQLITE_ROW ? " and more" : "");
		ret = -EEXIST;
	}
	sqlite3_finalize(st);
	return ret;
}

int history_find_run(struct history *h, const char *run_id,
		     struct history_run *run)
{
	return history_find_run_host(h, run_id, NULL, run);
}

void history_free_reps(struct history_rep *reps, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i].nr_cpus; j++)
			free(reps[i].cpus[j].histogram);
		free(reps[i].cpus);
	}
	free(reps);
}

static int add_cpu(struct history_rep *r, sqlite3_stmt *st)
{
	struct history_cpu *c, *t;
	const unsigned char *hist = sqlite3_column_text(st, 8);

	t = realloc(r->cpus, (r->nr_cpus + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	r->cpus = t;
	c = &r->cpus[r->nr_cpus];
	memset(c, 0, sizeof(*c));
	c->cpu = sqlite3_column_int(st, 2);
	c->cycles = sqlite3_column_int64(st, 3);
	c->overflows = sqlite3_column_int64(st, 4);
	c->min_us = sqlite3_column_double(st, 5);
	c->avg_us = sqlite3_column_double(st, 6);
	c->max_us = sqlite3_column_double(st, 7);
	if (hist) {
		c->histogram = strdup((const char *)hist);
		if (!c->histogram)
			return -ENOMEM;
	}
	r->nr_cpus++;
	return 0;
}

/* Prepares @sql with ?1 bound to stored run @run, ?2 to @scenario. */
static int prepare_scenario(struct history *h, const char *sql, long long run,
			    const char *scenario, sqlite3_stmt **st)
{
	if (history_prepare(h, sql, st))
		return -EIO;
	sqlite3_bind_int64(*st, 1, run);
	sqlite3_bind_text(*st, 2, scenario, -1, SQLITE_TRANSIENT);
	return 0;
}

/* The end of a step loop: its error, SQLite's (said), the statement freed. */
static int step_end(struct history *h, sqlite3_stmt *st, int rc, int ret)
{
	if (!ret && rc != SQLITE_DONE) {
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
		ret = -EIO;
	}
	sqlite3_finalize(st);
	return ret;
}

int history_load_reps(struct history *h, long long run, const char *scenario,
		      struct history_rep **reps, size_t *n)
{
	static const char sql[] =
		"SELECT p.rep, p.status, m.cpu, m.cycles, m.overflows,"
		" m.min_us, m.avg_us, m.max_us, m.histogram"
		" FROM scenarios s JOIN reps p ON p.scenario = s.id"
		" JOIN cpu_metrics m ON m.rep = p.id"
		" WHERE s.run = ?1 AND s.name = ?2 AND p.status = 'ok'"
		" ORDER BY p.rep, m.cpu";
	struct history_rep *v = NULL, *t;
	size_t cnt = 0;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (prepare_scenario(h, sql, run, scenario, &st))
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int rep = sqlite3_column_int(st, 0);

		if (!cnt || v[cnt - 1].rep != rep) {
			t = realloc(v, (cnt + 1) * sizeof(*v));
			if (!t) {
				ret = -ENOMEM;
				break;
			}
			v = t;
			memset(&v[cnt], 0, sizeof(v[cnt]));
			v[cnt].rep = rep;
			history_col(st, 1, v[cnt].status, sizeof(v[cnt].status));
			cnt++;
		}
		ret = add_cpu(&v[cnt - 1], st);
		if (ret)
			break;
	}
	ret = step_end(h, st, rc, ret);
	if (ret) {
		history_free_reps(v, cnt);
		return ret;
	}
	*reps = v;
	*n = cnt;
	return 0;
}

static int add_metrics(struct history_rep_metric **v, size_t *cnt, int rep,
		       const char *wl, const char *text)
{
	struct history_rep_metric *t, *m;
	const cJSON *metrics, *e, *x;
	cJSON *j = cJSON_Parse(text);
	size_t k;

	if (!j)
		return 0;	/* a summary that is not JSON has no metrics */
	metrics = cJSON_GetObjectItem(j, "metrics");
	cJSON_ArrayForEach(e, metrics) {
		const cJSON *vals = cJSON_GetObjectItem(e, "values");

		if (!cJSON_IsArray(vals))
			continue;
		t = realloc(*v, (*cnt + 1) * sizeof(**v));
		if (!t) {
			cJSON_Delete(j);
			return -ENOMEM;
		}
		*v = t;
		m = &t[(*cnt)++];
		memset(m, 0, sizeof(*m));
		m->rep = rep;
		snprintf(m->name, sizeof(m->name), "%.40s.%.50s", wl,
			 e->string);
		snprintf(m->unit, sizeof(m->unit), "%s",
			 json_get_str(e, "unit", ""));
		m->higher_better = !strcmp(json_get_str(e, "better", "lower"),
					   "higher");
		m->v = calloc(cJSON_GetArraySize(vals) + 1, sizeof(double));
		if (!m->v) {
			cJSON_Delete(j);
			return -ENOMEM;
		}
		k = 0;
		cJSON_ArrayForEach(x, vals)
			if (cJSON_IsNumber(x))
				m->v[k++] = x->valuedouble;
		m->n = k;
	}
	cJSON_Delete(j);
	return 0;
}

int history_load_metrics(struct history *h, long long run,
			 const char *scenario, struct history_rep_metric **out,
			 size_t *n)
{
	static const char sql[] =
		"SELECT p.rep, w.name, w.summary FROM scenarios s"
		" JOIN reps p ON p.scenario = s.id JOIN workloads w"
		" ON w.rep = p.id WHERE s.run = ?1 AND s.name = ?2"
		" AND p.status = 'ok' ORDER BY p.rep, w.name";
	struct history_rep_metric *v = NULL;
	size_t cnt = 0;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (prepare_scenario(h, sql, run, scenario, &st))
		return -EIO;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *wl = sqlite3_column_text(st, 1);
		const unsigned char *text = sqlite3_column_text(st, 2);

		if (wl && text)
			ret = add_metrics(&v, &cnt, sqlite3_column_int(st, 0),
					  (const char *)wl,
					  (const char *)text);
	}
	ret = step_end(h, st, rc, ret);
	if (ret) {
		history_free_metrics(v, cnt);
		return ret;
	}
	*out = v;
	*n = cnt;
	return 0;
}

void history_free_metrics(struct history_rep_metric *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(m[i].v);
	free(m);
}

static void fill_point(sqlite3_stmt *st, void *row)
{
	static const struct col cols[] = {
		NUM(struct history_point, max_us, -1),
		TEXT(struct history_point, verdict),
		TEXT(struct history_point, report),
		TEXT(struct history_point, metric),
		TEXT(struct history_point, since_run),
		TEXT(struct history_point, reason),
	};
	struct history_point *pt = row;

	read_run(st, &pt->run);
	read_cols(st, RUN_NCOLS, pt, cols, NCOLS(cols));
	pt->p9999_us = -1;
	pt->p99_us = -1;
}

static const struct row_def point_row = {
	sizeof(struct history_point), NULL, 0, fill_point
};

int history_series(struct history *h, const char *suite, const char *host,
		   const char *scenario, struct history_point **pts, size_t *n)
{
	static const char sql[] =
		"SELECT " RUN_COLS ","
		" (SELECT MAX(m.max_us) FROM reps p JOIN cpu_metrics m"
		"   ON m.rep = p.id WHERE p.scenario = s.id AND p.status = 'ok'),"
		" (SELECT v.verdict FROM verdicts v WHERE v.run = r.id"
		"   AND v.scenario = s.name AND v.source = 'history'),"
		" r.report,"
		" (SELECT v.metric FROM verdicts v WHERE v.run = r.id"
		"   AND v.scenario = s.name AND v.source = 'history'),"
		" (SELECT v.since_run FROM verdicts v WHERE v.run = r.id"
		"   AND v.scenario = s.name AND v.source = 'history'),"
		" (SELECT v.reason FROM verdicts v WHERE v.run = r.id"
		"   AND v.scenario = s.name AND v.source = 'history')"
		" FROM runs r JOIN scenarios s ON s.run = r.id AND s.name = ?3"
		" AND s.status IN ('ok', 'partial')"
		" WHERE r.status = 'complete' AND r.suite = ?1 AND r.host = ?2"
		" ORDER BY r.start_time, r.run_id";
	sqlite3_stmt *st;
	void *v;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	bind_opt(st, 1, suite);
	bind_opt(st, 2, host);
	bind_opt(st, 3, scenario);
	ret = collect_rows(h, st, &point_row, &v, n);
	sqlite3_finalize(st);
	if (!ret)
		*pts = v;
	return ret;
}

static const struct col key_cols[] = {
	TEXT(struct history_key, suite),
	TEXT(struct history_key, host),
	TEXT(struct history_key, scenario),
};
static const struct row_def key_row = ROW_DEF(struct history_key, key_cols);

int history_keys(struct history *h, struct history_key **keys, size_t *n)
{
	static const char sql[] =
		"SELECT DISTINCT r.suite, r.host, s.name FROM runs r"
		" JOIN scenarios s ON s.run = r.id WHERE r.status = 'complete'"
		" ORDER BY r.suite, r.host, s.id";
	void *v;
	int ret = select_rows(h, sql, -1, &key_row, &v, n);

	if (!ret)
		*keys = v;
	return ret;
}

int history_store_verdict(struct history *h, const struct history_verdict *v)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO verdicts (run, scenario, source,"
		" baseline, baseline_runs, metric, verdict, reason, candidate,"
		" baseline_value, p_value, prev_run, changed, since_run)"
		" SELECT id, ?2, 'history', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		" ?11, ?12, ?13"
		" FROM runs WHERE (?14 IS NOT NULL AND id = ?14) OR"
		" (?14 IS NULL AND run_id = ?1)";
	sqlite3_stmt *st;
	int ret;

	if (history_prepare(h, sql, &st))
		return -EIO;
	sqlite3_bind_text(st, 1, v->run_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, v->scenario, -1, SQLITE_TRANSIENT);
	bind_opt(st, 3, v->baseline_ids);
	sqlite3_bind_int(st, 4, (int)v->baseline_runs);
	bind_opt(st, 5, v->metric);
	sqlite3_bind_text(st, 6, v->verdict, -1, SQLITE_TRANSIENT);
	bind_opt(st, 7, v->reason);
	sqlite3_bind_double(st, 8, v->candidate);
	sqlite3_bind_double(st, 9, v->baseline);
	if (v->p_value >= 0)
		sqlite3_bind_double(st, 10, v->p_value);
	bind_opt(st, 11, v->prev_run_id);
	bind_opt(st, 12, v->changed);
	bind_opt(st, 13, v->since_run_id);
	if (v->run)
		sqlite3_bind_int64(st, 14, v->run);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	if (ret)
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
	else if (!sqlite3_changes(h->db))
		ret = -ENOENT;
	sqlite3_finalize(st);
	return ret;
}

static const struct col scenario_cols[] = {
	TEXT(struct history_scenario, name),
	TEXT(struct history_scenario, compare),
	TEXT(struct history_scenario, status),
	TEXT(struct history_scenario, reason),
};
static const struct row_def scenario_row =
	ROW_DEF(struct history_scenario, scenario_cols);

int history_scenarios(struct history *h, long long run,
		      struct history_scenario **sc, size_t *n)
{
	void *v;
	int ret = select_rows(h, "SELECT name, compare, status, reason FROM"
			      " scenarios WHERE run = ?1 ORDER BY id", run,
			      &scenario_row, &v, n);

	if (!ret)
		*sc = v;
	return ret;
}

static const struct col verdict_cols[] = {
	TEXT(struct history_verdict_row, scenario),
	TEXT(struct history_verdict_row, source),
	TEXT(struct history_verdict_row, baseline),
	TEXT(struct history_verdict_row, metric),
	TEXT(struct history_verdict_row, verdict),
	TEXT(struct history_verdict_row, reason),
	NUM(struct history_verdict_row, candidate, NAN),
	NUM(struct history_verdict_row, baseline_value, NAN),
	NUM(struct history_verdict_row, p_value, NAN),
	TEXT(struct history_verdict_row, prev_run),
	TEXT(struct history_verdict_row, changed),
	TEXT(struct history_verdict_row, counts_as),
	TEXT(struct history_verdict_row, control),
	TEXT(struct history_verdict_row, unit),
	TEXT(struct history_verdict_row, measured),
	TEXT(struct history_verdict_row, since_run),
};
static const struct row_def verdict_row =
	ROW_DEF(struct history_verdict_row, verdict_cols);

const char *history_verdict_counts(const struct history_verdict_row *v)
{
	return v->counts_as[0] ? v->counts_as : v->verdict;
}

int history_verdicts(struct history *h, long long run,
		     struct history_verdict_row **out, size_t *n)
{
	void *v;
	int ret = select_rows(h, "SELECT scenario, source, baseline, metric,"
			      " verdict, reason, candidate, baseline_value,"
			      " p_value, prev_run, changed, counts_as, control,"
			      " unit, measured, since_run FROM verdicts"
			      " WHERE run = ?1"
			      " ORDER BY id", run, &verdict_row, &v, n);

	if (!ret)
		*out = v;
	return ret;
}

int history_run_manifest(struct history *h, long long run, char **text)
{
	const unsigned char *t;
	sqlite3_stmt *st;
	int ret = -ENOENT;

	if (history_prepare(h, "SELECT manifest FROM runs WHERE id = ?1", &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		*text = strdup(t ? (const char *)t : "{}");
		ret = *text ? 0 : -ENOMEM;
	}
	sqlite3_finalize(st);
	return ret;
}
