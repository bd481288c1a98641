// SPDX-License-Identifier: GPL-2.0-only
/*
 * The analyzer's own verdicts of a run (report.json, schema rtgate-report/1)
 * go into the verdicts table with source 'run', beside the verdicts against
 * history, so the summary, the exports and the dashboard show both.
 * A run without a report (not analyzed yet) simply has none.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fsio.h"
#include "history.h"
#include "history_priv.h"
#include "jsonio.h"
#include "log.h"

/*
 * The line the verdict rests on ("decisive"), else (older reports) the
 * first deciding line: its numbers are what the exports show.
 */
static const cJSON *deciding_line(const cJSON *cmp)
{
	const cJSON *lines = cJSON_GetObjectItem(cmp, "lines"), *l;
	const cJSON *d = cJSON_GetObjectItem(cmp, "decisive");

	if (cJSON_IsNumber(d))
		return cJSON_GetArrayItem(lines, d->valueint);
	if (cJSON_HasObjectItem(cmp, "decisive"))
		return NULL;
	cJSON_ArrayForEach(l, lines)
		if (cJSON_IsTrue(cJSON_GetObjectItem(l, "deciding")))
			return l;
	return NULL;
}

/* As measured (a max line's measured maxima), else as judged. */
static const char *measured_key(const cJSON *line, const char *side)
{
	const cJSON *m = cJSON_GetObjectItem(line, !strcmp(side, "candidate") ?
					     "measured_candidate" :
					     "measured_baseline");

	if (cJSON_IsNumber(m))
		return !strcmp(side, "candidate") ? "measured_candidate" :
		       "measured_baseline";
	return side;
}

static void bind_str_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num_or_null(sqlite3_stmt *st, int i, const cJSON *o,
			     const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		sqlite3_bind_double(st, i, v->valuedouble);
	else
		sqlite3_bind_null(st, i);
}

static int insert_cmp(struct history *h, long long run, const cJSON *cmp)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO verdicts (run, scenario, source,"
		" baseline, metric, verdict, reason, candidate,"
		" baseline_value, p_value, counts_as, control, unit, measured)"
		" VALUES (?1, ?2, 'run', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		" ?12, ?13)";
	const cJSON *line = deciding_line(cmp);
	const cJSON *gate = cJSON_GetObjectItem(cmp, "gate");
	sqlite3_stmt *st;
	int ret;

	if (!json_get_str(cmp, "candidate", NULL) ||
	    !json_get_str(cmp, "verdict", NULL))
		return 0;
	if (history_prepare(h, sql, &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, json_get_str(cmp, "candidate", ""), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, json_get_str(cmp, "baseline", ""), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, json_get_str(gate, "metric", ""), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, json_get_str(cmp, "verdict", ""), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, json_get_str(cmp, "reason", ""), -1,
			  SQLITE_TRANSIENT);
	bind_num_or_null(st, 7, line, measured_key(line, "candidate"));
	bind_num_or_null(st, 8, line, measured_key(line, "baseline"));
	bind_num_or_null(st, 9, line, "p_adjusted");
	bind_str_or_null(st, 10, json_get_str(cmp, "counts_as", NULL));
	bind_str_or_null(st, 11, json_get_str(cmp, "control", NULL));
	bind_str_or_null(st, 12, json_get_str(line, "unit", NULL));
	bind_str_or_null(st, 13, json_get_str(cmp, "measured", NULL));
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	if (ret)
		pr_err("%s: %s", h->path, sqlite3_errmsg(h->db));
	sqlite3_finalize(st);
	return ret;
}

int history_import_verdicts(struct history *h, const char *run_dir,
			    long long run)
{
	char path[PATH_MAX];
	struct json_error err;
	const cJSON *cmp;
	cJSON *rep;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/report.json", run_dir) >=
	    (int)sizeof(path) || !fsio_exists(path))
		return 0;
	/* A broken report is the analyzer's problem, not the history's. */
	if (json_read_file(path, &rep, &err)) {
		pr_warn("%s (its verdicts are not stored)", err.msg);
		return 0;
	}
	if (strcmp(json_get_str(rep, "schema", ""), "rtgate-report/1")) {
		pr_warn("%s: not an rtgate-report/1 (its verdicts are not "
			"stored)", path);
		goto out;
	}
	cJSON_ArrayForEach(cmp, cJSON_GetObjectItem(rep, "comparisons")) {
		ret = insert_cmp(h, run, cmp);
		if (ret)
			break;
	}
out:
	cJSON_Delete(rep);
	return ret;
}
