// SPDX-License-Identifier: GPL-2.0-only
/* `rtgate reproduce` (reproduce.h), its options parsed with glibc's argp. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "lab/lab.h"
#include "log.h"
#include "parse.h"
#include "reproduce.h"
#include "rtpaths.h"
#include "toolrun.h"

enum {
	OPT_SCALE = 1000, OPT_MODEL, OPT_TIMEOUT, OPT_OUT, OPT_TABLE,
	OPT_LIST,
};

static const struct argp_option reproduce_options[] = {
	{ "model", OPT_MODEL, "MODEL", 0,
	  "only this one of the seed's preemption models", 0 },
	{ "duration-scale", OPT_SCALE, "F", 0,
	  "the runs' --duration-scale (default: the seed's)", 0 },
	{ "timeout", OPT_TIMEOUT, "DURATION", 0,
	  "longest one boot may take (default 60m)", 0 },
	{ "out", OPT_OUT, "DIR", 0,
	  "results directory (default results/)", 0 },
	{ "table", OPT_TABLE, "DIR", 0,
	  "print the table of an earlier reproduction again, from disk", 0 },
	{ "list", OPT_LIST, NULL, 0, "the seeds and what each runs", 0 },
	{ "verbose", 'v', NULL, 0, "the whole console of every boot", 0 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static const char reproduce_doc[] =
	"One seed thread's experiment end to end on the tree it was written "
	"for: builds the base and patched kernels (RT and non-RT where the "
	"seed cares), boots each in the QEMU lab in virtual time, runs the "
	"seed's suite, judges as the thread did (A/B/A for a patch, the "
	"suite's own comparisons for a feature), and prints the published "
	"numbers beside the measured ones. SEED: 000, 001, 003 or 004. The "
	"base tree is Debian's linux-source of the seed's series (7.3) unless "
	"--src or --debian names another. The lab's clock is the seed's "
	"(virtual time: icount:3; 003 icount:0) unless --clock names "
	"another; --repeat takes 2..100 here.\v"
	"Results: RESULTS/reproduce-SEED-TIME/ (reproduce.txt, .md, .json, "
	"the runs and the comparisons). Exit: the worst verdict's code "
	"(docs/exit-codes.md); 3 bad input, 4 a build or boot failed. See "
	"docs/reproducing.md.";

struct reproduce_cli {
	struct reproduce_params p;
	const char *table;
	bool list;
	char results[PATH_MAX];
};

static error_t reproduce_parse(int key, char *arg, struct argp_state *st)
{
	struct reproduce_cli *cli = st->input;
	struct reproduce_params *p = &cli->p;
	uint64_t v;
	double f;

	switch (key) {
	case CLI_KEY_SRC: p->src = arg; return 0;	/* shared (cli.h) */
	case CLI_KEY_DEBIAN: p->debian = arg; return 0;
	case OPT_MODEL: p->only_model = arg; return 0;
	case OPT_OUT: p->results_dir = arg; return 0;
	case OPT_TABLE: cli->table = arg; return 0;
	case OPT_LIST: cli->list = true; return 0;
	case 'v': p->verbose = true; return 0;
	case CLI_KEY_CLOCK:	/* checked by its shared group (cli.h) */
		p->clock = arg;
		return 0;
	case OPT_SCALE:
		if (parse_double(arg, &f) || !(f > 0) || f > 100) {
			cli_error(st, "--duration-scale: '%s' is not a number "
				  "in (0, 100]", arg);
			return EINVAL;
		}
		p->scale = arg;
		return 0;
	case CLI_KEY_REPEAT:	/* a reproduction wants 2..100 of its 1..1000 */
		if (cli_arg_number(st, "repeat", arg, 2, 100, &v))
			return EINVAL;
		p->repeat = v;
		return 0;
	case CLI_KEY_JOBS:
		p->jobs = cli_shared_uint(arg);
		return 0;
	case OPT_TIMEOUT:
		return cli_arg_seconds(st, "timeout", arg, &p->timeout_s);
	case ARGP_KEY_ARG:
		if (p->seed) {
			cli_error(st, "unexpected argument '%s'", arg);
			return EINVAL;
		}
		p->seed = arg;
		return 0;
	case ARGP_KEY_END:
		if (!p->seed && !cli->table && !cli->list) {
			cli_error(st, "which seed? (000, 001, 003 or 004; "
				  "--list shows them)");
			return EINVAL;
		}
		if (p->seed && !reproduce_seed_find(p->seed)) {
			cli_error(st, "no seed '%s' (000, 001, 003 or 004)",
				  p->seed);
			return EINVAL;
		}
		if (p->src && p->debian) {
			cli_error(st, "--src and --debian exclude each other");
			return EINVAL;
		}
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* "suite S, models full, rt", or with a model's own: "suites S (full), R (rt)" */
static void print_suites(const struct reproduce_seed *s)
{
	char suites[256];

	if (!reproduce_seed_suites(s, NULL, suites, sizeof(suites))) {
		printf("suites %s", suites);
		return;
	}
	printf("suite %s, model%s %s%s%s", suites, s->models[1] ? "s" : "",
	       s->models[0], s->models[1] ? ", " : "",
	       s->models[1] ? s->models[1] : "");
}

/* "     fragments rseq,hrtick,pcp-batch (full), rseq,hrtick (rt)" */
static void print_fragments(const struct reproduce_seed *s)
{
	char frags[128];
	int i;

	printf("     fragments ");
	for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++) {
		reproduce_seed_fragments(s, s->models[i], frags,
					 sizeof(frags));
		printf("%s%s (%s)", i ? ", " : "", frags, s->models[i]);
	}
	printf("\n");
}

static void list_seeds(void)
{
	const struct reproduce_seed *s;
	int cpus;

	/* A seed's suites ask for the same vCPUs (tests/unit/reproduce). */
	for (s = reproduce_seeds; s->id; s++) {
		if (lab_suite_cpus(s->suite, &cpus))
			cpus = 0;
		printf("%s  %s\n", s->id, s->title);
		printf("     Linux %s, %s%s%s, ", s->series,
		       s->set ? "patch set " : "no patch: ",
		       s->set ? s->set : "a feature of the base",
		       s->kind == REPRODUCE_KERNELS ? " (A/B/A)" : "");
		print_suites(s);
		printf(", clock %s, %d vCPU%s\n", s->clock, cpus,
		       cpus == 1 ? "" : "s");
		print_fragments(s);
		if (s->repeat)
			printf("     %u repetitions a scenario a boot "
			       "(--repeat)\n", s->repeat);
		else
			printf("     the suite's repetitions (--repeat)\n");
	}
}

/* The command line as typed, for the table. */
static char *joined(int argc, char **argv)
{
	size_t len = 16;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	strcpy(s, "rtgate");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int reproduce_cmd_reproduce(int argc, char **argv)
{
	/* --clock's default here: the seed's (icount:3; 003 icount:0). */
	static const struct argp_child shared[] = {
		{ &cli_tree_argp }, { &cli_clock_argp }, { &cli_repeat_argp },
		{ &cli_jobs_argp }, { 0 }
	};
	static const struct argp argp = {
		reproduce_options, reproduce_parse, "SEED", reproduce_doc,
		shared, NULL, NULL,
	};
	struct reproduce_cli *cli = calloc(1, sizeof(*cli));
	struct reproduce_result r;
	char *command;
	int ret, code;

	if (!cli)
		return EXITCODE_ENVIRONMENT;
	cli->p.timeout_s = 3600;
	ret = cli_parse("reproduce", &argp, argc, argv, 0, cli);
	if (ret) {
		free(cli);
		return cli_exit(ret);
	}
	if (cli->list || cli->table) {
		if (cli->list)
			list_seeds();
		/* The table's exit code is the reproduction's own. */
		code = EXITCODE_PASS;
		if (cli->table && reproduce_table_write(cli->table, true, &code))
			code = EXITCODE_BAD_INPUT;
		free(cli);
		return code;
	}
	if (!cli->p.results_dir) {
		if (rtpaths_results(cli->results, sizeof(cli->results))) {
			free(cli);
			return EXITCODE_BAD_INPUT;
		}
		cli->p.results_dir = cli->results;
	}
	command = joined(argc, argv);
	cli->p.command = command;
	toolrun_catch_signals();
	ret = reproduce_run(&cli->p, &r);
	code = ret ? (ret == -EINVAL || ret == -ENOENT ? EXITCODE_BAD_INPUT :
		      exitcode_of_errno(ret)) : r.exit_code;
	if (!ret)
		pr_info("reproduce: exit %d (table and reports: %s)", code,
			r.dir);
	free(command);
	free(cli);
	return code;
}
