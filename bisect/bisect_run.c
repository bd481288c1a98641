// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bisection (bisect.h). Order of business: the base kernel's
 * build.json says how to build its siblings (tree, model, fragments,
 * sets); the series' manifest says how many patches there are; the state
 * file says what earlier runs of the same bisection already did. Then the
 * whole series is judged first (a series that is no REGRESSION has
 * nothing to bisect), and the search halves [good, bad) until one patch
 * is left. Every step is saved before the next starts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bisect.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "kernel/kernel.h"
#include "lab/lab.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

#define BISECT_SCHEMA "rtgate-bisect/1"

struct base_info {
	char name[128];
	char dir[PATH_MAX];
	char src[PATH_MAX];		/* "" for a Debian tree */
	char debian[32];		/* its series (7.3), "" the default */
	char model[16];
	char frags[KBUILD_MAX_FRAGMENTS][64];
	int nr_frags;
	char sets[KBUILD_MAX_SETS][64];
	int nr_sets;
};

struct bisect_ctx {
	const struct bisect_params *p;
	struct bisect_result *r;
	struct base_info base;
	struct kernel_patch_set *series;
	char out[PATH_MAX], cache[PATH_MAX], kconfigs[PATH_MAX];
	char patches[PATH_MAX], state_path[PATH_MAX + 32];
	cJSON *state;
};

/* ---- the base kernel and the series -------------------------------------- */

static bool is_default_fragment(const char *f, const char *model)
{
	const char *mf = kernel_config_model_fragment(model);
	int i;

	for (i = 0; kernel_default_fragments[i]; i++)
		if (!strcmp(f, kernel_default_fragments[i]))
			return true;
	return mf && !strcmp(f, mf);
}

static int load_base(struct bisect_ctx *c)
{
	struct base_info *b = &c->base;
	char path[PATH_MAX + 32];
	struct json_error err;
	const cJSON *j, *src, *e;
	cJSON *build;
	int ret = -EINVAL;

	if (strchr(c->p->base, '/'))
		rtpaths_fmt(b->dir, sizeof(b->dir), "%s", c->p->base);
	else
		rtpaths_fmt(b->dir, sizeof(b->dir), "%s/kernels/%s", c->out,
			    c->p->base);
	rtpaths_fmt(path, sizeof(path), "%s/build.json", b->dir);
	if (json_read_file(path, &build, &err)) {
		pr_err("base kernel %s: %s (build it first: rtgate kernel "
		       "build ... --name %s)", c->p->base, err.msg,
		       c->p->base);
		return -ENOENT;
	}
	j = build;
	if (strcmp(json_get_str(j, "status", ""), "built")) {
		pr_err("%s: status is '%s', not built", path,
		       json_get_str(j, "status", "?"));
		goto out;
	}
	rtpaths_fmt(b->name, sizeof(b->name), "%s",
		    json_get_str(j, "name", c->p->base));
	rtpaths_fmt(b->model, sizeof(b->model), "%s",
		    json_get_str(j, "model", ""));
	src = cJSON_GetObjectItem(j, "source");
	if (strcmp(json_get_str(src, "origin", "debian"), "debian"))
		rtpaths_fmt(b->src, sizeof(b->src), "%s",
			    json_get_str(src, "path", ""));
	/* Debian's linux-source-7.3: the prefixes build from 7.3 too. */
	else if (!strncmp(json_get_str(src, "package", ""), "linux-source-",
			  13))
		rtpaths_fmt(b->debian, sizeof(b->debian), "%s",
			    json_get_str(src, "package", "") + 13);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "fragments")) {
		if (!cJSON_IsString(e) ||
		    is_default_fragment(e->valuestring, b->model))
			continue;
		if (b->nr_frags == KBUILD_MAX_FRAGMENTS)
			goto out;
		rtpaths_fmt(b->frags[b->nr_frags++], 64, "%s", e->valuestring);
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "patches")) {
		if (b->nr_sets == KBUILD_MAX_SETS - 1)
			goto out;
		rtpaths_fmt(b->sets[b->nr_sets++], 64, "%s",
			    json_get_str(e, "set", ""));
	}
	ret = 0;
out:
	cJSON_Delete(build);
	return ret;
}

static int load_series(struct bisect_ctx *c)
{
	char fetch[PATH_MAX + 16];
	int ret;

	c->series = calloc(1, sizeof(*c->series));
	if (!c->series)
		return -ENOMEM;
	rtpaths_fmt(fetch, sizeof(fetch), "%s/patches", c->out);
	ret = kernel_patchset_open(c->patches, c->p->series, fetch, c->series);
	if (!ret && c->series->nr < 1) {
		pr_err("patch set '%s' has no patches", c->p->series);
		ret = -EINVAL;
	}
	return ret;
}

/* ---- what moved ---------------------------------------------------------- */

static const char *const moves_names[] = {
	[BISECT_MOVES_REGRESSION] = "regression",
	[BISECT_MOVES_IMPROVEMENT] = "improvement",
	[BISECT_MOVES_CHANGE] = "change",
};

const char *bisect_moves_name(enum bisect_moves m)
{
	return (unsigned int)m < 3 ? moves_names[m] : NULL;
}

int bisect_moves_parse(const char *s, enum bisect_moves *m)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, moves_names[i])) {
			*m = i;
			return 0;
		}
	return -EINVAL;
}

/* The scenarios judged, as the state file records them ("" all). */
static void scenario_list(const struct bisect_params *p, char *buf,
			  size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < p->nr_scenarios && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "," : "",
			      p->scenarios[i]);
}

/* ---- the state file ------------------------------------------------------ */

static int state_save(struct bisect_ctx *c)
{
	int ret = json_write_file(c->state_path, c->state);

	if (ret)
		pr_err("%s: %s", c->state_path, strerror(-ret));
	return ret;
}

static int state_open(struct bisect_ctx *c)
{
	const char *moves = bisect_moves_name(c->p->moves);
	char scen[BISECT_MAX_SCENARIOS * 64];
	struct json_error err;
	cJSON *arr;
	int i;

	scenario_list(c->p, scen, sizeof(scen));
	rtpaths_fmt(c->state_path, sizeof(c->state_path), "%s/state.json",
		    c->r->dir);
	if (fsio_exists(c->state_path)) {
		if (json_read_file(c->state_path, &c->state, &err)) {
			pr_err("%s", err.msg);
			return -EINVAL;
		}
		if (strcmp(json_get_str(c->state, "base", ""), c->base.name) ||
		    strcmp(json_get_str(c->state, "series", ""),
			   c->p->series) ||
		    strcmp(json_get_str(c->state, "suite", ""), c->p->suite) ||
		    strcmp(json_get_str(c->state, "moves", "regression"),
			   moves) ||
		    strcmp(json_get_str(c->state, "scenarios", ""), scen)) {
			pr_err("%s is a bisection of another base, series, "
			       "suite, --moves or --scenario: give --name "
			       "another name", c->state_path);
			return -EINVAL;
		}
		pr_info("bisect: resuming %s (%d steps done)", c->state_path,
			cJSON_GetArraySize(cJSON_GetObjectItem(c->state,
							       "steps")));
		return 0;
	}
	c->state = cJSON_CreateObject();
	cJSON_AddStringToObject(c->state, "schema", BISECT_SCHEMA);
	cJSON_AddStringToObject(c->state, "base", c->base.name);
	cJSON_AddStringToObject(c->state, "series", c->p->series);
	cJSON_AddStringToObject(c->state, "suite", c->p->suite);
	cJSON_AddStringToObject(c->state, "moves", moves);
	cJSON_AddStringToObject(c->state, "scenarios", scen);
	arr = cJSON_AddArrayToObject(c->state, "patches");
	for (i = 0; i < c->series->nr; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(
					     c->series->items[i].subject));
	if (c->series->nr_sets) {
		arr = cJSON_AddArrayToObject(c->state, "patch_sets");
		for (i = 0; i < c->series->nr; i++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(
					     c->series->items[i].set));
	}
	cJSON_AddArrayToObject(c->state, "steps");
	cJSON_AddStringToObject(c->state, "status", "running");
	return state_save(c);
}

/* ---- kernels and runs ---------------------------------------------------- */

static void prefix_name(const struct bisect_ctx *c, int k, char *buf,
			size_t len)
{
	rtpaths_fmt(buf, len, "%s+%s.%d", c->base.name, c->p->series, k);
}

/* A kernel built earlier for the same prefix is used as it is. */
static bool already_built(const char *kdir, const struct bisect_ctx *c,
			  int k)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	const cJSON *last;
	cJSON *b;
	bool ok;

	rtpaths_fmt(path, sizeof(path), "%s/build.json", kdir);
	if (!fsio_exists(path) || json_read_file(path, &b, &err))
		return false;
	last = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "patches"),
				  c->base.nr_sets);
	ok = !strcmp(json_get_str(b, "status", ""), "built") &&
	     !strcmp(json_get_str(last, "set", ""), c->p->series) &&
	     cJSON_GetArraySize(cJSON_GetObjectItem(last, "patches")) == k;
	cJSON_Delete(b);
	return ok;
}

/*
 * A prefix is configured with this checkout's kconfigs/: when they are
 * not the ones the base was built with, every prefix differs from the
 * base by more than its patches, and the first probe would take the
 * blame. Said, not refused: a patch may add a Kconfig symbol.
 */
static void config_check(const struct bisect_ctx *c, const char *kdir,
			 const char *name)
{
	char a[PATH_MAX + 16], b[PATH_MAX + 16], *x = NULL, *y = NULL;
	size_t xl = 0, yl = 0;

	rtpaths_fmt(a, sizeof(a), "%s/.config", c->base.dir);
	rtpaths_fmt(b, sizeof(b), "%s/.config", kdir);
	if (!fsio_read_all(a, &x, &xl) && !fsio_read_all(b, &y, &yl) &&
	    (xl != yl || memcmp(x, y, xl)))
		pr_warn("bisect: %s's .config differs from the base's (%s): "
			"were kconfigs/ changed since the base was built? Then "
			"every prefix differs from it by more than its patches",
			name, a);
	free(x);
	free(y);
}

static int build_prefix(struct bisect_ctx *c, int k, char *name, size_t len)
{
	struct kernel_build_params kp = {
		.model = c->base.model, .jobs = c->p->jobs, .nice = 19,
		.out_dir = c->out, .cache_dir = c->cache,
		.kconfigs_dir = c->kconfigs, .patches_dir = c->patches,
		.last_set_prefix = k,
	};
	char kdir[PATH_MAX];
	int i, ret;

	prefix_name(c, k, name, len);
	rtpaths_fmt(kdir, sizeof(kdir), "%s/kernels/%s", c->out, name);
	if (already_built(kdir, c, k)) {
		pr_info("bisect: %s is built (kept from an earlier run)", name);
		return 0;
	}
	kp.src = c->base.src[0] ? c->base.src : NULL;
	kp.debian = !kp.src && c->base.debian[0] ? c->base.debian : NULL;
	kp.name = name;
	for (i = 0; i < c->base.nr_frags; i++)
		kp.fragments[kp.nr_fragments++] = c->base.frags[i];
	for (i = 0; i < c->base.nr_sets; i++)
		kp.sets[kp.nr_sets++] = c->base.sets[i];
	kp.sets[kp.nr_sets++] = c->p->series;
	pr_info("bisect: building %s (%s + the first %d of %d patches of %s)",
		name, c->base.name, k, c->series->nr, c->p->series);
	ret = kernel_build(&kp, kdir, sizeof(kdir));
	if (ret)
		pr_err("bisect: the build of %s failed (%s)", name,
		       strerror(-ret));
	else
		config_check(c, kdir, name);
	return ret;
}

/* One lab run of the suite on a kernel; run_dir gets its results. */
static int lab_suite(struct bisect_ctx *c, const char *kernel,
		     unsigned int reps, const char *append, const char *label,
		     char *run_dir, size_t len)
{
	struct lab_run_params lp = c->p->lab;
	struct lab_run_result *res = calloc(1, sizeof(*res));
	char results[PATH_MAX + 16], nrep[16];
	int ret;

	if (!res)
		return -ENOMEM;
	rtpaths_fmt(results, sizeof(results), "%s/results", c->r->dir);
	lp.kernel = kernel;
	lp.suite = c->p->suite;
	lp.results_dir = results;
	lp.out_dir = c->out;
	lp.label = label;
	if (append)
		lp.append = append;
	if (reps && lp.nr_args + 2 <= LAB_MAX_ARGS) {
		rtpaths_fmt(nrep, sizeof(nrep), "%u", reps);
		lp.args[lp.nr_args++] = "--repeat";
		lp.args[lp.nr_args++] = nrep;
	}
	ret = lab_run(&lp, res);
	if (!ret && (res->exit_code > EXITCODE_INCONCLUSIVE ||
		     !res->run_dir[0])) {
		pr_err("bisect: the run on %s did not complete (exit %d%s%s)",
		       kernel, res->exit_code, res->crashed ? ": " : "",
		       res->crash);
		ret = res->exit_code == EXITCODE_INCOMPLETE ? -EINTR : -EIO;
	}
	if (!ret)
		rtpaths_fmt(run_dir, len, "%s", res->run_dir);
	free(res);
	return ret;
}

/* How many repetitions a run made (its manifest). */
static unsigned int run_reps(const char *run_dir)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	unsigned int n = 0;
	cJSON *m;

	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return 0;
	n = (unsigned int)json_get_num(m, "repetitions",
			json_get_num(cJSON_GetObjectItem(m, "suite"),
				     "repetitions", 0));
	cJSON_Delete(m);
	return n;
}

/*
 * `rtgate compare A B A2`: the base before and after the prefix, so that
 * the analyzer's A/B/A drift check sees a host whose noise changed during
 * the step (a drift as large as the effect is INCONCLUSIVE, re-measured,
 * never a wrong culprit). Its exit code, or -errno.
 */
static int compare_aba(const char *a, const char *b, const char *a2,
		       int k, const char *out)
{
	char labels[64];

	rtpaths_fmt(labels, sizeof(labels), "base,prefix %d,base again", k);
	return lab_gate_compare_aba(a, b, a2, labels, out);
}

static bool wanted(const struct bisect_ctx *c, const char *cand)
{
	size_t n = strcspn(cand, " ");
	int i;

	if (!c->p->nr_scenarios)
		return true;
	for (i = 0; i < c->p->nr_scenarios; i++)
		if (strlen(c->p->scenarios[i]) == n &&
		    !strncmp(cand, c->p->scenarios[i], n))
			return true;
	return false;
}

int bisect_step_code(enum bisect_moves moves, const char *counts)
{
	bool reg = !strcmp(counts, "REGRESSION");
	bool imp = !strcmp(counts, "IMPROVEMENT");

	if ((reg && moves != BISECT_MOVES_IMPROVEMENT) ||
	    (imp && moves != BISECT_MOVES_REGRESSION))
		return EXITCODE_REGRESSION;
	if (!strcmp(counts, "INCONCLUSIVE") || !strcmp(counts, "INVALID"))
		return EXITCODE_INCONCLUSIVE;
	return EXITCODE_PASS;
}

/*
 * A NO CHANGE says the metric did not rise by the floor; under --moves
 * improvement a step counts as "not yet fixed" only when it did not fall
 * by the floor either: every deciding line's interval ends short of
 * -floor. Else the measurement left the fix open (INCONCLUSIVE: measured
 * again, never a wrong culprit).
 */
bool bisect_fall_ruled_out(const cJSON *cmp)
{
	const cJSON *l, *iv;
	int n = 0;

	cJSON_ArrayForEach(l, cJSON_GetObjectItem(cmp, "lines")) {
		if (!cJSON_IsTrue(cJSON_GetObjectItem(l, "deciding")))
			continue;
		iv = cJSON_GetObjectItem(l, "interval");
		if (!cJSON_IsArray(iv) || cJSON_GetArraySize(iv) != 2 ||
		    !cJSON_IsNumber(cJSON_GetArrayItem(iv, 0)))
			continue;
		n++;
		if (cJSON_GetArrayItem(iv, 0)->valuedouble <=
		    -json_get_num(l, "floor", 0))
			return false;
	}
	return n > 0;
}

/*
 * The step's code from OUT/report.json (the scenarios --scenario names,
 * or all; a timerlat scenario's IRQ side too) and the reason of the
 * comparison that made it. -EINVAL when there is no report.
 */
static int gate_verdict(const struct bisect_ctx *c, const char *out,
			char *verdict, size_t vlen, char *reason, size_t len)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	const cJSON *cmp, *pick = NULL;
	int code = EXITCODE_PASS, n = 0, cc;
	cJSON *j;

	rtpaths_fmt(path, sizeof(path), "%s/report.json", out);
	if (json_read_file(path, &j, &err)) {
		pr_err("%s", err.msg);
		return -EINVAL;
	}
	cJSON_ArrayForEach(cmp, cJSON_GetObjectItem(j, "comparisons")) {
		if (!wanted(c, json_get_str(cmp, "candidate", "")))
			continue;
		n++;
		cc = bisect_step_code(c->p->moves,
				 json_get_str(cmp, "counts_as", ""));
		if (cc == EXITCODE_PASS &&
		    c->p->moves == BISECT_MOVES_IMPROVEMENT &&
		    !bisect_fall_ruled_out(cmp))
			cc = EXITCODE_INCONCLUSIVE;
		/* 1 over 2 over 0, as the exit codes rank. */
		if (!pick || (cc == EXITCODE_REGRESSION && code != cc) ||
		    (cc == EXITCODE_INCONCLUSIVE && code == EXITCODE_PASS)) {
			pick = cmp;
			code = cc;
		}
	}
	if (pick) {
		rtpaths_fmt(verdict, vlen, "%s", json_get_str(pick, "verdict",
							      "?"));
		rtpaths_fmt(reason, len, "%s: %s",
			    json_get_str(pick, "candidate", ""),
			    json_get_str(pick, "reason", ""));
	}
	cJSON_Delete(j);
	if (!n) {
		pr_err("%s: no comparison of the scenarios asked for", path);
		return -EINVAL;
	}
	return code;
}

static cJSON *find_step(struct bisect_ctx *c, int k, unsigned int reps)
{
	cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(c->state, "steps"))
		if ((int)json_get_num(s, "prefix", -1) == k &&
		    (unsigned int)json_get_num(s, "repeat", 0) == reps)
			return s;
	return NULL;
}

/*
 * The base run that ended the last step measured at @reps repetitions,
 * if its results are still there: the boot right before this step's
 * prefix, so it is this step's "base before" as much as a new one.
 */
static bool last_base_after(struct bisect_ctx *c, unsigned int reps,
			    char *dir, size_t len)
{
	const cJSON *s, *last = NULL;
	char path[PATH_MAX + 32];

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(c->state, "steps"))
		if ((unsigned int)json_get_num(s, "repeat", 0) == reps)
			last = s;
	if (!last || !*json_get_str(last, "baseline_run_after", ""))
		return false;
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json",
		    json_get_str(last, "baseline_run_after", ""));
	if (!fsio_exists(path))
		return false;
	return !rtpaths_fmt(dir, len, "%s",
			    json_get_str(last, "baseline_run_after", ""));
}

/*
 * The gate base -> prefix k at @reps repetitions (0: the suite's): the
 * base, the prefix, the base again, each booted in turn, then compared
 * A/B/A. The base before is the one that ended the previous step when
 * there is one (a 3-step bisection boots the base 4 times, not 6). The
 * exit code (0, 1, 2), or -errno.
 */
static int gate_once(struct bisect_ctx *c, int k, unsigned int reps,
		     cJSON **step)
{
	char kernel[192], a[PATH_MAX], b[PATH_MAX], a2[PATH_MAX];
	char verdict[32] = "", reason[640] = "", label[32], out[PATH_MAX + 64];
	cJSON *s = find_step(c, k, reps);
	time_t t0 = time(NULL);
	bool reused;
	int code, ret;

	if (s && (int)json_get_num(s, "exit", -1) >= 0) {
		pr_info("bisect: prefix %d/%d: %s (kept from an earlier run)",
			k, c->series->nr, json_get_str(s, "verdict", "?"));
		*step = s;
		return (int)json_get_num(s, "exit", EXITCODE_INCONCLUSIVE);
	}
	ret = build_prefix(c, k, kernel, sizeof(kernel));
	rtpaths_fmt(label, sizeof(label), "p%d-r%u-base", k, reps);
	reused = !ret && last_base_after(c, reps, a, sizeof(a));
	if (reused) {
		pr_info("bisect: prefix %d/%d: the base as the last step ended "
			"it (%s), reused", k, c->series->nr, a);
	} else if (!ret) {
		pr_info("bisect: prefix %d/%d: the base %s in the lab", k,
			c->series->nr, c->base.name);
		ret = lab_suite(c, c->base.dir, reps, NULL, label, a,
				sizeof(a));
	}
	rtpaths_fmt(label, sizeof(label), "p%d-r%u", k, reps);
	if (!ret) {
		pr_info("bisect: prefix %d/%d: %s in the lab", k,
			c->series->nr, kernel);
		ret = lab_suite(c, kernel, reps, c->p->append_b, label, b,
				sizeof(b));
	}
	rtpaths_fmt(label, sizeof(label), "p%d-r%u-base2", k, reps);
	if (!ret) {
		pr_info("bisect: prefix %d/%d: the base again (A/B/A)", k,
			c->series->nr);
		ret = lab_suite(c, c->base.dir, reps, NULL, label, a2,
				sizeof(a2));
	}
	if (ret)
		return ret;
	rtpaths_fmt(out, sizeof(out), "%s/gate-p%d-r%u", c->r->dir, k, reps);
	code = compare_aba(a, b, a2, k, out);
	if (code < 0 || code > EXITCODE_INCONCLUSIVE) {
		pr_err("bisect: the gate of prefix %d could not judge (exit "
		       "%d; reports: %s)", k, code, out);
		return -EIO;
	}
	code = gate_verdict(c, out, verdict, sizeof(verdict), reason,
			    sizeof(reason));
	if (code < 0)
		return code;
	s = cJSON_CreateObject();
	cJSON_AddNumberToObject(s, "prefix", k);
	cJSON_AddStringToObject(s, "kernel", kernel);
	cJSON_AddNumberToObject(s, "repeat", reps);
	cJSON_AddNumberToObject(s, "repetitions", run_reps(b));
	cJSON_AddStringToObject(s, "baseline_run", a);
	cJSON_AddStringToObject(s, "run", b);
	cJSON_AddStringToObject(s, "baseline_run_after", a2);
	cJSON_AddBoolToObject(s, "baseline_reused", reused);
	cJSON_AddStringToObject(s, "reports", out);
	cJSON_AddNumberToObject(s, "exit", code);
	cJSON_AddStringToObject(s, "verdict", verdict);
	cJSON_AddStringToObject(s, "reason", reason);
	cJSON_AddNumberToObject(s, "wall_s", (double)(time(NULL) - t0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(c->state, "steps"), s);
	ret = state_save(c);
	pr_info("bisect: prefix %d/%d: %s: %s", k, c->series->nr, verdict,
		reason);
	*step = s;
	return ret ? ret : code;
}

/*
 * A step's verdict, re-measured while INCONCLUSIVE: twice the repetitions
 * each time, both sides, up to p->remeasure times.
 */
static int judge_prefix(struct bisect_ctx *c, int k)
{
	unsigned int reps = 0, i, n;
	cJSON *step = NULL;
	int code;

	for (i = 0;; i++) {
		code = gate_once(c, k, reps, &step);
		if (code != EXITCODE_INCONCLUSIVE || i == c->p->remeasure)
			return code;
		n = (unsigned int)json_get_num(step, "repetitions", 3);
		reps = 2 * (n ? n : 3);
		pr_info("bisect: prefix %d/%d is INCONCLUSIVE; measuring it "
			"again with %u repetitions before it steers", k,
			c->series->nr, reps);
	}
}

/* ---- the report ---------------------------------------------------------- */

static const char *const moved_words[] = {
	[BISECT_MOVES_REGRESSION] = "a REGRESSION",
	[BISECT_MOVES_IMPROVEMENT] = "an IMPROVEMENT",
	[BISECT_MOVES_CHANGE] = "a REGRESSION or an IMPROVEMENT",
};

static void report(struct bisect_ctx *c, FILE *f)
{
	const cJSON *s;
	int i = 0;

	fprintf(f, "bisect: base %s, series %s (%d patches), suite %s%s%s\n",
		c->base.name, c->p->series, c->series->nr, c->p->suite,
		c->p->moves ? ", moves: " : "",
		c->p->moves ? bisect_moves_name(c->p->moves) : "");
	fprintf(f, "%-4s %-7s %-40s %4s %-13s %s\n", "step", "prefix",
		"kernel", "reps", "verdict", "deciding line");
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(c->state, "steps"))
		fprintf(f, "%-4d %3d/%-3d %-40s %4d %-13s %s\n", ++i,
			(int)json_get_num(s, "prefix", 0), c->series->nr,
			json_get_str(s, "kernel", ""),
			(int)json_get_num(s, "repetitions", 0),
			json_get_str(s, "verdict", ""),
			json_get_str(s, "reason", ""));
	switch (c->r->status) {
	case BISECT_FOUND:
		fprintf(f, "first %s: %d/%d %s%s%s%s\n",
			c->p->moves ? "mover" : "bad patch", c->r->culprit,
			c->series->nr, c->r->subject,
			c->r->set[0] ? " (set " : "", c->r->set,
			c->r->set[0] ? ")" : "");
		break;
	case BISECT_CLEAN:
		fprintf(f, "no culprit: the whole series is not %s against "
			"the base\n", moved_words[c->p->moves]);
		break;
	case BISECT_STUCK:
		fprintf(f, "stopped: a step stayed INCONCLUSIVE after %u "
			"re-measurements, so it cannot steer the search; more "
			"repetitions (--repeat) or a quieter machine would "
			"tell\n", c->p->remeasure);
		break;
	case BISECT_FAILED:
		fprintf(f, "stopped: a build or a lab run failed (above); run "
			"the same command again to resume\n");
		break;
	}
}

static void finish(struct bisect_ctx *c)
{
	static const char *const names[] = {
		[BISECT_FOUND] = "found", [BISECT_CLEAN] = "clean",
		[BISECT_STUCK] = "inconclusive", [BISECT_FAILED] = "failed",
	};
	char path[PATH_MAX + 32], *buf = NULL;
	size_t len = 0;
	FILE *f;

	cJSON_DeleteItemFromObject(c->state, "status");
	cJSON_AddStringToObject(c->state, "status", names[c->r->status]);
	cJSON_DeleteItemFromObject(c->state, "culprit");
	if (c->r->culprit) {
		cJSON *o = cJSON_AddObjectToObject(c->state, "culprit");

		cJSON_AddNumberToObject(o, "patch", c->r->culprit);
		cJSON_AddStringToObject(o, "subject", c->r->subject);
		if (c->r->set[0])
			cJSON_AddStringToObject(o, "set", c->r->set);
	} else {
		cJSON_AddNullToObject(c->state, "culprit");
	}
	state_save(c);
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	report(c, f);
	fclose(f);
	fputs(buf, stdout);
	fflush(stdout);
	rtpaths_fmt(path, sizeof(path), "%s/report.txt", c->r->dir);
	fsio_write_atomic(path, buf, len);
	free(buf);
}

/* ---- the search ---------------------------------------------------------- */

static int search(struct bisect_ctx *c)
{
	int good = 0, bad = c->series->nr, mid, code;

	pr_info("bisect: %d patches; judging the whole series first",
		c->series->nr);
	code = judge_prefix(c, bad);
	if (code < 0)
		return code;
	if (code == EXITCODE_PASS) {
		c->r->status = BISECT_CLEAN;
		return 0;
	}
	if (code == EXITCODE_INCONCLUSIVE) {
		c->r->status = BISECT_STUCK;
		return 0;
	}
	while (bad - good > 1) {
		mid = good + (bad - good) / 2;
		pr_info("bisect: the first bad patch is in %d..%d; trying %d",
			good + 1, bad, mid);
		code = judge_prefix(c, mid);
		if (code < 0)
			return code;
		if (code == EXITCODE_INCONCLUSIVE) {
			c->r->status = BISECT_STUCK;
			return 0;
		}
		if (code == EXITCODE_REGRESSION)
			bad = mid;
		else
			good = mid;
	}
	c->r->status = BISECT_FOUND;
	c->r->culprit = bad;
	rtpaths_fmt(c->r->subject, sizeof(c->r->subject), "%s",
		    c->series->items[bad - 1].subject);
	rtpaths_fmt(c->r->set, sizeof(c->r->set), "%s",
		    c->series->items[bad - 1].set);
	return 0;
}

static int paths(struct bisect_ctx *c)
{
	char name[256];

	if (rtpaths_out(c->out, sizeof(c->out)) ||
	    rtpaths_cache(c->cache, sizeof(c->cache)) ||
	    rtpaths_in_top(c->kconfigs, sizeof(c->kconfigs), "kconfigs") ||
	    rtpaths_in_top(c->patches, sizeof(c->patches), "patches"))
		return -ENAMETOOLONG;
	rtpaths_fmt(name, sizeof(name), "%s", c->p->name ? c->p->name : "");
	if (!name[0])
		rtpaths_fmt(name, sizeof(name), "%s+%s-%s%s%s", c->base.name,
			    c->p->series, strrchr(c->p->suite, '/') ?
			    strrchr(c->p->suite, '/') + 1 : c->p->suite,
			    c->p->moves ? "-" : "",
			    c->p->moves ? bisect_moves_name(c->p->moves) : "");
	if (strchr(name, '/') || name[0] == '.') {
		pr_err("--name: '%s' is not a folder name", name);
		return -EINVAL;
	}
	rtpaths_fmt(c->r->dir, sizeof(c->r->dir), "%s/bisect/%s", c->out,
		    name);
	return fsio_mkdir_p(c->r->dir, 0755);
}

int bisect_run(const struct bisect_params *p, struct bisect_result *r)
{
	struct bisect_ctx c = { .p = p, .r = r };
	int ret;

	memset(r, 0, sizeof(*r));
	r->exit_code = EXITCODE_ENVIRONMENT;
	rtpaths_fmt(c.base.name, sizeof(c.base.name), "%s", p->base);
	ret = rtpaths_out(c.out, sizeof(c.out));
	if (!ret)
		ret = load_base(&c);
	if (!ret)
		ret = paths(&c);
	if (!ret)
		ret = load_series(&c);
	if (!ret)
		ret = state_open(&c);
	if (ret)
		goto out;
	ret = search(&c);
	if (ret)
		r->status = BISECT_FAILED;
	finish(&c);
	switch (r->status) {
	case BISECT_FOUND: r->exit_code = EXITCODE_REGRESSION; break;
	case BISECT_CLEAN: r->exit_code = EXITCODE_PASS; break;
	case BISECT_STUCK: r->exit_code = EXITCODE_INCONCLUSIVE; break;
	case BISECT_FAILED:
		r->exit_code = ret == -EINTR ? EXITCODE_INCOMPLETE :
			       ret == -EINVAL ? EXITCODE_BAD_INPUT :
					       EXITCODE_ENVIRONMENT;
		break;
	}
	ret = 0;
out:
	cJSON_Delete(c.state);
	free(c.series);
	return ret;
}
