/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The clocks a run keeps time by: CLOCK_MONOTONIC for intervals and
 * deadlines, CLOCK_REALTIME for the timestamps its results carry.
 */
#ifndef RTGATE_CLOCKS_H
#define RTGATE_CLOCKS_H

#include <time.h>

/* CLOCK_MONOTONIC in seconds. */
double clocks_mono_s(void);
/* CLOCK_REALTIME, for a result's start and end. */
void clocks_realtime(struct timespec *ts);

#endif
