/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The subcommands of bin/rtgate. Each component implements its commands as
 * `int <prefix>_cmd_<name>(int argc, char **argv)` (runner_cmd_run,
 * an_cmd_report, lab_cmd_init...) with argv[0] = the command name, and
 * returns an exit code from common/core/exitcode.h. help and version are
 * main.c's own.
 */
#ifndef RTGATE_COMMANDS_H
#define RTGATE_COMMANDS_H

struct rtgate_command {
	const char *name;
	const char *usage;	/* arguments, for `rtgate help` */
	const char *summary;	/* one line */
	int (*fn)(int argc, char **argv);
};

int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
