/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calling thread's fair-class state, through sched_getattr() and
 * sched_setattr() (no glibc wrappers): policy, nice, slice and CPU. The
 * benchmark checks it before and after its loop and restores it.
 */
#ifndef RTGATE_SETPARAM_SCHED_H
#define RTGATE_SETPARAM_SCHED_H

#include <sched.h>
#include <stdint.h>

struct sp_state {
	int policy;
	int nice;
	uint64_t slice_ns;	/* sched_runtime as the kernel reports it */
	int cpu;		/* sched_getcpu() */
	int nr_allowed;		/* CPUs in the affinity mask */
};

int sp_state_read(struct sp_state *st);

/* slice_ns 0: the default slice (sched_runtime 0); else a custom slice. */
int sp_set_slice(uint64_t slice_ns);

/* The no-change call the benchmark times: sched_setparam(0, prio 0). */
static inline int sp_setparam_nochange(void)
{
	static const struct sched_param zero = { .sched_priority = 0 };

	return sched_setparam(0, &zero);
}

#endif
