/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running the field's real tools (make, patch, b4, qemu, busybox, ...) from
 * C: fork + exec in a process group of their own, with an optional timeout,
 * output captured, logged to a file and/or handed over line by line.
 *
 * A tool never outlives its caller: on a timeout, or when SIGINT/SIGTERM/
 * SIGHUP arrived after toolrun_catch_signals(), its whole process group is
 * sent SIGTERM, then SIGKILL, and reaped before toolrun() returns.
 */
#ifndef RTGATE_TOOLRUN_H
#define RTGATE_TOOLRUN_H

#include <stdbool.h>
#include <sys/types.h>

struct toolrun {
	char *const *argv;		/* argv[0] is looked up in PATH */
	const char *cwd;		/* NULL: ours */
	char *const *env;		/* "NAME=value" added to ours; NULL-ended */
	const char *in_path;		/* stdin; NULL: /dev/null */
	const char *stdout_path;	/* stdout alone to this file (binary) */
	const char *out_path;		/* stdout+stderr copied to this file */
	bool out_append;
	bool echo;			/* stdout+stderr copied to our stderr */
	bool inherit;			/* no pipe: the tool writes to our fds */
	char **capture;			/* stdout+stderr collected (malloc'd) */
	void (*on_line)(const char *line, void *arg);
	void *arg;
	int nice;			/* added to the tool's nice value */
	unsigned int timeout_ms;	/* 0: none */
	/*
	 * The caller blocked SIGINT, SIGTERM and SIGHUP to clean up before
	 * they take effect: one pending stops the tool (-EINTR).
	 */
	bool stop_on_pending;
};

/*
 * Runs r->argv to completion. Returns 0 with *status = the exit code (128 +
 * signal number when a signal ended it); -ENOENT when the tool is not
 * installed; -ETIMEDOUT after the timeout; -EINTR when a stop signal was
 * caught (or, with stop_on_pending, is pending); another -errno when it
 * could not be started. The tool is reaped in every case, and starts with
 * no signal blocked.
 */
int toolrun(const struct toolrun *r, int *status);

/* Convenience: run argv, output to log_path (NULL: discarded), no timeout. */
int toolrun_simple(char *const *argv, const char *cwd, const char *log_path,
		   int *status);

/*
 * SIGINT, SIGTERM and SIGHUP (common/core/stopsig.h) stop the running tool and
 * every later one: toolrun() returns -EINTR.
 */
void toolrun_catch_signals(void);

/*
 * In a child between fork and exec: dies with @parent (PR_SET_PDEATHSIG
 * SIGKILL; exits at once if @parent is already gone) and marks every
 * descriptor above stderr close-on-exec, so that no tool inherits what it
 * was not given (trace_pipe_raw descriptors keep a tracefs instance busy).
 * Async-signal-safe.
 */
void toolrun_child_bind(pid_t parent);

/* Whether an executable named name is in PATH (or name is a path to one). */
bool toolrun_have(const char *name);

#endif
