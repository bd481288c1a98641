// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate lava submit`: one job per board × kernel × suite to a LAVA
 * server, the ids printed. `rtgate lava fetch JOB...`: (wait for them,)
 * rebuild each job's results directory and import it into the history.
 * The server is --url or $RTGATE_LAVA_URL; the token --token-file,
 * $RTGATE_LAVA_TOKEN or $RTGATE_LAVA_TOKEN_FILE (lava_api.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "history/history.h"
#include "jsonio.h"
#include "lava.h"
#include "lava_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "stopsig.h"

#define MAX_BOARDS	32
#define MAX_JOBS	256

enum { OPT_URL = 0x200, OPT_TOKEN_FILE, OPT_BOARD, OPT_WAIT, OPT_BUDGET,
       OPT_RESULTS, OPT_NO_IMPORT, OPT_POLL };

struct submit_args {
	struct lava_job_params job;	/* the child parser's input */
	const char *url;
	const char *token_file;
	const char *boards[MAX_BOARDS];
	unsigned int nr_boards;
};

/*
 * The server and its token, one spelling for submit and fetch (each
 * command's parser takes OPT_URL and OPT_TOKEN_FILE: cli_parse() gives
 * every option group the command's own input, so a child group of its
 * own could not fill a field of both commands' arguments).
 */
#define SERVER_OPTIONS							\
	{ "url", OPT_URL, "URL", 0, "the LAVA server (default "		\
	  "$RTGATE_LAVA_URL)", 0 },					\
	{ "token-file", OPT_TOKEN_FILE, "FILE", 0, "a file holding the "	\
	  "API token (default $RTGATE_LAVA_TOKEN, else the file "	\
	  "$RTGATE_LAVA_TOKEN_FILE); never the token itself", 0 }

static const struct argp_option submit_opts[] = {
	SERVER_OPTIONS,
	{ "board", OPT_BOARD, "B", 0, "a board: the device tag that names it "
	  "(repeatable; none: any device of the type)", 0 },
	{ 0 }
};

static error_t submit_parse(int key, char *arg, struct argp_state *state)
{
	struct submit_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->job;
		break;
	case OPT_URL: a->url = arg; break;
	case OPT_TOKEN_FILE: a->token_file = arg; break;
	case OPT_BOARD:
		if (a->nr_boards >= MAX_BOARDS)
			return cli_error(state, "at most %d --board",
					 MAX_BOARDS);
		a->boards[a->nr_boards++] = arg;
		break;
	case ARGP_KEY_ARG:
		return cli_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child submit_children[] = {
	{ &lava_job_argp, 0, "The job (as `rtgate lava job`; --kernel "
	  "and --suite repeatable):", 0 },
	{ 0 }
};

static const struct argp submit_argp = {
	submit_opts, submit_parse, NULL,
	"Submits one job per board × kernel × suite to a LAVA server (REST "
	"API v0.2) and prints one line per job: its id, the board, the kernel "
	"and the suite. Each job carries the board as its device tag and as "
	"metadata, so `rtgate lava fetch` files its run under the board's "
	"name. docs/nightly.md.", submit_children, NULL, NULL
};

static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

int lava_cmd_submit(int argc, char **argv)
{
	struct submit_args a = { .job = { .prompt = "/ #", .priority = 50 } };
	struct lava_client c;
	unsigned int b, k, s, nb;
	char name[512];
	int ret, code = EXITCODE_PASS;

	ret = cli_parse("lava submit", &submit_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (!a.job.nr_kernels || !a.job.nr_suites || !a.job.device_type)
		return cli_exit(cli_usage_error("lava submit", "--kernel, "
				"--suite and --device-type are required"));
	ret = lava_client_init(&c, a.url, a.token_file);
	if (ret)
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
	nb = a.nr_boards ? a.nr_boards : 1;
	for (b = 0; b < nb && code == EXITCODE_PASS; b++) {
		for (k = 0; k < a.job.nr_kernels && code == EXITCODE_PASS; k++) {
			for (s = 0; s < a.job.nr_suites; s++) {
				struct lava_job_params p = a.job;
				long id = 0;

				p.board = a.nr_boards ? a.boards[b] : NULL;
				p.kernel = a.job.kernels[k];
				p.suite = a.job.suites[s];
				snprintf(name, sizeof(name), "rtgate %.100s on "
					 "%.100s (%.200s)", base_name(p.suite),
					 p.board ? p.board : p.device_type,
					 base_name(p.kernel));
				if (!a.job.job_name)
					p.job_name = name;
				ret = lava_submit(&c, &p, &id);
				if (ret) {
					code = ret == -EINVAL ? EXITCODE_BAD_INPUT
					       : EXITCODE_ENVIRONMENT;
					break;
				}
				printf("%ld\t%s\t%s\t%s\n", id, p.board ?
				       p.board : "-", p.kernel, p.suite);
				fflush(stdout);
			}
		}
	}
	lava_client_destroy(&c);
	return code;
}

/* --- fetch --- */

struct fetch_args {
	const char *url;
	const char *token_file;
	const char *results;
	const char *db;
	bool wait, no_import;
	unsigned int budget_s, poll_s;
	long ids[MAX_JOBS];
	size_t n;
};

static const struct argp_option fetch_opts[] = {
	SERVER_OPTIONS,
	{ "wait", OPT_WAIT, NULL, 0, "poll until every job finished", 0 },
	{ "budget", OPT_BUDGET, "DUR", 0, "with --wait: give up after DUR "
	  "(90m, 2h; default: no limit)", 0 },
	{ "poll", OPT_POLL, "DUR", 0, "with --wait: between two polls "
	  "(default 10s)", 0 },
	{ "results", OPT_RESULTS, "DIR", 0, "where the results directories go "
	  "(default $RTGATE_RESULTS_DIR, else results/); given, its "
	  "rtgate.db is the history unless --db names another", 0 },
	{ "no-import", OPT_NO_IMPORT, NULL, 0, "only rebuild the results "
	  "directories", 0 },
	{ 0 }
};

static error_t fetch_parse(int key, char *arg, struct argp_state *state)
{
	struct fetch_args *a = state->input;
	uint64_t v;

	switch (key) {
	case OPT_URL: a->url = arg; break;
	case OPT_TOKEN_FILE: a->token_file = arg; break;
	case OPT_RESULTS: a->results = arg; break;
	case CLI_KEY_DB: a->db = arg; break;	/* shared (cli.h) */
	case OPT_WAIT: a->wait = true; break;
	case OPT_NO_IMPORT: a->no_import = true; break;
	case OPT_BUDGET:
		return cli_arg_seconds(state, "budget", arg, &a->budget_s);
	case OPT_POLL:
		return cli_arg_seconds(state, "poll", arg, &a->poll_s);
	case ARGP_KEY_ARG:
		if (a->n >= MAX_JOBS)
			return cli_error(state, "at most %d jobs", MAX_JOBS);
		if (cli_arg_number(state, "JOB", arg, 1, (uint64_t)1 << 40, &v))
			return EINVAL;
		a->ids[a->n++] = (long)v;
		break;
	case ARGP_KEY_END:
		if (!a->n)
			return cli_error(state, "which jobs? (their ids, as "
					 "`lava submit` printed them)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child fetch_child[] = {
	{ &cli_db_argp }, { 0 }
};

static const struct argp fetch_argp = {
	fetch_opts, fetch_parse, "JOB...",
	"Fetches finished LAVA jobs: rebuilds the results directory each "
	"job's run produced inside the board (carried in its log) as "
	"RESULTS/<run id>-<board>-lava<JOB>, with the board as its host, and "
	"imports it into the history. A job LAVA marks Incomplete or Canceled "
	"is stored as an incomplete (aborted) run with LAVA's reason, never "
	"as a pass. Prints one line per job: id, board, LAVA's health, the "
	"run's status and directory. Exit 0 when every job's run is complete, "
	"5 when one is not (or has not finished), 4 when the server cannot be "
	"reached.", fetch_child, NULL, NULL
};

static int import_run(const char *db, const char *run_dir)
{
	struct history_import_stats st = { 0 };
	struct history h;
	int ret;

	ret = history_open(&h, db);
	if (ret)
		return ret;
	ret = history_import_run(&h, run_dir, &st);
	history_close(&h);
	return ret;
}

/* "complete", "incomplete" … of the rebuilt run, from its manifest. */
static void run_status(const char *run_dir, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct json_error err;
	cJSON *m;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "%.4000s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return;
	snprintf(buf, len, "%s", json_get_str(m, "status", "?"));
	cJSON_Delete(m);
}

int lava_cmd_fetch(int argc, char **argv)
{
	struct fetch_args a = { 0 };
	struct lava_client c;
	struct lava_job *jobs;
	char results[PATH_MAX], db[PATH_MAX], run_dir[PATH_MAX], status[32];
	int ret, code = EXITCODE_PASS;
	size_t i;

	ret = cli_parse("lava fetch", &fetch_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (a.results)
		snprintf(results, sizeof(results), "%s", a.results);
	else if (rtpaths_results(results, sizeof(results)))
		return EXITCODE_ENVIRONMENT;
	if (!a.db && a.results)		/* the history beside the results */
		snprintf(db, sizeof(db), "%.4000s/rtgate.db", a.results);
	else if (!a.no_import && history_resolve_db(a.db, db, sizeof(db)))
		return EXITCODE_ENVIRONMENT;
	ret = lava_client_init(&c, a.url, a.token_file);
	if (ret)
		return ret == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
	jobs = calloc(a.n, sizeof(*jobs));
	if (!jobs) {
		lava_client_destroy(&c);
		return EXITCODE_ENVIRONMENT;
	}
	stopsig_catch_terminal();
	for (i = 0; i < a.n && !ret; i++)
		ret = lava_job_get(&c, a.ids[i], &jobs[i]);
	if (!ret && a.wait)
		ret = lava_wait(&c, jobs, a.n, a.budget_s, a.poll_s);
	if (ret < 0) {
		code = ret == -ENOENT ? EXITCODE_BAD_INPUT : EXITCODE_ENVIRONMENT;
		goto out;
	}
	for (i = 0; i < a.n; i++) {
		const struct lava_job *j = &jobs[i];

		if (!lava_job_done(j)) {
			printf("%ld\t%s\t%s\t-\tnot finished (%s)\n", j->id,
			       j->board[0] ? j->board : "-", j->health,
			       j->state);
			code = exitcode_worse(code, EXITCODE_INCOMPLETE);
			continue;
		}
		ret = lava_fetch_run(&c, j, results, run_dir,
				     sizeof(run_dir));
		if (!ret && !a.no_import)
			ret = import_run(db, run_dir);
		if (ret) {
			/* -EINVAL: what the server sent was refused. */
			pr_err("lava: job %ld: its run could not be %s%s",
			       j->id, a.no_import ? "rebuilt" :
			       "rebuilt and stored", ret == -EINVAL ?
			       " (bad input, said above)" : "");
			code = exitcode_worse(code, ret == -EINVAL ?
					      EXITCODE_BAD_INPUT :
					      EXITCODE_ENVIRONMENT);
			continue;
		}
		run_status(run_dir, status, sizeof(status));
		printf("%ld\t%s\t%s\t%s\t%s\n", j->id, j->board[0] ? j->board :
		       j->device, j->health, status, run_dir);
		if (strcmp(status, "complete"))
			code = exitcode_worse(code, EXITCODE_INCOMPLETE);
	}
out:
	free(jobs);
	lava_client_destroy(&c);
	return code;
}
