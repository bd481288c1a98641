// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate history changepoints` (every night against the nights before it:
 * on which night did a metric step up, and what changed in the kernel
 * identity that night) and `rtgate compare --history RUN_DIR` (one run
 * against its history; the analyzer's compare hands --history here), and
 * `rtgate compare --json` (the analyzer's report.json alone on stdout).
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "exitcode.h"
#include "history.h"
#include "jsonio.h"
#include "jsonout.h"
#include "log.h"
#include "parse.h"

int history_judge_missing(struct history *h,
			  const struct history_judge_params *p, bool rejudge)
{
	struct history_verdict_row *v;
	struct history_judgement *j;
	struct history_run *runs;
	size_t n, i, k, nv, nj;
	int ret, have;

	if (rejudge && history_exec(h, "DELETE FROM verdicts WHERE source = "
				    "'history'"))
		return -EIO;
	ret = history_runs(h, NULL, &runs, &n);
	if (ret)
		return ret;
	for (i = 0; !ret && i < n; i++) {
		if (strcmp(runs[i].status, "complete"))
			continue;
		if (history_verdicts(h, runs[i].id, &v, &nv))
			continue;
		for (k = 0, have = 0; k < nv; k++)
			have |= !strcmp(v[k].source, "history");
		free(v);
		if (have)
			continue;
		ret = history_judge_run_host(h, runs[i].run_id, runs[i].host,
					     p, &j, &nj);
		if (!ret)
			free(j);
	}
	free(runs);
	return ret;
}

static const struct history_verdict_row *
find_verdict(const struct history_verdict_row *v, size_t n,
	     const char *scenario)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].source, "history") &&
		    !strcmp(v[i].scenario, scenario))
			return &v[i];
	return NULL;
}

static void print_num(double v)
{
	if (isnan(v))
		printf(" %8s", "-");
	else
		printf(" %8.1f", v);
}

/* "setparam.ns_per_call" -> "ns_per_call": the column stays narrow. */
static const char *metric_short(const char *m)
{
	const char *dot = strchr(m, '.');

	return an_metric_kind(m) == AN_METRIC_WORKLOAD ? dot + 1 : m;
}

void history_series_steps(const struct history_point *pts, size_t n,
			  long *step)
{
	size_t i, x;
	bool prev = false, reg;

	for (i = 0; i < n; i++)
		step[i] = -1;
	for (i = 0; i < n; i++) {
		reg = !strcmp(pts[i].verdict, "REGRESSION");
		if (reg && pts[i].since_run[0]) {
			for (x = 0; x < i; x++)
				if (!strcmp(pts[x].run.run_id,
					    pts[i].since_run))
					break;
			if (x < i && step[x] < 0 &&
			    (!x || strcmp(pts[x - 1].verdict, "REGRESSION")))
				step[x] = (long)i;
		} else if (reg && !prev) {
			step[i] = (long)i;
		}
		prev = reg;
	}
}

static void print_series(struct history *h, const struct history_key *k,
			 unsigned int K)
{
	char max[32];
	struct history_verdict_row *v, *vr;
	struct history_point *pts;
	size_t n, i, nv;
	const struct history_verdict_row *f;
	long *step;

	if (history_series(h, k->suite, k->host, k->scenario, &pts, &n))
		return;
	vr = calloc(n ? n : 1, sizeof(*vr));
	step = calloc(n ? n : 1, sizeof(*step));
	if (!vr || !step)
		goto out;
	for (i = 0; i < n; i++) {
		if (history_verdicts(h, pts[i].run.id, &v, &nv))
			continue;
		f = find_verdict(v, nv, k->scenario);
		if (f)
			vr[i] = *f;
		free(v);
	}
	history_series_steps(pts, n, step);
	printf("\n%s / %s on %s (baseline: the last %u complete runs)\n",
	       k->suite, k->scenario, k->host, K);
	printf("  %-16s  %-24s %-18s %8s  %-10s %8s %8s  %s\n", "run started",
	       "run", "kernel", "max us", "metric", "tonight", "history",
	       "against history");
	for (i = 0; i < n; i++) {
		const struct history_verdict_row *r = vr[i].verdict[0] ?
						      &vr[i] : NULL;
		const struct history_verdict_row *d = step[i] >= 0 ?
						      &vr[step[i]] : NULL;

		/* A workload metric's scenario has no latency maximum. */
		if (pts[i].max_us >= 0)
			snprintf(max, sizeof(max), "%.0f", pts[i].max_us);
		else
			snprintf(max, sizeof(max), "-");
		printf("  %.10s %.5s  %-24s %-18.18s %8s  %-10s ",
		       pts[i].run.start_time, pts[i].run.start_time[0] ?
		       pts[i].run.start_time + 11 : "", pts[i].run.run_id,
		       pts[i].run.kernel_release, max,
		       r ? metric_short(r->metric) : "-");
		print_num(r ? r->candidate : NAN);
		print_num(r ? r->baseline_value : NAN);
		printf("  %s", pts[i].verdict[0] ? pts[i].verdict : "-");
		if (d && step[i] != (long)i)
			printf("  <- step (held; %s confirmed it)",
			       pts[step[i]].run.run_id);
		else if (d)
			printf("  <- step");
		printf("\n");
		if (d && d->verdict[0])
			printf("  %10s  changed since %s: %s\n", "",
			       d->prev_run, d->changed[0] ? d->changed :
			       "nothing in the kernel identity");
	}
out:
	free(step);
	free(vr);
	free(pts);
}

enum { OPT_SUITE = 0x100, OPT_HISTORY, OPT_REJUDGE, OPT_METRIC };

struct trend_params {
	struct history_judge_params jp;
	char intended[512];	/* every --intended, comma-joined */
	const char *suite, *db, *run_dir;
	bool rejudge, compare;
};

/* The history window, --reference and --intended: common/cmd/cli.h's. */
static const struct argp_option changepoint_opts[] = {
	{ "suite", OPT_SUITE, "S", 0, "only this suite", 0 },
	{ "rejudge", OPT_REJUDGE, NULL, 0, "judge every night again (not only "
	  "the new ones)", 0 },
	{ 0 }
};

static const struct argp_option hcompare_opts[] = {
	{ "history", OPT_HISTORY, NULL, 0, "against the history (this form)",
	  0 },
	{ "metric", OPT_METRIC, "M", 0, "the gate metric (default: the "
	  "suite's)", 0 },
	{ 0 }
};

static error_t trend_parse(int key, char *arg, struct argp_state *state)
{
	struct trend_params *p = state->input;
	char why[480];

	switch (key) {
	case OPT_SUITE:
		p->suite = arg;
		break;
	case OPT_HISTORY:	/* compare --history: this form */
		break;
	case CLI_KEY_HISTORY_RUNS:	/* checked by its shared group */
		p->jp.history = cli_shared_uint(arg);
		break;
	case CLI_KEY_REFERENCE:
		p->jp.reference = arg;
		break;
	case OPT_REJUDGE:
		p->rejudge = true;
		break;
	case CLI_KEY_DB:	/* --db, shared (cli.h) */
		p->db = arg;
		break;
	case OPT_METRIC:
		p->jp.metric = arg;
		break;
	case CLI_KEY_INTENDED:
		if (an_like_intended_add(p->intended, sizeof(p->intended),
					 arg, why, sizeof(why)))
			return cli_error(state, "--intended: %s", why);
		p->jp.intended = p->intended;
		break;
	case ARGP_KEY_ARG:
		if (!p->compare || p->run_dir)
			return cli_error(state, "unexpected argument '%s'", arg);
		p->run_dir = arg;
		break;
	case ARGP_KEY_END:
		if (p->compare && !p->run_dir)
			return cli_error(state, "which run? (RUN_DIR)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child changepoint_child[] = {
	{ &cli_db_argp }, { &cli_history_argp }, { &cli_history_k_argp },
	{ &cli_intended_argp }, { 0 }
};
static const struct argp_child hcompare_child[] = {
	{ &cli_db_argp }, { &cli_history_argp }, { &cli_intended_argp },
	{ 0 }
};

static const struct argp changepoint_argp = {
	changepoint_opts, trend_parse, NULL,
	"Judges every night against the nights before it and prints each "
	"series: on which night a metric stepped up, and what changed in the "
	"kernel identity that night.", changepoint_child, NULL, NULL
};

static const struct argp hcompare_argp = {
	hcompare_opts, trend_parse, "RUN_DIR",
	"Judges every scenario of a run against the last K complete runs of "
	"the same suite, host and scenario at the same --duration-scale (a "
	"scaled run is not judged against full ones), and stores the run in "
	"the history."
	"\vExit status: 0 pass, 1 regression, 2 inconclusive, 3 bad input, 4 "
	"environment, 5 the run did not complete.", hcompare_child, NULL, NULL
};

int history_cmd_changepoints(int argc, char **argv)
{
	struct trend_params tp = { .jp = { .history = 7, .store = true } };
	struct history_key *keys;
	char dbpath[PATH_MAX];
	struct history hist, *h = &hist;
	size_t nk, i;
	int ret;

	ret = cli_parse("history changepoints", &changepoint_argp, argc, argv,
			0, &tp);
	if (ret)
		return cli_exit(ret);
	if (history_resolve_db(tp.db, dbpath, sizeof(dbpath)))
		return EXITCODE_ENVIRONMENT;
	ret = history_open_existing(h, dbpath);
	if (ret)
		return ret == -ENOENT ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	if (history_judge_missing(h, &tp.jp, tp.rejudge) ||
	    history_keys(h, &keys, &nk)) {
		history_close(h);
		return EXITCODE_ENVIRONMENT;
	}
	for (i = 0; i < nk; i++)
		if (!tp.suite || !strcmp(tp.suite, keys[i].suite))
			print_series(h, &keys[i], tp.jp.history);
	free(keys);
	history_close(h);
	return EXITCODE_PASS;
}

static void judgement_num(double v)
{
	if (isnan(v))
		printf(" %9s", "-");
	else
		printf(" %9.1f", v);
}

static void print_judgements(const char *run_id,
			     const struct history_judgement *j, size_t n)
{
	size_t i;

	printf("%s against its history\n", run_id);
	printf("  %-16s %-12s %9s %9s  %-4s %s\n", "scenario", "metric",
	       "candidate", "history", "runs", "verdict");
	for (i = 0; i < n; i++) {
		printf("  %-16s %-12s", j[i].scenario,
		       metric_short(j[i].metric));
		judgement_num(j[i].cand);
		judgement_num(j[i].base);
		printf("  %-4u %s: %s\n", j[i].baseline_runs, j[i].verdict,
		       j[i].reason);
		if (!strcmp(j[i].verdict, "REGRESSION"))
			printf("  %-16s changed since %s: %s\n", "",
			       j[i].prev_run_id, j[i].changed[0] ?
			       j[i].changed : "nothing in the kernel identity");
	}
	for (i = 0; i < n; i++)
		if (j[i].level_note[0]) {
			printf("  each scenario %s\n", j[i].level_note);
			break;
		}
}

/*
 * compare --history [--db F] [--history-runs K] [--reference GLOB]
 *                   [--metric M] RUN_DIR
 * The run is imported (so it is in the history from now on) and judged.
 */
static int compare_history(int argc, char **argv)
{
	struct trend_params tp = { .jp = { .history = 7, .store = true },
				   .compare = true };
	struct history_judge_params p;
	struct history_import_stats stats = { 0 };
	struct history_judgement *j = NULL;
	struct json_error err;
	const char *db;
	char dbpath[PATH_MAX], path[PATH_MAX];
	struct history h;
	int code = EXITCODE_PASS, ret;
	size_t n = 0, i;
	cJSON *m;

	ret = cli_parse("compare --history", &hcompare_argp, argc, argv, 0,
			&tp);
	if (ret)
		return cli_exit(ret);
	p = tp.jp;
	db = tp.db;
	snprintf(path, sizeof(path), "%.4000s/manifest.json", tp.run_dir);
	if (json_read_file(path, &m, &err)) {
		pr_err("%s", err.msg);
		return EXITCODE_BAD_INPUT;
	}
	if (history_resolve_db(db, dbpath, sizeof(dbpath))) {
		cJSON_Delete(m);
		return EXITCODE_ENVIRONMENT;
	}
	ret = history_open_existing(&h, dbpath);
	if (ret) {
		cJSON_Delete(m);
		return ret == -ENOENT ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	}
	if (history_import_run(&h, tp.run_dir, &stats)) {
		code = EXITCODE_BAD_INPUT;
		goto out;
	}
	if (strcmp(json_get_str(m, "status", ""), "complete")) {
		pr_err("%s: the run is %s: not judged", tp.run_dir,
		       json_get_str(m, "status", "?"));
		code = EXITCODE_INCOMPLETE;
		goto out;
	}
	if (history_judge_run_host(&h, json_get_str(m, "run_id", ""),
				   json_get_str(cJSON_GetObjectItem(m, "host"),
						"hostname", NULL), &p, &j, &n)) {
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	print_judgements(json_get_str(m, "run_id", ""), j, n);
	code = history_judgements_exit(j, n);
	if (code == EXITCODE_INCONCLUSIVE) {
		for (i = 0; i < n && !strcmp(j[i].verdict, "SKIPPED"); i++)
			;
		if (i == n)
			pr_info("%s: nothing was judged (no scenario has a "
				"history to be judged against): not a pass",
				tp.run_dir);
	}
out:
	free(j);
	cJSON_Delete(m);
	history_close(&h);
	return code;
}

/*
 * compare --history: every scenario of a run against its own history
 * (rtgate/main.c routes `compare` here when the line has --history; the
 * analyzer judges, history hands it the baseline).
 */
int history_cmd_compare_history(int argc, char **argv)
{
	bool json;

	argc = jsonout_strip(argc, argv, &json);
	if (json) {
		pr_err("compare --history --json: the verdicts against history "
		       "are stored; `rtgate export kcidb --db` exports them");
		return EXITCODE_BAD_INPUT;
	}
	return compare_history(argc, argv);
}
