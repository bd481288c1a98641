// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate nightly [--config FILE]` and `rtgate dashboard`.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "exitcode.h"
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "nightly/nightly_priv.h"

int nightly_exit_merge(int a, int b)
{
	static const int prio[] = { EXIT_BAD_INPUT, EXIT_ENVIRONMENT,
				    EXIT_INCOMPLETE, EXIT_REGRESSION,
				    EXIT_INCONCLUSIVE, EXIT_PASS };
	size_t i;

	for (i = 0; i < sizeof(prio) / sizeof(prio[0]); i++)
		if (a == prio[i] || b == prio[i])
			return prio[i];
	return a > b ? a : b;
}

static void kernel_of(const cJSON *m, char *buf, size_t len)
{
	const cJSON *k = cJSON_GetObjectItem(m, "kernel");

	snprintf(buf, len, "%s %s", json_get_str(k, "release", "?"),
		 json_get_str(k, "version", ""));
}

int nightly_store(struct nightly_ctx *c, const char *run_dir,
		  const char *token, struct nightly_result *r)
{
	struct history_import_stats stats = { 0 };
	struct history_judge_params jp = {
		.history = c->cfg->history,
		.reference = c->cfg->reference[0] ? c->cfg->reference : NULL,
		.store = true,
	};
	struct analyze_params ap;
	struct json_error err;
	char path[PATH_MAX];
	int ret, gate = EXIT_PASS;
	size_t i;
	cJSON *m;

	snprintf(path, sizeof(path), "%.4000s/manifest.json", run_dir);
	ret = json_read_file(path, &m, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return ret;
	}
	snprintf(r->run_id, sizeof(r->run_id), "%s",
		 json_get_str(m, "run_id", "?"));
	snprintf(r->status, sizeof(r->status), "%s",
		 json_get_str(m, "status", "?"));
	snprintf(r->note, sizeof(r->note), "%s",
		 json_get_str(m, "status_reason", ""));
	kernel_of(m, r->kernel, sizeof(r->kernel));
	cJSON_Delete(m);
	/*
	 * The run's own comparisons: the runner's verdict when it ran here,
	 * else the analyzer's. The analyzer also writes the reports the
	 * summary and the dashboard link to, when nothing has yet.
	 */
	snprintf(path, sizeof(path), "%.4000s/report.json", run_dir);
	if (r->runner_exit < 0 || !fsio_exists(path)) {
		analyze_params_init(&ap);
		ap.quiet = true;
		gate = analyze_report_run(run_dir, &ap);
	}
	if (r->runner_exit >= 0)
		gate = r->runner_exit;
	ret = history_import_replacing(c->h, run_dir, token, &stats);
	if (ret)
		return ret;
	/*
	 * The night's gate is history; a run's comparisons of its scenarios
	 * with each other (a load against idle) count with gate = both.
	 */
	r->run_gate = gate;
	r->exit_code = c->cfg->gate_run ? gate : EXIT_PASS;
	if (strcmp(r->status, "complete")) {
		r->exit_code = nightly_exit_merge(r->exit_code,
						  EXIT_INCOMPLETE);
		return 0;
	}
	ret = history_judge_run(c->h, r->run_id, &jp, &r->judged,
				&r->nr_judged);
	if (ret)
		return ret;
	for (i = 0; i < r->nr_judged; i++)
		r->exit_code = nightly_exit_merge(r->exit_code,
						  r->judged[i].exit_code);
	return 0;
}

static void now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

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

static int run_nightly(struct nightly_config *cfg)
{
	struct nightly_result res[NIGHTLY_MAX_SUITES * 8];
	struct nightly_ctx c = { .cfg = cfg };
	struct history h;
	size_t nres = 0, i;
	int code = EXIT_PASS, ret, fd = -1, reaped;

	ret = nightly_lock(cfg->lock, &fd);
	if (ret)
		return EXIT_ENVIRONMENT;
	nightly_signals_init();
	if (fsio_mkdir_p(cfg->results, 0755) ||
	    history_open(&h, cfg->database)) {
		nightly_unlock(fd, cfg->lock);
		return EXIT_ENVIRONMENT;
	}
	c.h = &h;
	now_utc(c.started, sizeof(c.started));
	/* We hold the lock: placeholders left now belong to dead nightlies. */
	reaped = history_reap_pending(&h, "the nightly running it was killed");
	if (reaped > 0)
		pr_warn("%d run(s) of an earlier nightly that was killed stay "
			"marked incomplete", reaped);
	for (i = 0; i < cfg->nr_suites && !nightly_signalled(); i++) {
		size_t first = nres;

		pr_info("nightly: suite %s (%zu/%zu)", cfg->suites[i].name,
			i + 1, cfg->nr_suites);
		ret = nightly_suite_run(&c, &cfg->suites[i], res, &nres,
					sizeof(res) / sizeof(res[0]));
		if (ret)
			code = nightly_exit_merge(code, ret == -EINVAL ?
						  EXIT_BAD_INPUT :
						  EXIT_ENVIRONMENT);
		for (; first < nres; first++)
			code = nightly_exit_merge(code, res[first].exit_code);
	}
	if (nightly_signalled())
		code = nightly_exit_merge(code, EXIT_INCOMPLETE);
	if (!nres && !nightly_signalled() && !ret)
		pr_info("nightly: nothing new to judge");
	if (nightly_summary_write(&c, res, nres, code, stdout))
		code = nightly_exit_merge(code, EXIT_ENVIRONMENT);
	if (cfg->dashboard[0]) {
		struct dashboard_params dp = {
			.database = cfg->database, .out_dir = cfg->dashboard,
			.report_url = cfg->report_url[0] ? cfg->report_url :
				      NULL,
			.history = cfg->history,
			.reference = cfg->reference[0] ? cfg->reference : NULL,
		};

		history_close(&h);
		if (dashboard_build(&dp))
			code = nightly_exit_merge(code, EXIT_ENVIRONMENT);
	}
	for (i = 0; i < nres; i++)
		free(res[i].judged);
	history_close(&h);
	nightly_unlock(fd, cfg->lock);
	return code;
}

int cmd_nightly(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct nightly_config cfg;
	const char *file = NULL;
	bool check = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		if (c == 'C') {
			check = true;
			continue;
		}
		if (c != 'c') {
			fprintf(stderr, "usage: rtgate nightly [--config FILE]"
				" [--check]\n(docs/nightly.md)\n");
			return EXIT_BAD_INPUT;
		}
		file = optarg;
	}
	if (optind != argc) {
		pr_err("nightly: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (nightly_config_load(&cfg, file))
		return EXIT_BAD_INPUT;
	if (check)
		return nightly_config_print(&cfg, stdout);
	if (self_rtgate(&cfg)) {
		pr_err("nightly: cannot find the rtgate binary");
		return EXIT_ENVIRONMENT;
	}
	return run_nightly(&cfg);
}

int cmd_dashboard(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "report-url", required_argument, NULL, 'u' },
		{ "history", required_argument, NULL, 'k' },
		{ "reference", required_argument, NULL, 'r' },
		{ 0 }
	};
	struct dashboard_params dp = { .history = 7 };
	char db[PATH_MAX], out[PATH_MAX];
	const char *dbopt = NULL, *res;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dbopt = optarg;
			break;
		case 'o':
			dp.out_dir = optarg;
			break;
		case 'u':
			dp.report_url = optarg;
			break;
		case 'r':
			dp.reference = optarg;
			break;
		case 'k':
			dp.history = strtoul(optarg, NULL, 10);
			if (dp.history >= 1 && dp.history <= 1000)
				break;
			pr_err("--history: 1..1000 runs");
			return EXIT_BAD_INPUT;
		default:
			fprintf(stderr, "usage: rtgate dashboard [--db FILE] "
				"[--out DIR] [--report-url URL] [--history K]"
				" [--reference GLOB]\n");
			return EXIT_BAD_INPUT;
		}
	}
	if (history_resolve_db(dbopt, db, sizeof(db)))
		return EXIT_BAD_INPUT;
	if (!dbopt && !fsio_exists(db)) {
		pr_err("%s: no history database yet (rtgate history import "
		       "RESULTS_DIR fills one)", db);
		return EXIT_BAD_INPUT;
	}
	if (!dp.out_dir) {
		res = getenv("RTGATE_RESULTS_DIR");
		snprintf(out, sizeof(out), "%.4000s/dashboard",
			 res && *res ? res : "results");
		dp.out_dir = out;
	}
	dp.database = db;
	if (dashboard_build(&dp))
		return EXIT_ENVIRONMENT;
	printf("dashboard: %s/index.html\n", dp.out_dir);
	return EXIT_PASS;
}
