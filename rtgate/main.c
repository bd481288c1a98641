// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtgate - a real-time latency regression suite for Linux kernels.
 *
 * One binary, subcommands: the runner, the analyzer and the lab share it so
 * that an initramfs needs nothing else. `rtgate help` lists them.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "bisect/bisect.h"
#include "reproduce/reproduce.h"
#include "cli.h"
#include "commands.h"
#include "exitcode.h"
#include "export/export.h"
#include "history/history.h"
#include "kernel/kernel.h"
#include "lab/lab.h"
#include "lava/lava.h"
#include "log.h"
#include "nightly/nightly.h"
#include "runner/runner.h"
#include "trace/trace.h"

/*
 * compare belongs to the analyzer; with --history (before a --) the
 * history hands it the baseline (docs/design.md).
 */
static int cmd_compare(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--history"))
			return history_cmd_compare_history(argc, argv);
	return an_cmd_compare(argc, argv);
}

static const struct rtgate_command commands[] = {
	{ "run", "SUITE|NAME [OPTION...]", "run a suite on this kernel",
	  runner_cmd_run },
	{ "restore", "", "restore what a killed run left changed",
	  runner_cmd_restore },
	{ "calibrate", "[OPTION...]",
	  "record this machine's noise profile", runner_cmd_calibrate },
	{ "compare", "BASELINE CANDIDATE [OPTION...]",
	  "judge a candidate against a baseline", cmd_compare },
	{ "report", "RUN_DIR [OPTION...]",
	  "judge a finished run, write its reports", an_cmd_report },
	{ "history", "import|list|changepoints ...",
	  "the SQLite history of every run", history_cmd_history },
	{ "export", "kcidb RUN_DIR", "a run as KernelCI KCIDB v5 JSON",
	  export_cmd_export },
	{ "lava", "job|report|submit|fetch ...", "LAVA job definitions, test "
	  "cases; jobs to a server and their runs back", lava_cmd_lava },
	{ "nightly", "[--config FILE] [--lava URL]",
	  "run, store, judge against history, summarize", nightly_cmd_nightly },
	{ "dashboard", "[--db FILE] [--out DIR]",
	  "static HTML trends from the history", nightly_cmd_dashboard },
	{ "trace", "record|explain|compare|events|clean ...",
	  "record traces, explain the worst wake-ups", trace_cmd_trace },
	{ "kernel", "build|matrix|config|tools ...",
	  "build named kernels from a tree and patch sets", kernel_cmd_kernel },
	{ "patches", "fetch|recover|check|list ...",
	  "fetch patch sets (b4, mbox) and check they apply", kernel_cmd_patches },
	{ "lab", "run|gate|initramfs|images|emulator ...",
	  "boot a kernel in QEMU, run a suite inside, compare", lab_cmd_lab },
	{ "lab-init", "", "the lab guest's /init (PID 1 only)", lab_cmd_init },
	{ "bisect", "--base K --series SET --suite S ...",
	  "find the patch of a set that added the latency", bisect_cmd_bisect },
	{ "reproduce", "SEED [OPTION...]",
	  "a seed thread's experiment end to end, published beside measured",
	  reproduce_cmd_reproduce },
	{ "help", "[COMMAND]", "this list, or a command's options", cmd_help },
	{ "version", "", "print the version", cmd_version },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct rtgate_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* GNU style, as help2man reads it (`make man`). */
static void usage(FILE *f)
{
	char left[96];
	size_t i;

	fprintf(f, "Usage: rtgate COMMAND [OPTION...] [ARG...]\n"
		"A real-time latency regression suite for Linux kernels: runs "
		"workload\ngenerators beside cyclictest on the running kernel "
		"and says, with\nevidence, whether a change made worst-case "
		"latency worse.\n\nCommands:\n");
	for (i = 0; i < NR_COMMANDS; i++) {
		snprintf(left, sizeof(left), "%s %s", commands[i].name,
			 commands[i].usage);
		if (strlen(left) > 40)
			fprintf(f, "  %s\n  %-40s  %s\n", left, "",
				commands[i].summary);
		else
			fprintf(f, "  %-40s  %s\n", left, commands[i].summary);
	}
	fprintf(f, "\n  -?, -h, --help                            give this "
		"help list\n"
		"  -V, --version                             print the program "
		"version\n\n"
		"'rtgate COMMAND --help' gives a command's options.\n\n"
		"Exit status: 0 pass, 1 regression, 2 inconclusive or invalid, "
		"3 bad input,\n4 environment, 5 run incomplete "
		"(docs/exit-codes.md).\n");
}

/* "unknown command 'X' (did you mean 'Y'?)" and the pointer to the list */
static int unknown_command(const char *word)
{
	const char *names[NR_COMMANDS], *near;
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		names[i] = commands[i].name;
	near = cli_nearest(word, names, NR_COMMANDS);
	if (near)
		pr_err("unknown command '%s' (did you mean '%s'?)", word, near);
	else
		pr_err("unknown command '%s'", word);
	fprintf(stderr, "Try 'rtgate --help' for the list of commands.\n");
	return EXITCODE_BAD_INPUT;
}

int cmd_help(int argc, char **argv)
{
	const struct rtgate_command *c;
	char *av[3];

	if (argc > 1) {
		if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
			return cmd_version(1, argv);
		if (argv[1][0] == '-') {
			usage(stdout);
			return EXITCODE_PASS;
		}
		c = find_command(argv[1]);
		if (!c)
			return unknown_command(argv[1]);
		if (c->fn != cmd_help) {
			av[0] = (char *)c->name;
			av[1] = "--help";
			av[2] = NULL;
			return c->fn(2, av);
		}
	}
	usage(stdout);
	return EXITCODE_PASS;
}

static const struct argp version_argp = {
	NULL, NULL, NULL, "Prints rtgate's version.", NULL, NULL, NULL
};

int cmd_version(int argc, char **argv)
{
	int ret = cli_parse("version", &version_argp, argc, argv, 0, NULL);

	if (ret)
		return cli_exit(ret);
	printf("rtgate %s\n", RTGATE_VERSION);
	return EXITCODE_PASS;
}

int main(int argc, char **argv)
{
	const struct rtgate_command *c;

	log_init("rtgate");
	/* In the lab's guest, rtgate is /init. */
	if (getpid() == 1)
		return lab_cmd_init(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXITCODE_BAD_INPUT;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-?") || !strcmp(argv[1], "--usage"))
		return cmd_help(1, argv);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return cmd_version(1, argv);
	c = find_command(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	return unknown_command(argv[1]);
}
