// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command lines of `rtgate compare` and `rtgate report`: one option
 * table, one parser filling struct an_params, and `compare --json`'s
 * redirection. What they drive -- the judging of two sides, of two or
 * three runs, or of a whole run, and its reports -- is
 * analyze_judging.c's; only these commands choose exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/cmd/cmd.h"
#include "analyze/report/report.h"
#include "cli.h"
#include "exitcode.h"
#include "jsonout.h"
#include "log.h"
#include "parse.h"


/*
 * One table, one parser: compare's options; report's are the same table
 * after the first AN_COMPARE_ONLY entries (its --help lists only its own).
 */
#define AN_COMPARE_ONLY	3
static const struct argp_option an_opts[] = {
	{ "intended", 'I', "SETTING", 0, "the runs may differ in SETTING: it "
	  "is the one under test (repeatable, or a comma list; "
	  "docs/nightly.md \"Like with like\"). Any other difference in "
	  "tool, tool.version, cpu_dma_latency, cpuidle.states, "
	  "cpuidle.governor, cpufreq.governor, isolcpus, nohz_full, "
	  "irq_affinity, clocksource, smt, cmdline (cmdline.PARAM for one "
	  "parameter) or cpus (the CPUs measured, paired thread by thread) "
	  "makes the comparison INVALID", 2 },
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
	char bad[128];
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
	case 'I':
		if (an_like_intended_check(arg, bad, sizeof(bad))) {
			char all[400];

			return cli_error(state, "--intended: '%s' is no "
					 "setting (%s)", bad,
					 an_like_settings(all, sizeof(all)));
		}
		if (strlen(c->intended) + strlen(arg) + 2 > sizeof(c->intended))
			return cli_error(state, "--intended: too many");
		snprintf(c->intended + strlen(c->intended),
			 sizeof(c->intended) - strlen(c->intended), "%s%s",
			 c->intended[0] ? "," : "", arg);
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

static const struct argp compare_argp = {
	an_opts, an_parse, "BASELINE CANDIDATE\nRUN_A RUN_B [RUN_A2]",
	compare_doc, NULL, NULL, NULL
};

static const struct argp report_argp = {
	an_opts + AN_COMPARE_ONLY, an_parse, "RUN_DIR", report_doc, NULL, NULL,
	NULL
};

static int compare_cmd(int argc, char **argv)
{
	struct an_cli cli = { 0 };
	int ret;

	cli.compare = true;
	an_params_init(&cli.p);
	ret = cli_parse("compare", &compare_argp, argc, argv, 0, &cli);
	if (ret)
		return cli_exit(ret);
	return an_compare_inputs(cli.args, cli.nargs, &cli.p);
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
