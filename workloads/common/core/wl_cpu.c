// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads' CPUs (wl_cpu.h): which are allowed, and pinning to one.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "log.h"
#include "workloads/common/core/wl_cpu.h"

int wl_cpu_first_allowed(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

unsigned int wl_cpu_count_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set) ? CPU_COUNT(&set) : 1;
}

int wl_cpu_pin(int cpu)
{
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		return 0;
	ret = -errno;
	pr_err("sched_setaffinity(CPU %d): %s", cpu, strerror(-ret));
	return ret;
}
