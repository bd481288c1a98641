// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate compare BASELINE CANDIDATE` and `rtgate report RUN_DIR`, and
 * analyze_report_run() for the runner. Only these choose exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "fsio.h"
#include "history/history.h"
#include "analyze_input.h"
#include "analyze_report.h"
#include "analyze_runs.h"
#include "exitcode.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"

static const struct option an_opts[] = {
	{ "metric", required_argument, NULL, 'm' },
	{ "alpha", required_argument, NULL, 'a' },
	{ "min-increase-us", required_argument, NULL, 'u' },
	{ "min-increase-pct", required_argument, NULL, 'P' },
	{ "report", required_argument, NULL, 'r' },
	{ "out", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "labels", required_argument, NULL, 'L' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char an_help[] =
	"A side is a results directory (DIR, DIR/SCENARIO or DIR:SCENARIO),\n"
	"a cyclictest --json, --histfile or T: lines file, or a directory of\n"
	"such files, one per repetition.\n\n"
	"RUN_A RUN_B [RUN_A2]: whole results directories of one suite\n"
	"(e.g. original kernel, patched, original again: a fresh boot\n"
	"each), compared scenario by scenario; A2 joins A's baseline and\n"
	"the A/B/A drift check compares them. Prints the threads' table.\n"
	"  --labels L            the runs' column names (default\n"
	"                        \"original A,patched,original B\", or\n"
	"                        \"baseline,candidate\")\n"
	"  --metric M            max (default), avg, p50 ... p99.999, or\n"
	"                        WORKLOAD.METRIC\n"
	"  --alpha A             significance level (default 0.05)\n"
	"  --min-increase-us U   practical floor in us (default 5)\n"
	"  --min-increase-pct P  practical floor in % (default 10)\n"
	"  --report LIST         txt,md,json,junit,html or all\n"
	"  --out DIR             where reports go (compare: default .;\n"
	"                        report: the run directory)\n"
	"  -q, --quiet           no tables on stdout, the exit code only\n\n"
	"Defaults come from the suite's [gate] for a run. Exit: 0 pass,\n"
	"1 regression, 2 inconclusive or invalid, 3 bad input, 5 the run did\n"
	"not complete. The method: docs/statistics.md.\n";

static int parse_formats(const char *s, unsigned int *out)
{
	static const char *const names[] = { "txt", "md", "json", "junit",
					     "html" };
	char buf[128], *tok, *save = NULL;
	size_t i;

	*out = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			*out |= AN_FMT_ALL;
			continue;
		}
		for (i = 0; i < 5; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == 5) {
			pr_err("--report: unknown format '%s' (txt, md, json, "
			       "junit, html, all)", tok);
			return -EINVAL;
		}
		*out |= 1u << i;
	}
	return *out ? 0 : -EINVAL;
}

static int parse_num_opt(const char *opt, const char *val, double min,
			 double *out)
{
	if (parse_double(val, out) || !(*out >= min)) {
		pr_err("--%s: '%s' is not a number >= %g", opt, val, min);
		return -EINVAL;
	}
	return 0;
}

/* Options shared by compare and report; returns the next argv index. */
static int parse_opts(int argc, char **argv, struct analyze_params *p,
		      const char *usage)
{
	int c;

	analyze_params_init(p);
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:a:u:P:r:o:qhL:", an_opts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			p->metric = optarg;
			break;
		case 'a':
			if (parse_num_opt("alpha", optarg, 0, &p->alpha))
				return -EINVAL;
			break;
		case 'u':
			if (parse_num_opt("min-increase-us", optarg, 0,
					  &p->min_increase_us))
				return -EINVAL;
			break;
		case 'P':
			if (parse_num_opt("min-increase-pct", optarg, 0,
					  &p->min_increase_pct))
				return -EINVAL;
			break;
		case 'r':
			if (parse_formats(optarg, &p->formats))
				return -EINVAL;
			break;
		case 'o':
			p->out_dir = optarg;
			break;
		case 'q':
			p->quiet = true;
			break;
		case 'L':
			p->labels = optarg;
			break;
		case 'h':
			printf("usage: rtgate %s\n\n%s", usage, an_help);
			return -ECANCELED;
		default:
			pr_err("usage: rtgate %s", usage);
			return -EINVAL;
		}
	}
	return optind;
}

static int gate_apply(struct an_gate *gate, const struct analyze_params *p)
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

/* An incomplete baseline is never judged against (DESIGN: Results). */
static void refuse_incomplete_base(struct an_cmp *c)
{
	if (!c->base->incomplete)
		return;
	an_result_release(&c->res);
	c->res.verdict = AN_INVALID;
	snprintf(c->res.reason, sizeof(c->res.reason),
		 "the baseline %s comes from a run that did not complete, "
		 "and an incomplete run is never a baseline", c->base->name);
}

static int emit(struct an_report *r, const struct analyze_params *p,
		const char *dir, bool full_stdout)
{
	unsigned int formats = p->formats;

	if (dir && !formats)
		formats = AN_FMT_ALL;
	if (formats && an_report_write(r, dir ? dir : ".", formats))
		return EXIT_ENVIRONMENT;
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
			    const struct analyze_params *p)
{
	char path[4096], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = an_compare_runs_table(r, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = an_path_join(path, sizeof(path), p->out_dir, "runs.txt");
	if (!ret)
		ret = fsio_write_atomic(path, buf, len);
	if (ret)
		pr_err("%s/runs.txt: %s", p->out_dir, strerror(-ret));
	free(buf);
	return ret;
}

#define COMPARE_USAGE "compare BASELINE CANDIDATE | RUN_A RUN_B [RUN_A2] " \
	"[--labels L] [--metric M] " \
	"[--alpha A] [--min-increase-us U] [--min-increase-pct P] " \
	"[--report txt,md,json,junit,html] [--out DIR] [-q]"

/* A whole results directory (not DIR:SCENARIO, not a scenario's). */
static bool is_run_dir(const char *spec)
{
	char path[4096];

	return !strchr(spec, ':') &&
	       !an_path_join(path, sizeof(path), spec, "manifest.json") &&
	       !access(path, F_OK);
}

/* RUN_A RUN_B [RUN_A2]: scenario by scenario, with the threads' table. */
static int compare_runs(char **dirs, int n, const struct analyze_params *p)
{
	struct an_report *r;
	int i, ret;

	for (i = 0; i < n; i++)
		if (!is_run_dir(dirs[i])) {
			pr_err("%s: not a results directory (no "
			       "manifest.json): three arguments are RUN_A "
			       "RUN_B RUN_A2",
			       dirs[i]);
			return EXIT_BAD_INPUT;
		}
	ret = an_compare_runs(dirs, n, p, &r);
	if (ret)
		return ret == -ENOMEM ? EXIT_ENVIRONMENT : EXIT_BAD_INPUT;
	ret = emit(r, p, p->out_dir, false);
	if (ret == r->exit_code && p->out_dir && runs_table_write(r, p))
		ret = EXIT_ENVIRONMENT;
	an_compare_runs_free(r);
	return ret;
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

int cmd_compare(int argc, char **argv)
{
	struct analyze_params p;
	struct an_side *sides[2] = { NULL, NULL };
	struct an_cmp cmp = { 0 };
	struct an_report r = { 0 };
	struct an_system sys[2];
	int i, ret = EXIT_BAD_INPUT;

	/* A history baseline: the store picks the runs, an_compare judges. */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--history"))
			return history_compare_cmd(argc, argv);
	i = parse_opts(argc, argv, &p, COMPARE_USAGE);
	if (i == -ECANCELED)
		return EXIT_PASS;
	if (i < 0)
		return EXIT_BAD_INPUT;
	if (argc - i == 3 || (argc - i == 2 && is_run_dir(argv[i]) &&
			      is_run_dir(argv[i + 1])))
		return compare_runs(argv + i, argc - i, &p);
	if (argc - i != 2) {
		pr_err("usage: rtgate %s", COMPARE_USAGE);
		return EXIT_BAD_INPUT;
	}
	an_gate_default(&r.gate);
	if (gate_apply(&r.gate, &p))
		return EXIT_BAD_INPUT;
	if (an_input_read(argv[i], &sides[0]) ||
	    an_input_read(argv[i + 1], &sides[1]))
		goto out;
	/* Two inputs named alike (a/1.json, b/1.json): use the paths. */
	if (!strcmp(sides[0]->name, sides[1]->name)) {
		snprintf(sides[0]->name, sizeof(sides[0]->name), "%s", argv[i]);
		snprintf(sides[1]->name, sizeof(sides[1]->name), "%s",
			 argv[i + 1]);
	}
	cmp.base = sides[0];
	cmp.cand = sides[1];
	if (an_compare(sides[0], sides[1], &r.gate, &cmp.res)) {
		pr_err("out of memory");
		ret = EXIT_ENVIRONMENT;
		goto out;
	}
	refuse_incomplete_base(&cmp);
	snprintf(r.title, sizeof(r.title), "compare %s %s", argv[i],
		 argv[i + 1]);
	r.sides = sides;
	r.nsides = 2;
	r.cmps = &cmp;
	r.ncmps = 1;
	spec_system(argv[i], "baseline", sys, &r.nsystems);
	spec_system(argv[i + 1], "candidate", sys, &r.nsystems);
	r.systems = sys;
	an_report_finish(&r, sides[0]->incomplete || sides[1]->incomplete);
	ret = emit(&r, &p, p.out_dir, true);
	an_result_release(&cmp.res);
out:
	an_side_free(sides[0]);
	an_side_free(sides[1]);
	return ret;
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

static int run_sides(const struct an_results *res, struct an_report *r)
{
	const cJSON *all, *s;
	int ret;

	all = cJSON_GetObjectItemCaseSensitive(res->manifest, "scenarios");
	r->sides = calloc(cJSON_GetArraySize(all) + 1, sizeof(*r->sides));
	r->cmps = calloc(cJSON_GetArraySize(all) + 1, sizeof(*r->cmps));
	if (!r->sides || !r->cmps)
		return -ENOMEM;
	cJSON_ArrayForEach(s, all) {
		ret = an_results_side(res, json_get_str(s, "name", ""),
				      &r->sides[r->nsides]);
		if (ret)
			return ret;
		r->nsides++;
	}
	return 0;
}

/* A scenario's own gate metric (suite key `metric`), unless --metric. */
static void scenario_gate(const cJSON *s, const struct analyze_params *p,
			  const struct an_gate *suite, struct an_gate *out)
{
	const char *m = json_get_str(s, "metric", NULL);

	*out = *suite;
	if (m && !p->metric)
		snprintf(out->metric, sizeof(out->metric), "%s", m);
}

static int run_compare(const struct an_results *res,
		       const struct analyze_params *p, struct an_report *r)
{
	const cJSON *all, *s;
	struct an_gate gate;
	size_t k = 0;

	all = cJSON_GetObjectItemCaseSensitive(res->manifest, "scenarios");
	cJSON_ArrayForEach(s, all) {
		const char *base = json_get_str(s, "compare", NULL);
		const char *control = json_get_str(s, "control", "");
		struct an_cmp *c = &r->cmps[r->ncmps];

		k++;
		if (!base)
			continue;
		c->cand = r->sides[k - 1];
		c->base = side_named(r->sides, r->nsides, base);
		if (!c->base) {
			pr_err("%s/manifest.json: scenario %s is compared "
			       "with \"%s\", which is not in the run",
			       res->dir, c->cand->name, base);
			return -EINVAL;
		}
		scenario_gate(s, p, &r->gate, &gate);
		if (an_compare(c->base, c->cand, &gate, &c->res))
			return -ENOMEM;
		r->ncmps++;
		refuse_incomplete_base(c);
		snprintf(c->control, sizeof(c->control), "%s", control);
		an_cmp_apply_control(c);
	}
	return 0;
}

int analyze_report_run(const char *run_dir, const struct analyze_params *p)
{
	struct an_results res;
	struct an_report r = { 0 };
	struct an_system sys;
	size_t i;
	int ret;

	if (an_results_open(run_dir, &res))
		return EXIT_BAD_INPUT;
	an_system_from_manifest(res.manifest, NULL, &sys);
	r.systems = &sys;
	r.nsystems = 1;
	an_results_gate(&res, &r.gate);
	if (gate_apply(&r.gate, p)) {
		ret = EXIT_BAD_INPUT;
		goto out;
	}
	r.run_dir = run_dir;
	r.run_id = json_get_str(res.manifest, "run_id", run_dir);
	r.status = res.status;
	r.scale = json_get_num(cJSON_GetObjectItemCaseSensitive(res.manifest,
								"suite"),
			       "duration_scale", 1);
	snprintf(r.title, sizeof(r.title), "suite %s, run %s",
		 json_get_str(cJSON_GetObjectItemCaseSensitive(res.manifest,
							       "suite"),
			      "name", "?"), r.run_id);
	ret = run_sides(&res, &r);
	if (!ret)
		ret = run_compare(&res, p, &r);
	if (ret) {
		ret = ret == -ENOMEM ? EXIT_ENVIRONMENT : EXIT_BAD_INPUT;
		goto out;
	}
	an_report_finish(&r, strcmp(res.status, "complete") != 0);
	ret = emit(&r, p, p->out_dir ? p->out_dir : run_dir, false);
out:
	for (i = 0; i < r.ncmps; i++)
		an_result_release(&r.cmps[i].res);
	for (i = 0; i < r.nsides; i++)
		an_side_free(r.sides[i]);
	free(r.sides);
	free(r.cmps);
	an_results_close(&res);
	return ret;
}

#define REPORT_USAGE "report RUN_DIR [--metric M] [--alpha A] " \
	"[--min-increase-us U] [--min-increase-pct P] " \
	"[--report FORMATS] [--out DIR] [-q]"

int cmd_report(int argc, char **argv)
{
	struct analyze_params p;
	int i;

	i = parse_opts(argc, argv, &p, REPORT_USAGE);
	if (i == -ECANCELED)
		return EXIT_PASS;
	if (i < 0)
		return EXIT_BAD_INPUT;
	if (argc - i != 1) {
		pr_err("usage: rtgate %s", REPORT_USAGE);
		return EXIT_BAD_INPUT;
	}
	if (!p.formats)
		p.formats = AN_FMT_ALL;
	return analyze_report_run(argv[i], &p);
}
