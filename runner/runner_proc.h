/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The processes of a repetition: workloads and cyclictest.
 *
 * Each one starts in its own process group and, when the run has one, its
 * own cgroup v2 leaf; it dies with rtgate (PR_SET_PDEATHSIG) and carries
 * RTGATE_OWNER=<state dir> in its environment, which is how a restore
 * finds survivors. A workload also gets RTGATE_READY_FD for the ready
 * handshake (workloads/README.md). Its stdout comes back through a pipe.
 */
#ifndef RTGATE_RUNNER_PROC_H
#define RTGATE_RUNNER_PROC_H

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct runner_proc_spec {
	const char *name;	/* the results name: alias or "cyclictest" */
	const char *path;	/* the executable */
	char *const *argv;
	const cpu_set_t *cpus;	/* NULL: inherit */
	bool set_policy;
	int policy, prio;
	bool set_nice;
	int nice;
	bool ready;		/* the RTGATE_READY_FD handshake */
	const char *cgroup;	/* leaf to enter, or NULL */
	const char *owner;	/* RTGATE_OWNER */
	const char *scale;	/* RTGATE_SCALE, or NULL */
	const char *const *env;	/* "NAME=VALUE" more, NULL-ended, or NULL */
	int stderr_fd;		/* -1: stderr goes into the stdout pipe */
};

struct runner_proc {
	char name[64];
	pid_t pid;		/* also the process group */
	char cgroup[PATH_MAX];	/* "" without one */
	int out_fd;		/* stdout pipe; -1 at EOF */
	int ready_fd;		/* -1 when unused or answered */
	char *out;		/* captured stdout */
	size_t out_len, out_pos, out_cap;
	bool out_truncated;
	bool ready;		/* said "ready" */
	bool running;
	int status;		/* wait status once !running */
	int sent;		/* last signal the runner sent, 0 if none */
	double t_start, t_ready, t_exit;	/* clocks_mono_s() */
};

/* Starts a process; on failure @err says which step failed and why. */
int runner_proc_spawn(struct runner_proc *p,
		      const struct runner_proc_spec *spec, char *err,
		      size_t len);
/* Signals its process group (and, for SIGKILL, its cgroup). */
void runner_proc_signal(struct runner_proc *p, int sig);
/*
 * Waits up to @timeout_s for output, a ready message, an exit or a signal
 * (signals_fd()); handles what came and returns. Reaps every child that
 * exited: ours are marked, orphans handed to us as subreaper are dropped.
 */
void runner_proc_wait(struct runner_proc **procs, size_t n, double timeout_s);
/* Reads what is left in the pipes (after the exits). */
void runner_proc_drain(struct runner_proc *p);
/*
 * The next complete line of stdout (NUL-terminated, valid until the next
 * call), or the last partial line once the pipe is at EOF; NULL if none.
 */
char *runner_proc_next_line(struct runner_proc *p);
/* "exited with code 1", "killed by SIGSEGV", "still running". */
void runner_proc_describe_exit(const struct runner_proc *p, char *buf,
			       size_t len);
void runner_proc_close(struct runner_proc *p);

#endif
