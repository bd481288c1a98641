// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate compare BASELINE CANDIDATE` and `rtgate report RUN_DIR`, and
 * an_report_run() for the runner. Only these choose exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "fsio.h"
#include "analyze/input/input.h"
#include "analyze/judge/judge.h"
#include "analyze/report/report.h"
#include "analyze/cmd/cmd.h"
#include "exitcode.h"
#include "jsonio.h"
#include "jsonout.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"
#include "parse.h"

/*
 * One table, one parser: compare's options; report's are the same table
 * after the first AN_COMPARE_ONLY entries (its --help lists only its own).
 */
#define AN_COMPARE_ONLY	2
static const struct argp_option an_opts[] = {
	{ "family", 'F', "N", 0, "N comparisons share alpha, each judged at "
	  "alpha / N (default: a DIR:SCENARIO side's suite, as rtgate run "
	  "judges it; else 1)", 1 },
	{ "labels", 'L', "L", 0, "RUN_A RUN_B [RUN_A2]: the runs' column names "
	  "(default \"original A,patched,original B\", or "
	  "\"baseline,candidate\")", 2 },
	{ NULL, 0, NULL, 0, "The gate (defaults: the suite's [gate] for a run, "
	  "else these):", 1 },
	{ "metric", 'm', "M", 0, "max (default), avg, pN (p50, p99.9 ...) or "
	  "WORKLOAD.METRIC", 1 },
	{ "alpha", 'a', "A", 0, "significance level (default 0.05)", 1 },
	{ "min-increase-us", 'u', "U", 0, "practical floor in us (default 5)",
	  1 },
	{ "min-increase-pct", 'P', "P", 0, "practical floor in % (default 10)",
	  1 },
	{ "profile", 'p', "FILE", 0, "the machine's noise profile (rtgate "
	  "calibrate): the prior of the repetitions' variance; a run's own "
	  "manifest has one", 1 },
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "report", 'r', "LIST", 0, "txt,md,json,junit,html or all", 2 },
	{ "out", 'o', "DIR", 0, "where reports go (compare: default .; "
	  "report: the run directory)", 2 },
	{ "quiet", 'q', NULL, 0, "no tables on stdout, the exit code only", 2 },
	{ 0 }
};

struct an_cli {
	struct an_params p;
	char intended[512];	/* every --intended, comma-joined */
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
	struct an_params *p = &c->p;
	char bad[128], why[480];
	uint64_t v;

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
		if (!*arg)
			return cli_error(state, "-o: an empty folder name "
					 "(leave -o out for the default)");
		p->out_dir = arg;
		break;
	case 'q':
		p->quiet = true;
		break;
	case 'L':
		p->labels = arg;
		break;
	case CLI_KEY_INTENDED:
		if (an_like_intended_add(c->intended, sizeof(c->intended), arg,
					 why, sizeof(why)))
			return cli_error(state, "--intended: %s", why);
		p->intended = c->intended;
		break;
	case 'p':
		p->profile = arg;
		break;
	case 'F':
		if (!c->compare)
			return cli_error(state, "--family is for compare: a "
					 "run's report shares alpha over its "
					 "own suite");
		if (cli_arg_number(state, "family", arg, 1, 10000, &v))
			return EINVAL;
		p->family = (unsigned int)v;
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

/* --intended: common/cmd/cli.h's, compare's alone. */
static const struct argp_child compare_child[] = {
	{ &cli_intended_argp, 0, NULL, 2 }, { 0 }
};

static const struct argp compare_argp = {
	an_opts, an_parse, "BASELINE CANDIDATE\nRUN_A RUN_B [RUN_A2]",
	compare_doc, compare_child, NULL, NULL
};

static const struct argp report_argp = {
	an_opts + AN_COMPARE_ONLY, an_parse, "RUN_DIR", report_doc, NULL, NULL,
	NULL
};

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
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT :
		       EXITCODE_BAD_INPUT;
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

static int compare_cmd(int argc, char **argv)
{
	struct an_params p;
	struct an_cli cli = { 0 };
	struct an_side *sides[2] = { NULL, NULL };
	struct an_cmp cmp = { 0 };
	struct an_report r = { 0 };
	struct an_profile prof = { 0 };
	struct an_system sys[2];
	int i, ret = EXITCODE_BAD_INPUT;
	char why[1024];
	size_t family;

	cli.compare = true;
	an_params_init(&cli.p);
	ret = cli_parse("compare", &compare_argp, argc, argv, 0, &cli);
	if (ret)
		return cli_exit(ret);
	p = cli.p;
	argv = cli.args;
	i = 0;
	ret = EXITCODE_BAD_INPUT;
	if (cli.nargs == 3 || (cli.nargs == 2 && is_run_dir(argv[0]) &&
			       is_run_dir(argv[1])))
		return compare_runs(argv, cli.nargs, &p);
	family = spec_gate(argv[0], &r.gate);
	if (gate_apply(&r.gate, &p))
		return EXITCODE_BAD_INPUT;
	an_share_alpha_given(&r.gate, family, p.family);
	if (p.profile) {
		if (profile_read(p.profile, &prof))
			return EXITCODE_BAD_INPUT;
		r.gate.profile = &prof;
	}
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
		ret = EXITCODE_ENVIRONMENT;
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
	why[0] = '\0';
	if (r.nsystems == 2) {
		int like = an_systems_like_check(sys, 2, p.intended, why,
						 sizeof(why));

		if (like < 0) {
			ret = EXITCODE_BAD_INPUT;
			an_result_release(&cmp.res);
			goto out;
		}
	}
	/* The systems, and the CPUs the sides measured (paired by thread). */
	an_cmp_like(&cmp, why, p.intended);
	an_report_finish(&r, sides[0]->incomplete || sides[1]->incomplete);
	ret = emit(&r, &p, p.out_dir, true);
	an_result_release(&cmp.res);
out:
	an_side_free(sides[0]);
	an_side_free(sides[1]);
	an_profile_free(&prof);
	return ret;
}

/*
 * What compare was told about its reports: the directory (--out DIR, -o
 * DIR, --out=DIR, -oDIR) and the formats (--report, -r), NULL when not.
 */
static void compare_outputs(int argc, char **argv, const char **dir,
			    const char **formats)
{
	int i;

	*dir = *formats = NULL;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] :
						 "";

		if (!strcmp(a, "--out") || !strcmp(a, "-o"))
			*dir = next;
		else if (!strncmp(a, "--out=", 6))
			*dir = a + 6;
		else if (!strncmp(a, "-o", 2))
			*dir = a + 2;
		else if (!strcmp(a, "--report") || !strcmp(a, "-r"))
			*formats = next;
		else if (!strncmp(a, "--report=", 9))
			*formats = a + 9;
		else if (!strncmp(a, "-r", 2))
			*formats = a + 2;
	}
}

/*
 * compare --json: the analyzer's report.json alone on stdout, its tables
 * on stderr (docs/exports.md). The reports go where --out says (with
 * --report and no --out, into .); with neither, report.json alone into a
 * private directory, removed afterwards. --report must then name json.
 */
static int compare_json(int argc, char **argv)
{
	char tmp[4096] = "", path[4200];
	const char *dir, *formats;
	struct jsonout jo;
	char **av;
	int n = argc, code, ret;

	compare_outputs(argc, argv, &dir, &formats);
	if (formats && !strstr(formats, "json") && !strstr(formats, "all")) {
		pr_err("compare --json: --report %s has no json", formats);
		return EXITCODE_BAD_INPUT;
	}
	if (!dir && formats)
		dir = ".";
	if (!dir) {
		ret = jsonout_tmpdir(tmp, sizeof(tmp));
		if (ret) {
			pr_err("compare --json: no private directory: %s",
			       strerror(-ret));
			return EXITCODE_ENVIRONMENT;
		}
		dir = tmp;
	}
	av = calloc((size_t)argc + 5, sizeof(*av));
	if (!av) {
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	/* Ours first: the command line may end with "-- FILE". */
	av[0] = argv[0];
	if (tmp[0]) {
		av[1] = "--out";
		av[2] = tmp;
		av[3] = "--report";
		av[4] = "json";
		n += 4;
	}
	memcpy(av + 1 + (n - argc), argv + 1, (size_t)(argc - 1) *
	       sizeof(*av));
	if (jsonout_begin(&jo)) {
		pr_err("compare --json: cannot redirect stdout");
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	code = compare_cmd(n, av);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	/* Bad input, usage or environment (3, 4): no report of this run. */
	ret = jsonout_end(&jo, code == EXITCODE_BAD_INPUT ||
			  code == EXITCODE_ENVIRONMENT ? NULL : path);
	if (ret)
		code = exitcode_worse(code, EXITCODE_ENVIRONMENT);
out:
	if (tmp[0])
		jsonout_tmpdir_remove(tmp);
	free(av);
	return code;
}

/* compare [--json]: the judgement, or report.json alone on stdout. */
int an_cmd_compare(int argc, char **argv)
{
	bool json;

	argc = jsonout_strip(argc, argv, &json);
	return json ? compare_json(argc, argv) : compare_cmd(argc, argv);
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
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT :
		       EXITCODE_BAD_INPUT;
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
		rtpaths_fmt(v->baseline, sizeof(v->baseline), "%s",
			    c->base->name);
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

int an_cmd_report(int argc, char **argv)
{
	struct an_cli cli = { 0 };
	int ret;

	an_params_init(&cli.p);
	ret = cli_parse("report", &report_argp, argc, argv, 0, &cli);
	if (ret)
		return cli_exit(ret);
	if (!cli.p.formats)
		cli.p.formats = AN_FMT_ALL;
	return an_report_run(cli.args[0], &cli.p);
}
