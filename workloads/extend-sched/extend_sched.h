/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * extend-sched: the lock-holder load of the slice-extension V5 thread.
 * Per CPU one lock thread (a spin lock shared by all CPUs, held for
 * cs_ns with an extension requested around it) and busy_per_cpu busy
 * threads that spin briefly and sleep.
 */
#ifndef RTGATE_EXTEND_SCHED_H
#define RTGATE_EXTEND_SCHED_H

#include <sched.h>
#include <stdint.h>

#include "workloads/common/core/wl_opt.h"
#include "workloads/extend-sched/extend_abi.h"

struct ext_params {
	cpu_set_t cpus;
	unsigned int busy_per_cpu;
	uint64_t cs_ns;		/* critical section (lock held) */
	uint64_t sleep_ns;	/* between lock grabs, plus the step per CPU */
	uint64_t sleep_step_ns;
	uint64_t busy_spin_ns;
	uint64_t busy_sleep_ns;
	int lock_nice, busy_nice;
	unsigned int lock_prio, busy_prio;	/* SCHED_FIFO; 0: SCHED_OTHER */
	int no_rseq;		/* -d: the control */
	int wait_extend;	/* -w: request while waiting for the lock */
	enum ext_abi abi;	/* what the lock threads use */
	struct wl_common co;	/* --duration (-t) */
};

/* One lock thread's counts; summed at the end. */
struct ext_lock_stats {
	uint64_t acquisitions;
	uint64_t contended;
	uint64_t requests;
	uint64_t granted;	/* the kernel said so (slice_ctrl.granted) */
	uint64_t dropped;	/* request cleared without a grant seen */
	uint64_t yields;	/* yield system calls made after a grant */
	uint64_t yields_in_grant;	/* rseq_slice_yield() returned 1 */
	uint64_t hold_sum_ns, hold_max_ns;
	uint64_t wait_sum_ns, wait_max_ns;
};

struct ext_run;

/*
 * The lock thread's pause after each release on CPU cpu: sleep_ns plus
 * cpu steps. 0 (--sleep-us 0 with a 0 step) means no sleep at all: it
 * grabs the lock again at once and never blocks, always runnable.
 */
static inline uint64_t ext_pause_ns(const struct ext_params *p, int cpu)
{
	return p->sleep_ns + (uint64_t)cpu * p->sleep_step_ns;
}

/* Starts every thread; returns 0 or -errno (after stopping what started). */
int ext_run_start(const struct ext_params *p, struct ext_run **out);
/* True once every lock thread took the lock once (the load is running). */
int ext_run_warm(const struct ext_run *run);
/* Stops and joins the threads, sums their counts, frees the run. */
void ext_run_finish(struct ext_run *run, struct ext_lock_stats *total,
		    uint64_t *busy_loops, int *thread_error);

#endif
