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
#include "commands.h"
#include "exitcode.h"
#include "export/export.h"
#include "history/history.h"
#include "kernel/kernel.h"
#include "lab/lab.h"
#include "log.h"
#include "nightly/nightly.h"
#include "runner/runner.h"
#include "trace/trace_cmd.h"

static const struct rtgate_command commands[] = {
	{ "help", "", "list the commands", cmd_help },
	{ "version", "", "print the version", cmd_version },
	{ "run", "SUITE|NAME [OPTIONS]",
	  "run a suite on this kernel (run --help)", cmd_run },
	{ "restore", "", "restore what a killed run left changed",
	  cmd_restore },
	{ "calibrate", "[--suite NAME] [--duration T]",
	  "record this machine's noise profile (calibrate --help)",
	  cmd_calibrate },
	{ "compare", "BASELINE CANDIDATE [OPTIONS]",
	  "judge a candidate against a baseline", cmd_compare },
	{ "report", "RUN_DIR [OPTIONS]",
	  "judge a finished run, write its reports", cmd_report },
	{ "history", "import DIR | list | changepoints",
	  "the SQLite history of every run",
	  cmd_history },
	{ "export", "kcidb RUN_DIR", "a run as KernelCI KCIDB v5 JSON",
	  cmd_export },
	{ "lava", "job ... | report RUN_DIR", "LAVA job definitions, test cases",
	  cmd_lava },
	{ "nightly", "[--config FILE]",
	  "run, store, judge against history, summarize", cmd_nightly },
	{ "dashboard", "[--db FILE] [--out DIR]",
	  "static HTML trends from the history", cmd_dashboard },
	{ "trace", "record|explain|compare|events|clean ...",
	  "record traces, explain the worst wake-ups", cmd_trace },
	{ "kernel", "build|matrix|config ...",
	  "build named kernels from a tree and patch sets", cmd_kernel },
	{ "patches", "fetch|check|list ...",
	  "fetch patch sets (b4, mbox) and check they apply", cmd_patches },
	{ "lab", "run|gate ...",
	  "boot a kernel in QEMU, run a suite inside, compare", cmd_lab },
	{ "lab-init", "", "the lab guest's /init (PID 1 only)", cmd_lab_init },
	{ "bisect", "--base K --series SET --suite S ...",
	  "find the patch of a set that added the latency", cmd_bisect },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int cmd_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	printf("usage: rtgate COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		printf("  %-10s %-34s %s\n", commands[i].name,
		       commands[i].usage, commands[i].summary);
	printf("\nExit codes: 0 pass, 1 regression, 2 inconclusive or invalid, "
	       "3 bad input,\n4 environment, 5 run incomplete "
	       "(docs/exit-codes.md).\n");
	return EXIT_PASS;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("rtgate %s\n", RTGATE_VERSION);
	return EXIT_PASS;
}

int main(int argc, char **argv)
{
	size_t i;

	log_init("rtgate");
	/* In the lab's guest, rtgate is /init. */
	if (getpid() == 1)
		return cmd_lab_init(argc, argv);
	if (argc < 2)
		return cmd_help(argc, argv);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cmd_help(argc, argv);
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	pr_err("unknown command '%s' (try: rtgate help)", argv[1]);
	return EXIT_BAD_INPUT;
}
