// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for trace/trace_attr.c and trace/trace_runtime.c: windows
 * built from hand-made event sequences whose split is known exactly.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace.h"

#define T0	1000000000ULL
#define CT	200		/* cyclictest's measuring thread */
#define CT_PRIO	4		/* SCHED_FIFO 95 */

static struct trace_attr *a;

static void feed(const struct trace_ev *ev)
{
	assert_int_equal(trace_attr_event(ev, a), 0);
}

static void task(struct trace_task *t, const char *comm, int pid, int prio)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->pid = pid;
	t->prio = prio;
}

static void ev_switch(unsigned long long ts, int cpu, const char *pc, int pp,
		      int pprio, const char *nc, int np, int nprio)
{
	struct trace_ev e = { .ts = ts, .cpu = cpu, .type = TRACE_EV_SWITCH,
			      .pid = pp };

	task(&e.sw.prev, pc, pp, pprio);
	task(&e.sw.next, nc, np, nprio);
	feed(&e);
}

static void ev_waking(unsigned long long ts, int cpu, int in_pid,
		      const char *comm, int pid, int prio)
{
	struct trace_ev e = { .ts = ts, .cpu = cpu, .type = TRACE_EV_WAKING,
			      .pid = in_pid };

	task(&e.wake.task, comm, pid, prio);
	e.wake.target_cpu = cpu;
	feed(&e);
}

static void ev_irq(unsigned long long ts, int cpu, int in_pid, int type,
		   int irq, const char *name)
{
	struct trace_ev e = { .ts = ts, .cpu = cpu, .type = type,
			      .pid = in_pid };

	e.irq.irq = irq;
	snprintf(e.irq.name, sizeof(e.irq.name), "%s", name);
	feed(&e);
}

static void ev_hrt(unsigned long long ts, int cpu, int in_pid, int type,
		   unsigned long long timer, long long val)
{
	struct trace_ev e = { .ts = ts, .cpu = cpu, .type = type,
			      .pid = in_pid };

	e.hrt.timer = timer;
	if (type == TRACE_EV_HRTIMER_START)
		e.hrt.expires = val;
	else
		e.hrt.now = val;
	feed(&e);
}

static void ev_ext(unsigned long long ts, int cpu, int pid, int type)
{
	struct trace_ev e = { .ts = ts, .cpu = cpu, .type = type,
			      .pid = pid };

	snprintf(e.ext.event, sizeof(e.ext.event), "sched:sched_delay_resched");
	e.ext.pid = pid;
	feed(&e);
}

/*
 * One cyclictest wake-up on CPU 1 while `comm`/pid runs: the timer
 * expires at base+97.1 us (its irq comes 2.9 us late), the irq takes
 * 1 us, the thread is switched in at base+301 us. With grant_at, a slice
 * extension is granted to pid at that offset.
 */
static void window_late(unsigned long long base, const char *comm, int pid,
			int prio, unsigned long long grant_at,
			unsigned long long extra)
{
	unsigned long long timer = 0xA000 + base / 1000;
	long long expires = 50000000 + base / 1000;

	ev_switch(base, 1, "cyclictest", CT, CT_PRIO, comm, pid, prio);
	ev_hrt(base + 10, 1, pid, TRACE_EV_HRTIMER_START, timer, expires);
	ev_irq(base + 100000, 1, pid, TRACE_EV_IRQ_ENTRY, -1, "local_timer");
	ev_hrt(base + 100100, 1, pid, TRACE_EV_HRTIMER_ENTRY, timer,
	       expires + 3000);
	ev_waking(base + 100200, 1, pid, "cyclictest", CT, CT_PRIO);
	ev_hrt(base + 100300, 1, pid, TRACE_EV_HRTIMER_EXIT, timer, 0);
	ev_irq(base + 101000, 1, pid, TRACE_EV_IRQ_EXIT, -1, "");
	if (grant_at)
		ev_ext(base + grant_at, 1, pid, TRACE_EV_EXT_GRANT);
	ev_switch(base + 301000 + extra, 1, comm, pid, prio, "cyclictest", CT,
		  CT_PRIO);
}

static void window(unsigned long long base, const char *comm, int pid,
		   int prio, unsigned long long grant_at)
{
	window_late(base, comm, pid, prio, grant_at, 0);
}

static int setup(void **state)
{
	struct trace_attr_params p = { .top_n = 5 };

	(void)state;
	a = trace_attr_new(&p);
	return a ? 0 : -1;
}

static void test_spinner_window(void **state)
{
	struct trace_attr_result r;
	const struct trace_attr_window *w;
	char text[512];

	(void)state;
	window(T0, "inject", 100, 0, 0);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 1);
	assert_int_equal(r.nr_wakeups, 1);
	w = &r.win[0];
	assert_int_equal(w->cpu, 1);
	assert_int_equal(w->tid, CT);
	assert_true(w->from_timer);
	assert_false(w->partial);
	assert_true(w->latency_ns == 203900);
	assert_int_equal(w->part[0].kind, TRACE_ATTR_TASK);
	assert_string_equal(w->part[0].name, "inject");
	assert_int_equal(w->part[0].pid, 100);
	assert_true(w->part[0].ns == 200000);
	assert_int_equal(w->part[1].kind, TRACE_ATTR_TIMER_LATE);
	assert_true(w->part[1].ns == 2900);
	assert_int_equal(w->part[2].kind, TRACE_ATTR_IRQ);
	assert_string_equal(w->part[2].name, "local_timer");
	assert_true(w->part[2].ns == 1000);
	assert_int_equal(trace_attr_explain(w, text, sizeof(text)), 0);
	assert_string_equal(text, "CPU 1, 204 us: inject/100 (rt 99) ran "
			    "200 us, timer irq 2.9 us late, irq local_timer "
			    "1.0 us");
	trace_attr_result_free(&r);
}

static void test_extension(void **state)
{
	struct trace_attr_result r;
	char text[512], key[64];

	(void)state;
	window(T0, "extend-sched", 300, 120, 101100);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 1);
	assert_true(r.win[0].part[0].extended);
	assert_true(r.win[0].part[0].ns == 199900);
	trace_attr_explain(&r.win[0], text, sizeof(text));
	assert_non_null(strstr(text, "extend-sched/300 (nice 0) ran 200 us "
			       "under a granted slice extension"));
	trace_attr_part_key(&r.win[0].part[0], key, sizeof(key));
	assert_string_equal(key, "extend-sched (nice 0) under extension");
	trace_attr_result_free(&r);
}

static void test_missing_switch_in(void **state)
{
	struct trace_attr_result r;

	(void)state;
	ev_switch(T0, 1, "cyclictest", CT, CT_PRIO, "agent", 74, 120);
	ev_irq(T0 + 1000, 1, 74, TRACE_EV_IRQ_ENTRY, -1, "local_timer");
	ev_hrt(T0 + 1100, 1, 74, TRACE_EV_HRTIMER_ENTRY, 0xB, 1000);
	ev_waking(T0 + 1200, 1, 74, "cyclictest", CT, CT_PRIO);
	ev_hrt(T0 + 1300, 1, 74, TRACE_EV_HRTIMER_EXIT, 0xB, 0);
	ev_irq(T0 + 1400, 1, 74, TRACE_EV_IRQ_EXIT, -1, "");
	/* cyclictest runs, but its switch-in is not in the trace. */
	ev_hrt(T0 + 2000, 1, CT, TRACE_EV_HRTIMER_START, 0xC, 2000);
	ev_switch(T0 + 2100, 1, "cyclictest", CT, CT_PRIO, "agent", 74, 120);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 0);
	assert_true(r.unmatched == 1);
	assert_true(r.unseen_switches >= 1);
	trace_attr_result_free(&r);
}

/*
 * Woken on an idle CPU whose switch away from idle is not traced: the
 * window closes at idle's last event (its irq exit): the timer irq came
 * 1.9 us after the expiry, the irq took 1 us.
 */
static void idle_wake(unsigned long long base, bool thread_event)
{
	ev_hrt(base, 1, CT, TRACE_EV_HRTIMER_START, 0xD, 5000000);
	ev_switch(base + 10, 1, "cyclictest", CT, CT_PRIO, "swapper/1", 0,
		  120);
	ev_irq(base + 1000000, 1, 0, TRACE_EV_IRQ_ENTRY, -1, "local_timer");
	ev_hrt(base + 1000100, 1, 0, TRACE_EV_HRTIMER_ENTRY, 0xD, 5002000);
	ev_waking(base + 1000200, 1, 0, "cyclictest", CT, CT_PRIO);
	ev_hrt(base + 1000300, 1, 0, TRACE_EV_HRTIMER_EXIT, 0xD, 0);
	ev_irq(base + 1001000, 1, 0, TRACE_EV_IRQ_EXIT, -1, "");
	if (thread_event)
		ev_hrt(base + 1009000, 1, CT, TRACE_EV_HRTIMER_START, 0xE,
		       6000000);
}

static void test_idle_switch_in(void **state)
{
	struct trace_attr_result r;

	(void)state;
	idle_wake(T0, true);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 1);
	assert_true(r.unmatched == 0);
	assert_true(r.win[0].from_timer);
	/* expiry at +998.1 us, switch-in at idle's irq exit, +1001 us */
	assert_true(r.win[0].latency_ns == 2900);
	assert_true(r.win[0].run_ns == T0 + 1001000);
	assert_false(r.win[0].partial);
	trace_attr_result_free(&r);
}

/*
 * One timer irq on an idle CPU wakes a FIFO 99 spinner and cyclictest; the
 * spinner runs 300 us first, and neither switch away from idle is traced:
 * the spinner has had the CPU since idle's irq exit, not since its own
 * first event at the end of its spin.
 */
static void test_spinner_from_idle(void **state)
{
	struct trace_attr_result r;
	const struct trace_attr_window *w;

	(void)state;
	ev_hrt(T0, 1, CT, TRACE_EV_HRTIMER_START, 0xD, 5000000);
	ev_switch(T0 + 10, 1, "cyclictest", CT, CT_PRIO, "swapper/1", 0, 120);
	ev_switch(T0 + 20, 0, "spin", 300, 0, "swapper/0", 0, 120);
	ev_irq(T0 + 1000000, 1, 0, TRACE_EV_IRQ_ENTRY, -1, "local_timer");
	ev_hrt(T0 + 1000100, 1, 0, TRACE_EV_HRTIMER_ENTRY, 0xD, 5002000);
	ev_waking(T0 + 1000150, 1, 0, "spin", 300, 0);
	ev_waking(T0 + 1000200, 1, 0, "cyclictest", CT, CT_PRIO);
	ev_hrt(T0 + 1000300, 1, 0, TRACE_EV_HRTIMER_EXIT, 0xD, 0);
	ev_irq(T0 + 1001000, 1, 0, TRACE_EV_IRQ_EXIT, -1, "");
	/* spin's first event: it arms its next period and sleeps */
	ev_hrt(T0 + 1300000, 1, 300, TRACE_EV_HRTIMER_START, 0xE, 9000000);
	ev_switch(T0 + 1301000, 1, "spin", 300, 0, "cyclictest", CT, CT_PRIO);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 1);
	w = &r.win[0];
	assert_true(w->latency_ns == 302900);
	assert_int_equal(w->part[0].kind, TRACE_ATTR_TASK);
	assert_string_equal(w->part[0].name, "spin");
	assert_true(w->part[0].ns == 300000);
	assert_true(w->other_ns == 0);
	assert_false(w->partial);
	trace_attr_result_free(&r);
}

/* The break's trigger stopped the trace before the thread made an event. */
static void test_break_at_end(void **state)
{
	struct trace_attr_params p = { .break_tid = CT, .break_us = 3 };
	struct trace_attr_result r;

	(void)state;
	trace_attr_finish(a, &r);
	trace_attr_result_free(&r);
	a = trace_attr_new(&p);
	assert_non_null(a);
	idle_wake(T0, false);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.nr_win, 1);
	assert_int_equal(r.break_idx, 0);
	assert_true(r.win[0].is_break);
	assert_true(r.win[0].latency_ns == 2900);
	trace_attr_result_free(&r);
}

static void test_top_and_break(void **state)
{
	struct trace_attr_params p = { .top_n = 3, .break_tid = CT };
	struct trace_attr_result r;
	unsigned long long base = T0;
	int i;

	(void)state;
	trace_attr_finish(a, &r);
	trace_attr_result_free(&r);
	a = trace_attr_new(&p);
	assert_non_null(a);
	/* Latencies grow; the last timer window is cyclictest's break. */
	for (i = 0; i < 6; i++) {
		window_late(base, "inject", 100, 0, 0, i * 1000);
		base += 1000000;
	}
	ev_switch(base, 1, "cyclictest", CT, CT_PRIO, "idle", 0, 120);
	ev_waking(base + 100, 1, 0, "cyclictest", CT, CT_PRIO);
	ev_switch(base + 600, 1, "swapper/1", 0, 120, "cyclictest", CT,
		  CT_PRIO);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	/* Without a timer expiry in it, the last wake-up is no window. */
	assert_int_equal(r.nr_win, 3);
	assert_true(r.nr_wakeups == 6);
	assert_true(r.win[0].latency_ns >= r.win[1].latency_ns);
	assert_true(r.win[1].latency_ns >= r.win[2].latency_ns);
	assert_int_equal(r.break_idx, 0);
	assert_true(r.win[0].is_break);
	trace_attr_result_free(&r);
}

/* With the break value, the matching window is the break, or none is. */
static void test_break_value(void **state)
{
	struct trace_attr_params p = { .top_n = 10, .break_tid = CT,
				       .break_us = 206 };
	struct trace_attr_result r;
	int i;

	(void)state;
	trace_attr_finish(a, &r);
	trace_attr_result_free(&r);
	a = trace_attr_new(&p);
	/* 203.9, 204.9, 205.9, 206.9 us: 205.9 is closest to 206. */
	for (i = 0; i < 4; i++)
		window_late(T0 + i * 1000000ULL, "inject", 100, 0, 0,
			    i * 1000);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	assert_true(r.break_idx >= 0);
	assert_true(r.win[r.break_idx].latency_ns == 205900);
	trace_attr_result_free(&r);

	/* A break of 900 us matches none of them: no window is blamed. */
	p.break_us = 900;
	a = trace_attr_new(&p);
	for (i = 0; i < 4; i++)
		window_late(T0 + i * 1000000ULL, "inject", 100, 0, 0,
			    i * 1000);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	assert_int_equal(r.break_idx, -1);
	for (i = 0; i < (int)r.nr_win; i++)
		assert_false(r.win[i].is_break);
	trace_attr_result_free(&r);
}

static void fill(struct trace_attr_result *r, const char *comm, int prio,
		 int n)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->break_idx = -1;
	r->win = calloc(n, sizeof(*r->win));
	assert_non_null(r->win);
	r->nr_win = n;
	for (i = 0; i < n; i++) {
		struct trace_attr_window *w = &r->win[i];

		w->latency_ns = 100000;
		w->nr_parts = 2;
		w->part[0].kind = TRACE_ATTR_TASK;
		snprintf(w->part[0].name, sizeof(w->part[0].name), "%s", comm);
		w->part[0].pid = 1000 + i;
		w->part[0].prio = prio;
		w->part[0].ns = 80000;
		w->part[1].kind = TRACE_ATTR_IRQ;
		w->part[1].irq = -1;
		snprintf(w->part[1].name, sizeof(w->part[1].name),
			 "local_timer");
		w->part[1].ns = 15000;
		w->other_ns = 5000;
	}
}

static void test_culprits(void **state)
{
	struct trace_attr_result base, cand;
	struct trace_attr_culprits c;
	char line[256];
	unsigned int i;
	bool found = false;

	(void)state;
	fill(&base, "kworker/1:2", 120, 4);
	fill(&cand, "inject", 0, 5);
	assert_int_equal(trace_attr_culprits(&base, 1, &cand, 1, &c), 0);
	assert_int_equal(c.total[0], 4);
	assert_int_equal(c.total[1], 5);
	for (i = 0; i < c.nr; i++) {
		if (!strcmp(c.c[i].key, "inject (rt 99)")) {
			found = true;
			assert_int_equal(c.c[i].windows[0], 0);
			assert_int_equal(c.c[i].windows[1], 5);
		}
		if (!strcmp(c.c[i].key, "irq local_timer")) {
			assert_int_equal(c.c[i].windows[0], 4);
			assert_int_equal(c.c[i].windows[1], 5);
		}
		/* 5 % of the window is not a culprit. */
		assert_string_not_equal(c.c[i].key, "other");
	}
	assert_true(found);
	assert_int_equal(trace_attr_culprits_headline(&c, line, sizeof(line)),
			 0);
	assert_string_equal(line, "new: inject (rt 99), 80 us in 100 % of "
			    "the worst wake-ups");
	trace_attr_culprits_free(&c);
	trace_attr_result_free(&base);
	trace_attr_result_free(&cand);
}

static void test_json_round_trip(void **state)
{
	struct trace_attr_result r, back;
	char x[512], y[512];
	cJSON *j;

	(void)state;
	window(T0, "inject", 100, 0, 0);
	assert_int_equal(trace_attr_finish(a, &r), 0);
	a = NULL;
	j = trace_attr_to_json(&r);
	assert_non_null(j);
	assert_int_equal(trace_attr_from_json(j, &back), 0);
	assert_int_equal(back.nr_win, r.nr_win);
	trace_attr_explain(&r.win[0], x, sizeof(x));
	trace_attr_explain(&back.win[0], y, sizeof(y));
	assert_string_equal(x, y);
	cJSON_DeleteItemFromObject(j, "schema");
	trace_attr_result_free(&back);
	assert_int_equal(trace_attr_from_json(j, &back), -EINVAL);
	cJSON_Delete(j);
	trace_attr_result_free(&r);
}

static void test_keys(void **state)
{
	struct trace_attr_part p = { .kind = TRACE_ATTR_TASK, .prio = 120 };
	char key[64];

	(void)state;
	snprintf(p.name, sizeof(p.name), "kworker/1:23");
	trace_attr_part_key(&p, key, sizeof(key));
	assert_string_equal(key, "kworker/N:N (nice 0)");
	p.kind = TRACE_ATTR_SOFTIRQ;
	snprintf(p.name, sizeof(p.name), "TIMER");
	trace_attr_part_key(&p, key, sizeof(key));
	assert_string_equal(key, "softirq TIMER");
}

static int teardown(void **state)
{
	struct trace_attr_result r;

	(void)state;
	if (a) {
		trace_attr_finish(a, &r);
		trace_attr_result_free(&r);
		a = NULL;
	}
	return 0;
}

static void sw(struct trace_runtime *rt, unsigned long long ts, int prev,
	       int next, unsigned int missed)
{
	struct trace_ev e = { .ts = ts, .cpu = 0, .type = TRACE_EV_SWITCH,
			      .missed = missed };

	task(&e.sw.prev, "x", prev, 120);
	task(&e.sw.next, "x", next, 120);
	trace_runtime_event(&e, rt);
}

static void test_runtime(void **state)
{
	struct trace_runtime rt;
	struct trace_runtime_task sum;

	(void)state;
	trace_runtime_init(&rt, 4000000);
	trace_runtime_watch(&rt, 10);
	trace_runtime_watch(&rt, 11);
	sw(&rt, T0, 5, 10, 0);			/* 10 in */
	sw(&rt, T0 + 5000000, 10, 11, 0);	/* 10: 5 ms, over */
	sw(&rt, T0 + 6000000, 11, 10, 0);	/* 11: 1 ms */
	sw(&rt, T0 + 9000000, 10, 5, 0);	/* 10: 3 ms */
	sw(&rt, T0 + 9500000, 5, 11, 0);	/* 11 in */
	sw(&rt, T0 + 20000000, 11, 5, 3);	/* lost events: not a slice */
	trace_runtime_total(&rt, &sum);
	assert_true(rt.task[0].count == 2);
	assert_true(rt.task[0].max_ns == 5000000);
	assert_true(rt.task[0].over == 1);
	assert_true(rt.task[1].count == 1);
	assert_true(sum.count == 3 && sum.over == 1);
	assert_true(rt.missed == 3);
	/* No hrtick function set: nothing is past one. */
	assert_true(sum.past_hrtick == 0);
	assert_true(rt.hist[50] == 1 && rt.hist[10] == 1 && rt.hist[30] == 1);
}

static void hrt(struct trace_runtime *rt, unsigned long long ts, int type,
		unsigned long long fn)
{
	struct trace_ev e = { .ts = ts, .cpu = 0, .type = type };

	e.hrt.function = fn;
	trace_runtime_event(&e, rt);
}

/*
 * The seed 003 signature: the hrtick expires at the slice's end, the
 * same task is picked again and no hrtick is armed: it runs on to the
 * tick. A repick that re-arms it, a switch right at the expiry, another
 * timer's expiry and a run with no expiry at all are not counted.
 */
static void test_runtime_past_hrtick(void **state)
{
	const unsigned long long ms = 1000000, us = 1000, fn = 0xffff1234,
				 tick = 0xffff9999;
	struct trace_runtime rt;
	struct trace_runtime_task sum;

	(void)state;
	trace_runtime_init(&rt, 4 * ms);
	trace_runtime_set_hrtick(&rt, fn, 500 * us);
	trace_runtime_watch(&rt, 10);
	/* Unarmed repick: expiry at 3 ms, the run ends at the 4 ms tick. */
	sw(&rt, T0, 5, 10, 0);
	hrt(&rt, T0 + 3 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	hrt(&rt, T0 + 4 * ms, TRACE_EV_HRTIMER_ENTRY, tick);
	sw(&rt, T0 + 4 * ms + 5 * us, 10, 5, 0);
	/* Re-armed repick: ends at the next hrtick, 6 ms. */
	sw(&rt, T0 + 5 * ms, 5, 10, 0);
	hrt(&rt, T0 + 8 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	hrt(&rt, T0 + 8 * ms + 3 * us, TRACE_EV_HRTIMER_START, fn);
	hrt(&rt, T0 + 11 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	sw(&rt, T0 + 11 * ms + 4 * us, 10, 5, 0);
	/* Switched out at the expiry. */
	sw(&rt, T0 + 12 * ms, 5, 10, 0);
	hrt(&rt, T0 + 15 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	sw(&rt, T0 + 15 * ms + 6 * us, 10, 5, 0);
	/* No hrtick at all (NO_HRTICK): a long run is not counted. */
	sw(&rt, T0 + 16 * ms, 5, 10, 0);
	hrt(&rt, T0 + 20 * ms, TRACE_EV_HRTIMER_ENTRY, tick);
	sw(&rt, T0 + 20 * ms + 5 * us, 10, 5, 0);
	/* An expiry while the task does not run is not its. */
	hrt(&rt, T0 + 21 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	sw(&rt, T0 + 22 * ms, 5, 10, 0);
	sw(&rt, T0 + 24 * ms, 10, 5, 0);
	trace_runtime_total(&rt, &sum);
	assert_true(sum.count == 5);
	assert_true(sum.past_hrtick == 1 && rt.task[0].past_hrtick == 1);
	assert_true(rt.hrtick_expiries == 5);
	assert_true(rt.hist[40] == 2 && rt.hist[60] == 1 && rt.hist[30] == 1);

	/* The hrtick unknown: nothing is counted. */
	trace_runtime_init(&rt, 4 * ms);
	trace_runtime_watch(&rt, 10);
	sw(&rt, T0, 5, 10, 0);
	hrt(&rt, T0 + 3 * ms, TRACE_EV_HRTIMER_ENTRY, fn);
	sw(&rt, T0 + 4 * ms, 10, 5, 0);
	trace_runtime_total(&rt, &sum);
	assert_true(sum.past_hrtick == 0 && rt.hrtick_expiries == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_spinner_window, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_extension, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_switch_in, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_idle_switch_in, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_spinner_from_idle, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_break_at_end, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_top_and_break, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_break_value, setup,
						teardown),
		cmocka_unit_test(test_culprits),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_runtime),
		cmocka_unit_test(test_runtime_past_hrtick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
