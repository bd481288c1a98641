// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate calibrate [--suite NAME] [--duration 10m] [--duration-scale F]
 *                   [--out DIR]`
 *
 * The noise profile of this machine (docs/statistics.md): repetitions of
 * a suite's measurement with nothing else running, as two identical
 * scenarios in randomized rounds (an A/A pair), run by the runner like any
 * suite. Their between-repetition scatter per CPU and line, and how often
 * a burst lifted a repetition's tail, go into the history database, where
 * every later run of a suite with the same measurement finds them: the
 * prior that lets few repetitions be judged, and what `rtgate run` says
 * the suite can see here. Calibrations of one host and measurement pool.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "history/history.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "runner/runner.h"
#include "runner/measure/measure.h"
#include "runner/runner_priv.h"

#define CAL_REP_OVERHEAD_S	2	/* start, stop, write: per repetition */
#define CAL_MIN_REPS		3	/* per scenario */

struct cal_params {
	const char *suite;
	double duration_s;
	double scale;
	const char *out;
	bool if_missing;
};

enum { CAL_SUITE = 0x100, CAL_DURATION, CAL_SCALE, CAL_OUT, CAL_IF_MISSING };

static const struct argp_option cal_opts[] = {
	{ "suite", CAL_SUITE, "NAME", 0, "whose [measure] (default quick)", 0 },
	{ "duration", CAL_DURATION, "T", 0, "time to spend (default 10m; e.g. "
	  "3m, 600s)", 0 },
	{ "duration-scale", CAL_SCALE, "F", 0, "as `rtgate run "
	  "--duration-scale F`: a scaled run has a measurement, and a "
	  "profile, of its own", 0 },
	{ "out", CAL_OUT, "DIR", 0, "results directory (default: "
	  "$RTGATE_RESULTS_DIR or results)", 0 },
	{ "if-missing", CAL_IF_MISSING, NULL, 0, "only when this host has no "
	  "profile of the measurement yet (./run.sh's first run: the suite's "
	  "run that follows says what it can see)", 0 },
	{ 0 }
};

static const char cal_doc[] =
	"Records this machine's noise for a suite's measurement (as root): "
	"A/A repetitions of cyclictest with nothing else running, their "
	"scatter stored in the history database ($RTGATE_DB or DIR/rtgate.db) "
	"as the noise profile every later run of that measurement uses "
	"(docs/statistics.md).\v"
	"Exit: 0 the profile was stored (or, with --if-missing, is there), "
	"3 bad input, 4 the calibration run or its profile failed, 5 "
	"interrupted. See docs/exit-codes.md.";

static error_t cal_parse(int key, char *arg, struct argp_state *st)
{
	struct cal_params *p = st->input;
	uint64_t ns;

	switch (key) {
	case CAL_SUITE:
		p->suite = arg;
		return 0;
	case CAL_DURATION:
		if (parse_duration_ns(arg, &ns) || !ns)
			return cli_error(st, "--duration: '%s' is not a time "
					 "(e.g. 10m)", arg);
		p->duration_s = ns / 1e9;
		return 0;
	case CAL_SCALE:
		if (parse_double(arg, &p->scale) || p->scale <= 0 ||
		    p->scale > 1000)
			return cli_error(st, "--duration-scale: '%s' is not a "
					 "number above 0", arg);
		return 0;
	case CAL_OUT:
		p->out = arg;
		return 0;
	case CAL_IF_MISSING:
		p->if_missing = true;
		return 0;
	default:
		return cli_key_default(st, key, arg);
	}
}

/* 0 to go on, else the exit code (--help: 0). */
static int cal_args(int argc, char **argv, struct cal_params *p)
{
	static const struct argp argp = { cal_opts, cal_parse, NULL, cal_doc,
					  NULL, NULL, NULL };
	int ret;

	*p = (struct cal_params){ .suite = "quick", .duration_s = 600,
				  .scale = 1 };
	ret = cli_parse("calibrate", &argp, argc, argv, 0, p);
	return ret ? cli_exit(ret) : -1;
}

/*
 * The calibration suite: the measurement exactly as the suite's, scaled
 * the same way (so its key is the suite's), two empty scenarios.
 */
static int write_suite(const struct runner_suite *s, double scale,
		       unsigned int reps, const char *path)
{
	const struct runner_suite_measure *m = &s->measure;
	char *text = NULL;
	size_t len = 0;
	const char *ct_opts = runner_suite_opts(m,
						an_tool_find("cyclictest"))->text;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	fprintf(f, "; written by rtgate calibrate for suite %s\n"
		"[suite]\nname = calibrate-%s\n"
		"description = A/A repetitions of %s's measurement: the noise "
		"of this machine\nrepetitions = %u\norder = randomized\n"
		"requires = root\n\n[measure]\ncyclictest = %s\n", s->name,
		s->name, s->name, reps, ct_opts ? ct_opts : "");
	if (m->loops)
		fprintf(f, "loops = %llu\n", runner_ct_loops(m, scale));
	else
		fprintf(f, "duration = %us\n", runner_ct_duration_s(m, scale));
	fprintf(f, "histogram = %u\n\n[scenario idle]\ndescription = "
		"cyclictest alone\n\n[scenario idle2]\ndescription = "
		"cyclictest alone, a second identical scenario\n",
		m->histogram_us);
	if (fclose(f)) {
		free(text);
		return -EIO;
	}
	ret = fsio_write_atomic(path, text, len);
	free(text);
	return ret;
}

/* The profile of the calibration run: stored, written, printed. */
static int keep_profile(const char *run_dir, const struct runner_suite *s,
			double scale, const char *out, bool if_missing)
{
	struct an_results res;
	struct an_side *g[2] = { NULL, NULL };
	struct an_profile pr;
	struct history h;
	char db[PATH_MAX], path[PATH_MAX], host[256] = "", key[32];
	cJSON *o;
	char *text;
	int ret;

	if (an_results_open(run_dir, &res))
		return -EINVAL;
	ret = an_results_side(&res, "idle", &g[0]);
	if (!ret)
		ret = an_results_side(&res, "idle2", &g[1]);
	if (!ret)
		ret = an_profile_build(g, 2, &pr);
	an_side_free(g[0]);
	an_side_free(g[1]);
	if (ret) {
		pr_err("%s: too few valid repetitions for a noise profile",
		       run_dir);
		an_results_close(&res);
		return -EINVAL;
	}
	gethostname(host, sizeof(host) - 1);
	runner_measure_key(s, scale, key, sizeof(key));
	snprintf(pr.key, sizeof(pr.key), "%s", key);
	snprintf(pr.origin, sizeof(pr.origin), "%s, %s, %zu repetitions",
		 host, json_get_str(res.manifest, "run_id", "?"), pr.nreps);
	runner_history_db(out, db, sizeof(db));
	ret = history_open(&h, db);
	if (!ret) {
		ret = history_profile_store(&h, host, &pr,
					    json_get_str(res.manifest,
							 "run_id", ""));
		history_close(&h);
	}
	o = an_profile_json(&pr);
	text = o ? cJSON_Print(o) : NULL;
	cJSON_Delete(o);
	rtpaths_fmt(path, sizeof(path), "%s/noise-profile.json", run_dir);
	if (!ret && text)
		ret = fsio_write_atomic(path, text, strlen(text));
	free(text);
	an_profile_free(&pr);
	an_results_close(&res);
	if (ret)
		return ret;
	printf("noise profile stored in %s (and %s)\n", db, path);
	/*
	 * What the suite itself can see now, with every calibration pooled;
	 * with --if-missing the suite's run comes next and says it.
	 */
	if (!if_missing && !runner_profile_find(db, key, &pr)) {
		runner_profile_print(&pr, s, s->repetitions);
		an_profile_free(&pr);
	}
	return 0;
}

/* --if-missing: a profile of this host and measurement is stored. */
static bool have_profile(const struct runner_suite *s,
			 const struct cal_params *p)
{
	struct an_profile pr;
	char db[PATH_MAX], key[32];

	runner_history_db(p->out, db, sizeof(db));
	runner_measure_key(s, p->scale, key, sizeof(key));
	if (runner_profile_find(db, key, &pr))
		return false;
	printf("calibrate: this machine has a noise profile of %s's "
	       "measurement (%s)\n", s->name, pr.origin);
	an_profile_free(&pr);
	return true;
}

int runner_cmd_calibrate(int argc, char **argv)
{
	char path[PATH_MAX], tmp[] = "/tmp/rtgate-cal.XXXXXX";
	char latest[PATH_MAX], run_dir[PATH_MAX], results[PATH_MAX];
	char *run_argv[8];
	struct cal_params p;
	struct runner_suite_error err;
	struct runner_suite s;
	unsigned int reps, rep_s;
	int ret, code, n = 0;
	ssize_t len;

	ret = cal_args(argc, argv, &p);
	if (ret >= 0)
		return ret;
	if (runner_resolve_suite(p.suite, path, sizeof(path)))
		return EXITCODE_BAD_INPUT;
	if (runner_suite_load(path, &s, &err)) {
		pr_err("%s", err.msg);
		return EXITCODE_BAD_INPUT;
	}
	if (!runner_suite_uses_program(&s, "cyclictest")) {
		pr_err("%s: suite %s measures with its workloads, not "
		       "cyclictest: there is no latency noise to calibrate",
		       path, s.name);
		runner_suite_free(&s);
		return EXITCODE_BAD_INPUT;
	}
	if (p.if_missing && have_profile(&s, &p)) {
		runner_suite_free(&s);
		return EXITCODE_PASS;
	}
	rep_s = (s.measure.loops ? 0 : runner_ct_duration_s(&s.measure, p.scale)) +
		CAL_REP_OVERHEAD_S;
	reps = (unsigned int)(p.duration_s / (2.0 * rep_s));
	if (reps < CAL_MIN_REPS)
		reps = CAL_MIN_REPS;
	if (!mkdtemp(tmp)) {
		pr_err("calibrate: %s: %s", tmp, strerror(errno));
		runner_suite_free(&s);
		return EXITCODE_ENVIRONMENT;
	}
	snprintf(path, sizeof(path), "%s/calibrate-%s.suite", tmp, s.name);
	ret = write_suite(&s, p.scale, reps, path);
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	printf("calibrate: %u repetitions of %s's measurement a scenario, "
	       "two identical scenarios (about %.0f s)\n", reps, s.name,
	       2.0 * reps * rep_s);
	fflush(stdout);
	snprintf(results, sizeof(results), "%s", p.out ? p.out :
		 getenv("RTGATE_RESULTS_DIR") && *getenv("RTGATE_RESULTS_DIR") ?
		 getenv("RTGATE_RESULTS_DIR") : "results");
	run_argv[n++] = "run";
	run_argv[n++] = path;
	run_argv[n++] = "--out";
	run_argv[n++] = results;
	run_argv[n++] = "--no-history";
	run_argv[n] = NULL;
	code = runner_cmd_run(n, run_argv);
	/* A calibration compares nothing: 0 or 2 (a repetition invalid). */
	if (code != EXITCODE_PASS && code != EXITCODE_INCONCLUSIVE)
		goto out;
	rtpaths_fmt(latest, sizeof(latest), "%s/latest", results);
	len = readlink(latest, run_dir, sizeof(run_dir) - 1);
	if (len <= 0) {
		pr_err("%s: the calibration run left no results", latest);
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	run_dir[len] = '\0';
	rtpaths_fmt(latest, sizeof(latest), "%s/%s", results, run_dir);
	ret = keep_profile(latest, &s, p.scale, p.out, p.if_missing);
	code = ret ? EXITCODE_ENVIRONMENT : EXITCODE_PASS;
out:
	unlink(path);
	rmdir(tmp);
	runner_suite_free(&s);
	return code;
}
