/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Signals during a run: SIGINT, SIGTERM, SIGHUP and SIGQUIT ask the run to
 * stop (it then restores and exits 5); SIGCHLD wakes the event loop. Both
 * arrive through a self-pipe that the loop polls.
 */
#ifndef RTGATE_RUNNER_SIGNAL_H
#define RTGATE_RUNNER_SIGNAL_H

int signals_install(void);
/* The self-pipe's read end, readable when a signal arrived. */
int signals_fd(void);
void signals_drain(void);
/* 0, or the first signal that asked the run to stop. */
int signals_stop_requested(void);

#endif
