/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guardian: a small child forked at the start of a run, in its own
 * process group, deaf to SIGINT/SIGTERM/SIGHUP. It waits for EOF on a pipe
 * whose only writer is rtgate; when rtgate dies (even by SIGKILL) it
 * restores from the state file at once (runner_state.h) and exits. After a
 * clean end the state file is gone and the guardian exits silently. It
 * shares the machine lock (runner_state.h), so the next run waits for it.
 */
#ifndef RTGATE_RUNNER_GUARD_H
#define RTGATE_RUNNER_GUARD_H

#include <sys/types.h>

struct runner_guard {
	pid_t pid;
	int fd;			/* write end; -1 when stopped */
};

int runner_guard_start(struct runner_guard *g, const char *state_dir);
/* Closes the pipe (after runner_state_release) and waits for the guardian. */
void runner_guard_stop(struct runner_guard *g);

#endif
