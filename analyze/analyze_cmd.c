// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate compare BASELINE CANDIDATE` and `rtgate report RUN_DIR`, and
 * analyze_report_run() for the runner. Only these choose exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "fsio.h"
#include "history/history.h"
#include "analyze_input.h"
#include "analyze_report.h"
#include "analyze_runs.h"
#include "exitcode.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"

/* The options compare and report share (one table, one parser). */
static const struct argp_option an_opts[] = {
	{ NULL, 0, NULL, 0, "The gate (defaults: the suite's [gate] for a run, "
	  "else these):", 1 },
	{ "metric", 'm', "M", 0, "max (default), avg, p50 ... p99.999, or "
	  "WORKLOAD.METRIC", 1 },
	{ "alpha", 'a', "A", 0, "significance level (default 0.05)", 1 },
	{ "min-increase-us", 'u', "U", 0, "practical floor in us (default 5)",
	  1 },
	{ "min-increase-pct", 'P', "P", 0, "practical floor in % (default 10)",
	  1 },
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "report", 'r', "LIST", 0, "txt,md,json,junit,html or all", 2 },
	{ "out", 'o', "DIR", 0, "where reports go (compare: default .; "
	  "report: the run directory)", 2 },
	{ "quiet", 'q', NULL, 0, "no tables on stdout, the exit code only", 2 },
	{ "labels", 'L', "L", 0, "RUN_A RUN_B [RUN_A2]: the runs' column names "
	  "(default \"original A,patched,original B\", or "
	  "\"baseline,candidate\")", 2 },
	{ 0 }
};

struct an_cli {
	struct analyze_params p;
	bool compare;
	char *args[3];
	int nargs;
};

/* "txt,md" into AN_FMT_* bits; -EINVAL with the word not known in bad. */
static int parse_formats(const char *s, unsigned int *out, char *bad,
			 size_t blen)
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
			snprintf(bad, blen, "%s", tok);
			return -EINVAL;
		}
		*out |= 1u << i;
	}
	snprintf(bad, blen, "%s", s);
	return *out ? 0 : -EINVAL;
}

static int parse_num_opt(const struct argp_state *state, const char *opt,
			 const char *val, double min, double *out)
{
	if (parse_double(val, out) || !(*out >= min))
		return -cli_error(state, "--%s: '%s' is not a number >= %g",
				  opt, val, min);
	return 0;
}

static error_t an_parse(int key, char *arg, struct argp_state *state)
{
	struct an_cli *c = state->input;
	struct analyze_params *p = &c->p;
	char bad[128];

	switch (key) {
	case 'm':
		p->metric = arg;
		break;
	case 'a':
		if (parse_num_opt(state, "alpha", arg, 0, &p->alpha))
			return EINVAL;
		break;
	case 'u':
		if (parse_num_opt(state, "min-increase-us", arg, 0,
				  &p->min_increase_us))
			return EINVAL;
		break;
	case 'P':
		if (parse_num_opt(state, "min-increase-pct", arg, 0,
				  &p->min_increase_pct))
			return EINVAL;
		break;
	case 'r':
		if (parse_formats(arg, &p->formats, bad, sizeof(bad)))
			return cli_error(state, "--report: unknown format '%s' "
					 "(txt, md, json, junit, html, all)",
					 bad);
		break;
	case 'o':
		p->out_dir = arg;
		break;
	case 'q':
		p->quiet = true;
		break;
	case 'L':
		p->labels = arg;
		break;
	case ARGP_KEY_ARG:
		if (c->nargs == (c->compare ? 3 : 1))
			return cli_error(state, "%s", c->compare ?
					 "at most three inputs (RUN_A RUN_B "
					 "RUN_A2)" : "one run directory at a "
					 "time");
		c->args[c->nargs++] = arg;
		break;
	case ARGP_KEY_END:
		if (c->compare && c->nargs < 2)
			return cli_error(state, "a baseline and a candidate, "
					 "please (BASELINE CANDIDATE)");
		if (!c->compare && c->nargs != 1)
			return cli_error(state, "which run? (RUN_DIR)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char compare_doc[] =
	"Judges a candidate against a baseline, with evidence: the verdict "
	"(REGRESSION, IMPROVEMENT, NO CHANGE, INCONCLUSIVE, SKIPPED, INVALID), "
	"its reason and the line it rests on.\n\n"
	"A side is a results directory (DIR, DIR/SCENARIO or DIR:SCENARIO), "
	"a cyclictest --json, --histfile or T: lines file, or a directory of "
	"such files, one per repetition. RUN_A RUN_B [RUN_A2]: whole results "
	"directories of one suite (original kernel, patched, original again: "
	"a fresh boot each), compared scenario by scenario; A2 joins A's "
	"baseline and the A/B/A drift check compares them; the threads' "
	"table is printed. `rtgate compare --history RUN_DIR` judges a run "
	"against the last K runs of the history (rtgate compare --history "
	"--help)."
	"\vExit status: 0 pass, 1 regression, 2 inconclusive or invalid, 3 bad "
	"input, 4 environment, 5 the run did not complete "
	"(docs/exit-codes.md). The method: docs/statistics.md.";

static const char report_doc[] =
	"Judges every comparison a finished (or interrupted) run declares and "
	"writes report.txt, .md, .json, .html and junit.xml into it."
	"\vExit status: 0 pass, 1 regression, 2 inconclusive or invalid, 3 bad "
	"input, 4 environment, 5 the run did not complete "
	"(docs/exit-codes.md).";

static const struct argp compare_argp = {
	an_opts, an_parse, "BASELINE CANDIDATE\nRUN_A RUN_B [RUN_A2]",
	compare_doc, NULL, NULL, NULL
};

static const struct argp report_argp = {
	an_opts, an_parse, "RUN_DIR", report_doc, NULL, NULL, NULL
};

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
	struct an_cli cli = { 0 };
	struct an_side *sides[2] = { NULL, NULL };
	struct an_cmp cmp = { 0 };
	struct an_report r = { 0 };
	struct an_system sys[2];
	int i, ret = EXIT_BAD_INPUT;

	/* A history baseline: the store picks the runs, an_compare judges. */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--history"))
			return history_compare_cmd(argc, argv);
	cli.compare = true;
	analyze_params_init(&cli.p);
	ret = cli_parse("compare", &compare_argp, argc, argv, 0, &cli);
	if (ret)
		return cli_exit(ret);
	p = cli.p;
	argv = cli.args;
	i = 0;
	ret = EXIT_BAD_INPUT;
	if (cli.nargs == 3 || (cli.nargs == 2 && is_run_dir(argv[0]) &&
			       is_run_dir(argv[1])))
		return compare_runs(argv, cli.nargs, &p);
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

int cmd_report(int argc, char **argv)
{
	struct an_cli cli = { 0 };
	int ret;

	analyze_params_init(&cli.p);
	ret = cli_parse("report", &report_argp, argc, argv, 0, &cli);
	if (ret)
		return cli_exit(ret);
	if (!cli.p.formats)
		cli.p.formats = AN_FMT_ALL;
	return analyze_report_run(cli.args[0], &cli.p);
}
