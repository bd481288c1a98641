// SPDX-License-Identifier: GPL-2.0-only
/*
 * Results directories (docs/results.md): the manifest says which
 * repetitions of a scenario are valid, where their files are, in which
 * order they ran, the suite's gate and the published reference numbers.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "textfmt.h"

/* Every string of the manifest, keys too, is UTF-8 (reports are). */
static int check_utf8(const char *path, const cJSON *v, char *where,
		      size_t len, size_t at)
{
	const cJSON *c;
	int i = 0;

	if (v->string && !text_utf8_valid(v->string, strlen(v->string))) {
		pr_err("%s: %s: a key that is not UTF-8", path, where);
		return -EINVAL;
	}
	if (cJSON_IsString(v) && !text_utf8_valid(v->valuestring,
						  strlen(v->valuestring))) {
		pr_err("%s: %s: not UTF-8", path, where);
		return -EINVAL;
	}
	cJSON_ArrayForEach(c, v) {
		if (cJSON_IsArray(v))
			snprintf(where + at, len - at, "[%d]", i++);
		else
			snprintf(where + at, len - at, "%s%.64s",
				 at ? "." : "", c->string && text_utf8_valid(
				 c->string, strlen(c->string)) ? c->string :
				 "?");
		if (check_utf8(path, c, where, len, strlen(where)))
			return -EINVAL;
		where[at] = '\0';
	}
	return 0;
}

/* An optional string field: absent, or a string @ok accepts. */
static int check_name(const char *path, const cJSON *obj, const char *key,
		      const char *field, bool (*ok)(const char *), bool need)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v && !need)
		return 0;
	if (!cJSON_IsString(v)) {
		pr_err("%s: %s: %s", path, field, v ? "not a string" :
		       "missing");
		return -EINVAL;
	}
	if (!ok(v->valuestring)) {
		pr_err("%s: %s: '%s' is not a name (%s)", path, field,
		       v->valuestring, ok == parse_name ?
		       "1-64 letters, digits, '-' and '_'" :
		       "1-128 letters, digits, '.', '-' and '_', from a letter "
		       "or digit");
		return -EINVAL;
	}
	return 0;
}

static int check_gate(const char *path, const cJSON *m)
{
	static const char *const floors[] = { "min_increase_us",
					      "min_increase_pct" };
	const cJSON *g, *v;
	size_t i;

	g = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(m, "suite"), "gate");
	if (!g)
		return 0;
	v = cJSON_GetObjectItemCaseSensitive(g, "alpha");
	if (v && !(cJSON_IsNumber(v) && v->valuedouble > 0 &&
		   v->valuedouble < 1)) {
		pr_err("%s: suite.gate.alpha: not a number between 0 and 1",
		       path);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		v = cJSON_GetObjectItemCaseSensitive(g, floors[i]);
		if (v && !(cJSON_IsNumber(v) && v->valuedouble >= 0)) {
			pr_err("%s: suite.gate.%s: not a number >= 0", path,
			       floors[i]);
			return -EINVAL;
		}
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(g, "budgets")) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0)) {
			pr_err("%s: suite.gate.budgets.%s: not a number >= 0",
			       path, v->string ? v->string : "?");
			return -EINVAL;
		}
	}
	return 0;
}

static const cJSON *scenario_named(const cJSON *all, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, all)
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

/*
 * @measured: the run says it completed. One that did not (a LAVA job that
 * never booted) may have no scenario: it is incomplete, never a pass.
 */
static int check_scenarios(const char *path, const cJSON *all,
			   bool measured)
{
	const cJSON *s, *t, *c;
	char field[128];
	int i = 0, j, n = cJSON_GetArraySize(all);

	if (cJSON_IsArray(all) && !n && !measured)
		return 0;
	if (!cJSON_IsArray(all) || !n) {
		pr_err("%s: scenarios: %s", path, cJSON_IsArray(all) ?
		       "empty (a run of no scenario judges nothing)" :
		       "no \"scenarios\" array");
		return -EINVAL;
	}
	cJSON_ArrayForEach(s, all) {
		snprintf(field, sizeof(field), "scenarios[%d].name", i);
		if (!cJSON_IsObject(s)) {
			pr_err("%s: scenarios[%d]: not an object", path, i);
			return -EINVAL;
		}
		if (check_name(path, s, "name", field, parse_name, true))
			return -EINVAL;
		if (scenario_named(all, json_get_str(s, "name", "")) != s) {
			pr_err("%s: %s: duplicate scenario '%s'", path, field,
			       json_get_str(s, "name", ""));
			return -EINVAL;
		}
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(s, all) {
		const char *name = json_get_str(s, "name", "");

		snprintf(field, sizeof(field), "scenarios[%d].compare", i++);
		c = cJSON_GetObjectItemCaseSensitive(s, "compare");
		if (!c || cJSON_IsNull(c))
			continue;
		if (!cJSON_IsString(c) || !scenario_named(all,
							  c->valuestring)) {
			pr_err("%s: %s: '%s' is not a scenario of this run",
			       path, field, cJSON_IsString(c) ?
			       c->valuestring : "?");
			return -EINVAL;
		}
		if (!strcmp(c->valuestring, name)) {
			pr_err("%s: %s: scenario '%s' is compared with itself",
			       path, field, name);
			return -EINVAL;
		}
		/* Each has one baseline: a chain longer than n loops. */
		for (t = s, j = 0; t && j <= n; j++)
			t = scenario_named(all, json_get_str(t, "compare",
							     ""));
		if (t) {
			pr_err("%s: %s: the comparisons from '%s' go round "
			       "in a cycle", path, field, name);
			return -EINVAL;
		}
	}
	return 0;
}

int an_manifest_check(const char *path, const cJSON *m)
{
	static const char *const status[] = { "complete", "incomplete",
					      "aborted" };
	const char *schema = json_get_str(m, "schema", "");
	const cJSON *st;
	char where[512] = "";
	size_t i;

	if (!cJSON_IsObject(m) || strcmp(schema, "rtgate-manifest/1")) {
		pr_err("%s: schema: \"%s\" is not rtgate-manifest/1", path,
		       schema);
		return -EINVAL;
	}
	if (check_utf8(path, m, where, sizeof(where), 0) ||
	    check_name(path, m, "run_id", "run_id", parse_host_name, false) ||
	    check_name(path, cJSON_GetObjectItemCaseSensitive(m, "suite"),
		       "name", "suite.name", parse_name, false) ||
	    check_name(path, cJSON_GetObjectItemCaseSensitive(m, "host"),
		       "hostname", "host.hostname", parse_host_name, false) ||
	    check_gate(path, m) ||
	    check_scenarios(path, cJSON_GetObjectItemCaseSensitive(m,
							"scenarios"),
			    !strcmp(json_get_str(m, "status", ""),
				    "complete")))
		return -EINVAL;
	st = cJSON_GetObjectItemCaseSensitive(m, "status");
	if (!st)
		return 0;
	for (i = 0; i < sizeof(status) / sizeof(status[0]); i++)
		if (cJSON_IsString(st) && !strcmp(st->valuestring, status[i]))
			return 0;
	pr_err("%s: status: not complete, incomplete or aborted", path);
	return -EINVAL;
}

int an_results_open(const char *dir, struct an_results *res)
{
	struct json_error err;
	char path[PATH_MAX];

	memset(res, 0, sizeof(*res));
	rtpaths_fmt(res->dir, sizeof(res->dir), "%s", dir);
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", dir);
	if (json_read_file(path, &res->manifest, &err)) {
		pr_err("%s", err.msg);
		return -EINVAL;
	}
	if (an_manifest_check(path, res->manifest))
		goto bad;
	res->status = json_get_str(res->manifest, "status", "incomplete");
	return 0;
bad:
	cJSON_Delete(res->manifest);
	res->manifest = NULL;
	return -EINVAL;
}

void an_results_close(struct an_results *res)
{
	cJSON_Delete(res->manifest);
	res->manifest = NULL;
}

/* "budgets": { "max_us": 100, "p99_us": 30 } */
static void budgets_from(const cJSON *b, struct an_gate *gate)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, b) {
		size_t n = strlen(v->string);
		struct an_budget *bu;

		if (!cJSON_IsNumber(v) || n < 4 || gate->nbudgets ==
		    AN_MAX_BUDGETS || strcmp(v->string + n - 3, "_us"))
			continue;
		bu = &gate->budgets[gate->nbudgets++];
		rtpaths_fmt(bu->metric, sizeof(bu->metric), "%.*s", (int)(n -
			    3), v->string);
		bu->us = v->valuedouble;
	}
}

void an_results_gate(const struct an_results *res, struct an_gate *gate)
{
	an_gate_of_manifest(res->manifest, gate);
}

void an_gate_of_manifest(const cJSON *manifest, struct an_gate *gate)
{
	const cJSON *suite, *g;

	an_gate_default(gate);
	suite = cJSON_GetObjectItemCaseSensitive(manifest, "suite");
	g = cJSON_GetObjectItemCaseSensitive(suite, "gate");
	if (!cJSON_IsObject(g))
		return;
	rtpaths_fmt(gate->metric, sizeof(gate->metric), "%s",
		 json_get_str(g, "metric", gate->metric));
	gate->alpha = json_get_num(g, "alpha", gate->alpha);
	gate->min_increase_us = json_get_num(g, "min_increase_us",
					     gate->min_increase_us);
	gate->min_increase_pct = json_get_num(g, "min_increase_pct",
					      gate->min_increase_pct);
	budgets_from(cJSON_GetObjectItemCaseSensitive(g, "budgets"), gate);
}

int an_results_profile(const struct an_results *res, struct an_profile *pr)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(res->manifest,
							  "noise_profile");
	char what[PATH_MAX + 32];

	if (!o)
		return 1;
	rtpaths_fmt(what, sizeof(what), "%s/manifest.json: noise_profile",
		    res->dir);
	return an_profile_from_json(what, o, pr);
}

/*
 * --until-decided (docs/statistics.md): the share of alpha a comparison
 * was judged at when its candidate stopped, from the manifest's
 * "sequential" record; alpha itself when the run had none.
 */
int an_results_stop(const struct an_results *res, const char *candidate,
		    size_t *nbase, size_t *ncand)
{
	const cJSON *seq, *stop;

	seq = cJSON_GetObjectItemCaseSensitive(res->manifest, "sequential");
	stop = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(seq, "stopped"), candidate);
	if (!cJSON_IsObject(stop))
		return 0;
	*nbase = json_get_num(stop, "baseline_repetitions", 0);
	*ncand = json_get_num(stop, "candidate_repetitions", 0);
	return *nbase && *ncand;
}

double an_results_look_level(const struct an_results *res,
			     const char *candidate, double alpha)
{
	const cJSON *seq, *looks, *stop, *look;
	int n, at;

	seq = cJSON_GetObjectItemCaseSensitive(res->manifest, "sequential");
	looks = cJSON_GetObjectItemCaseSensitive(seq, "looks");
	n = cJSON_GetArraySize(looks);
	if (!n)
		return alpha;
	stop = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(seq, "stopped"), candidate);
	stop = cJSON_GetObjectItemCaseSensitive(stop, "look");
	at = cJSON_IsNumber(stop) ? stop->valueint : n - 1;
	if (at < 0 || at >= n)
		at = n - 1;
	look = cJSON_GetArrayItem(looks, at);
	return json_get_num(look, "level", alpha);
}

size_t an_results_look_schedule(const struct an_results *res,
				 const char *candidate, double *t, size_t max)
{
	const cJSON *seq, *looks, *stop, *look;
	int n, at, i;

	seq = cJSON_GetObjectItemCaseSensitive(res->manifest, "sequential");
	looks = cJSON_GetObjectItemCaseSensitive(seq, "looks");
	n = cJSON_GetArraySize(looks);
	stop = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(seq, "stopped"), candidate);
	stop = cJSON_GetObjectItemCaseSensitive(stop, "look");
	at = cJSON_IsNumber(stop) ? stop->valueint : n - 1;
	if (!n || at < 0 || at >= n || (size_t)at + 1 > max)
		return 0;
	for (i = 0; i <= at; i++) {
		look = cJSON_GetArrayItem(looks, i);
		t[i] = json_get_num(look, "t", NAN);
		/* An older record without ts: the increments alone. */
		if (!(t[i] > 0 && t[i] <= 1) || (i && t[i] < t[i - 1]))
			return 0;
	}
	return (size_t)at + 1;
}

static const cJSON *find_scenario(const struct an_results *res,
				  const char *name)
{
	const cJSON *s, *all;

	all = cJSON_GetObjectItemCaseSensitive(res->manifest, "scenarios");
	cJSON_ArrayForEach(s, all)
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

/* Position of (scenario, rep) in the manifest's execution order. */
static int exec_order(const struct an_results *res, const char *scen,
		      int rep)
{
	const cJSON *order, *e;
	int i = 0;

	order = cJSON_GetObjectItemCaseSensitive(res->manifest, "order");
	cJSON_ArrayForEach(e, order) {
		const cJSON *n = cJSON_GetArrayItem(e, 0);
		const cJSON *r = cJSON_GetArrayItem(e, 1);

		if (cJSON_IsString(n) && cJSON_IsNumber(r) &&
		    !strcmp(n->valuestring, scen) && r->valueint == rep)
			return i;
		i++;
	}
	return -1;
}

static int read_metric(const char *what, const char *wl, const cJSON *m,
		       struct an_run *run)
{
	const cJSON *vals, *v;
	char name[96];
	double *buf;
	size_t n = 0;
	int ret;

	vals = cJSON_GetObjectItemCaseSensitive(m, "values");
	if (!cJSON_IsArray(vals)) {
		pr_err("%s: metric %s.%s has no \"values\" array", what, wl,
		       m->string);
		return -EINVAL;
	}
	buf = calloc(cJSON_GetArraySize(vals) + 1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	cJSON_ArrayForEach(v, vals) {
		if (!cJSON_IsNumber(v)) {
			pr_err("%s: metric %s.%s: value %zu is not a number",
			       what, wl, m->string, n + 1);
			free(buf);
			return -EINVAL;
		}
		buf[n++] = v->valuedouble;
	}
	rtpaths_fmt(name, sizeof(name), "%s.%s", wl, m->string);
	ret = an_run_add_metric(run, name, json_get_str(m, "unit", ""),
				!strcmp(json_get_str(m, "better", "lower"),
					"higher"), buf, n);
	free(buf);
	return ret;
}

static int read_workloads(const char *what, const cJSON *rep,
			  struct an_run *run)
{
	const cJSON *wls, *wl, *metrics, *m;
	int ret;

	wls = cJSON_GetObjectItemCaseSensitive(rep, "workloads");
	cJSON_ArrayForEach(wl, wls) {
		struct an_workload sum = {
			.work_done = json_get_num(wl, "work_done", NAN),
			.errors = json_get_num(wl, "errors", 0),
		};

		rtpaths_fmt(sum.name, sizeof(sum.name), "%s", wl->string);
		rtpaths_fmt(sum.unit, sizeof(sum.unit), "%s",
			    json_get_str(wl, "work_unit", ""));
		if (an_run_add_workload(run, &sum))
			return -ENOMEM;
		metrics = cJSON_GetObjectItemCaseSensitive(wl, "metrics");
		cJSON_ArrayForEach(m, metrics) {
			ret = read_metric(what, wl->string, m, run);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The kernel's rseq/stats difference the runner kept, when it had one. */
static void read_rseq_stats(const cJSON *rep, struct an_run *run)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(rep, "rseq_stats");
	int i;

	for (i = 0; i < AN_RSEQ_NR; i++)
		run->rseq[i] = json_get_num(st, an_rseq_names[i], NAN);
}

/* How a scenario measured: its tool (an_tool) and which of its latencies. */
struct rep_measure {
	const struct an_tool *tool;
	size_t side;
	uint32_t limit;		/* the histogram size (-h / rtla -E) */
};

/* How long a repetition ran, from its manifest times; 0 unknown. */
static double rep_seconds(const cJSON *rep)
{
	time_t a, b;

	if (parse_utc_time(json_get_str(rep, "start_time", NULL), &a) ||
	    parse_utc_time(json_get_str(rep, "end_time", NULL), &b) || b < a)
		return 0;
	return difftime(b, a);
}

/* The repetition's host_io: silent, loud, or not recorded. */
static enum an_host_io rep_host_io(const cJSON *rep)
{
	const cJSON *io = cJSON_GetObjectItemCaseSensitive(rep, "host_io");
	const cJSON *silent = cJSON_GetObjectItemCaseSensitive(io, "silent");

	if (!cJSON_IsBool(silent))
		return AN_HOST_IO_UNKNOWN;
	return cJSON_IsTrue(silent) ? AN_HOST_IO_SILENT : AN_HOST_IO_LOUD;
}

static int read_rep(const struct an_results *res, const char *scen,
		    const cJSON *rep, const struct rep_measure *how,
		    struct an_side *side)
{
	char path[PATH_MAX], what[PATH_MAX + 64], label[32];
	const char *dir = json_get_str(rep, "dir", NULL);
	int r = (int)json_get_num(rep, "rep", side->nruns + 1);
	struct an_run *run;
	int ret;

	rtpaths_fmt(label, sizeof(label), "rep %d", r);
	run = an_side_add_run(side, label, 0);
	if (!run)
		return -ENOMEM;
	run->rep = r;
	run->order = exec_order(res, scen, r);
	run->seconds = rep_seconds(rep);
	run->host_io = rep_host_io(rep);
	rtpaths_fmt(what, sizeof(what), "%s/manifest.json: scenario %s rep %d",
		 res->dir, scen, r);
	read_rseq_stats(rep, run);
	ret = read_workloads(what, rep, run);
	if (ret || !how->tool->read)
		return ret;
	if (!dir) {
		pr_err("%s: no \"dir\"", what);
		return -EINVAL;
	}
	if (!rtpaths_below(dir)) {
		pr_err("%s: \"dir\" '%s' leaves the results directory", what,
		       dir);
		return -EINVAL;
	}
	rtpaths_fmt(path, sizeof(path), "%s/%s", res->dir, dir);
	return how->tool->read(how->tool, path, how->side, how->limit, run);
}

static int read_reference(const cJSON *scen, struct an_side *side)
{
	const cJSON *ref, *t, *v, *vals;
	struct an_reference *r;
	const char **lines = NULL;
	size_t n = 0, i = 0;
	int ret = 0;

	ref = cJSON_GetObjectItemCaseSensitive(scen, "reference");
	if (!cJSON_IsObject(ref))
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	side->ref = r;
	rtpaths_fmt(r->source, sizeof(r->source), "%s",
		 json_get_str(ref, "source", ""));
	t = cJSON_GetObjectItemCaseSensitive(ref, "T");
	n = cJSON_GetArraySize(t);
	if (n) {
		lines = calloc(n, sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		cJSON_ArrayForEach(v, t)
			lines[i++] = cJSON_IsString(v) ? v->valuestring : "";
		ret = an_parse_tline_array(side->origin, lines, n, &r->cpus,
					   &r->ncpus);
		free(lines);
		if (ret)
			return ret;
	}
	vals = cJSON_GetObjectItemCaseSensitive(ref, "values");
	n = cJSON_GetArraySize(vals);
	if (!n)
		return 0;
	r->value_names = calloc(n, sizeof(*r->value_names));
	r->values = calloc(n, sizeof(*r->values));
	if (!r->value_names || !r->values)
		return -ENOMEM;
	cJSON_ArrayForEach(v, vals) {
		if (!cJSON_IsNumber(v))
			continue;
		rtpaths_fmt(r->value_names[r->nvalues], 96, "%s", v->string);
		r->values[r->nvalues++] = v->valuedouble;
	}
	return 0;
}

/* Every repetition invalid: the first one's reason says why. */
static void first_invalid_reason(const cJSON *scen, struct an_side *side)
{
	const cJSON *rep;
	int n = 0;

	cJSON_ArrayForEach(rep, cJSON_GetObjectItemCaseSensitive(scen,
							"repetitions")) {
		const char *why = json_get_str(rep, "reason", NULL);

		n++;
		if (why && *why) {
			rtpaths_fmt(side->reason, sizeof(side->reason),
				    "no valid repetition; rep %d: %s", n, why);
			return;
		}
	}
}

/* The manifest's lab.clock (docs/kernels.md) is of kind "icount". */
bool an_system_clock_virtual(const cJSON *m)
{
	const cJSON *lab = cJSON_GetObjectItemCaseSensitive(m, "lab");
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(lab, "clock");

	return !strcmp(json_get_str(clock, "kind", "host"), "icount");
}

int an_results_side(const struct an_results *res, const char *scenario,
		    struct an_side **out)
{
	const cJSON *scen, *reps, *rep, *suite, *measure;
	const char *status, *suffix = NULL;
	struct rep_measure how = { 0 };
	struct an_side *side;
	int ret, invalid = 0, empty;
	char base[128];

	scen = find_scenario(res, scenario);
	/* S.irq: a further latency of S (an_tool's sides), timerlat's IRQ. */
	if (!scen) {
		suffix = an_tool_side_of(scenario, base, sizeof(base));
		scen = suffix ? find_scenario(res, base) : NULL;
	}
	if (!scen) {
		pr_err("%s: no scenario \"%s\" in the manifest", res->dir,
		       scenario);
		return -EINVAL;
	}
	side = an_side_new(scenario);
	if (!side)
		return -ENOMEM;
	rtpaths_fmt(side->origin, sizeof(side->origin), "%s:%s", res->dir,
		 scenario);
	side->incomplete = strcmp(res->status, "complete") != 0;
	side->order_known = cJSON_IsArray(
		cJSON_GetObjectItemCaseSensitive(res->manifest, "order"));
	side->virtual_clock = an_system_clock_virtual(res->manifest);
	suite = cJSON_GetObjectItemCaseSensitive(res->manifest, "suite");
	measure = cJSON_GetObjectItemCaseSensitive(suite, "measure");
	how.tool = an_tool_of(res->manifest, scen);
	how.limit = (uint32_t)json_get_num(measure, "histogram_us", 0);
	if (!how.tool) {
		pr_err("%s/manifest.json: scenario %s: unknown tool '%s'",
		       res->dir, json_get_str(scen, "name", scenario),
		       json_get_str(scen, "tool", json_get_str(measure, "tool",
							       "")));
		an_side_free(side);
		return -EINVAL;
	}
	how.side = suffix ? an_tool_side_index(how.tool, suffix) : 0;
	if (how.side == (size_t)-1) {
		pr_err("%s: %s measured with %s has no %s side", res->dir,
		       base, how.tool->name, suffix);
		an_side_free(side);
		return -EINVAL;
	}
	status = json_get_str(scen, "status", "ok");
	rtpaths_fmt(side->reason, sizeof(side->reason), "%s",
		 json_get_str(scen, "reason", ""));
	ret = read_reference(scen, side);
	if (ret)
		goto fail;
	/* ok and partial have repetitions to judge; anything else has none. */
	if (!strcmp(status, "invalid") && !side->reason[0])
		first_invalid_reason(scen, side);
	if (strcmp(status, "ok") && strcmp(status, "partial")) {
		side->status = !strcmp(status, "skipped") ? AN_SIDE_SKIPPED :
							    AN_SIDE_INVALID;
		if (!side->reason[0] || (strcmp(status, "skipped") &&
					 strcmp(status, "invalid")))
			rtpaths_fmt(side->reason, sizeof(side->reason),
				    "%s%s%s", !strcmp(status, "not_run") ?
				    "not run: the run ended before any of its "
				    "repetitions completed" : status,
				    side->reason[0] ? ": " : "",
				    json_get_str(scen, "reason", ""));
		*out = side;
		return 0;
	}
	reps = cJSON_GetObjectItemCaseSensitive(scen, "repetitions");
	cJSON_ArrayForEach(rep, reps) {
		if (strcmp(json_get_str(rep, "status", ""), "ok")) {
			invalid++;
			continue;
		}
		ret = read_rep(res, json_get_str(scen, "name", scenario), rep,
			       &how, side);
		if (ret)
			goto fail;
		empty = an_run_empty_thread(&side->runs[side->nruns - 1]);
		if (empty >= 0) {
			/* A starved measurement is no evidence either way. */
			rtpaths_fmt(side->reason, sizeof(side->reason), "%s: "
				    "thread %d has no samples (cycles 0)",
				    side->runs[side->nruns - 1].label, empty);
			an_side_drop_last(side);
			invalid++;
		}
	}
	ret = an_side_check(side);
	if (ret)
		goto fail;
	if (!side->nruns) {
		side->status = AN_SIDE_INVALID;
		if (!side->reason[0])
			rtpaths_fmt(side->reason, sizeof(side->reason),
				 "no valid repetition");
	} else if (invalid) {
		char why[256];

		rtpaths_fmt(why, sizeof(why), "%s", side->reason);
		rtpaths_fmt(side->reason, sizeof(side->reason),
			    "%d repetition%s left out%s%s", invalid,
			    invalid > 1 ? "s" : "", why[0] ? ": " : "", why);
	}
	*out = side;
	return 0;
fail:
	an_side_free(side);
	return ret;
}
