// SPDX-License-Identifier: GPL-2.0-only
/* Slice runtimes from sched_switch: see trace.h. */
#include <errno.h>
#include <string.h>

#include "trace.h"

void trace_runtime_init(struct trace_runtime *rt,
			unsigned long long threshold_ns)
{
	memset(rt, 0, sizeof(*rt));
	rt->threshold_ns = threshold_ns;
}

int trace_runtime_watch(struct trace_runtime *rt, int pid)
{
	if (rt->nr == TRACE_RUNTIME_TASKS)
		return -ENOSPC;
	memset(&rt->task[rt->nr], 0, sizeof(rt->task[0]));
	rt->task[rt->nr++].pid = pid;
	return 0;
}

void trace_runtime_set_hrtick(struct trace_runtime *rt,
			      unsigned long long hrtick_fn,
			      unsigned long long late_ns)
{
	rt->hrtick_fn = hrtick_fn;
	rt->late_ns = late_ns;
}

static struct trace_runtime_task *find(struct trace_runtime *rt, int pid)
{
	int i;

	for (i = 0; i < rt->nr; i++)
		if (rt->task[i].pid == pid)
			return &rt->task[i];
	return NULL;
}

static void slice_end(struct trace_runtime *rt, struct trace_runtime_task *t,
		      const struct trace_ev *ev)
{
	unsigned long long ns;

	if (!t->in_ts || t->in_cpu != ev->cpu || ev->ts < t->in_ts)
		return;
	ns = ev->ts - t->in_ts;
	t->count++;
	t->sum_ns += ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
	if (ns > rt->threshold_ns)
		t->over++;
	if (rt->hrtick_fn && t->hrtick_ts && !t->rearmed &&
	    ev->ts > t->hrtick_ts + rt->late_ns)
		t->past_hrtick++;
	rt->hist[ns / TRACE_RUNTIME_BIN_NS < TRACE_RUNTIME_BINS - 1 ?
		 ns / TRACE_RUNTIME_BIN_NS : TRACE_RUNTIME_BINS - 1]++;
	t->in_ts = 0;
	t->hrtick_ts = 0;
}

/* The watched task running on this CPU, if any. */
static struct trace_runtime_task *running_on(struct trace_runtime *rt,
					     int cpu)
{
	int i;

	for (i = 0; i < rt->nr; i++)
		if (rt->task[i].in_ts && rt->task[i].in_cpu == cpu)
			return &rt->task[i];
	return NULL;
}

static void hrtick_event(struct trace_runtime *rt, const struct trace_ev *ev)
{
	struct trace_runtime_task *t;

	if (!rt->hrtick_fn || ev->hrt.function != rt->hrtick_fn)
		return;
	if (ev->type == TRACE_EV_HRTIMER_ENTRY)
		rt->hrtick_expiries++;
	t = running_on(rt, ev->cpu);
	if (!t)
		return;
	if (ev->type == TRACE_EV_HRTIMER_ENTRY) {
		t->hrtick_ts = ev->ts;
		t->rearmed = false;
	} else if (t->hrtick_ts) {
		t->rearmed = true;
	}
}

int trace_runtime_event(const struct trace_ev *ev, void *ctx)
{
	struct trace_runtime *rt = ctx;
	struct trace_runtime_task *t;
	int i;

	if (ev->missed) {
		/* A slice that spans lost events cannot be measured. */
		rt->missed += ev->missed;
		for (i = 0; i < rt->nr; i++)
			if (rt->task[i].in_cpu == ev->cpu)
				rt->task[i].in_ts = 0;
	}
	if (ev->type == TRACE_EV_HRTIMER_ENTRY ||
	    ev->type == TRACE_EV_HRTIMER_START) {
		hrtick_event(rt, ev);
		return 0;
	}
	if (ev->type != TRACE_EV_SWITCH)
		return 0;
	rt->switches++;
	t = find(rt, ev->sw.prev.pid);
	if (t) {
		slice_end(rt, t, ev);
		memcpy(t->comm, ev->sw.prev.comm, sizeof(t->comm));
	}
	t = find(rt, ev->sw.next.pid);
	if (t) {
		t->in_ts = ev->ts;
		t->in_cpu = ev->cpu;
		t->hrtick_ts = 0;
	}
	return 0;
}

void trace_runtime_total(const struct trace_runtime *rt,
			 struct trace_runtime_task *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < rt->nr; i++) {
		sum->count += rt->task[i].count;
		sum->over += rt->task[i].over;
		sum->past_hrtick += rt->task[i].past_hrtick;
		sum->sum_ns += rt->task[i].sum_ns;
		if (rt->task[i].max_ns > sum->max_ns)
			sum->max_ns = rt->task[i].max_ns;
	}
}
