// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results manifest (runner_priv.h, docs/results.md): the suite, the
 * environment, the order and every repetition, written atomically after
 * each one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "runner/runner_priv.h"
#include "vec.h"
#include "timefmt.h"
#include "trace/trace.h"

static void add_str_or_null(cJSON *obj, const char *key, const char *val)
{
	if (val)
		cJSON_AddStringToObject(obj, key, val);
	else
		cJSON_AddNullToObject(obj, key);
}

static void add_time(cJSON *obj, const char *key, const struct timespec *ts)
{
	char buf[32];

	if (!ts->tv_sec)
		return;
	timefmt_iso8601(ts->tv_sec, buf, sizeof(buf));
	cJSON_AddStringToObject(obj, key, buf);
}

static cJSON *strv_json(char *const *v)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; arr && v && v[i]; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(v[i]));
	return arr;
}

static const char *order_name(enum runner_suite_order order)
{
	return order == RUNNER_SUITE_ORDER_BLOCKED ? "blocked" :
	       order == RUNNER_SUITE_ORDER_RANDOMIZED ? "randomized" :
	       "interleaved";
}

/* Whether a scenario of @s measures with @t. */
static bool tool_used(const struct runner_suite *s, const struct an_tool *t)
{
	size_t i;

	for (i = 0; i < s->nr_scenarios; i++)
		if (s->scenarios[i].tool == t)
			return true;
	return false;
}

static cJSON *suite_json(const struct runner_run *run)
{
	const struct runner_suite *s = run->suite;
	const struct an_tool *t, *ct = an_tool_find("cyclictest");
	cJSON *obj = cJSON_CreateObject(), *m, *g;
	bool measures = false;
	size_t i;

	for (i = 0; i < s->nr_scenarios; i++)
		measures |= s->scenarios[i].tool->program != NULL;

	cJSON_AddStringToObject(obj, "name", s->name);
	add_str_or_null(obj, "description", s->description);
	cJSON_AddStringToObject(obj, "file", s->path);
	cJSON_AddStringToObject(obj, "sha256", run->suite_sha256);
	cJSON_AddNumberToObject(obj, "repetitions", run->repetitions);
	cJSON_AddStringToObject(obj, "order", order_name(s->order));
	cJSON_AddNumberToObject(obj, "duration_scale", run->scale);
	m = cJSON_AddObjectToObject(obj, "measure");
	cJSON_AddStringToObject(m, "tool", s->measure.tool->name);
	/* Each tool's options under its key ("timerlat_args"); "args" last. */
	for (i = 0; (t = an_tool_at(i)); i++)
		if (t->program && t != ct && tool_used(s, t))
			cJSON_AddItemToObject(m, t->args_key, strv_json(
				runner_suite_opts(&s->measure, t)->argv));
	if (measures) {
		cJSON_AddItemToObject(m, "args", strv_json(
			runner_suite_opts(&s->measure, ct)->argv));
		if (run->duration_s)
			cJSON_AddNumberToObject(m, "duration_s",
						run->duration_s);
		else
			cJSON_AddNullToObject(m, "duration_s");
		if (run->loops)
			cJSON_AddNumberToObject(m, "loops", run->loops);
		else
			cJSON_AddNullToObject(m, "loops");
		cJSON_AddNumberToObject(m, "histogram_us",
					s->measure.histogram_us);
	}
	cJSON_AddNumberToObject(m, "timeout_s", s->measure.timeout_ns / 1e9);
	cJSON_AddNumberToObject(m, "ready_timeout_s",
				s->measure.ready_timeout_ns / 1e9);
	cJSON_AddNumberToObject(m, "watchdog_s", s->measure.watchdog_ns / 1e9);
	cJSON_AddStringToObject(m, "trace", trace_capture_name(run->trace));
	g = cJSON_AddObjectToObject(obj, "gate");
	cJSON_AddStringToObject(g, "metric", s->gate.metric);
	cJSON_AddNumberToObject(g, "alpha", s->gate.alpha);
	cJSON_AddNumberToObject(g, "min_increase_us", s->gate.min_increase_us);
	cJSON_AddNumberToObject(g, "min_increase_pct",
				s->gate.min_increase_pct);
	if (s->gate.nr_budgets) {
		cJSON *b = cJSON_AddObjectToObject(g, "budgets");

		for (i = 0; i < s->gate.nr_budgets; i++) {
			char key[24];

			snprintf(key, sizeof(key), "%s_us",
				 s->gate.budgets[i].metric);
			cJSON_AddNumberToObject(b, key, s->gate.budgets[i].us);
		}
	}
	if (s->gate.until_decided_ns)
		cJSON_AddNumberToObject(g, "until_decided_s",
					s->gate.until_decided_ns / 1e9);
	return obj;
}

static cJSON *reference_json(const struct runner_suite_reference *ref)
{
	cJSON *obj = cJSON_CreateObject(), *values;
	size_t i;

	add_str_or_null(obj, "source", ref->source);
	cJSON_AddItemToObject(obj, "T", strv_json(ref->T));
	values = cJSON_AddObjectToObject(obj, "values");
	for (i = 0; i < ref->nr_values; i++)
		cJSON_AddNumberToObject(values, ref->values[i].metric,
					ref->values[i].value);
	return obj;
}

static cJSON *proc_json(const struct runner_rep_proc *p)
{
	cJSON *obj = cJSON_CreateObject(), *ex;

	cJSON_AddStringToObject(obj, "name", p->name);
	cJSON_AddItemToObject(obj, "argv", strv_json(p->argv));
	if (p->pid)
		cJSON_AddNumberToObject(obj, "pid", p->pid);
	if (p->workload) {
		cJSON_AddStringToObject(obj, "cpus", p->cpus ? p->cpus : "all");
		cJSON_AddStringToObject(obj, "policy",
					p->policy ? p->policy : "other");
		cJSON_AddNumberToObject(obj, "nice", p->has_nice ? p->nice : 0);
		if (p->ready_s >= 0)
			cJSON_AddNumberToObject(obj, "ready_s",
						(long)(p->ready_s * 1000) /
						1000.0);
		else
			cJSON_AddNullToObject(obj, "ready_s");
	}
	if (p->error)
		cJSON_AddStringToObject(obj, "error", p->error);
	if (!p->exited) {
		cJSON_AddNullToObject(obj, "exit");
		return obj;
	}
	ex = cJSON_AddObjectToObject(obj, "exit");
	if (p->sig) {
		cJSON_AddNumberToObject(ex, "signal", p->sig);
		cJSON_AddBoolToObject(ex, "by_runner", p->by_runner);
	} else {
		cJSON_AddNumberToObject(ex, "code", p->code);
	}
	return obj;
}

static cJSON *rep_json(const struct runner_rep_result *rr)
{
	cJSON *obj = cJSON_CreateObject(), *procs;
	size_t i;

	cJSON_AddNumberToObject(obj, "rep", rr->rep);
	cJSON_AddStringToObject(obj, "dir", rr->dir);
	cJSON_AddStringToObject(obj, "status", runner_rep_status_name(rr->status));
	if (rr->reason)
		cJSON_AddStringToObject(obj, "reason", rr->reason);
	add_time(obj, "start_time", &rr->start);
	add_time(obj, "end_time", &rr->end);
	procs = cJSON_AddArrayToObject(obj, "processes");
	for (i = 0; i < rr->nr_procs; i++)
		cJSON_AddItemToArray(procs, proc_json(&rr->procs[i]));
	cJSON_AddItemToObject(obj, "workloads", rr->workloads ?
			      cJSON_Duplicate(rr->workloads, 1) :
			      cJSON_CreateObject());
	if (rr->trace)
		cJSON_AddItemToObject(obj, "trace",
				      cJSON_Duplicate(rr->trace, 1));
	if (rr->rseq_stats)
		cJSON_AddItemToObject(obj, "rseq_stats",
				      cJSON_Duplicate(rr->rseq_stats, 1));
	if (rr->rtla_aa)
		cJSON_AddItemToObject(obj, "rtla_aa",
				      cJSON_Duplicate(rr->rtla_aa, 1));
	if (rr->host_io.known)
		cJSON_AddItemToObject(obj, "host_io",
				      runner_hostio_json(&rr->host_io));
	return obj;
}

static cJSON *scen_json(const struct runner_scen_result *sr)
{
	const struct runner_suite_scenario *sc = sr->sc;
	cJSON *obj = cJSON_CreateObject(), *reps;
	size_t i;

	cJSON_AddStringToObject(obj, "name", sc->name);
	add_str_or_null(obj, "description", sc->description);
	add_str_or_null(obj, "compare", sc->compare);
	add_str_or_null(obj, "control", runner_suite_control_name(sc->control));
	cJSON_AddStringToObject(obj, "tool", sc->tool->name);
	add_str_or_null(obj, "metric", sc->metric);
	cJSON_AddStringToObject(obj, "status", runner_scen_status_name(sr));
	if (sr->reason)
		cJSON_AddStringToObject(obj, "reason", sr->reason);
	cJSON_AddItemToObject(obj, "tunables", sr->tunables ?
			      cJSON_Duplicate(sr->tunables, 1) :
			      cJSON_CreateObject());
	cJSON_AddItemToObject(obj, "requires", strv_json(sc->requires));
	if (sc->reference)
		cJSON_AddItemToObject(obj, "reference",
				      reference_json(sc->reference));
	else
		cJSON_AddNullToObject(obj, "reference");
	reps = cJSON_AddArrayToObject(obj, "repetitions");
	for (i = 0; i < sr->nr_reps; i++)
		cJSON_AddItemToArray(reps, rep_json(&sr->reps[i]));
	return obj;
}

static void add_env(cJSON *m, const cJSON *env)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, env)
		cJSON_AddItemToObject(m, item->string,
				      cJSON_Duplicate(item, 1));
}

static cJSON *runner_manifest_build(const struct runner_run *run)
{
	cJSON *m = cJSON_CreateObject(), *order, *scens;
	size_t i;

	if (!m)
		return NULL;
	cJSON_AddStringToObject(m, "schema", MANIFEST_SCHEMA);
	cJSON_AddStringToObject(m, "run_id", run->id);
	cJSON_AddStringToObject(m, "status", runner_run_status_name(run->status));
	if (run->status != RUNNER_RUN_COMPLETE)
		cJSON_AddStringToObject(m, "status_reason", run->reason[0] ?
					run->reason : "running");
	cJSON_AddStringToObject(m, "rtgate_version", RTGATE_VERSION);
	add_time(m, "start_time", &run->start);
	if (run->ended)
		add_time(m, "end_time", &run->end);
	cJSON_AddItemToObject(m, "suite", suite_json(run));
	if (run->env)
		add_env(m, run->env);
	cJSON_AddItemToObject(m, "tunables_before", run->tunables_before ?
			      cJSON_Duplicate(run->tunables_before, 1) :
			      cJSON_CreateObject());
	if (run->tunables_after)
		cJSON_AddItemToObject(m, "tunables_after",
				      cJSON_Duplicate(run->tunables_after, 1));
	if (run->noise_profile)
		cJSON_AddItemToObject(m, "noise_profile",
				      cJSON_Duplicate(run->noise_profile, 1));
	if (run->sequential)
		cJSON_AddItemToObject(m, "sequential",
				      cJSON_Duplicate(run->sequential, 1));
	order = cJSON_AddArrayToObject(m, "order");
	for (i = 0; i < run->nr_order; i++) {
		cJSON *step = cJSON_CreateArray();

		cJSON_AddItemToArray(step, cJSON_CreateString(
			run->suite->scenarios[run->order[i].scen].name));
		cJSON_AddItemToArray(step, cJSON_CreateNumber(
			run->order[i].rep));
		cJSON_AddItemToArray(order, step);
	}
	scens = cJSON_AddArrayToObject(m, "scenarios");
	for (i = 0; i < run->suite->nr_scenarios; i++)
		cJSON_AddItemToArray(scens, scen_json(&run->scens[i]));
	return m;
}

int runner_manifest_write(const struct runner_run *run)
{
	char path[PATH_MAX];
	cJSON *m;
	int ret;

	if (snprintf(path, sizeof(path), "%s/manifest.json", run->dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	m = runner_manifest_build(run);
	if (!m)
		return -ENOMEM;
	ret = json_write_file(path, m);
	cJSON_Delete(m);
	return ret;
}

/* ---- the model's names and destructors ----------------------------------- */

const char *runner_rep_status_name(enum runner_rep_status st)
{
	static const char *const names[] = {
		[RUNNER_REP_OK] = "ok",
		[RUNNER_REP_INVALID] = "invalid",
		[RUNNER_REP_SKIPPED] = "skipped",
		[RUNNER_REP_ABORTED] = "aborted",
	};

	return names[st];
}

const char *runner_run_status_name(enum runner_run_status st)
{
	static const char *const names[] = {
		[RUNNER_RUN_INCOMPLETE] = "incomplete",
		[RUNNER_RUN_COMPLETE] = "complete",
		[RUNNER_RUN_ABORTED] = "aborted",
	};

	return names[st];
}

const char *runner_scen_status_name(const struct runner_scen_result *sr)
{
	size_t i, ok = 0, invalid = 0;

	if (sr->skipped)
		return "skipped";
	for (i = 0; i < sr->nr_reps; i++) {
		if (sr->reps[i].status == RUNNER_REP_OK)
			ok++;
		else if (sr->reps[i].status == RUNNER_REP_INVALID)
			invalid++;
	}
	if (!ok && !invalid)
		return "not_run";
	if (!invalid)
		return "ok";
	return ok ? "partial" : "invalid";
}

static void runner_rep_result_free(struct runner_rep_result *rr)
{
	size_t i;

	for (i = 0; i < rr->nr_procs; i++) {
		free(rr->procs[i].name);
		vec_strv_free(rr->procs[i].argv);
		free(rr->procs[i].cpus);
		free(rr->procs[i].policy);
		free(rr->procs[i].error);
	}
	free(rr->procs);
	free(rr->reason);
	free(rr->finals);
	cJSON_Delete(rr->workloads);
	cJSON_Delete(rr->trace);
	cJSON_Delete(rr->rseq_stats);
	cJSON_Delete(rr->rtla_aa);
	memset(rr, 0, sizeof(*rr));
}

void runner_run_model_free(struct runner_run *run)
{
	size_t i, j;

	for (i = 0; run->scens && i < run->suite->nr_scenarios; i++) {
		for (j = 0; j < run->scens[i].nr_reps; j++)
			runner_rep_result_free(&run->scens[i].reps[j]);
		free(run->scens[i].reps);
		free(run->scens[i].reason);
		cJSON_Delete(run->scens[i].tunables);
	}
	free(run->scens);
	free(run->order);
	cJSON_Delete(run->env);
	cJSON_Delete(run->tunables_before);
	cJSON_Delete(run->tunables_after);
	cJSON_Delete(run->noise_profile);
	cJSON_Delete(run->sequential);
	run->noise_profile = run->sequential = NULL;
	run->scens = NULL;
	run->order = NULL;
	run->env = run->tunables_before = run->tunables_after = NULL;
}
