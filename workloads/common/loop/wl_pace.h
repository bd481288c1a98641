/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fixed rate for the load modes (sysctl-read load, setparam load): slots
 * at start + n / rate on CLOCK_MONOTONIC, so lateness does not accumulate;
 * a loop starved past a whole slot skips the missed slots instead of
 * bursting to catch up (a burst is not the load the suite asked for).
 */
#ifndef RTGATE_WL_PACE_H
#define RTGATE_WL_PACE_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

struct wl_pace {
	uint64_t start_ns;
	uint64_t rate;		/* per second; 0: no waiting at all */
	uint64_t slot;
	uint64_t skipped;	/* slots missed because we ran late */
};

void wl_pace_init(struct wl_pace *pace, uint64_t rate);

/*
 * Sleeps until the next slot. Returns false once a stop was requested or
 * end_ns (CLOCK_MONOTONIC, UINT64_MAX: never) has passed.
 */
bool wl_pace_wait(struct wl_pace *pace, uint64_t end_ns);

/*
 * A whole load mode: op(ctx) once, the ready handshake (the load runs),
 * then op(ctx) in every slot at rate until a stop request or duration_ns
 * from the call (0: no end).
 */
void wl_pace_run(struct wl_pace *pace, uint64_t rate, uint64_t duration_ns,
		 void (*op)(void *ctx), void *ctx);

/*
 * Adds "rate" (asked), "slots_skipped" and "achieved_rate" (done per
 * second of duration_s) to a summary.
 */
void wl_pace_summary(cJSON *s, uint64_t rate, const struct wl_pace *pace,
		     uint64_t done, double duration_s);

#endif
