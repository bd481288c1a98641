// SPDX-License-Identifier: GPL-2.0-only
/*
 * setparam's scheduler calls (setparam_sched.h): the task's policy and
 * slice read, and a slice set through sched_setattr.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/setparam/setparam_sched.h"

/* include/uapi/linux/sched/types.h, SCHED_ATTR_SIZE_VER1 */
struct sp_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static int get_attr(struct sp_sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	if (syscall(SYS_sched_getattr, 0, a, sizeof(*a), 0))
		return -errno;
	return 0;
}

int sp_state_read(struct sp_state *st)
{
	struct sp_sched_attr a;
	cpu_set_t set;
	int ret;

	ret = get_attr(&a);
	if (ret)
		return ret;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	st->policy = (int)a.sched_policy;
	st->nice = a.sched_nice;
	st->slice_ns = a.sched_runtime;
	st->cpu = sched_getcpu();
	st->nr_allowed = CPU_COUNT(&set);
	return 0;
}

int sp_set_slice(uint64_t slice_ns)
{
	struct sp_sched_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_OTHER,
		.sched_nice = 0,
		.sched_runtime = slice_ns,
	};

	if (syscall(SYS_sched_setattr, 0, &a, 0))
		return -errno;
	return 0;
}
