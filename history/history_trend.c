// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate history changepoints` (every night against the nights before it:
 * on which night did a metric step up, and what changed in the kernel
 * identity that night) and `rtgate compare --history RUN_DIR` (one run
 * against its history; the analyzer's compare hands --history here).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "history.h"
#include "jsonio.h"
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
		ret = history_judge_run(h, runs[i].run_id, p, &j, &nj);
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

static void print_series(struct history *h, const struct history_key *k,
			 unsigned int K)
{
	const struct history_verdict_row *vr;
	struct history_verdict_row *v;
	struct history_point *pts;
	size_t n, i, nv;
	int stepped = 0, reg;

	if (history_series(h, k->suite, k->host, k->scenario, &pts, &n))
		return;
	printf("\n%s / %s on %s (baseline: the last %u complete runs)\n",
	       k->suite, k->scenario, k->host, K);
	printf("  %-10s  %-24s %-18s %8s  %-7s %8s %8s  %s\n", "night", "run",
	       "kernel", "max", "metric", "tonight", "history",
	       "against history");
	for (i = 0; i < n; i++) {
		reg = !strcmp(pts[i].verdict, "REGRESSION");
		if (history_verdicts(h, pts[i].run.id, &v, &nv))
			continue;
		vr = find_verdict(v, nv, k->scenario);
		printf("  %.10s  %-24s %-18.18s %8.0f  %-7.7s ",
		       pts[i].run.start_time, pts[i].run.run_id,
		       pts[i].run.kernel_release, pts[i].max_us,
		       vr ? vr->metric : "-");
		print_num(vr ? vr->candidate : NAN);
		print_num(vr ? vr->baseline_value : NAN);
		printf("  %s%s\n", pts[i].verdict[0] ? pts[i].verdict : "-",
		       reg && !stepped ? "  <- step" : "");
		if (reg && !stepped && vr)
			printf("  %10s  changed since %s: %s\n", "",
			       vr->prev_run, vr->changed[0] ? vr->changed :
			       "nothing in the kernel identity");
		free(v);
		stepped = reg;
	}
	free(pts);
}

/* K of --history K and --history-runs K: 1..1000 runs of history. */
static int parse_runs(const char *opt, const char *arg, unsigned int *runs)
{
	uint64_t v;

	if (parse_u64_range(arg, 1, 1000, &v)) {
		pr_err("%s: 1..1000 runs", opt);
		return -EINVAL;
	}
	*runs = (unsigned int)v;
	return 0;
}

int history_cmd_changepoints(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "history", required_argument, NULL, 'k' },
		{ "reference", required_argument, NULL, 'r' },
		{ "rejudge", no_argument, NULL, 'R' },
		{ "db", required_argument, NULL, 'd' },
		{ 0 }
	};
	struct history_judge_params p = { .history = 7, .store = true };
	struct history_key *keys;
	const char *suite = NULL, *db = NULL;
	char dbpath[PATH_MAX];
	struct history hist, *h = &hist;
	bool rejudge = false;
	size_t nk, i;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			suite = optarg;
			break;
		case 'k':
			if (parse_runs("--history", optarg, &p.history))
				return EXIT_BAD_INPUT;
			break;
		case 'r':
			p.reference = optarg;
			break;
		case 'R':
			rejudge = true;
			break;
		case 'd':
			db = optarg;
			break;
		default:
			fprintf(stderr, "usage: rtgate history changepoints "
				"[--db FILE] [--suite S] [--history K] "
				"[--reference GLOB] [--rejudge]\n");
			return EXIT_BAD_INPUT;
		}
	}
	if (history_resolve_db(db, dbpath, sizeof(dbpath)) ||
	    history_open(h, dbpath))
		return EXIT_ENVIRONMENT;
	if (history_judge_missing(h, &p, rejudge) || history_keys(h, &keys,
								  &nk)) {
		history_close(h);
		return EXIT_ENVIRONMENT;
	}
	for (i = 0; i < nk; i++)
		if (!suite || !strcmp(suite, keys[i].suite))
			print_series(h, &keys[i], p.history);
	free(keys);
	history_close(h);
	return EXIT_PASS;
}

static void print_judgements(const char *run_id,
			     const struct history_judgement *j, size_t n)
{
	size_t i;

	printf("%s against its history\n", run_id);
	printf("  %-16s %-8s %9s %9s  %-4s %s\n", "scenario", "metric",
	       "candidate", "history", "runs", "verdict");
	for (i = 0; i < n; i++) {
		printf("  %-16s %-8s %9.1f %9.1f  %-4u %s: %s\n", j[i].scenario,
		       j[i].metric, j[i].cand, j[i].base, j[i].baseline_runs,
		       j[i].verdict, j[i].reason);
		if (!strcmp(j[i].verdict, "REGRESSION"))
			printf("  %-16s changed since %s: %s\n", "",
			       j[i].prev_run_id, j[i].changed[0] ?
			       j[i].changed : "nothing in the kernel identity");
	}
}

/*
 * compare --history [--db F] [--history-runs K] [--reference GLOB]
 *                   [--metric M] RUN_DIR
 * The run is imported (so it is in the history from now on) and judged.
 */
int history_compare_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "history", no_argument, NULL, 'H' },
		{ "history-runs", required_argument, NULL, 'k' },
		{ "reference", required_argument, NULL, 'r' },
		{ "metric", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'd' },
		{ 0 }
	};
	struct history_judge_params p = { .history = 7, .store = true };
	struct history_import_stats stats = { 0 };
	struct history_judgement *j = NULL;
	struct json_error err;
	const char *db = NULL;
	char dbpath[PATH_MAX], path[PATH_MAX];
	struct history h;
	int c, code = EXIT_PASS;
	size_t n = 0, i;
	cJSON *m;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			break;
		case 'k':
			if (parse_runs("--history-runs", optarg, &p.history))
				return EXIT_BAD_INPUT;
			break;
		case 'r':
			p.reference = optarg;
			break;
		case 'm':
			p.metric = optarg;
			break;
		case 'd':
			db = optarg;
			break;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: rtgate compare --history [--db FILE] "
			"[--history-runs K] [--reference GLOB] [--metric M] "
			"RUN_DIR\n");
		return EXIT_BAD_INPUT;
	}
	snprintf(path, sizeof(path), "%.4000s/manifest.json", argv[optind]);
	if (json_read_file(path, &m, &err)) {
		pr_err("%s", err.msg);
		return EXIT_BAD_INPUT;
	}
	if (history_resolve_db(db, dbpath, sizeof(dbpath)) ||
	    history_open(&h, dbpath)) {
		cJSON_Delete(m);
		return EXIT_ENVIRONMENT;
	}
	if (history_import_run(&h, argv[optind], &stats)) {
		code = EXIT_BAD_INPUT;
		goto out;
	}
	if (strcmp(json_get_str(m, "status", ""), "complete")) {
		pr_err("%s: the run is %s: not judged", argv[optind],
		       json_get_str(m, "status", "?"));
		code = EXIT_INCOMPLETE;
		goto out;
	}
	if (history_judge_run(&h, json_get_str(m, "run_id", ""), &p, &j, &n)) {
		code = EXIT_ENVIRONMENT;
		goto out;
	}
	print_judgements(json_get_str(m, "run_id", ""), j, n);
	for (i = 0; i < n; i++)
		if (j[i].exit_code == EXIT_REGRESSION ||
		    (j[i].exit_code == EXIT_INCONCLUSIVE && code == EXIT_PASS))
			code = j[i].exit_code;
out:
	free(j);
	cJSON_Delete(m);
	history_close(&h);
	return code;
}
