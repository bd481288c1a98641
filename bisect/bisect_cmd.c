// SPDX-License-Identifier: GPL-2.0-only
/* `rtgate bisect` (bisect.h), its options parsed with glibc's argp. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bisect.h"
#include "cli.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "toolrun.h"

enum {
	OPT_BASE = 1000, OPT_SERIES, OPT_SUITE, OPT_SCENARIO, OPT_APPEND_B,
	OPT_REMEASURE, OPT_NAME, OPT_SCALE, OPT_MOVES,
};

static const struct argp_option bisect_options[] = {
	{ "base", OPT_BASE, "KERNEL", 0,
	  "the good kernel: a NAME under out/kernels or a build folder "
	  "(rtgate kernel build); its tree, model, fragments and patch sets "
	  "build every prefix", 0 },
	{ "series", OPT_SERIES, "SET", 0,
	  "the patch set to bisect, in its manifest's order (a list of sets "
	  "too: their patches in the list's order)", 0 },
	{ "suite", OPT_SUITE, "SUITE", 0, "the suite whose gate judges", 0 },
	{ "moves", OPT_MOVES, "regression|improvement|change", 0,
	  "what the first mover does to the gate: a REGRESSION (default), "
	  "an IMPROVEMENT (a fix's own metric) or either", 0 },
	{ "scenario", OPT_SCENARIO, "S", 0,
	  "judge only this scenario (repeatable; default: all)", 0 },
	{ "append-b", OPT_APPEND_B, "CMDLINE", 0,
	  "more kernel command line for the prefixes only", 0 },
	{ "remeasure", OPT_REMEASURE, "N", 0,
	  "measure an INCONCLUSIVE step again up to N times, with twice the "
	  "repetitions each time (default 2)", 0 },
	{ "name", OPT_NAME, "NAME", 0,
	  "the bisection's folder out/bisect/NAME (default "
	  "BASE+SET-SUITE); the same name resumes it", 0 },
	{ "duration-scale", OPT_SCALE, "F", 0,
	  "rtgate run's --duration-scale inside the guest", 0 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static const char bisect_doc[] =
	"Which patch of SET added the latency: builds BASE's tree with the "
	"first k patches of SET (ccache shares the objects), runs the lab "
	"gate BASE -> prefix with SUITE, and binary-searches for the first "
	"k that is a REGRESSION (or, --moves, an IMPROVEMENT). Every step is kept in out/bisect/NAME/ "
	"(state.json, report.txt): run the same command again to resume.\v"
	"Exit: 1 a culprit was named, 0 the whole series did not move, "
	"2 a step stayed INCONCLUSIVE, 3 bad input, 4 a build or boot "
	"failed, 5 interrupted (resumable). See docs/kernels.md.";

struct bisect_cli {
	struct bisect_params p;
	char repeat[16];
};

static int run_arg(struct argp_state *st, struct lab_run_params *lp,
		   const char *opt, const char *arg)
{
	if (lp->nr_args + 2 > LAB_MAX_ARGS) {
		cli_error(st, "too many run options");
		return E2BIG;
	}
	lp->args[lp->nr_args++] = opt;
	lp->args[lp->nr_args++] = arg;
	return 0;
}

static error_t bisect_parse(int key, char *arg, struct argp_state *st)
{
	struct bisect_cli *cli = st->input;
	struct bisect_params *p = &cli->p;
	struct lab_run_params *lp = &p->lab;
	uint64_t v;

	switch (key) {
	case OPT_BASE: p->base = arg; return 0;
	case OPT_SERIES: p->series = arg; return 0;
	case OPT_SUITE: p->suite = arg; return 0;
	case OPT_MOVES:
		if (bisect_moves_parse(arg, &p->moves)) {
			cli_error(st, "--moves: regression, improvement or "
				   "change, not '%s'", arg);
			return EINVAL;
		}
		return 0;
	case OPT_NAME: p->name = arg; return 0;
	case OPT_APPEND_B: p->append_b = arg; return 0;
	case OPT_SCENARIO:
		if (p->nr_scenarios == BISECT_MAX_SCENARIOS) {
			cli_error(st, "at most %d --scenario",
				   BISECT_MAX_SCENARIOS);
			return E2BIG;
		}
		p->scenarios[p->nr_scenarios++] = arg;
		return 0;
	case OPT_REMEASURE:
		if (cli_arg_number(st, "remeasure", arg, 0, 5, &v))
			return EINVAL;
		p->remeasure = v;
		return 0;
	case CLI_KEY_JOBS:	/* the shared groups checked these (cli.h) */
		p->jobs = cli_shared_uint(arg);
		return 0;
	case CLI_KEY_REPEAT:	/* of each step's first measurement */
		snprintf(cli->repeat, sizeof(cli->repeat), "%u",
			 cli_shared_uint(arg));
		return run_arg(st, lp, "--repeat", cli->repeat);
	case OPT_SCALE:
		return run_arg(st, lp, "--duration-scale", arg);
	case ARGP_KEY_ARG:
		cli_error(st, "unexpected argument '%s'", arg);
		return EINVAL;
	case ARGP_KEY_END:
		if (!p->base || !p->series || !p->suite) {
			cli_error(st, "--base, --series and --suite are "
				   "needed");
			return EINVAL;
		}
		return lab_boot_parse(lp, key, arg, st);
	default:	/* a boot's (lab.h); --clock icount: virtual time */
		return lab_boot_parse(lp, key, arg, st);
	}
}

int bisect_cmd_bisect(int argc, char **argv)
{
	static const struct argp boot = { lab_boot_options, bisect_parse };
	static const struct argp_child shared[] = {
		{ &cli_jobs_argp }, { &cli_repeat_argp }, { &boot },
		{ &cli_clock_argp, 0, NULL, 3 }, { 0 }
	};
	static const struct argp argp = {
		bisect_options, bisect_parse, NULL, bisect_doc, shared, NULL,
		NULL,
	};
	struct bisect_cli *cli = calloc(1, sizeof(*cli));
	struct bisect_result r;
	int ret, code;

	if (!cli)
		return EXITCODE_ENVIRONMENT;
	cli->p.remeasure = 2;
	lab_boot_defaults(&cli->p.lab);
	ret = cli_parse("bisect", &argp, argc, argv, ARGP_IN_ORDER, cli);
	if (ret) {
		free(cli);
		return cli_exit(ret);
	}
	toolrun_catch_signals();
	ret = bisect_run(&cli->p, &r);
	code = ret ? (ret == -EINVAL || ret == -ENOENT ? EXITCODE_BAD_INPUT :
		      EXITCODE_ENVIRONMENT) : r.exit_code;
	if (!ret)
		pr_info("bisect: exit %d (state and report: %s)", code, r.dir);
	free(cli);
	return code;
}
