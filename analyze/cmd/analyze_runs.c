// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate compare RUN_A RUN_B [RUN_A2]`: two or three runs of the same
 * suite, usually on different kernels (original A, patched, original B: a
 * fresh boot each, as the seed threads measured), compared scenario by
 * scenario. The baseline of each scenario is A's repetitions, and with A2
 * also A2's: A ran before B and A2 after it, so the analyzer's A/B/A drift
 * check compares A with A2. Besides the usual reports it prints the
 * threads' own table: one row per scenario, one column per run.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
#include "analyze/report/report.h"
#include "analyze/cmd/cmd.h"
#include "analyze/stats/stats.h"
#include "exitcode.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"

#define RUNS_MAX	3
/* Execution order across runs: A's repetitions, then B's, then A2's. */
#define ORDER_STRIDE	100000

struct runs_ctx {
	const struct an_params *p;
	struct an_results res[RUNS_MAX];
	size_t nres;
	char labels[RUNS_MAX][32];
	struct an_system sys[RUNS_MAX];
	char unlike[1024];	/* what differs that is not under test */
	struct an_report r;
	/* Per scenario: each run's own side, before A and A2 are merged. */
	double (*vals)[RUNS_MAX];
	double *cv;
	char (*units)[16];
};

static int parse_labels(struct runs_ctx *c)
{
	static const char *const three[] = { "original A", "patched",
					     "original B" };
	static const char *const two[] = { "baseline", "candidate" };
	char buf[128], *tok, *save = NULL;
	size_t i = 0;

	for (i = 0; i < c->nres; i++)
		rtpaths_fmt(c->labels[i], sizeof(c->labels[i]), "%s",
			    c->nres == 3 ? three[i] : two[i]);
	if (!c->p->labels)
		return 0;
	rtpaths_fmt(buf, sizeof(buf), "%s", c->p->labels);
	for (i = 0, tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), i++) {
		if (i >= c->nres)
			break;
		rtpaths_fmt(c->labels[i], sizeof(c->labels[i]), "%s", tok);
	}
	if (i != c->nres || tok) {
		pr_err("--labels: '%s' must name the %zu runs, comma-separated",
		       c->p->labels, c->nres);
		return -EINVAL;
	}
	return 0;
}

static const char *suite_name(const struct an_results *res)
{
	return json_get_str(cJSON_GetObjectItemCaseSensitive(res->manifest,
							     "suite"),
			    "name", "?");
}

static int open_runs(struct runs_ctx *c, char **dirs)
{
	size_t i;

	for (i = 0; i < c->nres; i++) {
		if (an_results_open(dirs[i], &c->res[i]))
			return -EINVAL;
		if (i && strcmp(suite_name(&c->res[0]),
				suite_name(&c->res[i]))) {
			pr_err("%s is a run of suite %s, %s of suite %s: "
			       "compare runs of the same suite", dirs[0],
			       suite_name(&c->res[0]), dirs[i],
			       suite_name(&c->res[i]));
			c->nres = i + 1;
			return -EINVAL;
		}
	}
	return 0;
}

static const cJSON *scenario_json(const struct an_results *res,
				  const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(res->manifest,
							       "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

/* One run's side of a scenario; SKIPPED when that run does not have it. */
static int run_side(struct runs_ctx *c, size_t k, const char *scen,
		    struct an_side **out)
{
	struct an_side *s;
	size_t r;
	int ret;

	if (!scenario_json(&c->res[k], scen)) {
		s = an_side_new(scen);
		if (!s)
			return -ENOMEM;
		s->status = AN_SIDE_SKIPPED;
		rtpaths_fmt(s->reason, sizeof(s->reason), "%s has no scenario "
			    "%s", c->res[k].dir, scen);
		*out = s;
		return 0;
	}
	ret = an_results_side(&c->res[k], scen, &s);
	if (ret)
		return ret;
	/* Runs are independent boots: order them A, then B, then A2. */
	s->order_known = true;
	for (r = 0; r < s->nruns; r++)
		s->runs[r].order = (int)(k * ORDER_STRIDE) +
				   (s->runs[r].order >= 0 ?
				    s->runs[r].order : (int)r);
	*out = s;
	return 0;
}

/* A2's repetitions join A's baseline (moved, not copied). */
static int merge_into(struct an_side *a, struct an_side *a2)
{
	struct an_run *runs;

	if (a2->status != AN_SIDE_OK || !a2->nruns) {
		if (a->status == AN_SIDE_OK && a2->status != AN_SIDE_OK) {
			a->status = a2->status;
			rtpaths_fmt(a->reason, sizeof(a->reason), "%s",
				    a2->reason);
		}
		return 0;
	}
	runs = realloc(a->runs, (a->nruns + a2->nruns) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	memcpy(runs + a->nruns, a2->runs, a2->nruns * sizeof(*runs));
	a->runs = runs;
	a->nruns += a2->nruns;
	a->incomplete |= a2->incomplete;
	a2->nruns = 0;
	return 0;
}

/*
 * The table's value of one run set: the mean over its repetitions of each
 * one's median round of a workload metric (what the analyzer judges), the
 * maximum of max, the cycle-weighted average of avg; NAN otherwise.
 */
static double side_value(const struct an_side *s, const char *metric,
			 char *unit, size_t len, double *cv)
{
	double sum = 0, n = 0, v = NAN;
	size_t r, j, m;

	if (s->status != AN_SIDE_OK)
		return NAN;
	for (r = 0; r < s->nruns; r++) {
		const struct an_run *run = &s->runs[r];

		for (m = 0; m < run->nmetrics; m++) {
			const struct an_values *x = &run->metrics[m];
			double rs = 0, rq = 0, mean, sd;

			if (strcmp(x->name, metric) || !x->n)
				continue;
			rtpaths_fmt(unit, len, "%s", x->unit);
			for (j = 0; j < x->n; j++) {
				rs += x->v[j];
				rq += x->v[j] * x->v[j];
			}
			mean = rs / x->n;
			sd = x->n > 1 ? sqrt(fmax(0, (rq - rs * mean) /
						     (x->n - 1))) : 0;
			if (mean > 0 && 100 * sd / mean > *cv)
				*cv = 100 * sd / mean;
			/* As the analyzer judges it: the run's median. */
			sum += an_median(x->v, x->n);
			n++;
		}
		for (j = 0; j < run->ncpus; j++) {
			const struct an_cpu *cpu = &run->cpus[j];

			if (!strcmp(metric, "max")) {
				v = isnan(v) ? cpu->max_us :
					       fmax(v, cpu->max_us);
			} else if (!strcmp(metric, "avg")) {
				sum += cpu->avg_us * cpu->cycles;
				n += cpu->cycles;
			}
		}
	}
	if (!strcmp(metric, "max") || !strcmp(metric, "avg"))
		rtpaths_fmt(unit, len, "us");
	if (!strcmp(metric, "max"))
		return v;
	return n ? sum / n : NAN;
}

static int add_scenario(struct runs_ctx *c, const cJSON *scen, size_t i)
{
	const char *name = json_get_str(scen, "name", "?");
	const char *m = json_get_str(scen, "metric", NULL);
	struct an_side *s[RUNS_MAX] = { NULL };
	struct an_cmp *cmp = &c->r.cmps[c->r.ncmps];
	struct an_gate gate = c->r.gate;
	size_t k;
	int ret = 0;

	if (m && !c->p->metric)
		rtpaths_fmt(gate.metric, sizeof(gate.metric), "%s", m);
	c->cv[i] = 0;
	for (k = 0; k < c->nres && !ret; k++) {
		ret = run_side(c, k, name, &s[k]);
		if (!ret)
			c->vals[i][k] = side_value(s[k], gate.metric,
						   c->units[i],
						   sizeof(c->units[i]),
						   &c->cv[i]);
	}
	if (!ret && c->nres == 3)
		ret = merge_into(s[0], s[2]);
	/*
	 * The suite's references are the publication's numbers for the
	 * original kernel: beside B (the patched one) they would mislead.
	 */
	if (!ret && s[1]->ref) {
		struct an_side *tmp = an_side_new("");

		if (tmp) {
			tmp->ref = s[1]->ref;
			s[1]->ref = NULL;
		}
		an_side_free(tmp);
	}
	an_side_free(s[2]);
	if (ret) {
		an_side_free(s[0]);
		an_side_free(s[1]);
		return ret;
	}
	rtpaths_fmt(s[0]->name, sizeof(s[0]->name), "%s (%s%s%s)", name,
		    c->labels[0], c->nres == 3 ? " + " : "",
		    c->nres == 3 ? c->labels[2] : "");
	rtpaths_fmt(s[1]->name, sizeof(s[1]->name), "%s (%s)", name,
		    c->labels[1]);
	c->r.sides[c->r.nsides++] = s[0];
	c->r.sides[c->r.nsides++] = s[1];
	cmp->base = s[0];
	cmp->cand = s[1];
	/* A's reference is the publication's number for this scenario. */
	cmp->base_ref_applies = true;
	if (an_compare(s[0], s[1], &gate, &cmp->res))
		return -ENOMEM;
	c->r.ncmps++;
	return 0;
}

static void fmt_cell(char *buf, size_t len, double v)
{
	if (isnan(v))
		rtpaths_fmt(buf, len, "-");
	else if (fabs(v) >= 1000)
		rtpaths_fmt(buf, len, "%.1f", v);
	else
		rtpaths_fmt(buf, len, "%.3f", v);
}

static void fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		rtpaths_fmt(buf, len, "-");
	else
		rtpaths_fmt(buf, len, "%+.2f%%", v);
}

/* The published value of A's scenario, as its reference gives it. */
static double published(const struct an_side *s, const char *metric)
{
	struct an_line l = { .cpu = -1 };

	if (!strcmp(metric, "max"))
		l.kind = AN_LINE_MAX;
	else if (!strcmp(metric, "avg"))
		l.kind = AN_LINE_AVG;
	else
		l.kind = AN_LINE_METRIC;
	rtpaths_fmt(l.metric, sizeof(l.metric), "%s", metric);
	return an_ref_value(s, &l);
}

/*
 * The threads' table: "parameter  original A  patched  original B", then
 * the change of B against A's (and A2's) mean, the largest within-run CV,
 * the A/A2 drift and the analyzer's verdict.
 */
static void print_table(const struct runs_ctx *c, FILE *f)
{
	char cell[32], name[128];
	size_t i, k;

	fprintf(f, "suite %s:", suite_name(&c->res[0]));
	for (k = 0; k < c->nres; k++)
		fprintf(f, "%s %s = %s", k ? "," : "", c->labels[k],
			c->res[k].dir);
	fprintf(f, "\n\n%-24s %-8s", "scenario", "unit");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %12s", c->labels[k]);
	fprintf(f, " %10s %9s %7s %9s  %s\n", "published", "change", "CV",
		   c->nres == 3 ? "drift" : "", "verdict");
	for (i = 0; i < c->r.ncmps; i++) {
		const struct an_cmp *cmp = &c->r.cmps[i];
		const double *v = c->vals[i];
		double base = c->nres == 3 ? (v[0] + v[2]) / 2 : v[0];
		const char *metric = cmp->res.gate.metric;

		rtpaths_fmt(name, sizeof(name), "%s", cmp->cand->name);
		*strrchr(name, ' ') = '\0';
		fprintf(f, "%-24s %-8s", name, c->units[i][0] ?
			c->units[i] : "-");
		for (k = 0; k < c->nres; k++) {
			fmt_cell(cell, sizeof(cell), v[k]);
			fprintf(f, " %12s", cell);
		}
		fmt_cell(cell, sizeof(cell), published(cmp->base, metric));
		fprintf(f, " %10s", cell);
		fmt_pct(cell, sizeof(cell), 100 * (v[1] - base) / base);
		fprintf(f, " %9s", cell);
		if (c->cv[i] > 0)
			rtpaths_fmt(cell, sizeof(cell), "%.2f%%", c->cv[i]);
		else
			rtpaths_fmt(cell, sizeof(cell), "-");
		fprintf(f, " %7s", cell);
		fmt_pct(cell, sizeof(cell), c->nres == 3 ?
			100 * (v[2] - v[0]) / base : NAN);
		fprintf(f, " %9s", c->nres == 3 ? cell : "");
		fprintf(f, "  %s (%s)\n", an_verdict_name(cmp->res.verdict),
			metric);
	}
	fprintf(f, "\nchange: %s against %s; CV: the largest within-run "
		"coefficient of variation of the rounds", c->labels[1],
		c->nres == 3 ? "the mean of the two originals" : c->labels[0]);
	if (c->nres == 3)
		fprintf(f, "; drift: %s against %s", c->labels[2],
			c->labels[0]);
	fprintf(f, "; published: %s's reference numbers\n\n", c->labels[0]);
}

static int compare_all(struct runs_ctx *c)
{
	const cJSON *all = cJSON_GetObjectItemCaseSensitive(c->res[0].manifest,
							    "scenarios");
	const cJSON *s;
	size_t n = cJSON_GetArraySize(all), i = 0;
	int ret;

	c->r.sides = calloc(2 * n + 1, sizeof(*c->r.sides));
	c->r.cmps = calloc(n + 1, sizeof(*c->r.cmps));
	c->vals = calloc(n + 1, sizeof(*c->vals));
	c->cv = calloc(n + 1, sizeof(*c->cv));
	c->units = calloc(n + 1, sizeof(*c->units));
	if (!c->r.sides || !c->r.cmps || !c->vals || !c->cv || !c->units)
		return -ENOMEM;
	cJSON_ArrayForEach(s, all) {
		ret = add_scenario(c, s, i++);
		if (ret)
			return ret;
	}
	return 0;
}

static void release(struct runs_ctx *c)
{
	size_t i;

	for (i = 0; i < c->r.ncmps; i++)
		an_result_release(&c->r.cmps[i].res);
	for (i = 0; i < c->r.nsides; i++)
		an_side_free(c->r.sides[i]);
	free(c->r.sides);
	free(c->r.cmps);
	free(c->vals);
	free(c->cv);
	free(c->units);
	for (i = 0; i < c->nres; i++)
		an_results_close(&c->res[i]);
}

int an_compare_runs(char **dirs, size_t n, const struct an_params *p,
		    struct an_report **out)
{
	struct runs_ctx *c = calloc(1, sizeof(*c));
	bool incomplete = false;
	size_t i;
	int ret;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->p = p;
	c->nres = n;
	ret = parse_labels(c);
	if (!ret)
		ret = open_runs(c, dirs);
	if (ret)
		goto fail;
	/* The suite's gate (from A's manifest), options override it. */
	an_results_gate(&c->res[0], &c->r.gate);
	if (p->metric)
		rtpaths_fmt(c->r.gate.metric, sizeof(c->r.gate.metric), "%s",
			    p->metric);
	if (p->alpha >= 0)
		c->r.gate.alpha = p->alpha;
	if (p->min_increase_us >= 0)
		c->r.gate.min_increase_us = p->min_increase_us;
	if (p->min_increase_pct >= 0)
		c->r.gate.min_increase_pct = p->min_increase_pct;
	if (an_gate_check(&c->r.gate)) {
		ret = -EINVAL;
		goto fail;
	}
	ret = compare_all(c);
	if (ret)
		goto fail;
	rtpaths_fmt(c->r.title, sizeof(c->r.title), "suite %s: %s%s%s%s%s",
		    suite_name(&c->res[0]), dirs[0], " vs ", dirs[1],
		    n == 3 ? " vs " : "", n == 3 ? dirs[2] : "");
	c->r.scale = json_get_num(cJSON_GetObjectItemCaseSensitive(
					  c->res[0].manifest, "suite"),
				  "duration_scale", 1);
	for (i = 0; i < n; i++)
		incomplete |= strcmp(c->res[i].status, "complete") != 0;
	for (i = 0; i < n; i++)
		an_system_from_manifest(c->res[i].manifest, c->labels[i],
					&c->sys[i]);
	ret = an_systems_like_check(c->sys, n, p->intended, c->unlike,
				    sizeof(c->unlike));
	if (ret < 0)
		goto fail;
	/* The systems, and each scenario's CPUs (paired by thread). */
	for (i = 0; i < c->r.ncmps; i++)
		an_cmp_like(&c->r.cmps[i], ret ? c->unlike : NULL, p->intended);
	c->r.systems = c->sys;
	c->r.nsystems = n;
	an_report_finish(&c->r, incomplete);
	if (!p->quiet)
		print_table(c, stdout);
	*out = &c->r;
	return 0;
fail:
	release(c);
	free(c);
	return ret;
}

void an_compare_runs_free(struct an_report *r)
{
	struct runs_ctx *c;

	if (!r)
		return;
	c = (struct runs_ctx *)((char *)r - offsetof(struct runs_ctx, r));
	release(c);
	free(c);
}

int an_compare_runs_table(const struct an_report *r, FILE *f)
{
	const struct runs_ctx *c;

	c = (const struct runs_ctx *)((const char *)r -
				      offsetof(struct runs_ctx, r));
	print_table(c, f);
	return ferror(f) ? -EIO : 0;
}
