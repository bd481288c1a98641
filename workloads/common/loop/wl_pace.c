// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pacing (wl_pace.h): a loop at a fixed rate, and how far it fell behind.
 */
#include "workloads/common/loop/wl_pace.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"

#define NS	1000000000ULL

void wl_pace_init(struct wl_pace *pace, uint64_t rate)
{
	pace->start_ns = wl_now_ns();
	pace->rate = rate;
	pace->slot = 0;
	pace->skipped = 0;
}

static uint64_t slot_ns(const struct wl_pace *pace, uint64_t slot)
{
	/* Split so that slot * NS cannot overflow for long runs. */
	return pace->start_ns + slot / pace->rate * NS +
	       slot % pace->rate * NS / pace->rate;
}

bool wl_pace_wait(struct wl_pace *pace, uint64_t end_ns)
{
	uint64_t now = wl_now_ns(), next, due;

	if (wl_stopping() || now >= end_ns)
		return false;
	if (!pace->rate)
		return true;
	pace->slot++;
	next = slot_ns(pace, pace->slot);
	if (slot_ns(pace, pace->slot + 1) < now) {
		due = (now - pace->start_ns) / NS * pace->rate +
		      (now - pace->start_ns) % NS * pace->rate / NS;
		pace->skipped += due - pace->slot;
		pace->slot = due;
		return true;
	}
	if (next > now)
		wl_wait_until(next < end_ns ? next : end_ns);
	return !wl_stopping() && wl_now_ns() < end_ns;
}

void wl_pace_run(struct wl_pace *pace, uint64_t rate, uint64_t duration_ns,
		 void (*op)(void *ctx), void *ctx)
{
	uint64_t end = duration_ns ? wl_now_ns() + duration_ns : UINT64_MAX;

	op(ctx);
	wl_ready();
	wl_pace_init(pace, rate);
	while (wl_pace_wait(pace, end))
		op(ctx);
}

void wl_pace_summary(cJSON *s, uint64_t rate, const struct wl_pace *pace,
		     uint64_t done, double duration_s)
{
	wl_summary_u64(s, "rate", rate);
	wl_summary_u64(s, "slots_skipped", pace->skipped);
	wl_summary_num(s, "achieved_rate",
		       duration_s > 0 ? done / duration_s : 0, 1);
}
