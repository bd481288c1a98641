/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload protocol (workloads/README.md): ready handshake, stop on
 * SIGTERM/SIGINT, a clock. Every workload calls wl_init() first.
 *
 * Stop is common/core/stopsig.h's process-wide flag, set by the signal handler
 * (or by wl_stop() when the workload ends itself), plus its self-pipe, so
 * that threads test a flag in their loops and the main thread can poll()
 * for "stop" beside its own file descriptors without a race.
 */
#ifndef RTGATE_WL_PROTO_H
#define RTGATE_WL_PROTO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Names the program for messages, installs the SIGTERM/SIGINT handlers,
 * ignores SIGPIPE and takes RTGATE_READY_FD from the environment (made
 * close-on-exec so that children do not hold the runner's pipe open).
 * Returns 0, or -EINVAL after printing why (a bad RTGATE_READY_FD).
 */
int wl_init(const char *name);
const char *wl_name(void);

/* Writes "ready\n" to RTGATE_READY_FD once and closes it; else nothing. */
int wl_ready(void);

bool wl_stopping(void);
/* Asks every loop to stop (duration over, fatal error in a thread). */
void wl_stop(void);
/* The signal that stopped the workload, or 0. */
int wl_stop_signal(void);
/* Readable once a stop was requested; for poll() beside other fds. */
int wl_stop_fd(void);

/*
 * Sleeps until the stop request or timeout_ns (UINT64_MAX: forever).
 * Returns true when stopping.
 */
bool wl_wait(uint64_t timeout_ns);
/* Sleeps until the stop request or CLOCK_MONOTONIC deadline_ns. */
bool wl_wait_until(uint64_t deadline_ns);
/*
 * Requests the stop after duration_ns from now (0: never), from a timer:
 * the poll loops around children wake at the deadline as they do for a
 * signal, and wl_stop_signal() stays 0. Returns 0 or -errno.
 */
int wl_stop_after(uint64_t duration_ns);
/* Runs for duration_ns (0: until a signal), then requests the stop. */
void wl_run_for(uint64_t duration_ns);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t wl_now_ns(void);
/* Seconds between two wl_now_ns() readings. */
double wl_elapsed_s(uint64_t start_ns, uint64_t end_ns);

#endif
