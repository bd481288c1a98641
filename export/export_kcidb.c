// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run as KernelCI KCIDB data, schema v5: one checkout (the kernel tree:
 * its repository and commit, or Debian's source version, and the patch
 * sets applied: export_identity.c), one build (that checkout with its
 * config fragments and config hash), and tests under the dot-separated
 * path rtgate.SUITE.SCENARIO[.METRIC]:
 *
 *   rtgate.SUITE                    the gate: the run's outcome
 *   rtgate.SUITE.SCENARIO           the scenario's verdict
 *   rtgate.SUITE.SCENARIO.max       DONE, number {value, "us"}
 *   rtgate.SUITE.SCENARIO.cpuN.max  per CPU
 *   rtgate.SUITE.SCENARIO.history   the verdict against history, if any
 *
 * Statuses come from the outcome table (common/cmd/outcome.h,
 * docs/exports.md), as the verdict counts for the gate: REGRESSION FAIL,
 * INCONCLUSIVE and INVALID ERROR, every comparison SKIPPED MISS, ... The
 * gate is the run's outcome (what its exit code says), made worse by a
 * verdict against history when --db brings one. The number of a verdict
 * test is the line the verdict rests on, in its unit.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/analyze.h"
#include "export.h"
#include "export_priv.h"
#include "history/history.h"
#include "log.h"
#include "outcome.h"
#include "rtpaths.h"

/* KCIDB's status priority, highest first. */
static const char *const status_order[] = {
	"FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP",
};

static int status_rank(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(status_order) / sizeof(status_order[0]); i++)
		if (!strcmp(s, status_order[i]))
			return (int)i;
	return (int)i;
}

/* Test path segments are [a-zA-Z0-9_-]+: anything else becomes '_'. */
void export_path_segment(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
				 "OPQRSTUVWXYZ0123456789_-", in[i])) ?
			 in[i] : '_';
	out[i] = '\0';
	if (!i && len > 1)
		snprintf(out, len, "_");
}

static double seconds_between(const char *a, const char *b)
{
	struct tm ta = { 0 }, tb = { 0 };

	if (!a || !b || !strptime(a, "%Y-%m-%dT%H:%M:%SZ", &ta) ||
	    !strptime(b, "%Y-%m-%dT%H:%M:%SZ", &tb))
		return -1;
	return difftime(timegm(&tb), timegm(&ta));
}

struct kcidb_ctx {
	const struct export_kcidb_params *p;
	struct history *h;
	struct history_run run;
	cJSON *manifest;
	cJSON *tests;
	struct export_identity id;
	struct outcome_tally tally;	/* the run's own comparisons */
	char build_id[700];
	char suite_seg[128];
	char worst[8];			/* history's worst status */
};

static void worsen(struct kcidb_ctx *c, const char *status)
{
	if (status_rank(status) < status_rank(c->worst))
		snprintf(c->worst, sizeof(c->worst), "%s", status);
}

static cJSON *add_test(struct kcidb_ctx *c, const char *path,
		       const char *status, const char *comment)
{
	char id[1024];
	cJSON *t = cJSON_CreateObject();
	const cJSON *host = cJSON_GetObjectItem(c->manifest, "host");
	cJSON *env, *misc;
	double dur;

	snprintf(id, sizeof(id), "%s:%s:%s", c->p->origin, c->run.run_id,
		 path);
	cJSON_AddStringToObject(t, "id", id);
	cJSON_AddStringToObject(t, "build_id", c->build_id);
	cJSON_AddStringToObject(t, "origin", c->p->origin);
	cJSON_AddStringToObject(t, "path", path);
	cJSON_AddStringToObject(t, "status", status);
	if (comment && *comment)
		cJSON_AddStringToObject(t, "comment", comment);
	if (*c->run.start_time)
		cJSON_AddStringToObject(t, "start_time", c->run.start_time);
	dur = seconds_between(json_get_str(c->manifest, "start_time", NULL),
			      json_get_str(c->manifest, "end_time", NULL));
	if (dur >= 0)
		cJSON_AddNumberToObject(t, "duration", dur);
	if (c->p->log_url)
		cJSON_AddStringToObject(t, "log_url", c->p->log_url);
	env = cJSON_AddObjectToObject(t, "environment");
	cJSON_AddStringToObject(env, "comment", c->run.host);
	misc = cJSON_AddObjectToObject(env, "misc");
	cJSON_AddStringToObject(misc, "hostname", c->run.host);
	if (json_get_str(host, "cpu_model", NULL))
		cJSON_AddStringToObject(misc, "cpu_model",
					json_get_str(host, "cpu_model", NULL));
	misc = cJSON_AddObjectToObject(t, "misc");
	cJSON_AddStringToObject(misc, "rtgate_run_id", c->run.run_id);
	cJSON_AddItemToArray(c->tests, t);
	return t;
}

static void add_number(cJSON *t, double value, const char *unit)
{
	cJSON *n = cJSON_AddObjectToObject(t, "number");

	cJSON_AddNumberToObject(n, "value", value);
	cJSON_AddStringToObject(n, "unit", unit);
}

/* The measured numbers of a scenario: overall and per-CPU max. */
static int add_metrics(struct kcidb_ctx *c, const char *scen_path,
		       const char *scenario)
{
	struct history_rep *reps;
	size_t n, i, j;
	double max = -1, cpu_max[1024];
	int ncpu = 0, ret;
	char path[512];
	cJSON *t;

	ret = history_load_reps(c->h, c->run.id, scenario, &reps, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i].nr_cpus; j++) {
			const struct history_cpu *cpu = &reps[i].cpus[j];

			if (cpu->cpu < 0 || cpu->cpu >= 1024)
				continue;
			while (ncpu <= cpu->cpu)
				cpu_max[ncpu++] = -1;
			if (cpu->max_us > cpu_max[cpu->cpu])
				cpu_max[cpu->cpu] = cpu->max_us;
			if (cpu->max_us > max)
				max = cpu->max_us;
		}
	}
	history_free_reps(reps, n);
	if (max < 0)
		return 0;
	rtpaths_fmt(path, sizeof(path), "%s.max", scen_path);
	t = add_test(c, path, "DONE", "maximum latency over all CPUs and "
		     "repetitions");
	add_number(t, max, "us");
	for (i = 0; i < (size_t)ncpu; i++) {
		if (cpu_max[i] < 0)
			continue;
		rtpaths_fmt(path, sizeof(path), "%s.cpu%zu.max", scen_path, i);
		t = add_test(c, path, "DONE", NULL);
		add_number(t, cpu_max[i], "us");
	}
	return 0;
}

/* Its own comparison and its further sides' (S.irq), a test each. */
static void add_verdict_tests(struct kcidb_ctx *c, const char *scen_path,
			      const struct history_scenario *s,
			      const struct history_verdict_row *v, size_t nv)
{
	const struct outcome *o;
	char path[512], comment[1200];
	const char *side;
	int judged = 0;
	size_t i;
	cJSON *t;

	for (i = 0; i < nv; i++) {
		const char *counts = history_verdict_counts(&v[i]);
		char as[64] = "";

		side = export_side_of(v[i].scenario, s->name);
		if (!side)
			continue;
		o = outcome_get(outcome_of_comparison(v[i].verdict,
				v[i].counts_as, v[i].control, v[i].reason));
		if (strcmp(counts, v[i].verdict))
			rtpaths_fmt(as, sizeof(as), " (%s control, counts as %s)",
				    v[i].control, counts);
		rtpaths_fmt(comment, sizeof(comment), "%s%s%s%s%s%s",
			    v[i].verdict, as, *v[i].measured ? ": " : "",
			    v[i].measured, !*v[i].reason ? "" : *v[i].measured ?
			    "; " : ": ", v[i].reason);
		if (!strcmp(v[i].source, "history")) {
			rtpaths_fmt(path, sizeof(path), "%s%s.history",
				    scen_path, side);
			worsen(c, o->kcidb);
		} else {
			rtpaths_fmt(path, sizeof(path), "%s%s", scen_path,
				    side);
			outcome_tally_add(&c->tally, o->kind);
			judged |= !*side;
		}
		t = add_test(c, path, o->kcidb, comment);
		if (!isnan(v[i].candidate) && *v[i].metric)
			add_number(t, v[i].candidate, *v[i].unit ? v[i].unit :
				   "us");
	}
	if (judged)
		return;
	/* No verdict of its own: a baseline, or not judged. */
	if (!strcmp(s->status, "skipped"))
		o = outcome_get(OUTCOME_SKIPPED);
	else if (!strcmp(s->status, "invalid"))
		o = outcome_get(OUTCOME_INVALID);
	else if (*s->compare)
		/* A comparison the report does not judge: never a pass. */
		o = outcome_get(OUTCOME_INVALID);
	else
		o = outcome_get(OUTCOME_NOT_JUDGED);
	if (*s->compare && o->kind == OUTCOME_INVALID)
		outcome_tally_add(&c->tally, o->kind);
	add_test(c, scen_path, o->kcidb, *s->reason ? s->reason :
		 *s->compare ? "not judged: report.json has no verdict for "
		 "this comparison" : "baseline");
}

static int add_scenarios(struct kcidb_ctx *c)
{
	struct history_verdict_row *v = NULL;
	struct history_scenario *sc;
	size_t ns, nv = 0, i;
	char seg[128], path[512];
	int ret;

	ret = history_scenarios(c->h, c->run.id, &sc, &ns);
	if (ret)
		return ret;
	ret = history_verdicts(c->h, c->run.id, &v, &nv);
	for (i = 0; !ret && i < ns; i++) {
		export_path_segment(sc[i].name, seg, sizeof(seg));
		rtpaths_fmt(path, sizeof(path), "rtgate.%s.%s", c->suite_seg, seg);
		add_verdict_tests(c, path, &sc[i], v, nv);
		ret = add_metrics(c, path, sc[i].name);
	}
	free(v);
	free(sc);
	return ret;
}

static void add_checkout(struct kcidb_ctx *c, const char *checkout_id,
			 cJSON *doc)
{
	const struct export_identity *id = &c->id;
	char comment[600];
	cJSON *o, *misc;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", checkout_id);
	cJSON_AddStringToObject(o, "origin", c->p->origin);
	if (c->p->tree_name)
		cJSON_AddStringToObject(o, "tree_name", c->p->tree_name);
	if (id->git_url[0])
		cJSON_AddStringToObject(o, "git_repository_url", id->git_url);
	if (id->git_commit[0])
		cJSON_AddStringToObject(o, "git_commit_hash", id->git_commit);
	if (id->patchset_known)
		cJSON_AddStringToObject(o, "patchset_hash", id->patchset_hash);
	cJSON_AddBoolToObject(o, "valid", 1);
	if (!strcmp(id->kind, "git"))
		rtpaths_fmt(comment, sizeof(comment), "git %s%s%s",
			    id->git_commit, id->git_url[0] ? " of " : "",
			    id->git_url);
	else if (!strcmp(id->kind, "debian"))
		rtpaths_fmt(comment, sizeof(comment), "Debian source linux %s",
			    id->debian_version);
	else
		rtpaths_fmt(comment, sizeof(comment), "kernel %s%s%s: no "
			    "repository, commit or Debian version recorded",
			    id->release, id->version[0] ? ", tree " : "",
			    id->version);
	if (id->npatches) {
		size_t n = strlen(comment);

		rtpaths_fmt(comment + n, sizeof(comment) - n, ", %u patch%s "
			    "(%s)", id->npatches, id->npatches == 1 ? "" : "es",
			    id->patch_sets);
	}
	cJSON_AddStringToObject(o, "comment", comment);
	misc = cJSON_AddObjectToObject(o, "misc");
	cJSON_AddStringToObject(misc, "identity", id->kind);
	if (id->debian_version[0]) {
		cJSON_AddStringToObject(misc, "debian_source", "linux");
		cJSON_AddStringToObject(misc, "debian_version",
					id->debian_version);
	}
	if (id->version[0])
		cJSON_AddStringToObject(misc, "kernel_version", id->version);
	cJSON_AddStringToObject(misc, "kernel_release", id->release);
	if (id->patch_sets[0])
		cJSON_AddStringToObject(misc, "patch_sets", id->patch_sets);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "checkouts"), o);
}

static void add_checkout_build(struct kcidb_ctx *c, cJSON *doc)
{
	const cJSON *k = cJSON_GetObjectItem(c->manifest, "kernel");
	const char *config = c->id.config_name[0] ? c->id.config_name :
			     json_get_str(k, "preempt_model", NULL);
	char checkout_id[512], cfg[16];
	cJSON *o, *misc;

	snprintf(cfg, sizeof(cfg), "%.12s", c->run.config_sha256);
	if (c->p->checkout_id)
		snprintf(checkout_id, sizeof(checkout_id), "%s",
			 c->p->checkout_id);
	else
		rtpaths_fmt(checkout_id, sizeof(checkout_id), "%s:%s",
			    c->p->origin, c->id.key);
	if (c->p->build_id)
		snprintf(c->build_id, sizeof(c->build_id), "%s",
			 c->p->build_id);
	else
		rtpaths_fmt(c->build_id, sizeof(c->build_id), "%s:%s",
			    checkout_id, *cfg ? cfg : c->run.run_id);
	if (c->p->build_id)
		return;		/* the build is another origin's object */
	if (!c->p->checkout_id)
		add_checkout(c, checkout_id, doc);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", c->build_id);
	cJSON_AddStringToObject(o, "checkout_id", checkout_id);
	cJSON_AddStringToObject(o, "origin", c->p->origin);
	if (json_get_str(k, "machine", NULL))
		cJSON_AddStringToObject(o, "architecture",
					json_get_str(k, "machine", NULL));
	if (config)
		cJSON_AddStringToObject(o, "config_name", config);
	cJSON_AddStringToObject(o, "status", "PASS");
	cJSON_AddStringToObject(o, "comment", c->run.kernel_version);
	misc = cJSON_AddObjectToObject(o, "misc");
	cJSON_AddStringToObject(misc, "kernel_release", c->run.kernel_release);
	cJSON_AddStringToObject(misc, "kernel_version", c->run.kernel_version);
	if (json_get_str(k, "preempt_model", NULL))
		cJSON_AddStringToObject(misc, "preempt_model",
					json_get_str(k, "preempt_model", NULL));
	if (*c->run.config_sha256)
		cJSON_AddStringToObject(misc, "config_sha256",
					c->run.config_sha256);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "builds"), o);
}

static int origin_ok(const char *o)
{
	if (!*o)
		return 0;
	for (; *o; o++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", *o))
			return 0;
	return 1;
}

/* The gate: the run's outcome, worse when history says worse. */
static void set_gate(struct kcidb_ctx *c, cJSON *gate)
{
	bool complete = !strcmp(c->run.status, "complete");
	const struct outcome *o;
	char comment[600];
	cJSON *misc;

	o = outcome_get(outcome_tally_run(&c->tally, complete));
	if (complete)
		rtpaths_fmt(comment, sizeof(comment), "rtgate run %s of suite "
			    "%s: %s (exit %d)", c->run.run_id, c->run.suite,
			    o->name, o->exit_code);
	else
		rtpaths_fmt(comment, sizeof(comment), "rtgate run %s of suite "
			    "%s: run %s: %s (exit %d)", c->run.run_id,
			    c->run.suite, c->run.status, c->run.status_reason,
			    o->exit_code);
	worsen(c, o->kcidb);
	cJSON_ReplaceItemInObject(gate, "comment", cJSON_CreateString(comment));
	cJSON_ReplaceItemInObject(gate, "status", cJSON_CreateString(c->worst));
	misc = cJSON_GetObjectItem(gate, "misc");
	cJSON_AddStringToObject(misc, "outcome", o->name);
	cJSON_AddNumberToObject(misc, "exit_code", o->exit_code);
}

int export_kcidb_build(const struct export_kcidb_params *p, cJSON **out)
{
	struct kcidb_ctx c = { .p = p };
	struct history h;
	cJSON *doc = NULL, *ver, *gate;
	char path[160];
	int ret;

	if (!origin_ok(p->origin)) {
		pr_err("KCIDB origin '%s' must match [a-z0-9_]+", p->origin);
		return -EINVAL;
	}
	ret = export_load_run(p->run_dir, p->db, &h, &c.run, &c.manifest);
	if (ret)
		return ret;
	c.h = &h;
	ret = export_identity_read(p->run_dir, c.manifest, p->git_url,
				   p->git_commit, &c.id);
	if (ret)
		goto out;
	snprintf(c.worst, sizeof(c.worst), "SKIP");
	export_path_segment(c.run.suite, c.suite_seg, sizeof(c.suite_seg));
	doc = cJSON_CreateObject();
	ver = cJSON_AddObjectToObject(doc, "version");
	cJSON_AddNumberToObject(ver, "major", 5);
	cJSON_AddNumberToObject(ver, "minor", 0);
	add_checkout_build(&c, doc);
	c.tests = cJSON_AddArrayToObject(doc, "tests");
	/* The gate first, its status filled in once the scenarios are seen. */
	rtpaths_fmt(path, sizeof(path), "rtgate.%s", c.suite_seg);
	gate = add_test(&c, path, "DONE", "rtgate");
	ret = add_scenarios(&c);
	if (ret)
		goto out;
	set_gate(&c, gate);
	*out = doc;
	doc = NULL;
out:
	cJSON_Delete(doc);
	cJSON_Delete(c.manifest);
	history_close(&h);
	return ret;
}
