// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attribution engine: one pass over the events in time order. Each CPU
 * keeps a history of who had it (task, irq, softirq) as segments; when a
 * measured thread is switched in, its window is split over that history.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "trace.h"

#define HISTORY		4096	/* segments per CPU */
#define STACK		8	/* irq nesting */
#define TIMERS		4096	/* hrtimer expiries remembered */
#define THREADS		1024	/* measured threads */
#define TASKS		4096	/* comm/prio cache */
#define MAX_CPUS	4096
#define MAX_LATE_NS	1000000000ULL
#define SCRATCH		32

/* Who has the CPU. */
struct ctx {
	unsigned char kind;	/* enum trace_attr_kind */
	bool extended;
	bool pseudo;		/* an hrtimer standing in for its irq */
	int pid, prio, irq;
	char name[TRACE_NAME_LEN];
};

struct seg {
	unsigned long long ts;
	struct ctx c;
};

struct cpu_state {
	struct ctx task;
	struct ctx stack[STACK];
	unsigned long long stack_ts[STACK];
	int depth;
	int ext_pid;			/* task under a granted extension */
	bool in_timer;
	unsigned long long timer, timer_ts;
	long long timer_now;
	unsigned long long gap_ts;	/* last lost events */
	unsigned long long last_ts;	/* the previous event on this CPU */
	struct seg *ring;
	unsigned int head, count;
};

struct timer_slot {
	unsigned long long timer;
	long long expires;
};

/* Last known comm and prio of a pid, to name a task seen without a switch. */
struct known_task {
	int pid;
	int prio;
	char comm[TRACE_COMM_LEN];
};

struct pending {
	int tid;			/* 0: free slot */
	bool waiting;
	bool from_timer;		/* start_ts is the timer's expiry */
	bool timer_wake;		/* woken by an hrtimer */
	int wake_cpu;
	unsigned long long start_ts, irq_ts, wake_ts;
};

struct trace_attr {
	struct trace_attr_params p;
	const char *comm;
	unsigned int top_n;
	struct cpu_state *cpu;
	int nr_cpus;
	struct timer_slot timers[TIMERS];
	struct pending thread[THREADS];
	struct known_task tasks[TASKS];
	struct trace_attr_window *top;	/* top_n, worst first */
	unsigned int nr_top;
	struct trace_attr_window brk;
	bool have_brk;
	unsigned long long nr_wakeups, first_ts, last_ts, missed;
	unsigned long long unseen, unmatched;
	bool seen_timer;		/* the trace has hrtimer events */
	int err;
};

struct trace_attr *trace_attr_new(const struct trace_attr_params *p)
{
	struct trace_attr *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->p = *p;
	a->comm = p->comm ? p->comm : "cyclictest";
	a->top_n = p->top_n ? p->top_n : TRACE_ATTR_TOP;
	a->top = calloc(a->top_n, sizeof(*a->top));
	if (!a->top) {
		free(a);
		return NULL;
	}
	return a;
}

static void attr_free(struct trace_attr *a)
{
	int i;

	for (i = 0; i < a->nr_cpus; i++)
		free(a->cpu[i].ring);
	free(a->cpu);
	free(a->top);
	free(a);
}

static struct cpu_state *cpu_get(struct trace_attr *a, int cpu)
{
	struct cpu_state *tmp;
	int i, n;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	if (cpu >= a->nr_cpus) {
		n = cpu + 1;
		tmp = realloc(a->cpu, n * sizeof(*tmp));
		if (!tmp)
			return NULL;
		memset(tmp + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*tmp));
		for (i = a->nr_cpus; i < n; i++) {
			tmp[i].ext_pid = -1;
			tmp[i].task.kind = TRACE_ATTR_OTHER;
			tmp[i].task.pid = -1;
			snprintf(tmp[i].task.name, TRACE_NAME_LEN, "?");
		}
		a->cpu = tmp;
		a->nr_cpus = n;
	}
	if (!a->cpu[cpu].ring) {
		a->cpu[cpu].ring = calloc(HISTORY, sizeof(struct seg));
		if (!a->cpu[cpu].ring)
			return NULL;
	}
	return &a->cpu[cpu];
}

static struct ctx current_ctx(const struct cpu_state *c)
{
	struct ctx x;

	if (c->depth > 0)
		return c->stack[c->depth - 1];
	x = c->task;
	x.extended = x.kind == TRACE_ATTR_TASK && x.pid > 0 &&
		     x.pid == c->ext_pid;
	return x;
}

static bool ctx_equal(const struct ctx *x, const struct ctx *y)
{
	return x->kind == y->kind && x->extended == y->extended &&
	       x->pid == y->pid && x->irq == y->irq &&
	       !strcmp(x->name, y->name);
}

/* Records that the CPU's context may have changed at ts. */
static void mark(struct cpu_state *c, unsigned long long ts)
{
	struct ctx x = current_ctx(c);
	struct seg *last;

	if (c->count) {
		last = &c->ring[(c->head + HISTORY - 1) % HISTORY];
		if (ctx_equal(&last->c, &x))
			return;
	}
	c->ring[c->head].ts = ts;
	c->ring[c->head].c = x;
	c->head = (c->head + 1) % HISTORY;
	if (c->count < HISTORY)
		c->count++;
}

static unsigned int hash(unsigned long long v, unsigned int size)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (unsigned int)(v % size);
}

static struct timer_slot *timer_slot(struct trace_attr *a,
				     unsigned long long timer)
{
	return &a->timers[hash(timer, TIMERS)];
}

static bool tid_listed(const struct trace_attr *a, int tid)
{
	unsigned int i;

	for (i = 0; i < a->p.nr_tids; i++)
		if (a->p.tids[i] == tid)
			return true;
	return false;
}

static bool measured(const struct trace_attr *a, const struct trace_task *t)
{
	if (t->pid <= 0)
		return false;
	if (a->p.tids)
		return tid_listed(a, t->pid);
	/* cyclictest's measuring threads are RT; its main thread is not. */
	return t->prio >= 0 && t->prio < 100 && !strcmp(t->comm, a->comm);
}

/* The pending slot of tid: found, or a free one when create is set. */
static struct pending *thread_slot(struct trace_attr *a, int tid, bool create)
{
	unsigned int i, h = hash(tid, THREADS);

	for (i = 0; i < THREADS; i++) {
		struct pending *p = &a->thread[(h + i) % THREADS];

		if (p->tid == tid)
			return p;
		if (!p->tid) {
			if (!create)
				return NULL;
			p->tid = tid;
			return p;
		}
	}
	return NULL;
}

static void remember(struct trace_attr *a, const struct trace_task *t)
{
	struct known_task *k;

	if (t->pid <= 0)
		return;
	k = &a->tasks[hash(t->pid, TASKS)];
	k->pid = t->pid;
	k->prio = t->prio;
	memcpy(k->comm, t->comm, sizeof(k->comm));
}

static void recall(const struct trace_attr *a, int pid, struct trace_task *t)
{
	const struct known_task *k = &a->tasks[hash(pid, TASKS)];

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->prio = 120;
	if (k->pid == pid && pid > 0) {
		t->prio = k->prio;
		memcpy(t->comm, k->comm, sizeof(t->comm));
	} else {
		snprintf(t->comm, sizeof(t->comm), pid ? "?" : "<idle>");
	}
}

static void ctx_task(struct ctx *x, const struct trace_task *t)
{
	memset(x, 0, sizeof(*x));
	x->kind = t->pid == 0 ? TRACE_ATTR_OTHER : TRACE_ATTR_TASK;
	x->pid = t->pid;
	x->prio = t->prio;
	x->irq = -1;
	snprintf(x->name, sizeof(x->name), "%s", t->comm);
}

static void push(struct cpu_state *c, const struct ctx *x,
		 unsigned long long ts)
{
	if (c->depth >= STACK)
		return;
	c->stack[c->depth] = *x;
	c->stack_ts[c->depth] = ts;
	c->depth++;
	mark(c, ts);
}

static void pop(struct cpu_state *c, int kind, unsigned long long ts)
{
	/* Unbalanced exits (tracing began inside an irq) are ignored. */
	if (!c->depth || c->stack[c->depth - 1].kind != kind)
		return;
	c->depth--;
	mark(c, ts);
}

struct acc {
	struct trace_attr_part part[SCRATCH];
	int nr;
	unsigned long long other;
};

static void acc_add(struct acc *acc, const struct ctx *x,
		    unsigned long long ns)
{
	struct trace_attr_part *p;
	int i;

	if (!ns)
		return;
	if (x->kind == TRACE_ATTR_OTHER) {
		acc->other += ns;
		return;
	}
	for (i = 0; i < acc->nr; i++) {
		p = &acc->part[i];
		if (p->kind == x->kind && p->pid == x->pid &&
		    p->irq == x->irq && p->extended == x->extended &&
		    !strcmp(p->name, x->name)) {
			p->ns += ns;
			return;
		}
	}
	if (acc->nr == SCRATCH) {
		acc->other += ns;
		return;
	}
	p = &acc->part[acc->nr++];
	memset(p, 0, sizeof(*p));
	p->kind = x->kind;
	p->pid = x->pid;
	p->prio = x->prio;
	p->irq = x->irq;
	p->extended = x->extended;
	snprintf(p->name, sizeof(p->name), "%s", x->name);
	p->ns = ns;
}

static unsigned long long overlap(unsigned long long a0,
				  unsigned long long a1,
				  unsigned long long b0,
				  unsigned long long b1)
{
	unsigned long long lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* Splits [from, to) over the CPU's history, newest segment first. */
static bool split(const struct cpu_state *c, unsigned long long from,
		  unsigned long long to, struct acc *acc)
{
	unsigned long long end = to;
	unsigned int i;

	for (i = 0; i < c->count; i++) {
		const struct seg *s = &c->ring[(c->head + HISTORY - 1 - i) %
					       HISTORY];

		acc_add(acc, &s->c, overlap(s->ts, end, from, to));
		if (s->ts <= from)
			return true;
		if (s->ts < end)
			end = s->ts;
	}
	/* The history does not reach back: the rest is unexplained. */
	if (end > from)
		acc->other += end - from;
	return false;
}

static int part_cmp(const void *x, const void *y)
{
	const struct trace_attr_part *p = x, *q = y;

	return p->ns < q->ns ? 1 : p->ns > q->ns ? -1 : 0;
}

static void acc_to_window(struct acc *acc, struct trace_attr_window *w)
{
	int i;

	qsort(acc->part, acc->nr, sizeof(acc->part[0]), part_cmp);
	w->nr_parts = acc->nr < TRACE_ATTR_PARTS ? acc->nr : TRACE_ATTR_PARTS;
	memcpy(w->part, acc->part, w->nr_parts * sizeof(w->part[0]));
	w->other_ns = acc->other;
	for (i = w->nr_parts; i < acc->nr; i++)
		w->other_ns += acc->part[i].ns;
}

static void keep_top(struct trace_attr *a, const struct trace_attr_window *w)
{
	unsigned int i;

	if (a->nr_top == a->top_n &&
	    a->top[a->nr_top - 1].latency_ns >= w->latency_ns)
		return;
	i = a->nr_top < a->top_n ? a->nr_top++ : a->nr_top - 1;
	while (i > 0 && a->top[i - 1].latency_ns < w->latency_ns) {
		a->top[i] = a->top[i - 1];
		i--;
	}
	a->top[i] = *w;
}

static unsigned long long distance(unsigned long long x,
				   unsigned long long y)
{
	return x > y ? x - y : y - x;
}

/*
 * cyclictest stops at its break: the thread's last window is it. With the
 * break value known, the window closest to it is taken instead, so that a
 * break whose switch-in is not in the trace is not pinned on a later one.
 */
static void keep_break(struct trace_attr *a,
		       const struct trace_attr_window *w)
{
	unsigned long long want = a->p.break_us * 1000ULL;

	if (!want || !a->have_brk ||
	    distance(w->latency_ns, want) <=
	    distance(a->brk.latency_ns, want)) {
		a->brk = *w;
		a->have_brk = true;
	}
}

/* Does the window match cyclictest's number (its return to user added)? */
static bool break_matches(const struct trace_attr *a,
			  const struct trace_attr_window *w)
{
	unsigned long long want = a->p.break_us * 1000ULL;
	unsigned long long d = distance(w->latency_ns, want);

	return !want || d <= 30000 || d <= want / 4;
}

static void close_window(struct trace_attr *a, struct pending *p,
			 int cpu, struct cpu_state *c, unsigned long long ts)
{
	struct trace_attr_window w;
	struct ctx late = { .kind = TRACE_ATTR_TIMER_LATE, .irq = -1 };
	struct acc acc = { .nr = 0 };
	unsigned long long from;

	memset(&w, 0, sizeof(w));
	w.cpu = cpu;
	w.tid = p->tid;
	w.start_ns = p->start_ts;
	w.wake_ns = p->wake_ts;
	w.run_ns = ts;
	w.latency_ns = ts > p->start_ts ? ts - p->start_ts : 0;
	w.from_timer = p->from_timer;
	from = p->irq_ts > p->start_ts ? p->irq_ts : p->start_ts;
	if (from > ts)
		from = ts;
	acc_add(&acc, &late, from - p->start_ts);
	if (!split(c, from, ts, &acc))
		w.partial = true;
	if (c->gap_ts && c->gap_ts > p->start_ts)
		w.partial = true;
	acc_to_window(&acc, &w);
	/*
	 * cyclictest measures timer wake-ups; with timer events in the
	 * trace, other wake-ups of its threads (start-up, futexes) are not
	 * measurements.
	 */
	if (a->seen_timer && !p->timer_wake)
		return;
	a->nr_wakeups++;
	keep_top(a, &w);
	if (a->p.break_tid && p->tid == a->p.break_tid)
		keep_break(a, &w);
}

static void on_wake(struct trace_attr *a, const struct trace_ev *ev,
		    struct cpu_state *c)
{
	struct pending *p;
	struct timer_slot *t;
	long long late;

	remember(a, &ev->wake.task);
	if (!measured(a, &ev->wake.task))
		return;
	p = thread_slot(a, ev->wake.task.pid, true);
	/* sched_waking comes first; sched_wakeup only when it is absent. */
	if (!p || p->waiting)
		return;
	p->waiting = true;
	p->wake_cpu = ev->cpu;
	p->wake_ts = ev->ts;
	p->start_ts = ev->ts;
	p->irq_ts = ev->ts;
	p->from_timer = false;
	p->timer_wake = c->in_timer;
	if (!c->in_timer)
		return;
	p->irq_ts = c->depth > 0 ? c->stack_ts[0] : c->timer_ts;
	t = timer_slot(a, c->timer);
	if (t->timer != c->timer)
		return;
	late = c->timer_now - t->expires;
	if (late < 0 || (unsigned long long)late > MAX_LATE_NS ||
	    (unsigned long long)late > c->timer_ts)
		return;
	p->start_ts = c->timer_ts - late;
	if (p->irq_ts < p->start_ts)
		p->irq_ts = p->start_ts;
	p->from_timer = true;
}

/* The measured thread is running although its switch-in was not seen. */
static void drop_pending(struct trace_attr *a, int pid)
{
	struct pending *p = thread_slot(a, pid, false);

	if (p && p->waiting) {
		p->waiting = false;
		a->unmatched++;
	}
}

/*
 * A task leaving idle unseen (seen on two VMs: 0 and 124 of 4271 switches
 * away from the idle task recorded) just starts making events. Idle gives
 * the CPU up as soon as its irq is done, so the switch is taken at idle's
 * last event: a few microseconds early at most, and not at the task's
 * first event, which for a spinner comes at the end of its spin. A
 * measured thread's window closes there, where dropping it would lose
 * exactly the wake-ups that host noise delayed (a late timer irq on an
 * idle CPU).
 */
static bool switch_from_idle(struct trace_attr *a, const struct trace_ev *ev,
			     struct cpu_state *c, int pid)
{
	struct pending *p = thread_slot(a, pid, false);
	unsigned long long ts = c->last_ts;
	struct trace_task t;

	if (c->task.pid != 0)
		return false;
	if (p && p->waiting && p->wake_ts > ts)
		ts = p->wake_ts;
	if (!ts || ts > ev->ts)
		ts = ev->ts;
	recall(a, pid, &t);
	ctx_task(&c->task, &t);
	c->depth = 0;
	mark(c, ts);
	if (p && p->waiting) {
		close_window(a, p, ev->cpu, c, ts);
		p->waiting = false;
	} else {
		a->unseen++;
	}
	return true;
}

/*
 * Some kernels do not trace every switch (seen on a VM: none from one
 * agent thread). The task an event runs in tells who really had the CPU:
 * follow it, and mark the history around as uncertain.
 */
static void check_current(struct trace_attr *a, const struct trace_ev *ev,
			  struct cpu_state *c)
{
	struct trace_task t;
	int pid = ev->type == TRACE_EV_SWITCH ? ev->sw.prev.pid : ev->pid;

	if (pid < 0 || pid == c->task.pid)
		return;
	if (switch_from_idle(a, ev, c, pid))
		return;
	if (c->task.pid >= 0) {
		c->gap_ts = ev->ts;
		a->unseen++;
	}
	recall(a, pid, &t);
	ctx_task(&c->task, &t);
	if (ev->type != TRACE_EV_SWITCH)
		mark(c, ev->ts);
	drop_pending(a, pid);
}

static void on_switch(struct trace_attr *a, const struct trace_ev *ev,
		      struct cpu_state *c)
{
	struct pending *p;

	remember(a, &ev->sw.prev);
	remember(a, &ev->sw.next);
	if (ev->sw.prev.pid == c->ext_pid)
		c->ext_pid = -1;
	/* A switch never happens inside an irq: resynchronise. */
	c->depth = 0;
	ctx_task(&c->task, &ev->sw.next);
	mark(c, ev->ts);
	p = thread_slot(a, ev->sw.next.pid, false);
	if (p && p->waiting) {
		close_window(a, p, ev->cpu, c, ev->ts);
		p->waiting = false;
	}
}

static void on_irq(const struct trace_ev *ev, struct cpu_state *c, int kind)
{
	struct ctx x = { .kind = kind, .irq = ev->irq.irq, .pid = -1 };

	snprintf(x.name, sizeof(x.name), "%s", ev->irq.name);
	push(c, &x, ev->ts);
}

static void on_hrtimer(struct trace_attr *a, const struct trace_ev *ev,
		       struct cpu_state *c)
{
	struct ctx x = { .kind = TRACE_ATTR_IRQ, .irq = -1, .pid = -1,
			 .pseudo = true };
	struct timer_slot *t;

	switch (ev->type) {
	case TRACE_EV_HRTIMER_START:
		t = timer_slot(a, ev->hrt.timer);
		t->timer = ev->hrt.timer;
		t->expires = ev->hrt.expires;
		break;
	case TRACE_EV_HRTIMER_ENTRY:
		a->seen_timer = true;
		c->in_timer = true;
		c->timer = ev->hrt.timer;
		c->timer_ts = ev->ts;
		c->timer_now = ev->hrt.now;
		/* No irq event around it (no irq_vectors): stand in. */
		if (!c->depth) {
			snprintf(x.name, sizeof(x.name), "hrtimer");
			push(c, &x, ev->ts);
		}
		break;
	case TRACE_EV_HRTIMER_EXIT:
		c->in_timer = false;
		if (c->depth && c->stack[c->depth - 1].pseudo)
			pop(c, TRACE_ATTR_IRQ, ev->ts);
		break;
	}
}

static void on_ext(const struct trace_ev *ev, struct cpu_state *c)
{
	if (ev->type == TRACE_EV_EXT_GRANT)
		c->ext_pid = ev->ext.pid;
	else if (c->ext_pid == ev->ext.pid)
		c->ext_pid = -1;
	mark(c, ev->ts);
}

int trace_attr_event(const struct trace_ev *ev, void *data)
{
	struct trace_attr *a = data;
	struct cpu_state *c = cpu_get(a, ev->cpu);

	if (!c) {
		a->err = -ENOMEM;
		return a->err;
	}
	if (!a->first_ts || ev->ts < a->first_ts)
		a->first_ts = ev->ts;
	if (ev->ts > a->last_ts)
		a->last_ts = ev->ts;
	if (ev->missed) {
		a->missed += ev->missed;
		c->gap_ts = ev->ts;
		c->depth = 0;
	}
	check_current(a, ev, c);
	switch (ev->type) {
	case TRACE_EV_SWITCH:
		on_switch(a, ev, c);
		break;
	case TRACE_EV_WAKING:
	case TRACE_EV_WAKEUP:
		on_wake(a, ev, c);
		break;
	case TRACE_EV_WAKEUP_NEW:
		remember(a, &ev->wake.task);
		break;
	case TRACE_EV_IRQ_ENTRY:
		on_irq(ev, c, TRACE_ATTR_IRQ);
		break;
	case TRACE_EV_SOFTIRQ_ENTRY:
		on_irq(ev, c, TRACE_ATTR_SOFTIRQ);
		break;
	case TRACE_EV_IRQ_EXIT:
		pop(c, TRACE_ATTR_IRQ, ev->ts);
		break;
	case TRACE_EV_SOFTIRQ_EXIT:
		pop(c, TRACE_ATTR_SOFTIRQ, ev->ts);
		break;
	case TRACE_EV_HRTIMER_START:
	case TRACE_EV_HRTIMER_ENTRY:
	case TRACE_EV_HRTIMER_EXIT:
		on_hrtimer(a, ev, c);
		break;
	case TRACE_EV_EXT_GRANT:
	case TRACE_EV_EXT_END:
		on_ext(ev, c);
		break;
	}
	c->last_ts = ev->ts;
	return 0;
}

static bool same_window(const struct trace_attr_window *x,
			const struct trace_attr_window *y)
{
	return x->tid == y->tid && x->run_ns == y->run_ns;
}

/*
 * The break stops the buffer in the kernel (a traceoff trigger in the
 * thread's own sched_setscheduler call) before the thread has made any
 * event of its own: the trace ends with its wake-up still open. It ran
 * right after the last event of its CPU.
 */
static void close_break(struct trace_attr *a)
{
	struct pending *p = a->p.break_tid ?
			    thread_slot(a, a->p.break_tid, false) : NULL;
	struct cpu_state *c;

	if (!p || !p->waiting || p->wake_cpu < 0 ||
	    p->wake_cpu >= a->nr_cpus)
		return;
	c = &a->cpu[p->wake_cpu];
	if (c->last_ts < p->wake_ts)
		return;
	close_window(a, p, p->wake_cpu, c, c->last_ts);
	p->waiting = false;
}

int trace_attr_finish(struct trace_attr *a, struct trace_attr_result *r)
{
	unsigned int i, n;
	int ret = a->err;

	memset(r, 0, sizeof(*r));
	r->break_idx = -1;
	if (ret)
		goto out;
	close_break(a);
	n = a->nr_top + 1;
	r->win = calloc(n, sizeof(*r->win));
	if (!r->win) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(r->win, a->top, a->nr_top * sizeof(*r->win));
	r->nr_win = a->nr_top;
	if (a->have_brk && break_matches(a, &a->brk)) {
		for (i = 0; i < r->nr_win; i++)
			if (same_window(&r->win[i], &a->brk))
				break;
		if (i == r->nr_win)
			r->win[r->nr_win++] = a->brk;
		r->win[i].is_break = true;
		r->break_idx = i;
	}
	r->nr_wakeups = a->nr_wakeups;
	r->first_ts = a->first_ts;
	r->last_ts = a->last_ts;
	r->missed = a->missed;
	r->unseen_switches = a->unseen;
	r->unmatched = a->unmatched;
out:
	attr_free(a);
	return ret;
}

void trace_attr_result_free(struct trace_attr_result *r)
{
	free(r->win);
	r->win = NULL;
	r->nr_win = 0;
}

int trace_attr_file(const char *path, const struct trace_attr_params *p,
		    struct trace_attr_result *r)
{
	struct trace_attr *a = trace_attr_new(p);
	int ret;

	memset(r, 0, sizeof(*r));
	r->break_idx = -1;
	if (!a)
		return -ENOMEM;
	ret = trace_file_read(path, trace_attr_event, a, NULL);
	if (ret) {
		attr_free(a);
		return ret;
	}
	return trace_attr_finish(a, r);
}
