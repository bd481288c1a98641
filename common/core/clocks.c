// SPDX-License-Identifier: GPL-2.0-only
/*
 * The clocks a run keeps time by (clocks.h): monotonic seconds, realtime
 * stamps.
 */
#include <time.h>

#include "clocks.h"

double clocks_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void clocks_realtime(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
}
