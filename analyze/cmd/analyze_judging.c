// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `rtgate compare` and `rtgate report` drive once their command line
 * is read (analyze_cmd.c), and what the runner asks for: a baseline and a
 * candidate judged as one comparison, two or three runs of a suite
 * (analyze_runs.c), or every comparison a run's suite declares
 * (an_report_run(), an_judge_run()); the gate each is judged by, the
 * reports written and the table printed. How alpha is shared among the
 * comparisons is the judge's (analyze/judge/analyze_family.c): this file
 * asks it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/cmd/cmd.h"
#include "analyze/input/input.h"
#include "analyze/judge/judge.h"
#include "analyze/report/report.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"

static int gate_apply(struct an_gate *gate, const struct an_params *p)
{
	if (p->metric)
		snprintf(gate->metric, sizeof(gate->metric), "%s", p->metric);
	if (p->alpha >= 0)
		gate->alpha = p->alpha;
	if (p->min_increase_us >= 0)
		gate->min_increase_us = p->min_increase_us;
	if (p->min_increase_pct >= 0)
		gate->min_increase_pct = p->min_increase_pct;
	return an_gate_check(gate);
}

/* A noise profile file (rtgate calibrate writes them): 0 or -EINVAL. */
static int profile_read(const char *path, struct an_profile *pr)
{
	struct json_error err;
	cJSON *o;
	int ret;

	if (json_read_file(path, &o, &err)) {
		pr_err("%s", err.msg);
		return -EINVAL;
	}
	ret = an_profile_from_json(path, o, pr);
	cJSON_Delete(o);
	return ret;
}

/* An incomplete baseline is never judged against (DESIGN: Results). */
static void refuse_incomplete_base(struct an_cmp *c)
{
	if (!c->base->incomplete)
		return;
	an_result_release(&c->res);
	c->res.decisive = -1;
	c->res.verdict = AN_INVALID;
	snprintf(c->res.reason, sizeof(c->res.reason),
		 "the baseline %s comes from a run that did not complete, "
		 "and an incomplete run is never a baseline", c->base->name);
}

static int emit(struct an_report *r, const struct an_params *p,
		const char *dir, bool full_stdout)
{
	unsigned int formats = p->formats;

	if (dir && !formats)
		formats = AN_FMT_ALL;
	if (formats && an_report_write(r, dir ? dir : ".", formats))
		return EXITCODE_ENVIRONMENT;
	if (p->quiet)
		return r->exit_code;
	if (full_stdout)
		an_report_txt(r, stdout);
	else
		an_report_table(r, stdout, an_term_width(stdout));
	fflush(stdout);
	return r->exit_code;
}

/* The threads' table beside the reports: OUT/runs.txt. */
static int runs_table_write(const struct an_report *r,
			    const struct an_params *p)
{
	char path[4096], *buf = NULL, *fixed;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = an_compare_runs_table(r, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = rtpaths_fmt(path, sizeof(path), "%s/runs.txt",
				  p->out_dir);
	/* UTF-8, as every report (analyze_report_write.c). */
	fixed = ret ? NULL : text_utf8_repair(buf, len, &len);
	if (!ret && !fixed)
		ret = -ENOMEM;
	if (!ret)
		ret = fsio_write_atomic(path, fixed, len);
	if (ret)
		pr_err("%s/runs.txt: %s", p->out_dir, strerror(-ret));
	free(fixed);
	free(buf);
	return ret;
}

/* A whole results directory (not DIR:SCENARIO, not a scenario's). */
/* A results folder is one whatever its name holds (a ':' too). */
static bool is_run_dir(const char *spec)
{
	char path[4096];

	return !rtpaths_fmt(path, sizeof(path), "%s/manifest.json", spec) &&
	       !access(path, F_OK);
}

/* RUN_A RUN_B [RUN_A2]: scenario by scenario, with the threads' table. */
static int compare_runs(char **dirs, int n, const struct an_params *p)
{
	struct an_report *r;
	int i, ret;

	for (i = 0; i < n; i++)
		if (!is_run_dir(dirs[i])) {
			pr_err("%s: not a results directory (no "
			       "manifest.json): three arguments are RUN_A "
			       "RUN_B RUN_A2",
			       dirs[i]);
			return EXITCODE_BAD_INPUT;
		}
	ret = an_compare_runs(dirs, n, p, &r);
	if (ret)
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
	ret = emit(r, p, p->out_dir, false);
	if (ret == r->exit_code && p->out_dir && runs_table_write(r, p))
		ret = EXITCODE_ENVIRONMENT;
	an_compare_runs_free(r);
	return ret;
}

/*
 * The gate of a side that is a scenario of a results directory
 * (DIR:SCENARIO, DIR/SCENARIO, or a DIR of one scenario): its suite's
 * [gate] with the scenario's own metric, as the run itself judged it.
 * Anything else (cyclictest files) is judged with the defaults. Returns
 * the suite's family (an_suite_family(): the comparisons that share alpha
 * in `rtgate run`), 0 when the side is no results directory.
 */
static size_t spec_gate(const char *spec, struct an_gate *gate)
{
	char dir[4096], scen[256] = "", *cut;
	struct an_results res;
	const cJSON *s, *all;
	char base[sizeof(scen)];
	size_t n, family;

	an_gate_default(gate);
	snprintf(dir, sizeof(dir), "%s", spec);
	if (!is_run_dir(dir)) {
		cut = strrchr(dir, ':');
		if (!cut || !is_run_dir((*cut = '\0', dir))) {
			snprintf(dir, sizeof(dir), "%s", spec);
			while ((n = strlen(dir)) > 1 && dir[n - 1] == '/')
				dir[n - 1] = '\0';
			cut = strrchr(dir, '/');
			if (!cut || !is_run_dir((*cut = '\0', dir)))
				return 0;
		}
		snprintf(scen, sizeof(scen), "%s", cut + 1);
	}
	if (an_results_open(dir, &res))
		return 0;
	an_results_gate(&res, gate);
	/* A scenario's further side (timerlat's S.irq) is judged as S. */
	if (an_tool_side_of(scen, base, sizeof(base)))
		snprintf(scen, sizeof(scen), "%s", base);
	all = cJSON_GetObjectItemCaseSensitive(res.manifest, "scenarios");
	cJSON_ArrayForEach(s, all) {
		const char *m = json_get_str(s, "metric", NULL);

		if ((!scen[0] || !strcmp(json_get_str(s, "name", ""), scen)) &&
		    m)
			snprintf(gate->metric, sizeof(gate->metric), "%s", m);
	}
	family = an_suite_family(res.manifest);
	an_results_close(&res);
	return family;
}

/*
 * The system a side of `compare` was measured on, when it comes from a
 * results directory (DIR, DIR:SCENARIO or DIR/SCENARIO).
 */
static void spec_system(const char *spec, const char *label,
			struct an_system *sys, size_t *n)
{
	char dir[4096], path[4096 + 16];
	struct json_error err;
	cJSON *m;
	int k;

	for (k = 0; k < 2; k++) {
		snprintf(dir, sizeof(dir), "%s", spec);
		if (strchr(dir, ':'))
			*strchr(dir, ':') = '\0';
		if (k == 1) {
			if (!strrchr(dir, '/'))
				return;
			*strrchr(dir, '/') = '\0';
		}
		snprintf(path, sizeof(path), "%s/manifest.json", dir);
		if (access(path, F_OK) || json_read_file(path, &m, &err))
			continue;
		an_system_from_manifest(m, label, &sys[*n]);
		(*n)++;
		cJSON_Delete(m);
		return;
	}
}

/* BASELINE CANDIDATE: one comparison of two sides. */
static int compare_sides(char **argv, const struct an_params *p)
{
	struct an_side *sides[2] = { NULL, NULL };
	struct an_cmp cmp = { 0 };
	struct an_report r = { 0 };
	struct an_profile prof = { 0 };
	struct an_system sys[2];
	int ret = EXITCODE_BAD_INPUT;
	char why[1024];
	size_t family;

	family = spec_gate(argv[0], &r.gate);
	if (gate_apply(&r.gate, p))
		return EXITCODE_BAD_INPUT;
	an_share_alpha_given(&r.gate, family, p->family);
	if (p->profile) {
		if (profile_read(p->profile, &prof))
			return EXITCODE_BAD_INPUT;
		r.gate.profile = &prof;
	}
	if (an_input_read(argv[0], &sides[0]) ||
	    an_input_read(argv[1], &sides[1]))
		goto out;
	/* Two inputs named alike (a/1.json, b/1.json): use the paths. */
	if (!strcmp(sides[0]->name, sides[1]->name)) {
		snprintf(sides[0]->name, sizeof(sides[0]->name), "%s", argv[0]);
		snprintf(sides[1]->name, sizeof(sides[1]->name), "%s", argv[1]);
	}
	cmp.base = sides[0];
	cmp.cand = sides[1];
	if (an_compare(sides[0], sides[1], &r.gate, &cmp.res)) {
		pr_err("out of memory");
		ret = EXITCODE_ENVIRONMENT;
		goto out;
	}
	refuse_incomplete_base(&cmp);
	snprintf(r.title, sizeof(r.title), "compare %s %s", argv[0], argv[1]);
	r.sides = sides;
	r.nsides = 2;
	r.cmps = &cmp;
	r.ncmps = 1;
	spec_system(argv[0], "baseline", sys, &r.nsystems);
	spec_system(argv[1], "candidate", sys, &r.nsystems);
	r.systems = sys;
	why[0] = '\0';
	if (r.nsystems == 2) {
		int like = an_systems_like_check(sys, 2, p->intended, why,
						 sizeof(why));

		if (like < 0) {
			ret = EXITCODE_BAD_INPUT;
			an_result_release(&cmp.res);
			goto out;
		}
	}
	/* The systems, and the CPUs the sides measured (paired by thread). */
	an_cmp_like(&cmp, why, p->intended);
	an_report_finish(&r, sides[0]->incomplete || sides[1]->incomplete);
	ret = emit(&r, p, p->out_dir, true);
	an_result_release(&cmp.res);
out:
	an_side_free(sides[0]);
	an_side_free(sides[1]);
	an_profile_free(&prof);
	return ret;
}

int an_compare_inputs(char **inputs, int n, const struct an_params *p)
{
	if (n == 3 || (n == 2 && is_run_dir(inputs[0]) &&
		       is_run_dir(inputs[1])))
		return compare_runs(inputs, n, p);
	return compare_sides(inputs, p);
}

static struct an_side *side_named(struct an_side **sides, size_t n,
				  const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(sides[i]->name, name))
			return sides[i];
	return NULL;
}

/* Every scenario's side, and one more for each further latency it has. */
static int run_sides(const struct an_results *res, struct an_report *r)
{
	const cJSON *all, *s;
	const struct an_tool *t;
	char name[160];
	size_t k;
	int ret, n = 0;

	all = cJSON_GetObjectItemCaseSensitive(res->manifest, "scenarios");
	cJSON_ArrayForEach(s, all) {
		t = an_tool_of(res->manifest, s);
		n += t ? (int)an_tool_nsides(t) : 1;
	}
	r->sides = calloc(n + 1, sizeof(*r->sides));
	r->cmps = calloc(n + 1, sizeof(*r->cmps));
	if (!r->sides || !r->cmps)
		return -ENOMEM;
	cJSON_ArrayForEach(s, all) {
		t = an_tool_of(res->manifest, s);
		for (k = 0; k < (t ? an_tool_nsides(t) : 1); k++) {
			snprintf(name, sizeof(name), "%s%s",
				 json_get_str(s, "name", ""),
				 k ? t->sides[k].suffix : "");
			ret = an_results_side(res, name,
					      &r->sides[r->nsides]);
			if (ret)
				return ret;
			r->nsides++;
		}
	}
	return 0;
}

/* A scenario's own gate metric (suite key `metric`), unless --metric. */
static void scenario_gate(const cJSON *s, const struct an_params *p,
			  const struct an_gate *suite, struct an_gate *out)
{
	const char *m = json_get_str(s, "metric", NULL);

	*out = *suite;
	if (m && !p->metric)
		snprintf(out->metric, sizeof(out->metric), "%s", m);
}

/* The first n repetitions of a side (execution order), sharing its data. */
static struct an_side *first_reps(const struct an_side *s, size_t n)
{
	struct an_side *v = malloc(sizeof(*v));

	if (!v)
		return NULL;
	*v = *s;
	v->ref = NULL;
	v->nruns = n < s->nruns ? n : s->nruns;
	v->runs = malloc((v->nruns ? v->nruns : 1) * sizeof(*v->runs));
	if (!v->runs) {
		free(v);
		return NULL;
	}
	memcpy(v->runs, s->runs, v->nruns * sizeof(*v->runs));
	return v;
}

/*
 * A candidate --until-decided stopped at an earlier look is judged on the
 * repetitions of that look: rounds run later for other comparisons added
 * baseline repetitions its decision never saw.
 */
static int stopped_view(const struct an_results *res, struct an_report *r,
			struct an_cmp *c)
{
	struct an_side *vb, *vc, **v;
	size_t nb, nc;

	if (!an_results_stop(res, c->cand->name, &nb, &nc) ||
	    (nb >= c->base->nruns && nc >= c->cand->nruns))
		return 0;
	v = realloc(r->views, (r->nviews + 2) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->views = v;
	vb = first_reps(c->base, nb);
	vc = first_reps(c->cand, nc);
	if (!vb || !vc) {
		if (vb)
			free(vb->runs);
		if (vc)
			free(vc->runs);
		free(vb);
		free(vc);
		return -ENOMEM;
	}
	r->views[r->nviews++] = vb;
	r->views[r->nviews++] = vc;
	c->base = vb;
	c->cand = vc;
	return 0;
}

static int compare_pair(const struct an_results *res,
			const struct an_params *p, struct an_report *r,
			const cJSON *s, const char *cand, const char *base,
			bool irq, size_t family)
{
	const char *control = json_get_str(s, "control", "");
	struct an_cmp *c = &r->cmps[r->ncmps];
	struct an_gate gate;
	int ret;

	c->cand = side_named(r->sides, r->nsides, cand);
	c->base = side_named(r->sides, r->nsides, base);
	if (!c->base || !c->cand) {
		pr_err("%s/manifest.json: scenario %s is compared with \"%s\", "
		       "which is not in the run", res->dir, cand, base);
		return -EINVAL;
	}
	ret = stopped_view(res, r, c);
	if (ret)
		return ret;
	scenario_gate(s, p, &r->gate, &gate);
	an_share_alpha(res, c->cand->name, family, &gate);
	if (an_compare(c->base, c->cand, &gate, &c->res))
		return -ENOMEM;
	r->ncmps++;
	if (!p->interim)
		refuse_incomplete_base(c);
	/*
	 * A positive control delays the measuring thread; the IRQ latency
	 * of its scenario is shown beside it, not required to move.
	 */
	if (irq && !strcmp(control, "positive"))
		control = "shown";
	/* Within a run too: CPUs are paired by thread. */
	an_cmp_like(c, NULL, p->intended);
	snprintf(c->control, sizeof(c->control), "%s", control);
	an_cmp_apply_control(c);
	return 0;
}

static int run_compare(const struct an_results *res,
		       const struct an_params *p, struct an_report *r)
{
	const cJSON *all, *s, *b;
	const struct an_tool *ts, *tb;
	char ci[160], bi[160];
	size_t family, k;
	int ret;

	all = cJSON_GetObjectItemCaseSensitive(res->manifest, "scenarios");
	family = an_suite_family(res->manifest);
	cJSON_ArrayForEach(s, all) {
		const char *base = json_get_str(s, "compare", NULL);
		const char *name = json_get_str(s, "name", "");

		if (!base)
			continue;
		ret = compare_pair(res, p, r, s, name, base, false, family);
		if (ret)
			return ret;
		/* A further latency both measure (timerlat's IRQ) too. */
		cJSON_ArrayForEach(b, all)
			if (!strcmp(json_get_str(b, "name", ""), base))
				break;
		ts = an_tool_of(res->manifest, s);
		tb = b ? an_tool_of(res->manifest, b) : NULL;
		for (k = 1; ts && tb && k < an_tool_nsides(ts); k++) {
			if (an_tool_side_index(tb, ts->sides[k].suffix) ==
			    (size_t)-1)
				continue;
			snprintf(ci, sizeof(ci), "%s%s", name,
				 ts->sides[k].suffix);
			snprintf(bi, sizeof(bi), "%s%s", base,
				 ts->sides[k].suffix);
			ret = compare_pair(res, p, r, s, ci, bi, true, family);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* --profile FILE, else the manifest's: the prior of every comparison. */
static int run_profile(const struct an_results *res,
		       const struct an_params *p, struct an_profile *pr,
		       struct an_gate *gate)
{
	int ret = p->profile ? profile_read(p->profile, pr) :
		  an_results_profile(res, pr);

	if (ret < 0)
		return ret;
	if (!ret)
		gate->profile = pr;
	return 0;
}

/* A run judged in memory: every comparison its suite declares. */
struct judged_run {
	struct an_profile prof;
	struct an_results res;
	struct an_report r;
	struct an_system sys;
};

static void judged_free(struct judged_run *j)
{
	size_t i;

	for (i = 0; i < j->r.ncmps; i++)
		an_result_release(&j->r.cmps[i].res);
	for (i = 0; i < j->r.nsides; i++)
		an_side_free(j->r.sides[i]);
	/* Views share their runs' data: only their own arrays go. */
	for (i = 0; i < j->r.nviews; i++) {
		free(j->r.views[i]->runs);
		free(j->r.views[i]);
	}
	free(j->r.views);
	free(j->r.sides);
	free(j->r.cmps);
	an_profile_free(&j->prof);
	an_results_close(&j->res);
}

/* Returns 0 or an exit code (bad input 3, environment 4). */
static int judge_run(const char *run_dir, const struct an_params *p,
		     struct judged_run *j)
{
	struct an_report *r = &j->r;
	const cJSON *suite;
	int ret;

	memset(j, 0, sizeof(*j));
	if (an_results_open(run_dir, &j->res))
		return EXITCODE_BAD_INPUT;
	an_system_from_manifest(j->res.manifest, NULL, &j->sys);
	r->systems = &j->sys;
	r->nsystems = 1;
	an_results_gate(&j->res, &r->gate);
	if (gate_apply(&r->gate, p))
		return EXITCODE_BAD_INPUT;
	suite = cJSON_GetObjectItemCaseSensitive(j->res.manifest, "suite");
	r->run_dir = run_dir;
	r->run_id = json_get_str(j->res.manifest, "run_id", run_dir);
	r->status = j->res.status;
	r->scale = json_get_num(suite, "duration_scale", 1);
	snprintf(r->title, sizeof(r->title), "suite %s, run %s",
		 json_get_str(suite, "name", "?"), r->run_id);
	ret = run_profile(&j->res, p, &j->prof, &r->gate);
	if (!ret)
		ret = run_sides(&j->res, r);
	if (!ret)
		ret = run_compare(&j->res, p, r);
	if (ret)
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
	an_report_finish(r, strcmp(j->res.status, "complete") != 0);
	return 0;
}

int an_report_run(const char *run_dir, const struct an_params *p)
{
	struct judged_run j;
	int ret;

	ret = judge_run(run_dir, p, &j);
	if (!ret)
		ret = emit(&j.r, p, p->out_dir ? p->out_dir : run_dir, false);
	judged_free(&j);
	return ret;
}

int an_judge_run(const char *run_dir, const struct an_params *p,
		 struct an_run_verdict **out, size_t *n)
{
	struct judged_run j;
	size_t i;
	int ret;

	*out = NULL;
	*n = 0;
	ret = judge_run(run_dir, p, &j);
	if (!ret && j.r.ncmps) {
		*out = calloc(j.r.ncmps, sizeof(**out));
		if (!*out)
			ret = EXITCODE_ENVIRONMENT;
	}
	for (i = 0; !ret && i < j.r.ncmps; i++) {
		const struct an_cmp *c = &j.r.cmps[i];
		struct an_run_verdict *v = &(*out)[(*n)++];

		rtpaths_fmt(v->candidate, sizeof(v->candidate), "%s",
			c->cand->name);
		rtpaths_fmt(v->baseline, sizeof(v->baseline), "%s", c->base->name);
		rtpaths_fmt(v->reason, sizeof(v->reason), "%s", c->res.reason);
		v->verdict = c->res.verdict;
		v->counts_as = an_cmp_counts(c);
		v->control = c->control[0] != '\0';
		v->more_reps = c->res.decisive >= 0 ?
			       c->res.lines[c->res.decisive].more_reps : -1;
		v->nbase = c->res.nbase;
		v->ncand = c->res.ncand;
	}
	judged_free(&j);
	return ret;
}
