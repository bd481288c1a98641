/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stop signals, one set per process: SIGINT, SIGTERM, SIGHUP (and what a
 * command adds, SIGQUIT for the runner) ask the process to stop. The
 * handler records the first of them, sets the stop flag that loops and
 * threads test, writes a byte to a self-pipe that a poll() loop watches
 * beside its own descriptors, and passes the signal on to the one child
 * named by stopsig_forward() (a command run in the foreground that must
 * stop the same way: the runner under the nightly, a traced command).
 *
 *	stopsig_catch(SIGINT, STOPSIG_STOP);
 *	stopsig_catch(SIGTERM, STOPSIG_STOP);
 *	while (!stopsig_requested())
 *		poll(...stopsig_fd()...);
 *
 * Handlers are installed with SA_RESTART: slow calls go on, sleeps and
 * poll() return EINTR, and loops test the flag.
 */
#ifndef RTGATE_STOPSIG_H
#define RTGATE_STOPSIG_H

#include <stdbool.h>
#include <sys/types.h>

enum stopsig_how {
	STOPSIG_STOP,	/* asks to stop; stopsig_signal() names it */
	STOPSIG_TIMER,	/* asks to stop unnamed (a duration ran out) */
	STOPSIG_WAKE,	/* only wakes the poll loop (SIGCHLD) */
};

/* Installs the handler for @sig. Returns 0 or -errno. */
int stopsig_catch(int sig, enum stopsig_how how);
/* SIGINT, SIGTERM and SIGHUP as STOPSIG_STOP. */
int stopsig_catch_terminal(void);

/* Whether a stop was asked for, by a signal or stopsig_request(). */
bool stopsig_requested(void);
/* The first signal that asked to stop, or 0. */
int stopsig_signal(void);
/* Asks every loop to stop from inside (a thread's fatal error). */
void stopsig_request(void);

/* The self-pipe's read end: readable after any caught signal; -1 before. */
int stopsig_fd(void);
/* Empties the self-pipe. */
void stopsig_drain(void);

/* The child that gets the stop signals too (0: none). */
void stopsig_forward(pid_t pid);

#endif
