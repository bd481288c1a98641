// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate nightly [--config FILE]` and `rtgate dashboard`.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "nightly/nightly_priv.h"
#include "parse.h"
#include "stopsig.h"
#include "timefmt.h"

static int self_rtgate(struct nightly_config *cfg)
{
	char dir[PATH_MAX];

	if (cfg->rtgate[0])
		return 0;
	if (fsio_self_dir(dir, sizeof(dir)))
		return -ENOENT;
	snprintf(cfg->rtgate, sizeof(cfg->rtgate), "%.4000s/rtgate", dir);
	return 0;
}

/*
 * The night's exit code @code with one batch (the boards through LAVA,
 * or a suite) joined: @ret, what stopped the batch (-EINVAL a bad
 * configuration, else the environment), and the @n results it added.
 */
static int batch_code(int code, int ret, const struct nightly_result *res,
		      size_t n)
{
	size_t i;

	if (ret)
		code = exitcode_worse(code, ret == -EINVAL ?
				      EXITCODE_BAD_INPUT :
				      EXITCODE_ENVIRONMENT);
	for (i = 0; i < n; i++)
		code = exitcode_worse(code, res[i].exit_code);
	return code;
}

static int run_nightly(struct nightly_config *cfg)
{
	struct nightly_result res[NIGHTLY_MAX_SUITES * 8];
	struct nightly_ctx c = { .cfg = cfg };
	struct history h;
	size_t nres = 0, i;
	int code = EXITCODE_PASS, ret, fd = -1, reaped;

	ret = nightly_lock(cfg->lock, &fd);
	if (ret)
		return EXITCODE_ENVIRONMENT;
	stopsig_catch_terminal();
	if (fsio_mkdir_p(cfg->results, 0755) ||
	    history_open(&h, cfg->database)) {
		nightly_unlock(fd, cfg->lock);
		return EXITCODE_ENVIRONMENT;
	}
	c.h = &h;
	timefmt_iso8601_now(c.started, sizeof(c.started));
	/* We hold the lock: placeholders left now belong to dead nightlies. */
	reaped = history_reap_pending(&h, "the nightly running it was killed");
	if (reaped > 0)
		pr_warn("%d run(s) of an earlier nightly that was killed stay "
			"marked incomplete", reaped);
	if (cfg->lava.url[0]) {
		size_t first = nres;

		pr_info("nightly: the suites on %zu board(s) through %s",
			cfg->lava.nr_boards, cfg->lava.url);
		ret = nightly_lava_run(&c, res, &nres,
				       sizeof(res) / sizeof(res[0]));
		code = batch_code(code, ret, res + first, nres - first);
	}
	for (i = 0; i < cfg->nr_suites && !stopsig_requested(); i++) {
		size_t first = nres;

		/* With LAVA the boards ran them; imports are still ours. */
		if (cfg->lava.url[0] && !cfg->suites[i].import[0])
			continue;

		pr_info("nightly: suite %s (%zu/%zu)", cfg->suites[i].name,
			i + 1, cfg->nr_suites);
		ret = nightly_suite_run(&c, &cfg->suites[i], res, &nres,
					sizeof(res) / sizeof(res[0]));
		code = batch_code(code, ret, res + first, nres - first);
	}
	if (stopsig_requested())
		code = exitcode_worse(code, EXITCODE_INCOMPLETE);
	if (!nres && !stopsig_requested() && !ret)
		pr_info("nightly: nothing new to judge");
	if (nightly_summary_write(&c, res, nres, code, stdout))
		code = exitcode_worse(code, EXITCODE_ENVIRONMENT);
	if (cfg->dashboard[0]) {
		struct nightly_dashboard_params dp = {
			.database = cfg->database, .out_dir = cfg->dashboard,
			.report_url = cfg->report_url[0] ? cfg->report_url :
				      NULL,
			.history = cfg->history,
			.reference = cfg->reference[0] ? cfg->reference : NULL,
			.intended = cfg->intended[0] ? cfg->intended : NULL,
		};

		history_close(&h);
		if (nightly_dashboard_build(&dp))
			code = exitcode_worse(code, EXITCODE_ENVIRONMENT);
	}
	for (i = 0; i < nres; i++)
		free(res[i].judged);
	history_close(&h);
	nightly_unlock(fd, cfg->lock);
	return code;
}

/* Long-only options from 0x100: a printable key would be a short one. */
enum { OPT_CONFIG = 'c', OPT_OUT = 'o', OPT_CHECK = 0x100,
       OPT_REPORT_URL, OPT_LAVA };

struct nightly_args {
	const char *file;
	const char *lava;
	bool check;
};

static const struct argp_option nightly_opts[] = {
	{ "config", OPT_CONFIG, "FILE", 0, "the nightly's configuration "
	  "(lab/nightly/nightly.conf.example; default: the environment's)", 0 },
	{ "check", OPT_CHECK, NULL, 0, "print what the nightly would do, and "
	  "stop", 0 },
	{ "lava", OPT_LAVA, "URL", 0, "run the suites on the configured "
	  "[board]s through this LAVA server (else [lava] url =); the token "
	  "from [lava] token_file or $RTGATE_LAVA_TOKEN(_FILE)", 0 },
	{ 0 }
};

static error_t nightly_parse(int key, char *arg, struct argp_state *state)
{
	struct nightly_args *a = state->input;

	switch (key) {
	case OPT_CONFIG:
		a->file = arg;
		break;
	case OPT_CHECK:
		a->check = true;
		break;
	case OPT_LAVA:
		a->lava = arg;
		break;
	default:
		return cli_key_default(state, key, arg);
	}
	return 0;
}

static const struct argp nightly_argp = {
	nightly_opts, nightly_parse, NULL,
	"Runs the configured suites (or collects runs a lab sent), stores them "
	"in the history, judges every scenario against its last K runs, writes "
	"the morning's summary and refreshes the dashboard. One at a time (a "
	"lock). docs/nightly.md."
	"\vExit status: the worst of the night: 0 pass, 1 regression against "
	"history, 2 inconclusive, 3 bad configuration, 4 environment, 5 a run "
	"did not complete.", NULL, NULL, NULL
};

int nightly_cmd_nightly(int argc, char **argv)
{
	static struct nightly_config cfg;
	struct nightly_args a = { 0 };
	int ret;

	ret = cli_parse("nightly", &nightly_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (nightly_config_load(&cfg, a.file))
		return EXITCODE_BAD_INPUT;
	if (a.lava && snprintf(cfg.lava.url, sizeof(cfg.lava.url), "%s",
			       a.lava) >= (int)sizeof(cfg.lava.url))
		return EXITCODE_BAD_INPUT;
	if (a.check)
		return nightly_config_print(&cfg, stdout);
	if (self_rtgate(&cfg)) {
		pr_err("nightly: cannot find the rtgate binary");
		return EXITCODE_ENVIRONMENT;
	}
	return run_nightly(&cfg);
}

struct dashboard_args {
	struct nightly_dashboard_params dp;
	const char *db;
};

static const struct argp_option dashboard_opts[] = {
	{ "out", OPT_OUT, "DIR", 0, "where index.html and the plots go "
	  "(default RESULTS/dashboard)", 0 },
	{ "report-url", OPT_REPORT_URL, "URL", 0, "the URL results/ is served "
	  "at, for the points' links (default: links relative to DIR)", 0 },
	{ 0 }
};

static error_t dashboard_parse(int key, char *arg, struct argp_state *state)
{
	struct dashboard_args *a = state->input;

	switch (key) {
	case CLI_KEY_DB:	/* --db, shared (cli.h) */
		a->db = arg;
		break;
	case OPT_OUT:
		a->dp.out_dir = arg;
		break;
	case OPT_REPORT_URL:
		a->dp.report_url = arg;
		break;
	case CLI_KEY_REFERENCE:
		a->dp.reference = arg;
		break;
	case CLI_KEY_HISTORY_RUNS:	/* checked by its group (cli.h) */
		a->dp.history = cli_shared_uint(arg);
		break;
	default:
		return cli_key_default(state, key, arg);
	}
	return 0;
}

/* Runs not judged yet are judged against their history on the way. */
static const struct argp_child dashboard_child[] = {
	{ &cli_db_argp }, { &cli_history_argp }, { &cli_history_k_argp },
	{ 0 }
};

static const struct argp dashboard_argp = {
	dashboard_opts, dashboard_parse, NULL,
	"Static HTML trends from the history: per suite, host and scenario the "
	"maximum, p99.99 and p99 of every run (a workload metric, such as ns "
	"per call, where the scenario is gated on one), regressions against "
	"history marked, scaled runs ringed, every point a link to its report.",
	dashboard_child, NULL, NULL
};

int nightly_cmd_dashboard(int argc, char **argv)
{
	struct dashboard_args a = { .dp = { .history = 7 } };
	char db[PATH_MAX], out[PATH_MAX];
	const char *res;
	int ret;

	ret = cli_parse("dashboard", &dashboard_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (history_resolve_db(a.db, db, sizeof(db)))
		return EXITCODE_BAD_INPUT;
	if (!a.db && !fsio_exists(db)) {
		pr_err("%s: no history database yet (rtgate history import "
		       "RESULTS_DIR fills one)", db);
		return EXITCODE_BAD_INPUT;
	}
	if (!a.dp.out_dir) {
		res = getenv("RTGATE_RESULTS_DIR");
		snprintf(out, sizeof(out), "%.4000s/dashboard",
			 res && *res ? res : "results");
		a.dp.out_dir = out;
	}
	a.dp.database = db;
	ret = nightly_dashboard_build(&a.dp);
	if (ret)
		return ret == -ENOENT ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	printf("dashboard: %s/index.html\n", a.dp.out_dir);
	return EXITCODE_PASS;
}
