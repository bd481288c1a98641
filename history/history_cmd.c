// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate history import PATH` and `rtgate history list`: the store from a
 * terminal. The database is --db FILE, else $RTGATE_DB, else
 * $RTGATE_RESULTS_DIR/rtgate.db, else results/rtgate.db.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "history.h"
#include "log.h"

struct history_params {
	const char *db;
	const char *suite;
	bool import;
	char **paths;
	int npaths;
	char db_buf[PATH_MAX];
};

enum { OPT_SUITE = 0x100 };

static const struct argp_option list_opts[] = {
	{ "suite", OPT_SUITE, "NAME", 0, "only the runs of this suite", 0 },
	{ 0 }
};

static error_t history_parse(int key, char *arg, struct argp_state *state)
{
	struct history_params *p = state->input;

	switch (key) {
	case CLI_KEY_DB:	/* --db, shared (cli.h) */
		p->db = arg;
		break;
	case OPT_SUITE:
		p->suite = arg;
		break;
	case ARGP_KEY_ARGS:
		if (!p->import)
			return cli_error(state, "unexpected argument '%s'",
					 state->argv[state->next]);
		p->paths = &state->argv[state->next];
		p->npaths = state->argc - state->next;
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (p->import && !p->npaths)
			return cli_error(state, "which results? (RESULTS_DIR..."
					 ")");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child db_child[] = { { &cli_db_argp }, { 0 } };

static const struct argp import_argp = {
	NULL, history_parse, "RESULTS_DIR...",
	"Stores results directories in the history: each one run (it has "
	"manifest.json) or a directory of runs; a run stored before is "
	"replaced. docs/nightly.md.", db_child, NULL, NULL
};

static const struct argp list_argp = {
	list_opts, history_parse, NULL,
	"Lists the stored runs, oldest first.", db_child, NULL, NULL
};

static int parse_args(const char *cmd, const struct argp *argp, int argc,
		      char **argv, struct history_params *p)
{
	int ret = cli_parse(cmd, argp, argc, argv, 0, p);

	if (ret)
		return ret;
	if (history_resolve_db(p->db, p->db_buf, sizeof(p->db_buf))) {
		pr_err("cannot place the history database");
		return -EINVAL;
	}
	return 0;
}

static int do_import(struct history *h, int argc, char **argv)
{
	struct history_import_stats stats = { 0 };
	int i, bad = 0;

	for (i = 0; i < argc; i++)
		if (history_import_path(h, argv[i], &stats) == -ENOENT)
			bad = 1;
	printf("imported %u run(s), %u unchanged, %u failed into %s\n",
	       stats.imported, stats.unchanged, stats.failed, h->path);
	return stats.failed || bad ? EXITCODE_BAD_INPUT : EXITCODE_PASS;
}

static int do_list(struct history *h, const char *suite)
{
	struct history_run *runs;
	size_t n, i;

	if (history_runs(h, suite, &runs, &n))
		return EXITCODE_ENVIRONMENT;
	printf("%-28s %-12s %-12s %-20s %-10s %s\n", "RUN", "SUITE", "HOST",
	       "KERNEL", "STATUS", "START");
	for (i = 0; i < n; i++)
		printf("%-28s %-12s %-12s %-20s %-10s %s\n", runs[i].run_id,
		       runs[i].suite, runs[i].host, runs[i].kernel_release,
		       runs[i].status, runs[i].start_time);
	free(runs);
	return EXITCODE_PASS;
}

static int cmd_import(int argc, char **argv)
{
	struct history_params p = { .import = true };
	struct history h;
	int ret;

	ret = parse_args("history import", &import_argp, argc, argv, &p);
	if (ret)
		return cli_exit(ret);
	if (history_open(&h, p.db_buf))
		return EXITCODE_ENVIRONMENT;
	ret = do_import(&h, p.npaths, p.paths);
	history_close(&h);
	return ret;
}

static int cmd_list(int argc, char **argv)
{
	struct history_params p = { 0 };
	struct history h;
	int ret;

	ret = parse_args("history list", &list_argp, argc, argv, &p);
	if (ret)
		return cli_exit(ret);
	ret = history_open_existing(&h, p.db_buf);
	if (ret)
		return ret == -ENOENT ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	ret = do_list(&h, p.suite);
	history_close(&h);
	return ret;
}

int history_cmd_history(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "import", "[--db FILE] RESULTS_DIR...",
		  "store results directories", cmd_import },
		{ "list", "[--db FILE] [--suite NAME]", "the stored runs",
		  cmd_list },
		{ "changepoints", "[--db FILE] [--suite S] [--history-runs K] "
		  "[--reference GLOB] [--rejudge]",
		  "every night against the nights before it: where a metric "
		  "stepped, and what changed", history_cmd_changepoints },
	};

	return cli_dispatch("history", "The SQLite history of every run "
			    "(docs/nightly.md).", subs,
			    sizeof(subs) / sizeof(subs[0]), argc, argv);
}
