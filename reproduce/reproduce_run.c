// SPDX-License-Identifier: GPL-2.0-only
/*
 * A seed's reproduction (reproduce.h). The order of business:
 *
 *   1. the kernels: for each model the base, and with a patch set the
 *      patched kernel, from one tree and one set of fragments; a kernel
 *      built earlier from the same inputs is used as it is
 *   2. the boots: the seed's suite in the lab (a model's own where it
 *      has one), in the clock asked for
 *      (virtual time by default): A, B, A2 for a patch, one run per
 *      model for a feature of the base
 *   3. the judgement: `rtgate compare A B A2` (a patch) or the run's own
 *      report (a feature)
 *   4. reproduce.json after every step, so that what finished is on disk
 *      when a later step fails; then the table (reproduce_table.c)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "kernel/kernel.h"
#include "lab/lab.h"
#include "log.h"
#include "reproduce.h"
#include "rtpaths.h"
#include "timefmt.h"

struct repro_ctx {
	const struct reproduce_params *p;
	const struct reproduce_seed *s;
	struct reproduce_result *r;
	char out[PATH_MAX], cache[PATH_MAX];
	char kconfigs[PATH_MAX], patches[PATH_MAX];
	char runs[PATH_MAX + 16], json_path[PATH_MAX + 32];
	char repeat[16];
	const char *scale;
	const char *clock;	/* --clock, else the seed's */
	const char *suite;	/* the suite of the model being run */
	int vcpus;		/* the suite's lab_cpus, else the lab's 2 */
	cJSON *doc;		/* reproduce.json as it grows */
	time_t start;
};

static int save(struct repro_ctx *c)
{
	cJSON_ReplaceItemInObject(c->doc, "wall_s",
				  cJSON_CreateNumber(time(NULL) - c->start));
	return json_write_file(c->json_path, c->doc);
}

static bool has_fragment(const cJSON *frags, const char *want)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, frags)
		if (cJSON_IsString(f) && !strcmp(f->valuestring, want))
			return true;
	return false;
}

/*
 * A kernel built earlier from the same series, model, fragments and set.
 * One built without a fragment the seed now asks for is said so, and
 * built again.
 */
static bool already_built(const struct repro_ctx *c, const char *kdir,
			  const char *model, const char *set)
{
	char path[PATH_MAX + 32], frags[128], *tok, *save = NULL;
	const cJSON *patches, *src;
	struct json_error err;
	cJSON *b;
	bool ok;

	rtpaths_fmt(path, sizeof(path), "%s/build.json", kdir);
	if (!fsio_exists(path) || json_read_file(path, &b, &err))
		return false;
	patches = cJSON_GetObjectItem(b, "patches");
	src = cJSON_GetObjectItem(b, "source");
	ok = !strcmp(json_get_str(b, "status", ""), "built") &&
	     !strcmp(json_get_str(b, "model", ""), model) &&
	     !strncmp(json_get_str(src, "version", ""), c->s->series,
		      strlen(c->s->series)) &&
	     cJSON_GetArraySize(patches) == (set ? 1 : 0) &&
	     (!set || !strcmp(json_get_str(cJSON_GetArrayItem(patches, 0),
					   "set", ""), set));
	reproduce_seed_fragments(c->s, model, frags, sizeof(frags));
	for (tok = strtok_r(frags, ",", &save); ok && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		ok = has_fragment(cJSON_GetObjectItem(b, "fragments"), tok);
		if (!ok)
			pr_info("reproduce %s: %s was built without the "
				"fragment %s", c->s->id, kdir, tok);
	}
	cJSON_Delete(b);
	return ok;
}

/* out/kernels/r7.3-MODEL-base or -SET, built unless it is there. */
static int build_kernel(struct repro_ctx *c, const char *model,
			const char *set, char *kdir, size_t len)
{
	struct kernel_build_params kp = {
		.src = c->p->src, .model = model, .jobs = c->p->jobs,
		.nice = 19, .out_dir = c->out, .cache_dir = c->cache,
		.kconfigs_dir = c->kconfigs, .patches_dir = c->patches,
	};
	char name[128], list[128], frags[128], *tok, *save = NULL;
	int ret;

	if (!c->p->src)
		kp.debian = c->p->debian ? c->p->debian : c->s->series;
	rtpaths_fmt(name, sizeof(name), "r%s-%s-%s", c->s->series, model,
		    set ? set : "base");
	kp.name = name;
	if (set)
		kp.sets[kp.nr_sets++] = set;
	reproduce_seed_fragments(c->s, model, list, sizeof(list));
	rtpaths_fmt(frags, sizeof(frags), "%s", list);
	for (tok = strtok_r(frags, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		kp.fragments[kp.nr_fragments++] = tok;
	rtpaths_fmt(kdir, len, "%s/kernels/%s", c->out, name);
	if (already_built(c, kdir, model, set)) {
		pr_info("reproduce %s: %s is built (kept from an earlier "
			"build)", c->s->id, name);
		return 0;
	}
	pr_info("reproduce %s: building %s (%s, %s%s%s; ccache shares what "
		"the seeds' kernels have in common)", c->s->id, name, model,
		list, set ? ", patch set " : "", set ? set : "");
	ret = kernel_build(&kp, kdir, len);
	if (ret)
		pr_err("reproduce %s: the build of %s failed (%s)", c->s->id,
		       name, strerror(-ret));
	return ret;
}

/* One boot with the seed's suite; its entry goes into runs[]. */
static int boot(struct repro_ctx *c, cJSON *runs, const char *kdir,
		const char *label, char *run_dir, size_t len)
{
	struct lab_run_params lp = {
		.kernel = kdir, .suite = c->suite, .accel = "tcg",
		.tcg_single = true, .cpus = 0,	/* the suite's lab_cpus */
		.mem_mb = 1024,
		.timeout_s = c->p->timeout_s, .verbose = c->p->verbose,
		.out_dir = c->out, .results_dir = c->runs, .label = label,
	};
	struct lab_run_result *res = calloc(1, sizeof(*res));
	cJSON *o = cJSON_CreateObject();
	time_t t0 = time(NULL);
	int ret;

	if (!res || !o) {
		free(res);
		cJSON_Delete(o);
		return -ENOMEM;
	}
	ret = lab_clock_parse(c->clock, &lp.clock);
	if (ret) {
		free(res);
		cJSON_Delete(o);
		return ret;
	}
	lp.args[lp.nr_args++] = "--duration-scale";
	lp.args[lp.nr_args++] = c->scale;
	lp.args[lp.nr_args++] = "--no-history";
	if (c->repeat[0]) {
		lp.args[lp.nr_args++] = "--repeat";
		lp.args[lp.nr_args++] = c->repeat;
	}
	pr_info("reproduce %s: boot %s: %s, suite %s", c->s->id, label,
		strrchr(kdir, '/') + 1, c->suite);
	ret = lab_run(&lp, res);
	cJSON_AddStringToObject(o, "label", label);
	cJSON_AddStringToObject(o, "kernel", strrchr(kdir, '/') + 1);
	cJSON_AddStringToObject(o, "dir", ret ? "" : res->run_dir);
	cJSON_AddNumberToObject(o, "exit_code",
				ret ? exitcode_of_errno(ret) : res->exit_code);
	cJSON_AddNumberToObject(o, "wall_s", (double)(time(NULL) - t0));
	if (res->crashed)
		cJSON_AddStringToObject(o, "crash", res->crash);
	cJSON_AddItemToArray(runs, o);
	if (!ret && (res->exit_code > EXITCODE_INCONCLUSIVE ||
		     !res->run_dir[0])) {
		pr_err("reproduce %s: the run on %s did not complete (exit "
		       "%d%s%s)", c->s->id, strrchr(kdir, '/') + 1,
		       res->exit_code, res->crashed ? ": " : "", res->crash);
		ret = -EIO;
	}
	if (!ret)
		rtpaths_fmt(run_dir, len, "%s", res->run_dir);
	free(res);
	save(c);
	return ret;
}

/* A, B, A2 and `rtgate compare A B A2` into DIR/compare-MODEL. */
static int model_kernels(struct repro_ctx *c, cJSON *m, const char *model)
{
	char base[PATH_MAX], patched[PATH_MAX], labels[160];
	char a[PATH_MAX], b[PATH_MAX], a2[PATH_MAX], out[PATH_MAX + 32];
	cJSON *runs = cJSON_GetObjectItem(m, "runs");
	int ret, code;

	ret = build_kernel(c, model, NULL, base, sizeof(base));
	if (!ret)
		ret = build_kernel(c, model, c->s->set, patched,
				   sizeof(patched));
	if (ret)
		return ret;
	cJSON_AddStringToObject(m, "base", strrchr(base, '/') + 1);
	cJSON_AddStringToObject(m, "patched", strrchr(patched, '/') + 1);
	save(c);
	ret = boot(c, runs, base, "a", a, sizeof(a));
	if (!ret)
		ret = boot(c, runs, patched, "b", b, sizeof(b));
	if (!ret)
		ret = boot(c, runs, base, "a2", a2, sizeof(a2));
	if (ret)
		return ret;
	rtpaths_fmt(labels, sizeof(labels), "%s,%s+%s,%s", c->s->series,
		    c->s->series, c->s->set, c->s->series);
	rtpaths_fmt(out, sizeof(out), "%s/compare-%s", c->r->dir, model);
	pr_info("reproduce %s: rtgate compare A B A2 (%s)", c->s->id, labels);
	code = lab_gate_compare_aba(a, b, a2, labels, out);
	if (code < 0)
		return code;
	cJSON_AddStringToObject(m, "report", out);
	cJSON_AddNumberToObject(m, "exit_code", code);
	return 0;
}

/* One run of the suite on the base; its own report judges. */
static int model_scenarios(struct repro_ctx *c, cJSON *m, const char *model)
{
	char base[PATH_MAX], run[PATH_MAX], path[PATH_MAX + 32];
	struct json_error err;
	cJSON *rep;
	int ret;

	ret = build_kernel(c, model, NULL, base, sizeof(base));
	if (ret)
		return ret;
	cJSON_AddStringToObject(m, "base", strrchr(base, '/') + 1);
	save(c);
	ret = boot(c, cJSON_GetObjectItem(m, "runs"), base, model, run,
		   sizeof(run));
	if (ret)
		return ret;
	rtpaths_fmt(path, sizeof(path), "%s/report.json", run);
	if (json_read_file(path, &rep, &err)) {
		pr_err("%s", err.msg);
		return -EIO;
	}
	cJSON_AddStringToObject(m, "report", run);
	cJSON_AddNumberToObject(m, "exit_code",
				json_get_num(rep, "exit_code",
					     EXITCODE_INCOMPLETE));
	cJSON_Delete(rep);
	return 0;
}

static bool model_wanted(const struct repro_ctx *c, const char *model)
{
	return !c->p->only_model || !strcmp(c->p->only_model, model);
}

/* The suite of the first model this reproduction runs. */
static const char *first_suite(const struct repro_ctx *c)
{
	int i;

	for (i = 0; i < REPRODUCE_MAX_MODELS && c->s->models[i]; i++)
		if (model_wanted(c, c->s->models[i]))
			return reproduce_seed_suite(c->s, c->s->models[i]);
	return c->s->suite;
}

static cJSON *new_doc(const struct repro_ctx *c)
{
	const struct reproduce_seed *s = c->s;
	cJSON *d = cJSON_CreateObject();
	char t[32], suites[256];

	reproduce_seed_suites(c->s, c->p->only_model, suites, sizeof(suites));
	cJSON_AddStringToObject(d, "schema", "rtgate-reproduce/1");
	cJSON_AddStringToObject(d, "seed", s->id);
	cJSON_AddStringToObject(d, "title", s->title);
	cJSON_AddStringToObject(d, "source", s->source);
	cJSON_AddStringToObject(d, "suite", suites);
	if (s->set)
		cJSON_AddStringToObject(d, "set", s->set);
	else
		cJSON_AddNullToObject(d, "set");
	cJSON_AddStringToObject(d, "kind", s->kind == REPRODUCE_KERNELS ?
				"kernels" : "scenarios");
	cJSON_AddStringToObject(d, "tree", c->p->src ? c->p->src :
				"debian");
	cJSON_AddStringToObject(d, "series", s->series);
	cJSON_AddStringToObject(d, "clock", c->clock);
	cJSON_AddNumberToObject(d, "vcpus", c->vcpus);
	cJSON_AddStringToObject(d, "duration_scale", c->scale);
	if (c->repeat[0])
		cJSON_AddNumberToObject(d, "repetitions", atoi(c->repeat));
	else
		cJSON_AddNullToObject(d, "repetitions");
	cJSON_AddStringToObject(d, "note", s->note);
	cJSON_AddStringToObject(d, "command", c->p->command ?
				c->p->command : "");
	timefmt_iso8601(c->start, t, sizeof(t));
	cJSON_AddStringToObject(d, "start_time", t);
	cJSON_AddNumberToObject(d, "wall_s", 0);
	cJSON_AddStringToObject(d, "status", "running");
	cJSON_AddItemToObject(d, "models", cJSON_CreateArray());
	return d;
}

static int make_dir(struct repro_ctx *c)
{
	char stamp[32];
	int ret;

	timefmt_compact(c->start, stamp, sizeof(stamp));
	ret = rtpaths_fmt(c->r->dir, sizeof(c->r->dir),
			  "%s/reproduce-%s-%s", c->p->results_dir, c->s->id,
			  stamp);
	if (!ret)
		ret = rtpaths_fmt(c->runs, sizeof(c->runs), "%s/runs",
				  c->r->dir);
	if (!ret)
		ret = fsio_mkdir_p(c->runs, 0755);
	if (!ret)
		ret = rtpaths_fmt(c->json_path, sizeof(c->json_path),
				  "%s/reproduce.json", c->r->dir);
	if (ret)
		pr_err("%s: %s", c->r->dir, strerror(-ret));
	return ret;
}

static int default_dirs(struct repro_ctx *c)
{
	int ret = rtpaths_out(c->out, sizeof(c->out));

	if (!ret)
		ret = rtpaths_cache(c->cache, sizeof(c->cache));
	if (!ret)
		ret = rtpaths_in_top(c->kconfigs, sizeof(c->kconfigs),
				     "kconfigs");
	if (!ret)
		ret = rtpaths_in_top(c->patches, sizeof(c->patches),
				     "patches");
	return ret;
}

static int check_params(const struct repro_ctx *c)
{
	int i;

	if (!c->p->only_model)
		return 0;
	for (i = 0; i < REPRODUCE_MAX_MODELS && c->s->models[i]; i++)
		if (!strcmp(c->s->models[i], c->p->only_model))
			return 0;
	pr_err("reproduce %s: --model %s: the seed is judged on %s%s%s",
	       c->s->id, c->p->only_model, c->s->models[0],
	       c->s->models[1] ? " and " : "",
	       c->s->models[1] ? c->s->models[1] : "");
	return -EINVAL;
}

static int run_models(struct repro_ctx *c)
{
	cJSON *models = cJSON_GetObjectItem(c->doc, "models");
	int i, ret = 0, code = EXITCODE_PASS;

	for (i = 0; i < REPRODUCE_MAX_MODELS && c->s->models[i]; i++) {
		const char *model = c->s->models[i];
		cJSON *m;

		if (!model_wanted(c, model))
			continue;
		c->suite = reproduce_seed_suite(c->s, model);
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "model", model);
		cJSON_AddStringToObject(m, "suite", c->suite);
		cJSON_AddItemToObject(m, "runs", cJSON_CreateArray());
		cJSON_AddItemToArray(models, m);
		ret = c->s->kind == REPRODUCE_KERNELS ?
		      model_kernels(c, m, model) :
		      model_scenarios(c, m, model);
		if (ret)
			break;
		code = exitcode_worse(code, (int)json_get_num(m, "exit_code",
							      EXITCODE_PASS));
		save(c);
	}
	c->r->exit_code = ret ? exitcode_of_errno(ret) : code;
	return ret;
}

int reproduce_run(const struct reproduce_params *p,
		  struct reproduce_result *r)
{
	struct repro_ctx c = { .p = p, .r = r, .start = time(NULL) };
	int ret;

	memset(r, 0, sizeof(*r));
	c.s = reproduce_seed_find(p->seed);
	if (!c.s) {
		pr_err("reproduce: no seed '%s' (000, 001, 003 or 004)",
		       p->seed ? p->seed : "");
		return -EINVAL;
	}
	ret = check_params(&c);
	if (!ret)
		ret = lab_suite_cpus(first_suite(&c), &c.vcpus);
	if (ret)
		return ret;
	c.scale = p->scale ? p->scale : c.s->scale;
	c.clock = p->clock ? p->clock : c.s->clock;
	if (p->repeat || c.s->repeat)
		rtpaths_fmt(c.repeat, sizeof(c.repeat), "%u",
			    p->repeat ? p->repeat : c.s->repeat);
	ret = default_dirs(&c);
	if (!ret)
		ret = make_dir(&c);
	if (ret)
		return ret;
	c.doc = new_doc(&c);
	save(&c);
	pr_info("reproduce %s: %s; results in %s", c.s->id, c.s->title,
		r->dir);
	ret = run_models(&c);
	cJSON_ReplaceItemInObject(c.doc, "status",
				  cJSON_CreateString(ret ? "incomplete" :
						     "complete"));
	cJSON_AddNumberToObject(c.doc, "exit_code", r->exit_code);
	save(&c);
	cJSON_Delete(c.doc);
	if (reproduce_table_write(r->dir, false, NULL))
		r->exit_code = exitcode_worse(r->exit_code,
					      EXITCODE_INCOMPLETE);
	return 0;
}
