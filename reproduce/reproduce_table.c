// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reproduction's table (reproduce.h), rebuilt from disk: for every
 * published number pair of the seed, on every model that ran, the same
 * quantity measured here, the verdict and the verdict the thread's
 * numbers mean, the grants the kernel gave (a slice-extension seed), and
 * the wall time. reproduce.txt and reproduce.md print it; reproduce.json
 * gains it as "rows". The numbers are the reports' own: the T: lines' Max
 * (the largest measured maximum) for a latency, the metric's line for a
 * workload metric, and the comparison's verdict and deciding line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "reproduce.h"
#include "rtpaths.h"
#include "textfmt.h"

/* The report's name for the scenario: "S (a + a2)" in an A/B/A compare. */
static bool same_scenario(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && (!name[n] || name[n] == ' ');
}

static const cJSON *comparison_of(const cJSON *rep, const char *scen)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "comparisons"))
		if (same_scenario(json_get_str(c, "candidate", ""), scen))
			return c;
	return NULL;
}

/* The largest max of a scenario's T: lines (its summary), or NAN. */
static double scenario_max(const cJSON *rep, const char *name)
{
	const cJSON *s, *t;
	double max = NAN;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(rep, "scenarios")) {
		if (strcmp(json_get_str(s, "name", ""), name))
			continue;
		cJSON_ArrayForEach(t, cJSON_GetObjectItem(s, "summary")) {
			double v = json_get_num(t, "max_us", NAN);

			if (!isnan(v) && (isnan(max) || v > max))
				max = v;
		}
	}
	return max;
}

/* A workload metric over all CPUs, as the comparison's line has it. */
static void metric_line(const cJSON *cmp, const char *metric, double *b,
			double *a)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, cJSON_GetObjectItem(cmp, "lines")) {
		if (strcmp(json_get_str(l, "metric", ""), metric) ||
		    !cJSON_IsNull(cJSON_GetObjectItem(l, "cpu")))
			continue;
		*b = json_get_num(l, "baseline", NAN);
		*a = json_get_num(l, "candidate", NAN);
		return;
	}
}

/*
 * Where a path the document stored lives now. reproduce.json keeps the
 * absolute paths of the run that wrote it; a reproduction copied, moved
 * or renamed as a whole (lab CI keeps its artifacts elsewhere) still
 * holds the same tree below its own folder, so a stored path that is gone
 * is looked for under @dir: its longest tail that is there.
 */
static void stored_path(const char *dir, const char *stored, char *buf,
			size_t len)
{
	const char *tail;

	rtpaths_fmt(buf, len, "%s", stored);
	if (!stored[0] || !access(stored, F_OK))
		return;
	for (tail = strchr(stored, '/'); tail; tail = strchr(tail + 1, '/')) {
		char at[PATH_MAX];

		if (!tail[1])
			break;
		rtpaths_fmt(at, sizeof(at), "%s/%s", dir, tail + 1);
		if (!access(at, F_OK)) {
			rtpaths_fmt(buf, len, "%s", at);
			return;
		}
	}
}

/*
 * The grants of a scenario's repetitions, as the run's manifest keeps
 * them: the kernel's own count (rseq/stats sgrant, where the kernel has
 * it; else -1) and extend-sched's (the grants still standing at the end
 * of its critical section, which a grant shorter than it never is), and
 * extend-sched's requests.
 */
static void grants_of(const char *run, const char *scen, double *req,
		      double *granted, double *sgrant)
{
	char path[PATH_MAX + 32];
	const cJSON *s, *rep, *wl;
	struct json_error err;
	cJSON *m;

	*req = *granted = 0;
	*sgrant = -1;
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", run);
	if (json_read_file(path, &m, &err))
		return;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios")) {
		if (strcmp(json_get_str(s, "name", ""), scen))
			continue;
		cJSON_ArrayForEach(rep, cJSON_GetObjectItem(s, "repetitions")) {
			wl = cJSON_GetObjectItem(cJSON_GetObjectItem(rep,
					"workloads"), "extend-sched");
			const cJSON *ks = cJSON_GetObjectItem(rep, "rseq_stats");

			*req += json_get_num(wl, "extension_requests", 0);
			*granted += json_get_num(wl, "extensions_granted", 0);
			if (cJSON_IsObject(ks))
				*sgrant = (*sgrant < 0 ? 0 : *sgrant) +
					  json_get_num(ks, "sgrant", 0);
		}
	}
	cJSON_Delete(m);
}

static double model_wall(const cJSON *m)
{
	const cJSON *r;
	double s = 0;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(m, "runs"))
		s += json_get_num(r, "wall_s", 0);
	return s;
}

/* 57, 53.2, 4416: whole from 100 up, never in e-notation. */
static void fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		rtpaths_fmt(buf, len, "-");
	else if (fabs(v) >= 100 || v == floor(v))
		rtpaths_fmt(buf, len, "%.0f", v);
	else
		rtpaths_fmt(buf, len, "%.3g", v);
}

static void fmt_num(char *buf, size_t len, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	fmt_value(buf, len, cJSON_IsNumber(v) ? v->valuedouble : NAN);
}

/*
 * A max row's own line, as the gate judged it on each CPU: "CPU 0 typical
 * max 53.2 -> 80.5 us REGRESSION". The comparison's verdict rests on its
 * first deciding line, which may be a quantile; the seeds are judged on
 * the maximum, so the table says what that line concluded.
 */
static void max_line_of(const cJSON *cmp, char *buf, size_t len)
{
	const cJSON *l;
	size_t n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(l, cJSON_GetObjectItem(cmp, "lines")) {
		char b[32], c[32];

		if (strcmp(json_get_str(l, "kind", ""), "max") ||
		    strcmp(json_get_str(l, "metric", ""), "max") || n >= len)
			continue;
		fmt_value(b, sizeof(b), json_get_num(l, "baseline", NAN));
		fmt_value(c, sizeof(c), json_get_num(l, "candidate", NAN));
		n += snprintf(buf + n, len - n, "%sCPU %.0f %s %s -> %s %s %s",
			      n ? "; " : "", json_get_num(l, "cpu", 0),
			      json_get_str(l, "judged_as", "max"), b, c,
			      json_get_str(l, "unit", ""),
			      json_get_str(l, "verdict", ""));
	}
}

static cJSON *row_json(const char *dir, const cJSON *doc, const cJSON *m,
		       const cJSON *rep, const struct reproduce_row *row)
{
	bool kernels = !strcmp(json_get_str(doc, "kind", ""), "kernels");
	const cJSON *cmp = rep ? comparison_of(rep, row->scenario) : NULL;
	double mb = NAN, ma = NAN, req, granted, sgrant;
	cJSON *o = cJSON_CreateObject();
	char line[256] = "";

	if (cmp && !strcmp(row->metric, "max")) {
		mb = scenario_max(rep, json_get_str(cmp, "baseline", ""));
		ma = scenario_max(rep, json_get_str(cmp, "candidate", ""));
		max_line_of(cmp, line, sizeof(line));
	} else if (cmp) {
		metric_line(cmp, row->metric, &mb, &ma);
	}
	cJSON_AddStringToObject(o, "model", json_get_str(m, "model", ""));
	cJSON_AddStringToObject(o, "scenario", row->scenario);
	cJSON_AddStringToObject(o, "against", cmp ?
				json_get_str(cmp, "baseline", "") :
				kernels ? "the base kernel" : "");
	cJSON_AddStringToObject(o, "metric", row->metric);
	cJSON_AddStringToObject(o, "unit", row->unit);
	/* No figure published (a scenario of ours): null, printed "-". */
	if (isnan(row->before))
		cJSON_AddNullToObject(o, "published_before");
	else
		cJSON_AddNumberToObject(o, "published_before", row->before);
	if (isnan(row->after))
		cJSON_AddNullToObject(o, "published_after");
	else
		cJSON_AddNumberToObject(o, "published_after", row->after);
	if (isnan(mb) || isnan(ma)) {
		cJSON_AddNullToObject(o, "measured_before");
		cJSON_AddNullToObject(o, "measured_after");
	} else {
		cJSON_AddNumberToObject(o, "measured_before", mb);
		cJSON_AddNumberToObject(o, "measured_after", ma);
	}
	cJSON_AddStringToObject(o, "verdict", cmp ?
				json_get_str(cmp, "verdict", "-") :
				"not measured");
	cJSON_AddStringToObject(o, "expected", row->expect);
	cJSON_AddStringToObject(o, "evidence", cmp ?
				json_get_str(cmp, "measured",
					     json_get_str(cmp, "reason", "")) :
				"");
	cJSON_AddStringToObject(o, "max_line", line);
	if (!kernels && rep) {
		char run[PATH_MAX];

		stored_path(dir, json_get_str(m, "report", ""), run,
			    sizeof(run));
		grants_of(run, row->scenario, &req, &granted, &sgrant);
		cJSON_AddNumberToObject(o, "requests", req);
		cJSON_AddNumberToObject(o, "grants_seen", granted);
		if (sgrant < 0)
			cJSON_AddNullToObject(o, "grants");
		else
			cJSON_AddNumberToObject(o, "grants", sgrant);
	} else {
		cJSON_AddNullToObject(o, "requests");
		cJSON_AddNullToObject(o, "grants_seen");
		cJSON_AddNullToObject(o, "grants");
	}
	cJSON_AddNumberToObject(o, "wall_s", model_wall(m));
	return o;
}

static cJSON *load_report(const char *dir, const cJSON *m)
{
	char path[PATH_MAX + 32], at[PATH_MAX];
	struct json_error err;
	const char *stored = json_get_str(m, "report", NULL);
	cJSON *rep;

	if (!stored)
		return NULL;
	stored_path(dir, stored, at, sizeof(at));
	rtpaths_fmt(path, sizeof(path), "%s/report.json", at);
	if (json_read_file(path, &rep, &err)) {
		pr_err("%s", err.msg);
		return NULL;
	}
	return rep;
}

/* *missing: models whose report the document names but cannot be read. */
static cJSON *build_rows(const char *dir, const cJSON *doc,
			 const struct reproduce_seed *s, int *missing)
{
	cJSON *rows = cJSON_CreateArray();
	const cJSON *m;
	int i;

	*missing = 0;
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(doc, "models")) {
		const char *model = json_get_str(m, "model", "");
		cJSON *rep = load_report(dir, m);

		if (!rep && json_get_str(m, "report", NULL))
			(*missing)++;

		for (i = 0; i < REPRODUCE_MAX_ROWS && s->rows[i].scenario; i++)
			if (!s->rows[i].model ||
			    !strcmp(s->rows[i].model, model))
				cJSON_AddItemToArray(rows, row_json(dir, doc,
							m, rep, &s->rows[i]));
		cJSON_Delete(rep);
	}
	return rows;
}


static void fmt_pair(char *buf, size_t len, const cJSON *o,
		     const char *before, const char *after)
{
	char b[32], a[32];

	fmt_num(b, sizeof(b), o, before);
	fmt_num(a, sizeof(a), o, after);
	if (!strcmp(b, "-") && !strcmp(a, "-"))
		rtpaths_fmt(buf, len, "-");
	else
		rtpaths_fmt(buf, len, "%s -> %s", b, a);
}

static void fmt_wall(char *buf, size_t len, double s)
{
	rtpaths_fmt(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
}

/* One row's cells, shared by the text and the Markdown table. */
struct cells {
	char metric[64], published[48], measured[48], grants[48], wall[16];
};

static void row_cells(const cJSON *r, struct cells *c)
{
	const cJSON *g = cJSON_GetObjectItem(r, "grants");

	rtpaths_fmt(c->metric, sizeof(c->metric), "%s (%s)",
		    json_get_str(r, "metric", ""), json_get_str(r, "unit", ""));
	fmt_pair(c->published, sizeof(c->published), r, "published_before",
		 "published_after");
	fmt_pair(c->measured, sizeof(c->measured), r, "measured_before",
		 "measured_after");
	if (cJSON_IsNumber(g))
		rtpaths_fmt(c->grants, sizeof(c->grants), "%.0f (%.0f seen)",
			    g->valuedouble, json_get_num(r, "grants_seen", 0));
	else if (cJSON_IsNumber(cJSON_GetObjectItem(r, "grants_seen")))
		rtpaths_fmt(c->grants, sizeof(c->grants), "? (%.0f seen)",
			    json_get_num(r, "grants_seen", 0));
	else
		rtpaths_fmt(c->grants, sizeof(c->grants), "-");
	fmt_wall(c->wall, sizeof(c->wall), json_get_num(r, "wall_s", 0));
}

/* The guest's vCPUs: tables written before the seeds chose ran on two. */
#define REPRODUCE_MAX_VCPUS	64

static int vcpus_of(const cJSON *doc)
{
	double v = json_get_num(doc, "vcpus", 2);

	return v >= 1 && v <= REPRODUCE_MAX_VCPUS ? (int)v : 0;
}

/*
 * ", 16 repetitions a boot", ", the suite's repetitions" (null: no count
 * asked for), or "" for a reproduction written before the count was
 * recorded: not known, so not said.
 */
static const char *repetitions_of(const cJSON *doc, char *buf, size_t len)
{
	const cJSON *n = cJSON_GetObjectItem(doc, "repetitions");
	double v = json_get_num(doc, "repetitions", 0);

	if (v >= 1 && v <= 1000)
		rtpaths_fmt(buf, len, ", %.0f repetition%s a boot", v,
			    v == 1 ? "" : "s");
	else if (cJSON_IsNull(n))
		rtpaths_fmt(buf, len, ", the suite's repetitions");
	else
		buf[0] = '\0';
	return buf;
}

static void write_text(FILE *f, const cJSON *doc, const cJSON *rows)
{
	const cJSON *r;
	struct cells c;
	char reps[48];

	fprintf(f, "rtgate reproduce %s: %s\n", json_get_str(doc, "seed", ""),
		json_get_str(doc, "title", ""));
	fprintf(f, "published: %s\n", json_get_str(doc, "source", ""));
	fprintf(f, "here: Linux %s (%s), the QEMU lab (%d vCPU%s), clock %s, "
		"duration scale %s%s, status %s, %s\n\n",
		json_get_str(doc, "series", ""), json_get_str(doc, "tree", ""),
		vcpus_of(doc), vcpus_of(doc) == 1 ? "" : "s",
		json_get_str(doc, "clock", ""),
		json_get_str(doc, "duration_scale", ""),
		repetitions_of(doc, reps, sizeof(reps)),
		json_get_str(doc, "status", ""),
		json_get_str(doc, "suite", ""));
	fprintf(f, "%-5s %-12s %-30s %-14s %-16s %-13s %-13s %-14s %s\n",
		"model", "scenario", "metric", "published", "measured",
		"verdict", "expected", "grants", "wall");
	cJSON_ArrayForEach(r, rows) {
		row_cells(r, &c);
		fprintf(f, "%-5s %-12s %-30s %-14s %-16s %-13s %-13s %-14s "
			"%s\n", json_get_str(r, "model", ""),
			json_get_str(r, "scenario", ""), c.metric, c.published,
			c.measured, json_get_str(r, "verdict", ""),
			json_get_str(r, "expected", ""), c.grants, c.wall);
		if (*json_get_str(r, "evidence", ""))
			fprintf(f, "      against %s: %s\n",
				json_get_str(r, "against", ""),
				json_get_str(r, "evidence", ""));
		if (*json_get_str(r, "max_line", ""))
			fprintf(f, "      the max line: %s\n",
				json_get_str(r, "max_line", ""));
	}
	fprintf(f, "\npublished/measured: before -> after (base -> patched, "
		"or the extension off -> on)\n");
	fprintf(f, "grants: the kernel's (debugfs rseq/stats sgrant, ? without "
		"CONFIG_RSEQ_STATS) and, seen, those extend-sched found still "
		"standing at the end of its critical section\n");
	fprintf(f, "clock: %s\n", strcmp(json_get_str(doc, "clock", ""),
					  "host") ?
		"virtual microseconds at a fixed instruction rate: comparable "
		"between kernels measured the same way, never with bare metal" :
		"the host's clock under TCG: the host's pauses are in it");
	fprintf(f, "note: %s\n", json_get_str(doc, "note", ""));
	fprintf(f, "command: %s\n", json_get_str(doc, "command", ""));
	fprintf(f, "wall time: %.0f s\n", json_get_num(doc, "wall_s", 0));
}

static void write_md(FILE *f, const cJSON *doc, const cJSON *rows)
{
	const char *cell[10];
	const cJSON *r;
	struct cells c;
	char reps[48];
	size_t i;

	/* reproduce.json is read back from disk (--table): escaped too. */
	fputs("## Seed ", f);
	text_md_escape(f, json_get_str(doc, "seed", ""));
	fputs(": ", f);
	text_md_escape(f, json_get_str(doc, "title", ""));
	fputs("\n\nPublished: ", f);
	text_md_escape(f, json_get_str(doc, "source", ""));
	fputs(". Here: Linux ", f);
	text_md_escape(f, json_get_str(doc, "series", ""));
	fprintf(f, " in the QEMU lab (%d vCPU%s), clock ", vcpus_of(doc),
		vcpus_of(doc) == 1 ? "" : "s");
	text_md_escape(f, json_get_str(doc, "clock", ""));
	fputs(", duration scale ", f);
	text_md_escape(f, json_get_str(doc, "duration_scale", ""));
	fprintf(f, "%s.\n\n", repetitions_of(doc, reps, sizeof(reps)));
	fprintf(f, "| model | scenario | metric | published | measured here "
		"| verdict | expected | grants | wall | the max line |\n");
	fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
	/* The cells come from the runs' reports: escaped (textfmt.h). */
	cJSON_ArrayForEach(r, rows) {
		row_cells(r, &c);
		cell[0] = json_get_str(r, "model", "");
		cell[1] = json_get_str(r, "scenario", "");
		cell[2] = c.metric;
		cell[3] = c.published;
		cell[4] = c.measured;
		cell[5] = json_get_str(r, "verdict", "");
		cell[6] = json_get_str(r, "expected", "");
		cell[7] = c.grants;
		cell[8] = c.wall;
		cell[9] = *json_get_str(r, "max_line", "") ?
			  json_get_str(r, "max_line", "") : "-";
		for (i = 0; i < 10; i++) {
			fputs("| ", f);
			text_md_escape(f, cell[i]);
			fputc(' ', f);
		}
		fputs("|\n", f);
	}
	fputc('\n', f);
	text_md_escape(f, json_get_str(doc, "note", ""));
	fputs(".\n\n", f);
	text_md_code(f, json_get_str(doc, "command", ""));
	fputc('\n', f);
}

static int write_with(const char *dir, const char *name, const cJSON *doc,
		      const cJSON *rows,
		      void (*fn)(FILE *, const cJSON *, const cJSON *))
{
	char path[PATH_MAX + 32], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -errno;
	fn(f, doc, rows);
	fclose(f);
	rtpaths_fmt(path, sizeof(path), "%s/%s", dir, name);
	ret = fsio_write_atomic(path, buf, len);
	if (!ret && !strcmp(name, "reproduce.txt"))
		fwrite(buf, 1, len, stdout);
	free(buf);
	return ret;
}

/* The models' worst exit code; one without a valid code is incomplete. */
static int table_exit_code(const cJSON *doc)
{
	const cJSON *models = cJSON_GetObjectItem(doc, "models"), *m;
	int code = EXITCODE_PASS, c;

	if (!cJSON_GetArraySize(models))
		return EXITCODE_INCOMPLETE;
	cJSON_ArrayForEach(m, models) {
		c = (int)json_get_num(m, "exit_code", -1);
		if (c < EXITCODE_PASS || c > EXITCODE_INCOMPLETE)
			c = EXITCODE_INCOMPLETE;
		code = exitcode_worse(code, c);
	}
	return code;
}

int reproduce_table_write(const char *dir, bool rerender, int *exit_code)
{
	char path[PATH_MAX + 32];
	const struct reproduce_seed *s;
	struct json_error err;
	cJSON *doc, *rows;
	int ret, missing;

	rtpaths_fmt(path, sizeof(path), "%s/reproduce.json", dir);
	if (json_read_file(path, &doc, &err)) {
		pr_err("%s", err.msg);
		return -EINVAL;
	}
	s = reproduce_seed_find(json_get_str(doc, "seed", ""));
	if (!s) {
		pr_err("%s: seed '%s' is not one rtgate knows", path,
		       json_get_str(doc, "seed", ""));
		cJSON_Delete(doc);
		return -EINVAL;
	}
	if (cJSON_GetObjectItem(doc, "vcpus") &&
	    (!cJSON_IsNumber(cJSON_GetObjectItem(doc, "vcpus")) ||
	     vcpus_of(doc) < 1 || vcpus_of(doc) > REPRODUCE_MAX_VCPUS)) {
		pr_err("%s: vcpus is not a vCPU count (1..%d)", path,
		       REPRODUCE_MAX_VCPUS);
		cJSON_Delete(doc);
		return -EINVAL;
	}
	rows = build_rows(dir, doc, s, &missing);
	/*
	 * Nothing is rewritten unless it was rebuilt: a table printed again
	 * from runs that are gone would turn measured rows into "not
	 * measured". The old files stay as they were.
	 */
	if (rerender && missing) {
		pr_err("%s: %d model%s report%s cannot be read, neither "
		       "where it was written nor below %s (removed?): the "
		       "table is left as it was", path, missing,
		       missing > 1 ? "s'" : "'s", missing > 1 ? "s" : "", dir);
		cJSON_Delete(rows);
		cJSON_Delete(doc);
		return -ENOENT;
	}
	cJSON_DeleteItemFromObject(doc, "rows");
	cJSON_AddItemToObject(doc, "rows", rows);
	ret = json_write_file(path, doc);
	if (!ret)
		ret = write_with(dir, "reproduce.md", doc, rows, write_md);
	if (!ret)
		ret = write_with(dir, "reproduce.txt", doc, rows, write_text);
	if (exit_code)
		*exit_code = table_exit_code(doc);
	cJSON_Delete(doc);
	return ret;
}
