/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What rtgate reads of /proc/PID/stat: a process's state, its parent, and
 * its start time, which makes a pid an identity (a pid reused by another
 * process has another start time): the owner of a tracing instance, a
 * spool, a state file or the machine lock is a pid and its start time.
 */
#ifndef RTGATE_PROCSTAT_H
#define RTGATE_PROCSTAT_H

#include <stdbool.h>

struct procstat {
	char state;			/* R, S, D, Z, X ... */
	int ppid;
	unsigned long long start;	/* clock ticks after boot */
};

/* Returns 0, -errno (no such process), or -EINVAL (not understood). */
int procstat_read(int pid, struct procstat *ps);
/* The start time alone. */
int procstat_start_time(int pid, unsigned long long *start);
/* Whether the process that started at @start is still there. */
bool procstat_alive(int pid, unsigned long long start);

#endif
