// SPDX-License-Identifier: GPL-2.0-only
/*
 * One repetition of one scenario: set the tunables, start the workloads
 * and wait until each says it is ready, measure, stop everything, collect
 * each workload's summary, judge whether the repetition is valid, restore
 * the tunables. Whatever happens, every process started here is dead and
 * reaped when runner_rep_run() returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"
#include "runner/measure/measure.h"
#include "runner/runner_priv.h"
#include "vec.h"
#include "clocks.h"
#include "stopsig.h"

#define REP_MAX_PROCS	16	/* workloads + cyclictest */
/*
 * rtla's set-up before its -d starts: parsing every event format for
 * each of its tracefs instances took 20-30 s in the TCG lab.
 */
#define AA_EXTRA_S	90

struct wl_slot {
	const struct runner_suite_workload *wl;
	struct runner_proc proc;
	bool started;
	int log_fd;
	char log_part[PATH_MAX];
	size_t rp;		/* index in rr->procs */
};

struct rep_ctx {
	struct runner *r;
	const struct runner_suite_scenario *sc;
	struct runner_scen_result *sr;
	struct runner_rep_result *rr;
	char dir[PATH_MAX];
	struct wl_slot *wls;
	size_t nr_wls;
	struct runner_proc ct;	/* the measuring tool's process */
	bool ct_started;
	struct runner_tool_run tool;	/* the scenario's tool (measure.h) */
	struct runner_proc aa; /* rtla's auto-analysis, after the histogram */
	bool aa_started;
	struct runner_tl_aa tla;
	size_t ct_rp;
	bool invalid;
	char **blamed;		/* who rep_invalid() already blamed */
	bool aborted;
	bool ct_early;		/* cyclictest stopped before its end */
	bool watchdog;		/* the repetition outlived its watchdog */
	bool stuck;		/* a process outlived SIGKILL */
	size_t applied;		/* tunables written so far */
	struct runner_kstat_snap rseq_before; /* debugfs rseq/stats at start */
	struct runner_rep_trace trace;	/* capture, when the run traces */
};

/*
 * Marks the repetition invalid. Each culprit (@who: a process name or an
 * expect, NULL for the repetition as a whole) is blamed once, so that a
 * crash at start is not also reported as "no summary"; the reasons of
 * different culprits are joined.
 */
static void __attribute__((format(printf, 3, 4)))
rep_invalid(struct rep_ctx *c, const char *who, const char *fmt, ...)
{
	char buf[512], *joined;
	size_t i;
	va_list ap;

	for (i = 0; who && c->blamed && c->blamed[i]; i++)
		if (!strcmp(c->blamed[i], who))
			return;
	if (who)
		vec_strv_push(&c->blamed, who);
	c->invalid = true;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!c->rr->reason) {
		c->rr->reason = strdup(buf);
		return;
	}
	if (asprintf(&joined, "%s; %s", c->rr->reason, buf) < 0)
		return;
	free(c->rr->reason);
	c->rr->reason = joined;
}

static bool stop_requested(struct rep_ctx *c)
{
	if (stopsig_signal())
		c->aborted = true;
	return c->aborted;
}

/* All the live processes, for runner_proc_wait(). */
static size_t all_procs(struct rep_ctx *c, struct runner_proc **procs)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr_wls && n < REP_MAX_PROCS; i++)
		if (c->wls[i].started)
			procs[n++] = &c->wls[i].proc;
	if (c->ct_started && n < REP_MAX_PROCS)
		procs[n++] = &c->ct;
	if (c->aa_started && n < REP_MAX_PROCS)
		procs[n++] = &c->aa;
	return n;
}

static void wait_some(struct rep_ctx *c, double timeout_s)
{
	struct runner_proc *procs[REP_MAX_PROCS];

	runner_proc_wait(procs, all_procs(c, procs), timeout_s);
}

static struct runner_rep_proc *add_rep_proc(struct rep_ctx *c, const char *name,
				     char *const *argv, size_t *index)
{
	struct runner_rep_proc *rp;

	rp = vec_push(&c->rr->procs, &c->rr->nr_procs, sizeof(*rp));
	if (!rp)
		return NULL;
	*index = c->rr->nr_procs - 1;
	rp->name = strdup(name);
	rp->argv = vec_strv_dup(argv);
	rp->ready_s = -1;
	return rp;
}

/* ---- tunables ------------------------------------------------------------ */

static void restore_tunables(struct rep_ctx *c)
{
	size_t i;
	int ret;

	for (i = 0; i < c->applied; i++) {
		struct runner_tunable *t =
			runner_tunable_lookup(c->r, &c->sc->tunables[i]);

		ret = runner_tunable_restore(t);
		if (ret)
			pr_err("cannot restore %s = %s (%s): %s; it stays in "
			       "the state file", t->key, t->orig, t->path,
			       strerror(-ret));
	}
	c->applied = 0;
}

/*
 * Whether a write error is the machine's (the kernel lacks the knob, or
 * lockdown or a read-only file refuses it: the scenario SKIPS) rather than
 * the suite's (EINVAL, ERANGE: a value the kernel does not take).
 */
static bool machine_lacks(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EPERM ||
	       err == -EACCES || err == -EROFS;
}

/*
 * A tunable the machine lacks makes the scenario SKIPPED; a value the
 * kernel refuses is the suite's error and stops the run (exit 3); any
 * other error stops it too. Either way what was set is restored first.
 */
static int apply_tunables(struct rep_ctx *c)
{
	char reason[512];
	size_t i;
	int ret;

	for (i = 0; i < c->sc->nr_tunables; i++) {
		const struct runner_suite_tunable *st = &c->sc->tunables[i];
		struct runner_tunable *t = runner_tunable_lookup(c->r, st);

		/* Counted first: a failed write may have half-happened. */
		c->applied = i + 1;
		ret = t->save_err ? t->save_err : runner_tunable_write(t, st->value);
		if (!ret)
			continue;
		restore_tunables(c);
		if (machine_lacks(ret)) {
			rtpaths_fmt(reason, sizeof(reason), "cannot set %s = %s: "
				    "%s: %s", t->key, st->value, t->path,
				    strerror(-ret));
			c->sr->skipped = true;
			free(c->sr->reason);
			c->sr->reason = strdup(reason);
			c->rr->status = RUNNER_REP_SKIPPED;
			c->rr->reason = strdup(reason);
			return 0;
		}
		c->r->bad_input = ret == -EINVAL || ret == -ERANGE ||
				  ret == -EOVERFLOW;
		rtpaths_fmt(reason, sizeof(reason), "%s:%u: %s = %s: %s%s: %s",
			    c->r->suite.path, st->line, t->key, st->value,
			    c->r->bad_input ? "the kernel refuses the value: " :
			    "", t->path, strerror(-ret));
		pr_err("%s", reason);
		snprintf(c->r->stop_reason, sizeof(c->r->stop_reason), "%s",
			 reason);
		c->rr->status = RUNNER_REP_ABORTED;
		c->rr->reason = strdup(reason);
		return ret;
	}
	return 0;
}

/* ---- starting ------------------------------------------------------------ */

static const char *leaf_for(struct rep_ctx *c, const char *name, char *buf,
			    size_t len)
{
	char leaf[96];

	if (!c->r->cgroup[0])
		return NULL;
	snprintf(leaf, sizeof(leaf), "%zu-%s", c->r->step, name);
	if (runner_cgroup_leaf_create(c->r->cgroup, leaf, buf, len))
		return NULL;
	return buf;
}

static int start_workload(struct rep_ctx *c, struct wl_slot *s)
{
	const struct runner_suite_workload *wl = s->wl;
	char path[PATH_MAX], cg[PATH_MAX], err[256];
	struct runner_proc_spec spec = {
		.name = wl->alias, .path = path, .ready = true,
		.owner = c->r->state.dir, .scale = c->r->scale_str,
		.cpus = wl->cpus ? &wl->cpuset : NULL,
		.set_policy = wl->policy != NULL,
		.policy = wl->sched_policy, .prio = wl->sched_prio,
		.set_nice = wl->has_nice, .nice = wl->nice,
	};
	struct runner_rep_proc *rp;
	char **argv;
	int ret;

	ret = runner_suite_workload_argv(wl, c->r->run.scale, &argv, err,
					 sizeof(err));
	if (ret) {
		rep_invalid(c, wl->alias, "%s: %s", wl->alias, err);
		return ret;
	}
	runner_program_path(c->r, wl->program, path, sizeof(path));
	rp = add_rep_proc(c, wl->alias, argv, &s->rp);
	if (!rp) {
		vec_strv_free(argv);
		return -ENOMEM;
	}
	rp->workload = true;
	rp->cpus = wl->cpus ? strdup(wl->cpus) : NULL;
	rp->policy = wl->policy ? strdup(wl->policy) : NULL;
	rp->has_nice = wl->has_nice;
	rp->nice = wl->nice;
	rtpaths_fmt(s->log_part, sizeof(s->log_part), "%s/%s.log.part", c->dir,
		    wl->alias);
	s->log_fd = open(s->log_part, O_WRONLY | O_CREAT | O_TRUNC |
			 O_CLOEXEC, 0644);
	spec.stderr_fd = s->log_fd;
	spec.argv = argv;
	spec.cgroup = leaf_for(c, wl->alias, cg, sizeof(cg));
	if (s->log_fd < 0) {
		ret = -errno;
		rtpaths_fmt(err, sizeof(err), "%s: %s", s->log_part,
			    strerror(errno));
	} else {
		ret = runner_proc_spawn(&s->proc, &spec, err, sizeof(err));
	}
	vec_strv_free(argv);
	if (ret) {
		rp->error = strdup(err);
		rep_invalid(c, wl->alias, "cannot start %s (%s): %s",
			    wl->alias, path, err);
		if (s->proc.pid > 0) {
			rp->pid = s->proc.pid;
			rp->exited = true;
			rp->code = WIFEXITED(s->proc.status) ?
				   WEXITSTATUS(s->proc.status) : 127;
		}
		return ret;
	}
	s->started = true;
	rp->pid = s->proc.pid;
	return 0;
}

static void start_workloads(struct rep_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_wls && !c->invalid; i++)
		start_workload(c, &c->wls[i]);
}

/* A workload slow to be ready (a kernel tree extracted once) says so. */
static void waiting_note(struct rep_ctx *c, double start, double limit,
			 double *next)
{
	size_t i;

	if (clocks_mono_s() < *next)
		return;
	*next += 30;
	for (i = 0; i < c->nr_wls; i++)
		if (!c->wls[i].proc.ready)
			break;
	if (i < c->nr_wls)
		runner_progress_note(&c->r->progress, "waiting for %s to say ready "
				     "(%.0f s of %.0f s)", c->wls[i].proc.name,
				     clocks_mono_s() - start, limit);
}

static void wait_ready(struct rep_ctx *c)
{
	double limit = c->r->suite.measure.ready_timeout_ns / 1e9;
	double start = clocks_mono_s(), deadline = start + limit;
	double next_note = start + 30;
	char how[128];
	size_t i;

	for (;;) {
		bool all = true;

		for (i = 0; i < c->nr_wls; i++) {
			struct runner_proc *p = &c->wls[i].proc;

			if (p->ready)
				continue;
			all = false;
			if (p->running)
				continue;
			runner_proc_describe_exit(p, how, sizeof(how));
			rep_invalid(c, p->name, "%s %s before it was ready "
				    "(crashed at start)", p->name, how);
			return;
		}
		if (all || stop_requested(c))
			return;
		if (clocks_mono_s() > deadline) {
			for (i = 0; i < c->nr_wls; i++)
				if (!c->wls[i].proc.ready)
					break;
			rep_invalid(c, c->wls[i].proc.name,
				    "%s did not say ready within %.0f s "
				    "(the suite's ready_timeout)",
				    c->wls[i].proc.name, limit);
			return;
		}
		waiting_note(c, start, limit, &next_note);
		wait_some(c, 0.2);
	}
}

/* ---- measuring ----------------------------------------------------------- */

static bool workload_died(struct rep_ctx *c)
{
	char how[128];
	size_t i;

	for (i = 0; i < c->nr_wls; i++) {
		struct runner_proc *p = &c->wls[i].proc;

		if (p->running)
			continue;
		runner_proc_describe_exit(p, how, sizeof(how));
		rep_invalid(c, p->name, "%s %s during the measurement",
			    p->name, how);
		return true;
	}
	return false;
}

/* Every line the measuring tool printed so far, to the tool. */
static void tool_lines(struct rep_ctx *c)
{
	char *line;

	while ((line = runner_proc_next_line(&c->ct)))
		c->tool.ops->feed(&c->tool, line, &c->r->progress);
}

/*
 * A process that SIGKILL does not end within the grace is stuck in the
 * kernel (a tracer that never returns): the repetition says so and the
 * run goes on without waiting for it forever.
 */
static void killed_wait(struct rep_ctx *c, struct runner_proc *p)
{
	double deadline = clocks_mono_s() + STOP_GRACE_S;

	while (p->running && clocks_mono_s() < deadline)
		wait_some(c, 0.1);
	if (!p->running)
		return;
	c->stuck = true;
	rep_invalid(c, p->name, "%s (pid %d) did not exit within %d s of "
		    "SIGKILL: stuck in the kernel", p->name, (int)p->pid,
		    STOP_GRACE_S);
	pr_err("%s (pid %d) did not exit within %d s of SIGKILL: stuck in "
	       "the kernel; left behind", p->name, (int)p->pid, STOP_GRACE_S);
}

static void stop_proc(struct rep_ctx *c, struct runner_proc *p)
{
	double deadline = clocks_mono_s() + STOP_GRACE_S;

	if (!p->running)
		return;
	runner_proc_signal(p, SIGTERM);
	while (p->running && clocks_mono_s() < deadline)
		wait_some(c, 0.1);
	if (p->running)
		runner_proc_signal(p, SIGKILL);
	killed_wait(c, p);
}

/*
 * The repetition's watchdog fired (its measurement's duration plus the
 * suite's `watchdog` margin went by): INVALID with the reason, said on
 * the console too (a lab run's log then shows where it hung), and the
 * measurement's process group and the workloads are killed at once --
 * a hung measurement has no results worth a SIGTERM's grace.
 */
static void watchdog_fire(struct rep_ctx *c, double limit_s)
{
	size_t i;

	c->watchdog = true;
	rep_invalid(c, NULL, "repetition did not end within %.0f s: killed",
		    limit_s);
	pr_err("watchdog: scenario %s repetition %u did not end within %.0f "
	       "s: killed", c->sc->name, c->rr->rep, limit_s);
	/* Their deaths by SIGKILL are this reason, not another. */
	if (c->ct.name[0])
		vec_strv_push(&c->blamed, c->ct.name);
	runner_proc_signal(&c->ct, SIGKILL);
	for (i = 0; i < c->nr_wls; i++) {
		if (!c->wls[i].proc.running)
			continue;
		if (c->wls[i].proc.name[0])
			vec_strv_push(&c->blamed, c->wls[i].proc.name);
		runner_proc_signal(&c->wls[i].proc, SIGKILL);
	}
}

/*
 * The scenario's measuring tool (measure.h) in the measurement's slot
 * (c->ct): started, fed its lines, stopped at its end or the watchdog.
 * SIGTERM makes cyclictest write its results and exit; rtla prints what
 * it has on SIGTERM too, but the run is cut.
 */
static void measure_tool(struct rep_ctx *c)
{
	const struct runner_tool_ops *ops = c->tool.ops;
	const struct an_tool *tool = c->tool.tool;
	const struct runner_suite_measure *m = &c->r->suite.measure;
	unsigned int secs = runner_ct_duration_s(m, c->r->run.scale);
	char cg[PATH_MAX], err[256], how[128];
	struct runner_proc_spec spec = {
		.name = tool->program, .path = runner_tool_path(c->r, tool),
		.env = tool->env, .owner = c->r->state.dir, .stderr_fd = -1,
	};
	struct runner_hostio hostio = { .kmsg_fd = -1 };
	struct runner_rep_proc *rp;
	double deadline, limit;
	int ret;

	if (!ops)
		return rep_invalid(c, tool->program, "no driver runs %s here",
				   tool->title);
	/* A traced run needs the T: lines' tids: no series then. */
	ret = ops->init(&c->tool, m, c->r->run.scale, c->dir,
			!m->timeline_off &&
			c->r->run.trace == TRACE_CAPTURE_OFF);
	if (ret) {
		rep_invalid(c, tool->program, "cannot build %s's command line",
			    tool->program);
		return;
	}
	spec.argv = c->tool.argv;
	spec.cgroup = leaf_for(c, tool->program, cg, sizeof(cg));
	rp = add_rep_proc(c, tool->program, c->tool.argv, &c->ct_rp);
	if (!rp)
		return rep_invalid(c, NULL, "out of memory");
	runner_trace_before_cyclictest(&c->trace);
	if (c->r->silence.on)
		runner_hostio_begin(&hostio, NULL);
	ret = runner_proc_spawn(&c->ct, &spec, err, sizeof(err));
	if (ret) {
		runner_hostio_end(&hostio, &c->rr->host_io);
		rp->error = strdup(err);
		return rep_invalid(c, tool->program, "cannot start %s: %s",
				   tool->program, err);
	}
	c->ct_started = true;
	rp->pid = c->ct.pid;
	runner_trace_arm(&c->trace, c->ct.pid);
	runner_progress_measure(&c->r->progress, secs);
	limit = secs ? secs + m->watchdog_ns / 1e9 : m->timeout_ns / 1e9;
	deadline = clocks_mono_s() + limit;
	while (c->ct.running) {
		wait_some(c, 0.25);
		tool_lines(c);
		runner_progress_tick(&c->r->progress);
		if (stop_requested(c) || workload_died(c))
			break;
		if (clocks_mono_s() > deadline) {
			watchdog_fire(c, limit);
			break;
		}
	}
	c->ct_early = c->ct.running;
	stop_proc(c, &c->ct);
	runner_hostio_end(&hostio, &c->rr->host_io);
	runner_trace_stop(&c->trace);
	/* The last refresh may still be in the pipe. */
	runner_proc_drain(&c->ct);
	tool_lines(c);
	runner_proc_describe_exit(&c->ct, how, sizeof(how));
	if (!c->aborted && !c->invalid &&
	    !(WIFEXITED(c->ct.status) && !WEXITSTATUS(c->ct.status)))
		rep_invalid(c, tool->program, "%s %s", tool->title, how);
}

/*
 * rtla's auto-analysis (measure.h): with the workloads still
 * running, `rtla timerlat top --aa-only` waits for a wake-up half as late
 * as the histogram's worst. What it finds or why it could not is the
 * repetition's "rtla_aa"; it never makes the repetition invalid.
 */
static void run_auto_analysis(struct rep_ctx *c)
{
	unsigned int secs = runner_tl_aa_secs(
		runner_ct_duration_s(&c->r->suite.measure, c->r->run.scale));
	struct runner_proc_spec spec = {
		.name = "rtla-aa", .path = c->r->rtla_aa_path,
		.owner = c->r->state.dir, .stderr_fd = -1,
	};
	char cg[PATH_MAX], err[256], how[128] = "not started", *line;
	const char *error = NULL;
	unsigned long worst;
	double deadline;

	if (c->r->rtla_aa < 0)
		c->r->rtla_aa = runner_tl_aa_supported(c->r->rtla_aa_path,
				c->r->rtla_aa_why, sizeof(c->r->rtla_aa_why));
	if (!c->r->rtla_aa) {
		error = c->r->rtla_aa_why;
		goto out;
	}
	if (c->tool.ops->worst_us(&c->tool, &worst)) {
		error = "the histogram has no summary to take a threshold from";
		goto out;
	}
	if (runner_tl_aa_init(&c->tla, c->tool.tool, &c->r->suite.measure,
			      worst / 2, secs)) {
		error = "out of memory";
		goto out;
	}
	spec.argv = c->tla.argv;
	spec.cgroup = leaf_for(c, "rtla-aa", cg, sizeof(cg));
	if (runner_proc_spawn(&c->aa, &spec, err, sizeof(err))) {
		error = err;
		goto out;
	}
	c->aa_started = true;
	pr_info("rtla auto-analysis: a wake-up of %lu us or more, %u s at "
		"most", c->tla.threshold_us, secs);
	deadline = clocks_mono_s() + secs + AA_EXTRA_S;
	while (c->aa.running) {
		wait_some(c, 0.25);
		while ((line = runner_proc_next_line(&c->aa)))
			runner_tl_aa_feed(&c->tla, line);
		if (stop_requested(c))
			break;
		if (clocks_mono_s() > deadline) {
			error = "rtla timerlat top did not finish in time";
			break;
		}
	}
	stop_proc(c, &c->aa);
	runner_proc_drain(&c->aa);
	while ((line = runner_proc_next_line(&c->aa)))
		runner_tl_aa_feed(&c->tla, line);
	runner_proc_describe_exit(&c->aa, how, sizeof(how));
out:
	c->rr->rtla_aa = runner_tl_aa_finish(&c->tla, c->dir, how, error);
}

static void measure_none(struct rep_ctx *c)
{
	const struct runner_suite_measure *m = &c->r->suite.measure;
	double deadline = clocks_mono_s() + m->timeout_ns / 1e9;
	size_t i;

	runner_progress_measure(&c->r->progress, 0);
	for (;;) {
		bool running = false;

		for (i = 0; i < c->nr_wls; i++)
			running |= c->wls[i].proc.running;
		if (!running || stop_requested(c))
			return;
		if (clocks_mono_s() > deadline) {
			rep_invalid(c, NULL, "the workloads did not finish "
				    "within the suite's timeout (%.0f s)",
				    m->timeout_ns / 1e9);
			return;
		}
		wait_some(c, 0.25);
		runner_progress_tick(&c->r->progress);
	}
}

/* ---- stopping ------------------------------------------------------------ */

static bool any_running(struct rep_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_wls; i++)
		if (c->wls[i].proc.running)
			return true;
	return c->ct.running;
}

static void stop_all(struct rep_ctx *c)
{
	double deadline;
	size_t i;

	if (c->ct_started)
		stop_proc(c, &c->ct);
	if (c->aa_started)
		stop_proc(c, &c->aa);
	for (i = 0; i < c->nr_wls; i++)
		if (c->wls[i].proc.running)
			runner_proc_signal(&c->wls[i].proc, SIGTERM);
	deadline = clocks_mono_s() + STOP_GRACE_S;
	while (any_running(c) && clocks_mono_s() < deadline)
		wait_some(c, 0.1);
	for (i = 0; i < c->nr_wls; i++)
		if (c->wls[i].proc.running)
			runner_proc_signal(&c->wls[i].proc, SIGKILL);
	for (i = 0; i < c->nr_wls; i++)
		killed_wait(c, &c->wls[i].proc);
	/* Descendants that left the process group die with the leaf. */
	for (i = 0; i < c->nr_wls; i++)
		if (c->wls[i].proc.cgroup[0])
			runner_cgroup_destroy(c->wls[i].proc.cgroup);
	if (c->ct_started && c->ct.cgroup[0])
		runner_cgroup_destroy(c->ct.cgroup);
	if (c->aa_started && c->aa.cgroup[0])
		runner_cgroup_destroy(c->aa.cgroup);
	wait_some(c, 0);
	for (i = 0; i < c->nr_wls; i++)
		if (c->wls[i].started)
			runner_proc_drain(&c->wls[i].proc);
}

/* ---- collecting ---------------------------------------------------------- */

static void note_exit(struct runner_rep_proc *rp, const struct runner_proc *p)
{
	rp->exited = !p->running && p->pid > 0;
	if (!rp->exited)
		return;
	if (WIFSIGNALED(p->status)) {
		rp->sig = WTERMSIG(p->status);
		rp->by_runner = rp->sig == p->sent;
	} else {
		rp->code = WEXITSTATUS(p->status);
	}
	if (p->ready)
		rp->ready_s = p->t_ready - p->t_start;
}

static void check_exit(struct rep_ctx *c, const struct runner_proc *p)
{
	char how[128];

	if (WIFEXITED(p->status) && !WEXITSTATUS(p->status))
		return;
	runner_proc_describe_exit(p, how, sizeof(how));
	if (WIFSIGNALED(p->status) && WTERMSIG(p->status) == SIGKILL &&
	    p->sent == SIGKILL)
		rep_invalid(c, p->name,
			    "%s did not stop within %d s of SIGTERM",
			    p->name, STOP_GRACE_S);
	else
		rep_invalid(c, p->name, "%s %s", p->name, how);
}

static void keep_stdout(struct rep_ctx *c, const struct runner_proc *p)
{
	char path[PATH_MAX];

	rtpaths_fmt(path, sizeof(path), "%s/%s.stdout", c->dir, p->name);
	fsio_write_atomic(path, p->out ? p->out : "", p->out_len);
}

/* The one-line JSON summary (workloads/README.md) into <alias>.json. */
static void collect_summary(struct rep_ctx *c, struct wl_slot *s)
{
	const struct runner_proc *p = &s->proc;
	char name[PATH_MAX], path[PATH_MAX];
	const char *line = NULL, *q;
	struct json_error jerr;
	size_t lines = 0, n = 0;
	cJSON *sum;
	double work;

	for (q = p->out; q && q < p->out + p->out_len; q += n + 1) {
		n = strcspn(q, "\n");
		if (strspn(q, " \t\r") < n) {
			lines++;
			line = q;
		}
		if (!q[n])
			break;
	}
	if (!lines)
		return rep_invalid(c, p->name,
				   "%s printed no summary on stdout",
				   p->name);
	if (lines > 1 || p->out_truncated) {
		keep_stdout(c, p);
		return rep_invalid(c, p->name,
				   "%s printed %zu lines on stdout; the "
				   "protocol allows one line of JSON",
				   p->name, lines);
	}
	n = strcspn(line, "\n");
	snprintf(name, sizeof(name), "%s's summary", p->name);
	if (json_parse_buf(name, line, n, &sum, &jerr)) {
		keep_stdout(c, p);
		return rep_invalid(c, p->name, "%s", jerr.msg);
	}
	if (!cJSON_IsObject(sum)) {
		cJSON_Delete(sum);
		return rep_invalid(c, p->name,
				   "%s's summary is not a JSON object",
				   p->name);
	}
	rtpaths_fmt(path, sizeof(path), "%s/%s.json", c->dir, p->name);
	{
		char *copy = strndup(line, n + 1);

		if (copy) {
			copy[n] = '\n';
			fsio_write_atomic(path, copy, n + 1);
			free(copy);
		}
	}
	if (!c->rr->workloads)
		c->rr->workloads = cJSON_CreateObject();
	cJSON_AddItemToObject(c->rr->workloads, p->name, sum);
	work = json_get_num(sum, "work_done", -1);
	if (!cJSON_GetObjectItemCaseSensitive(sum, "work_done"))
		rep_invalid(c, p->name, "%s's summary has no work_done",
			    p->name);
	else if (work <= 0)
		rep_invalid(c, p->name,
			    "%s reported no work done (work_done = %g)",
			    p->name, work);
}

static void collect_workload(struct rep_ctx *c, struct wl_slot *s)
{
	char log[PATH_MAX];

	if (s->log_fd >= 0) {
		close(s->log_fd);
		s->log_fd = -1;
		rtpaths_fmt(log, sizeof(log), "%s/%s.log", c->dir, s->wl->alias);
		rename(s->log_part, log);
	}
	if (!s->started)
		return;
	note_exit(&c->rr->procs[s->rp], &s->proc);
	check_exit(c, &s->proc);
	collect_summary(c, s);
}

/* WORKLOAD.KEY: KEY may be a dotted path into the summary. */
static const cJSON *lookup(const cJSON *obj, const char *key)
{
	char buf[256], *part, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", key);
	for (part = strtok_r(buf, ".", &save); part && obj;
	     part = strtok_r(NULL, ".", &save))
		obj = cJSON_GetObjectItemCaseSensitive(obj, part);
	return obj;
}

/* The kernel's rseq counters over the repetition, when it has them. */
static void collect_rseq_stats(struct rep_ctx *c)
{
	struct runner_kstat_snap after;
	char path[PATH_MAX];
	cJSON *d;

	if (!c->rseq_before.n || runner_kstat_read(c->r->debugfs, &after))
		return;
	d = runner_kstat_delta(&c->rseq_before, &after);
	if (!d)
		return;
	c->rr->rseq_stats = d;
	rtpaths_fmt(path, sizeof(path), "%s/rseq-stats.json", c->dir);
	if (json_write_file(path, d))
		pr_warn("%s: cannot write", path);
}

/*
 * What an expect judges: a workload's summary, or the rseq-stats
 * counters. NULL when there is nothing to judge: the workload gave no
 * summary (already invalid for that), or the kernel has no rseq/stats
 * (an expect on counters holds where they exist).
 */
static const cJSON *expect_source(const struct rep_ctx *c,
				  const struct runner_suite_expect *e)
{
	if (!strcmp(e->workload, SUITE_EXPECT_RSEQ))
		return c->rr->rseq_stats;
	return c->rr->workloads ?
		cJSON_GetObjectItemCaseSensitive(c->rr->workloads,
						 e->workload) : NULL;
}

static void check_expects(struct rep_ctx *c)
{
	size_t i;

	for (i = 0; i < c->sc->nr_expects; i++) {
		const struct runner_suite_expect *e = &c->sc->expects[i];
		const cJSON *sum = expect_source(c, e);
		const cJSON *v = sum ? lookup(sum, e->key) : NULL;
		double x;
		bool ok;

		if (!sum)
			continue;
		if (!cJSON_IsNumber(v) && !cJSON_IsBool(v)) {
			rep_invalid(c, e->text,
				    "expect %s: %s's summary has no number "
				    "%s", e->text, e->workload, e->key);
			continue;
		}
		x = cJSON_IsBool(v) ? cJSON_IsTrue(v) : v->valuedouble;
		switch (e->op) {
		case RUNNER_EXPECT_GT: ok = x > e->value; break;
		case RUNNER_EXPECT_GE: ok = x >= e->value; break;
		case RUNNER_EXPECT_LT: ok = x < e->value; break;
		case RUNNER_EXPECT_LE: ok = x <= e->value; break;
		case RUNNER_EXPECT_EQ: ok = x == e->value; break;
		default: ok = x != e->value; break;
		}
		if (ok)
			continue;
		if (e->why)
			rep_invalid(c, e->text, "%s: %s.%s = %g (expect %s)",
				    e->why, e->workload, e->key, x, e->text);
		else
			rep_invalid(c, e->text,
				    "expect %s failed: %s.%s = %g (the "
				    "treatment did not happen)", e->text,
				    e->workload, e->key, x);
	}
}

/* The tool's end: its files written, its results checked, its T: lines. */
static void collect_tool(struct rep_ctx *c)
{
	const struct runner_tool_ops *ops = c->tool.ops;
	struct runner_rep_result *rr = c->rr;
	char why[512];
	bool complete;
	size_t n;

	note_exit(&rr->procs[c->ct_rp], &c->ct);
	complete = c->ct_started && !c->ct_early && !c->ct.running &&
		   WIFEXITED(c->ct.status) && !WEXITSTATUS(c->ct.status);
	if (ops->finish(&c->tool, complete, c->ct.t_exit - c->ct.t_start,
			why, sizeof(why)))
		rep_invalid(c, c->tool.tool->program, "%s", why);
	if (!ops->finals)
		return;
	n = ops->finals(&c->tool, NULL, 0);
	rr->finals = calloc(n ? n : 1, sizeof(*rr->finals));
	if (rr->finals)
		rr->nr_finals = ops->finals(&c->tool, rr->finals, n);
}

/* ---- the repetition ------------------------------------------------------ */

static void rep_cleanup(struct rep_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_wls; i++) {
		if (c->wls[i].log_fd >= 0)
			close(c->wls[i].log_fd);
		runner_proc_close(&c->wls[i].proc);
	}
	free(c->wls);
	vec_strv_free(c->blamed);
	runner_proc_close(&c->ct);
	runner_tool_release(&c->tool);
	runner_proc_close(&c->aa);
	runner_tl_aa_free(&c->tla);
}

static int rep_prepare(struct rep_ctx *c, unsigned int rep)
{
	size_t i;
	int ret;

	snprintf(c->rr->dir, sizeof(c->rr->dir), "%s/%u", c->sc->name, rep);
	rtpaths_fmt(c->dir, sizeof(c->dir), "%s/%s", c->r->run.dir, c->rr->dir);
	ret = fsio_mkdir_p(c->dir, 0755);
	if (ret) {
		pr_err("%s: %s", c->dir, strerror(-ret));
		return ret;
	}
	c->nr_wls = c->sc->nr_workloads;
	c->wls = calloc(c->nr_wls ? c->nr_wls : 1, sizeof(*c->wls));
	if (!c->wls)
		return -ENOMEM;
	for (i = 0; i < c->nr_wls; i++) {
		c->wls[i].wl = &c->sc->workloads[i];
		c->wls[i].log_fd = -1;
		c->wls[i].proc.pid = -1;
		c->wls[i].proc.out_fd = c->wls[i].proc.ready_fd = -1;
	}
	c->ct.pid = -1;
	c->ct.out_fd = c->ct.ready_fd = -1;
	c->aa.pid = -1;
	c->aa.out_fd = c->aa.ready_fd = -1;
	return 0;
}

int runner_rep_run(struct runner *r, size_t scen, unsigned int rep,
		   struct runner_rep_result *rr)
{
	struct rep_ctx c = {
		.r = r, .sc = &r->suite.scenarios[scen],
		.sr = &r->run.scens[scen], .rr = rr,
		.tool.tool = r->suite.scenarios[scen].tool,
		.tool.ops = runner_tool_get(r->suite.scenarios[scen].tool),
	};
	size_t i;
	int ret;

	rr->rep = rep;
	clocks_realtime(&rr->start);
	ret = rep_prepare(&c, rep);
	if (ret)
		goto out;
	ret = apply_tunables(&c);
	if (ret || rr->status == RUNNER_REP_SKIPPED)
		goto out;
	/* Our capture keys on cyclictest's wake-ups; rtla has its own. */
	runner_trace_begin(&c.trace, c.tool.tool->own_tracer ?
			   TRACE_CAPTURE_OFF : r->run.trace, c.dir);
	/* Absent (no CONFIG_RSEQ_STATS, no debugfs): no evidence, no error. */
	runner_kstat_read(r->debugfs[0] ? r->debugfs : NULL, &c.rseq_before);
	start_workloads(&c);
	if (!c.invalid)
		wait_ready(&c);
	if (!c.invalid && !stop_requested(&c)) {
		if (c.tool.tool->program)
			measure_tool(&c);
		else
			measure_none(&c);
		/* rtla's auto-analysis of the spikes, after its measurement */
		if (c.tool.tool->auto_analysis && !c.invalid &&
		    !c.ct_early && r->run.trace != TRACE_CAPTURE_OFF &&
		    !stop_requested(&c))
			run_auto_analysis(&c);
	}
	stop_all(&c);
	collect_rseq_stats(&c);
	for (i = 0; i < c.nr_wls; i++)
		collect_workload(&c, &c.wls[i]);
	if (c.ct_started || c.tool.argv)
		collect_tool(&c);
	if (!c.aborted)
		check_expects(&c);
	runner_trace_finish(&c.trace, c.dir, !c.aborted && !stop_requested(&c),
			    runner_tool_ct(&c.tool), rr->finals, rr->nr_finals,
			    &rr->trace);
	restore_tunables(&c);
	if (c.aborted) {
		rr->status = RUNNER_REP_ABORTED;
		free(rr->reason);
		rr->reason = strdup("the run was interrupted");
	} else {
		rr->status = c.invalid ? RUNNER_REP_INVALID : RUNNER_REP_OK;
	}
out:
	restore_tunables(&c);
	rep_cleanup(&c);
	clocks_realtime(&rr->end);
	return ret;
}
