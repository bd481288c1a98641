// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate run SUITE|NAME [--duration T | --duration-scale F] [--repeat N]
 *             [--out DIR]`
 *
 * Order of business (docs/runner.md): everything that can fail without
 * touching the machine first (arguments, the suite, root, tools); then
 * the state directory, the guardian, the results directory, the
 * environment record, the originals of every tunable into the state file;
 * only then the repetitions. Every exit path after that point restores.
 */
#include <errno.h>
#include <dirent.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "exitcode.h"
#include "history/history.h"
#include "fsio.h"
#include "jsonio.h"
#include "jsonout.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "runner/runner.h"
#include "runner/machine/machine.h"
#include "runner/measure/measure.h"
#include "runner/runner_priv.h"
#include "runner/suite/suite.h"
#include "vec.h"
#include "clocks.h"
#include "sha256.h"
#include "stopsig.h"
#include "timefmt.h"

/* `rtgate run`: one option table, its parser (common/cmd/cli.h). */
#define UNTIL_DECIDED_DEFAULT_NS	(600ULL * 1000000000ULL)

enum { RUN_SCALE = 0x100, RUN_OUT, RUN_NO_HISTORY, RUN_TRACE,
       RUN_UNTIL_DECIDED, RUN_BUDGET, RUN_JSON, RUN_DURATION, RUN_SILENT,
       RUN_MAX_REPS };

static const struct argp_option run_opts[] = {
	{ "duration", RUN_DURATION, "T", 0, "each repetition measures for T "
	  "(30s, 10m); the suite's other times and scaled(N) counts follow, as "
	  "with --duration-scale T/(the suite's duration)", 0 },
	{ "duration-scale", RUN_SCALE, "F", 0, "multiply durations and scaled(N) "
	  "counts by F (> 0): a scaled run, not a reproduction", 0 },
	{ "out", RUN_OUT, "DIR", 0, "results directory (default: "
	  "$RTGATE_RESULTS_DIR or results)", 0 },
	{ "no-history", RUN_NO_HISTORY, NULL, 0, "do not store the run in the SQLite "
	  "history (results/rtgate.db or $RTGATE_DB)", 0 },
	{ "trace", RUN_TRACE, "MODE", 0, "off, spikes or on: kernel events beside "
	  "cyclictest, saved per repetition as trace.dat; for timerlat, "
	  "rtla's auto-analysis after each histogram (rtla-aa.txt) "
	  "(default: the suite's `trace`, else off)", 0 },
	{ "until-decided", RUN_UNTIL_DECIDED, NULL, 0, "then rounds of the "
	  "INCONCLUSIVE comparisons' scenarios until each is decided, alpha "
	  "spent over the looks (docs/statistics.md)", 0 },
	{ "budget", RUN_BUDGET, "T", 0, "--until-decided for at most T "
	  "(default: the suite's until_decided, else 10m)", 0 },
	{ "max-repetitions", RUN_MAX_REPS, "N", 0, "--until-decided up to N "
	  "repetitions a scenario, 2..1000; without --budget, no time "
	  "budget (the lab's virtual clock is no wall clock)", 0 },
	{ "json", RUN_JSON, NULL, 0, "report.json on stdout and nothing else: "
	  "progress and tables go to stderr (docs/exports.md)", 0 },
	{ "silent", RUN_SILENT, NULL, 0, "nothing leaves the machine's memory "
	  "while a repetition runs: results staged in a tmpfs "
	  "($RTGATE_STAGE_DIR, else /dev/shm) and copied between "
	  "repetitions, output held until the repetition ends, the kernel's "
	  "console quiet (the QEMU lab's default; docs/runner.md)", 0 },
	{ 0 }
};

static error_t run_parse(int key, char *arg, struct argp_state *state)
{
	struct runner_run_params *p = state->input;

	switch (key) {
	case RUN_SCALE:
		if (parse_double(arg, &p->scale) || p->scale <= 0 ||
		    p->scale > 1000)
			return cli_error(state, "--duration-scale: '%s' is not "
					 "a number above 0", arg);
		p->have_scale = true;
		break;
	case RUN_DURATION:
		return cli_arg_seconds(state, "duration", arg, &p->duration_s);
	case CLI_KEY_REPEAT:	/* checked by its shared group (cli.h) */
		p->repeat = cli_shared_uint(arg);
		break;
	case RUN_OUT:
		p->out = arg;
		break;
	case RUN_NO_HISTORY:
		p->no_history = true;
		break;
	case RUN_TRACE:
		if (trace_capture_parse(arg, &p->trace))
			return cli_error(state, "--trace: '%s' is not off, "
					 "spikes or on", arg);
		p->have_trace = true;
		break;
	case RUN_UNTIL_DECIDED:
		p->until_decided = true;
		break;
	case RUN_JSON:
		p->json = true;
		break;
	case RUN_SILENT:
		p->silent = true;
		break;
	case RUN_BUDGET:
		if (parse_duration_ns(arg, &p->budget_ns) || !p->budget_ns)
			return cli_error(state, "--budget: '%s' is not a time "
					 "(e.g. 10m)", arg);
		p->until_decided = true;
		break;
	case RUN_MAX_REPS: {
		uint64_t n;
		error_t e = cli_arg_number(state, "max-repetitions", arg, 2,
					   1000, &n);

		if (e)
			return e;
		p->max_reps = n;
		p->until_decided = true;
		break;
	}
	case ARGP_KEY_ARG:
		if (p->suite)
			return cli_error(state, "one suite at a time ('%s' and "
					 "'%s')", p->suite, arg);
		p->suite = arg;
		break;
	case ARGP_KEY_END:
		if (!p->suite)
			return cli_error(state, "which suite? (e.g. rtgate run "
					 "quick)");
		if (p->duration_s && p->have_scale)
			return cli_error(state, "--duration and "
					 "--duration-scale both set the time: "
					 "give one");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child run_shared[] = {
	{ &cli_repeat_argp }, { 0 }
};

static const struct argp run_argp = {
	run_opts, run_parse, "SUITE|NAME",
	"Runs a suite on the running kernel (as root): every repetition of "
	"every scenario, interleaved, tunables restored on every exit path, "
	"then the analyzer's verdicts and reports. NAME finds "
	"suites/NAME.suite (./suites, then rtgate's own: the clone's, or "
	"PREFIX/share/rtgate/suites installed)."
	"\vExit status: 0 pass, 1 regression, 2 inconclusive or invalid, 3 bad "
	"input, 4 environment, 5 the run did not complete "
	"(docs/exit-codes.md). The suite format: suites/README.md; the runner: "
	"docs/runner.md.",
	run_shared, NULL, NULL
};

static int parse_args(int argc, char **argv, struct runner_run_params *p)
{
	p->scale = 1.0;
	/* Options may follow the suite too: `rtgate run slice-ext --repeat 1`. */
	return cli_parse("run", &run_argp, argc, argv, 0, p);
}

/*
 * --duration T as the scale it means: T over the suite's measurement
 * time, so that everything the suite times or counts with scaled(N)
 * follows as with --duration-scale. A suite that counts loops has no time
 * to scale from: -EINVAL, said.
 */
static int duration_scale(struct runner *r)
{
	const struct runner_suite_measure *m = &r->suite.measure;

	if (!m->duration_ns) {
		pr_err("%s: --duration needs a suite that measures for a time "
		       "(duration = ...); this one %s: use --duration-scale",
		       r->suite_path, m->loops ? "counts loops" :
		       "sets no duration");
		return -EINVAL;
	}
	r->params.scale = r->params.duration_s * 1e9 / m->duration_ns;
	return 0;
}

static int resolve_suite(struct runner *r)
{
	return runner_resolve_suite(r->params.suite, r->suite_path,
				    sizeof(r->suite_path));
}

/* ---- preparing the machine ----------------------------------------------- */

static bool suite_needs(const struct runner_suite *s, bool tracefs)
{
	size_t i, j;

	for (i = 0; i < s->nr_scenarios; i++) {
		const struct runner_suite_scenario *sc = &s->scenarios[i];

		for (j = 0; sc->requires[j]; j++)
			if (tracefs ? runner_req_needs_tracefs(sc->requires[j]) :
			    runner_req_needs_debugfs(sc->requires[j]))
				return true;
		for (j = 0; !tracefs && j < sc->nr_tunables; j++)
			if (sc->tunables[j].kind != RUNNER_TUNABLE_SYSCTL)
				return true;
		for (j = 0; !tracefs && j < sc->nr_expects; j++)
			if (!strcmp(sc->expects[j].workload, SUITE_EXPECT_RSEQ))
				return true;
		if (tracefs && sc->tool->tracer &&
		    runner_req_needs_tracefs(sc->tool->tracer))
			return true;
	}
	return false;
}

static void find_mounts(struct runner *r)
{
	bool mounted;

	if (suite_needs(&r->suite, false)) {
		if (!runner_mount_ensure("debugfs", r->debugfs, sizeof(r->debugfs),
					 &mounted) && mounted)
			pr_info("mounted debugfs on %s", r->debugfs);
	} else if (runner_mount_find("debugfs", r->debugfs, sizeof(r->debugfs))) {
		r->debugfs[0] = '\0';
	}
	if (suite_needs(&r->suite, true)) {
		if (!runner_mount_ensure("tracefs", r->tracefs, sizeof(r->tracefs),
					 &mounted) && mounted)
			pr_info("mounted tracefs on %s", r->tracefs);
	} else if (r->run.trace != TRACE_CAPTURE_OFF) {
		/* libtracefs mounts it when tracing starts; say where. */
		runner_mount_ensure("tracefs", r->tracefs, sizeof(r->tracefs),
				    &mounted);
	} else if (runner_mount_find("tracefs", r->tracefs, sizeof(r->tracefs))) {
		r->tracefs[0] = '\0';
	}
}

/* The run's cgroup, recorded before it is created. */
static int setup_cgroup(struct runner *r)
{
	int ret;

	if (runner_cgroup_run_path(r->cgroup, sizeof(r->cgroup))) {
		r->cgroup[0] = '\0';
		return 0;
	}
	ret = runner_state_add_undo(&r->state, "cgroup", r->cgroup, NULL);
	if (ret)
		return ret;
	if (runner_cgroup_create(r->cgroup)) {
		pr_debug("no cgroup for the run (%s): process groups only",
			 r->cgroup);
		r->cgroup[0] = '\0';
	}
	return 0;
}

/*
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT ask the run to stop (it then
 * restores and exits 5); SIGCHLD wakes the event loop; a reader gone is
 * an EPIPE to handle, not a death.
 */
static int install_signals(void)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(stop) / sizeof(stop[0]); i++)
		ret = stopsig_catch(stop[i], STOPSIG_STOP);
	if (!ret)
		ret = stopsig_catch(SIGCHLD, STOPSIG_WAKE);
	signal(SIGPIPE, SIG_IGN);
	return ret;
}

static int make_run_id(struct runner *r, const char *results)
{
	char stamp[32];
	int i;

	timefmt_compact(time(NULL), stamp, sizeof(stamp));
	for (i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(r->run.id, sizeof(r->run.id), "%s-%s", stamp,
				 r->suite.name);
		else
			snprintf(r->run.id, sizeof(r->run.id), "%s-%s-%d",
				 stamp, r->suite.name, i);
		snprintf(r->run.dir, sizeof(r->run.dir), "%s/%s", results,
			 r->run.id);
		if (!mkdir(r->run.dir, 0755))
			return r->silence.on ? runner_silence_move_run(r) : 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* results/latest -> <run-id>, replaced atomically. */
static void link_latest(const struct runner *r, const char *results)
{
	char tmp[PATH_MAX], latest[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s/.latest.%d", results, getpid());
	snprintf(latest, sizeof(latest), "%s/latest", results);
	unlink(tmp);
	if (symlink(r->run.id, tmp) || rename(tmp, latest))
		unlink(tmp);
}

static int setup_results(struct runner *r)
{
	const char *results = r->params.out;
	char path[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	if (!results)
		results = getenv("RTGATE_RESULTS_DIR");
	if (!results || !*results)
		results = "results";
	ret = fsio_mkdir_p(results, 0755);
	/* The stage says itself what is wrong with it. */
	if (!ret && r->silence.on && runner_silence_stage(r))
		return -EPERM;
	if (!ret)
		ret = make_run_id(r, results);
	if (ret) {
		pr_err("%s: cannot create the run's directory: %s", results,
		       strerror(-ret));
		return ret;
	}
	ret = fsio_read_all(r->suite_path, &text, &len);
	if (!ret) {
		sha256_buf(text, len, r->run.suite_sha256);
		rtpaths_fmt(path, sizeof(path), "%s/suite.suite", r->run.dir);
		ret = fsio_write_atomic(path, text, len);
		free(text);
	}
	if (ret) {
		pr_err("%s: %s", r->run.dir, strerror(-ret));
		return ret;
	}
	link_latest(r, results);
	runner_state_label(&r->state, r->run.id);
	/* A dead run's manifest is marked where its results are. */
	return runner_state_set(&r->state, "run_dir", cJSON_CreateString(
				runner_silence_results_dir(r)));
}

/*
 * A tunable the run may change: its original saved and recorded for
 * undo. *out is NULL when the original cannot be read (the scenario that
 * sets it will SKIP) or when the run tracks it already.
 */
static int track_tunable(struct runner *r, const struct runner_suite_tunable *st,
			 struct runner_tunable **out)
{
	const char *dbg = r->debugfs[0] ? r->debugfs : NULL;
	struct runner_tunable *t;
	cJSON *undo;
	int ret;

	*out = NULL;
	if (runner_tunable_lookup(r, st))
		return 0;
	t = vec_push(&r->tunables, &r->nr_tunables, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = runner_tunable_init(t, st, dbg);
	if (ret)
		return ret;
	if (runner_tunable_save(t))
		return 0;
	cJSON_AddStringToObject(r->run.tunables_before, t->key, t->orig);
	undo = cJSON_CreateObject();
	cJSON_AddStringToObject(undo, "tunable",
				runner_suite_tunable_kind_name(t->kind));
	cJSON_AddStringToObject(undo, "path", t->path);
	if (t->feature[0])
		cJSON_AddStringToObject(undo, "feature", t->feature);
	cJSON_AddStringToObject(undo, "value", t->orig);
	ret = runner_state_add_undo(&r->state, "tunable", t->key, undo);
	if (!ret)
		*out = t;
	return ret;
}

/*
 * --silent: the kernel's console takes only emergencies for the run
 * (console_loglevel 1), restored with the suite's tunables. A suite that
 * sets kernel.printk itself keeps its own value.
 */
static int quiet_console(struct runner *r)
{
	static char name[] = "kernel.printk", value[] = "1";
	static const struct runner_suite_tunable st = {
		.kind = RUNNER_TUNABLE_SYSCTL, .name = name, .value = value,
	};
	struct runner_tunable *t;
	int ret;

	ret = track_tunable(r, &st, &t);
	if (ret || !t)
		return ret;
	ret = runner_tunable_write(t, value);
	if (ret)
		pr_warn("--silent: cannot quieten the kernel's console (%s): %s",
			t->path, strerror(-ret));
	return 0;
}

/* Every distinct tunable, its original saved and recorded for undo. */
static int save_tunables(struct runner *r)
{
	struct runner_tunable *t;
	size_t i, j;
	int ret;

	r->run.tunables_before = cJSON_CreateObject();
	for (i = 0; i < r->suite.nr_scenarios; i++) {
		const struct runner_suite_scenario *sc = &r->suite.scenarios[i];

		for (j = 0; j < sc->nr_tunables; j++) {
			ret = track_tunable(r, &sc->tunables[j], &t);
			if (ret)
				return ret;
		}
	}
	return r->silence.on ? quiet_console(r) : 0;
}

static void skip_scenario(struct runner_scen_result *sr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void skip_scenario(struct runner_scen_result *sr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (sr->skipped)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sr->skipped = true;
	sr->reason = strdup(buf);
}

static void check_cpus(const struct runner_suite_scenario *sc,
		       struct runner_scen_result *sr)
{
	char want[128], online[128];
	cpu_set_t avail, both;
	size_t i;

	if (sched_getaffinity(0, sizeof(avail), &avail))
		return;
	for (i = 0; i < sc->nr_workloads; i++) {
		const struct runner_suite_workload *wl = &sc->workloads[i];

		if (!wl->cpus)
			continue;
		CPU_AND(&both, &wl->cpuset, &avail);
		if (CPU_EQUAL(&both, &wl->cpuset))
			continue;
		parse_cpulist_format(&wl->cpuset, want, sizeof(want));
		parse_cpulist_format(&avail, online, sizeof(online));
		skip_scenario(sr, "workload %s wants CPUs %s; this machine "
			      "offers %s", wl->alias, want, online);
	}
}

/* Requirements, CPUs and readable tunables, per scenario. */
static int preflight(struct runner *r)
{
	struct runner_req_env env = {
		.debugfs = r->debugfs[0] ? r->debugfs : NULL,
		.tracefs = r->tracefs[0] ? r->tracefs : NULL,
	};
	char reason[400];
	size_t i, j;

	for (i = 0; i < r->suite.nr_scenarios; i++) {
		const struct runner_suite_scenario *sc = &r->suite.scenarios[i];
		const struct an_tool *tool = sc->tool;
		struct runner_scen_result *sr = &r->run.scens[i];

		sr->sc = sc;
		sr->tunables = cJSON_CreateObject();
		for (j = 0; sc->requires[j]; j++)
			if (!runner_req_check(sc->requires[j], &env, reason,
					      sizeof(reason)))
				skip_scenario(sr, "requires %s: %s",
					      sc->requires[j], reason);
		/* A tool's own need (rtla: the kernel's tracer). */
		if (tool->tracer &&
		    !runner_req_check(tool->tracer, &env, reason,
				      sizeof(reason)))
			skip_scenario(sr, "tool %s: %s", tool->name, reason);
		check_cpus(sc, sr);
		for (j = 0; j < sc->nr_tunables; j++) {
			struct runner_tunable *t =
				runner_tunable_lookup(r, &sc->tunables[j]);

			if (!t)
				return -ENOMEM;
			cJSON_AddStringToObject(sr->tunables, t->key,
						sc->tunables[j].value);
			if (t->save_err)
				skip_scenario(sr, "cannot read %s (%s): %s",
					      t->key, t->path,
					      strerror(-t->save_err));
		}
	}
	return 0;
}

/* ---- the run ------------------------------------------------------------- */

/* Restores every tunable; returns how many could not be restored. */
static int restore_all(struct runner *r)
{
	int failed = 0, ret;
	char now[TUNABLE_VALUE_MAX];
	size_t i;

	for (i = 0; i < r->nr_tunables; i++) {
		struct runner_tunable *t = &r->tunables[i];

		if (t->save_err)
			continue;
		ret = runner_tunable_restore(t);
		if (ret) {
			pr_err("cannot restore %s = %s (%s): %s", t->key,
			       t->orig, t->path, strerror(-ret));
			failed++;
		}
		if (!r->run.tunables_after)
			r->run.tunables_after = cJSON_CreateObject();
		if (runner_tunable_read(t, now, sizeof(now)))
			continue;
		cJSON_AddStringToObject(r->run.tunables_after, t->key, now);
		if (strcmp(now, t->orig))
			pr_warn("%s is %s after the run, was %s before "
				"(changed by someone else?)", t->key, now,
				t->orig);
	}
	if (!r->run.tunables_after)
		r->run.tunables_after = cJSON_CreateObject();
	return failed;
}

/*
 * The analyzer judges every comparison the suite declares, writes the
 * reports next to the manifest and prints the verdict table; the history
 * keeps the run (a failure there is only a warning). An interrupted run is
 * judged too: its report says what was measured before the stop.
 */
static int judge_run(struct runner *r)
{
	struct an_params ap;
	int code;

	an_params_init(&ap);
	code = an_report_run(r->run.dir, &ap);
	if (!r->params.no_history)
		history_record_run(r->run.dir);
	return code;
}

/*
 * --until-decided's time budget: --budget, else the suite's until_decided,
 * else 10 minutes; none when only --max-repetitions bounds the rounds (in
 * the lab the guest's clock races while results cross to the host between
 * repetitions, so a time budget there is spent before the first round).
 */
static uint64_t until_decided_budget(const struct runner *r)
{
	if (r->params.budget_ns)
		return r->params.budget_ns;
	if (r->params.max_reps)
		return 0;
	return r->suite.gate.until_decided_ns ? r->suite.gate.until_decided_ns :
						UNTIL_DECIDED_DEFAULT_NS;
}

static int finish(struct runner *r, int err)
{
	int stop = stopsig_signal(), failed, killed, code, verdict;
	bool invalid = false, failed_copy = false;
	size_t i;

	runner_progress_clear(&r->progress);
	failed = restore_all(r);
	if (r->cgroup[0])
		runner_cgroup_destroy(r->cgroup);
	killed = runner_state_kill_owned(r->state.dir);
	if (killed > 0)
		pr_warn("killed %d leftover process%s of the run", killed,
			killed == 1 ? "" : "es");
	if (stop) {
		r->run.status = RUNNER_RUN_ABORTED;
		snprintf(r->run.reason, sizeof(r->run.reason),
			 "interrupted by SIG%s", sigabbrev_np(stop));
	} else if (err) {
		r->run.status = RUNNER_RUN_ABORTED;
		rtpaths_fmt(r->run.reason, sizeof(r->run.reason),
			    "stopped by an error: %s", r->stop_reason[0] ?
			    r->stop_reason : strerror(-err));
	} else {
		r->run.status = RUNNER_RUN_COMPLETE;
	}
	r->run.ended = true;
	clocks_realtime(&r->run.end);
	if (runner_manifest_write(&r->run))
		pr_err("%s/manifest.json: cannot write it", r->run.dir);
	/* The measurements are over: the reports go where the results are. */
	if (runner_silence_finish(r) && !err)
		failed_copy = true;
	runner_summary_print(&r->run, r->run.dir);

	verdict = judge_run(r);
	if (!stop && stopsig_signal() && r->run.status == RUNNER_RUN_COMPLETE) {
		/*
		 * Stopped while the reports were written: the run did not
		 * finish as asked, and says so (exit 5), in reports that
		 * match the manifest.
		 */
		stop = stopsig_signal();
		r->run.status = RUNNER_RUN_ABORTED;
		snprintf(r->run.reason, sizeof(r->run.reason), "interrupted by "
			 "SIG%s while the reports were written",
			 sigabbrev_np(stop));
		if (runner_manifest_write(&r->run))
			pr_err("%s/manifest.json: cannot write it", r->run.dir);
		pr_warn("run %s: %s", r->run.id, r->run.reason);
		verdict = judge_run(r);
	}

	for (i = 0; i < r->suite.nr_scenarios; i++) {
		const char *st = runner_scen_status_name(&r->run.scens[i]);

		invalid |= !strcmp(st, "invalid") || !strcmp(st, "partial");
	}
	if (r->bad_input)
		code = EXITCODE_BAD_INPUT;
	else if (r->run.status != RUNNER_RUN_COMPLETE || failed_copy)
		code = EXITCODE_INCOMPLETE;
	else if (verdict != EXITCODE_PASS)
		code = verdict;
	else
		code = invalid ? EXITCODE_INCONCLUSIVE : EXITCODE_PASS;
	if (failed) {
		/* Keep the state file: the guardian, the next start retry. */
		pr_err("%d tunable%s could not be restored; %s keeps them for "
		       "`rtgate restore`", failed, failed == 1 ? "" : "s",
		       r->state.path);
		runner_state_leave(&r->state);
	} else {
		runner_state_release(&r->state);
	}
	runner_guard_stop(&r->guard);
	return failed ? EXITCODE_ENVIRONMENT : code;
}

static int prepare(struct runner *r)
{
	struct runner_env_opts env = { .tools = true };
	int ret;

	env.rtla = r->rtla[0] ? r->rtla : NULL;
	env.rtla_aa = r->rtla_aa_path[0] ? r->rtla_aa_path : NULL;
	r->guard.fd = -1;
	ret = runner_state_acquire(&r->state, runner_state_dir_default(),
				   STATE_LOCK_WAIT_S, "run", r->suite.name);
	if (ret)
		return ret;
	/* Every process the run starts carries its owner, tools included. */
	if (setenv("RTGATE_OWNER", r->state.dir, 1)) {
		ret = -errno;
		goto fail;
	}
	ret = runner_guard_start(&r->guard, r->state.dir);
	if (ret) {
		pr_err("cannot start the guardian: %s", strerror(-ret));
		goto fail;
	}
	ret = install_signals();
	if (!ret && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		ret = -errno;
	if (ret)
		goto fail;
	find_mounts(r);
	ret = setup_cgroup(r);
	if (!ret)
		ret = runner_trace_prepare(r->run.trace, &r->state);
	if (!ret)
		ret = setup_results(r);
	if (ret)
		goto fail;
	env.debugfs = r->debugfs[0] ? r->debugfs : NULL;
	env.tracefs = r->tracefs[0] ? r->tracefs : NULL;
	env.cgroup = r->cgroup[0] ? r->cgroup : NULL;
	r->run.env = runner_env_record(&env);
	r->run.scens = calloc(r->suite.nr_scenarios, sizeof(*r->run.scens));
	if (!r->run.scens)
		ret = -ENOMEM;
	if (!ret)
		ret = save_tunables(r);
	if (!ret)
		ret = preflight(r);
	if (!ret)
		ret = runner_manifest_write(&r->run);
	if (!ret) {
		/* A run killed from here on stays in the history. */
		if (!r->params.no_history)
			history_record_run(r->run.dir);
		return 0;
	}
	pr_err("cannot prepare the run: %s", strerror(-ret));
fail:
	runner_silence_finish(r);
	/* Nothing was changed but the cgroup: undo through the state. */
	if (r->cgroup[0])
		runner_cgroup_destroy(r->cgroup);
	runner_state_release(&r->state);
	runner_guard_stop(&r->guard);
	return ret;
}

static void runner_free(struct runner *r)
{
	runner_run_model_free(&r->run);
	runner_suite_free(&r->suite);
	free(r->tunables);
}

/*
 * Values the kernel would refuse, found before anything changes: a sysctl
 * that holds numbers set to a word is the suite's error (exit 3). Values
 * out of the knob's range are only known when written (runner_rep.c).
 */
static int check_values(struct runner *r)
{
	char why[512];
	size_t i, j;

	for (i = 0; i < r->suite.nr_scenarios; i++) {
		const struct runner_suite_scenario *sc = &r->suite.scenarios[i];

		for (j = 0; j < sc->nr_tunables; j++) {
			const struct runner_suite_tunable *st =
				&sc->tunables[j];
			struct runner_tunable t;

			if (st->kind != RUNNER_TUNABLE_SYSCTL ||
			    runner_tunable_init(&t, st, NULL) ||
			    !runner_tunable_check_value(&t, st->value, why,
							sizeof(why)))
				continue;
			pr_err("%s:%u: sysctl %s=%s: %s", r->suite.path,
			       st->line, st->name, st->value, why);
			return -EINVAL;
		}
	}
	return 0;
}

static int load(struct runner *r)
{
	struct runner_suite_error err;
	int ret;

	ret = rtpaths_libexec(r->bin_dir, sizeof(r->bin_dir));
	if (ret) {
		pr_err("cannot find rtgate's workload directory: %s",
		       strerror(-ret));
		return EXITCODE_ENVIRONMENT;
	}
	if (resolve_suite(r))
		return EXITCODE_BAD_INPUT;
	ret = runner_suite_load(r->suite_path, &r->suite, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return ret == -EINVAL ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	}
	if (r->params.duration_s && duration_scale(r))
		return EXITCODE_BAD_INPUT;
	if (geteuid() != 0) {
		pr_err("rtgate run needs root: cyclictest runs SCHED_FIFO and "
		       "suites change kernel tunables (try: sudo ./run.sh run "
		       "%s)", r->params.suite);
		return EXITCODE_ENVIRONMENT;
	}
	if (runner_check_tools(r))
		return EXITCODE_ENVIRONMENT;
	if (check_values(r))
		return EXITCODE_BAD_INPUT;
	return 0;
}

/*
 * Before anything runs: the machine's noise profile for this measurement,
 * what the suite can see with it, and the profile kept for the analyzer
 * in the manifest (docs/statistics.md).
 */
static void use_profile(struct runner *r)
{
	struct an_profile pr;
	char db[PATH_MAX], key[32];
	int ret;

	runner_history_db(r->params.out, db, sizeof(db));
	runner_measure_key(&r->suite, r->run.scale, key, sizeof(key));
	ret = runner_profile_find(db, key, &pr);
	if (ret < 0) {
		pr_warn("%s: the noise profile could not be read; the run is "
			"judged without one", db);
		return;
	}
	if (ret) {
		printf("no noise profile of this machine for this measurement "
		       "yet: `rtgate calibrate --suite %s%s%s` records one; "
		       "the verdicts then say more, and this line says what "
		       "the suite can see here\n", r->params.suite,
		       r->run.scale != 1 ? " --duration-scale " : "",
		       r->run.scale != 1 ? r->scale_str : "");
		return;
	}
	runner_profile_print(&pr, &r->suite, r->run.repetitions);
	r->run.noise_profile = an_profile_json(&pr);
	an_profile_free(&pr);
}

/* --json: the report the run wrote, alone on stdout (none: nothing). */
static int json_end(struct runner *r, struct jsonout *jo, int code)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/report.json", r->run.dir);
	if (jsonout_end(jo, r->run.dir[0] && fsio_exists(path) ? path : NULL))
		return exitcode_worse(code, EXITCODE_ENVIRONMENT);
	return code;
}

int runner_cmd_run(int argc, char **argv)
{
	struct jsonout jo = { .saved = -1 };
	struct runner *r;
	int ret, code;

	r = calloc(1, sizeof(*r));
	if (!r)
		return EXITCODE_ENVIRONMENT;
	r->rtla_aa = -1;
	ret = parse_args(argc, argv, &r->params);
	if (ret) {
		free(r);
		return cli_exit(ret);
	}
	if (r->params.json && jsonout_begin(&jo)) {
		pr_err("--json: cannot redirect stdout: %s", strerror(errno));
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	code = load(r);
	if (code)
		goto out;
	r->silence.on = r->params.silent;
	r->run.suite = &r->suite;
	r->run.scale = r->params.scale;
	r->run.repetitions = r->params.repeat ? r->params.repeat :
			     r->suite.repetitions;
	r->run.duration_s = runner_ct_duration_s(&r->suite.measure, r->run.scale);
	r->run.loops = runner_ct_loops(&r->suite.measure, r->run.scale);
	r->run.trace = r->params.have_trace ? (int)r->params.trace :
		       r->suite.measure.trace;
	if (!runner_suite_uses_program(&r->suite, NULL))
		r->run.duration_s = r->run.loops = 0;
	snprintf(r->scale_str, sizeof(r->scale_str), "%g", r->run.scale);
	/* A suite that compares nothing (a calibration) has nothing to see. */
	if (runner_suite_uses_program(&r->suite, "cyclictest") &&
	    runner_suite_compares(&r->suite))
		use_profile(r);
	clocks_realtime(&r->run.start);
	ret = prepare(r);
	if (ret) {
		code = EXITCODE_ENVIRONMENT;
		goto out;
	}
	printf("rtgate %s: suite %s (%s), %u repetition%s, results in %s%s\n",
	       RTGATE_VERSION, r->suite.name, r->suite_path,
	       r->run.repetitions, r->run.repetitions == 1 ? "" : "s",
	       runner_silence_results_dir(r), r->silence.on ?
	       " (silent: staged in memory, copied between repetitions)" : "");
	fflush(stdout);
	r->started_mono = clocks_mono_s();
	ret = stopsig_signal() ? 0 : runner_run_steps(r);
	if (!ret && !stopsig_signal() &&
	    (r->params.until_decided || r->suite.gate.until_decided_ns))
		ret = runner_until_decided(r, until_decided_budget(r),
					   r->params.max_reps);
	code = finish(r, ret);
out:
	if (jo.saved >= 0)
		code = json_end(r, &jo, code);
	runner_free(r);
	free(r);
	return code;
}
