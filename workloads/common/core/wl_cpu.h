/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPUs of this process's affinity mask: the defaults of --cpu and make -jN,
 * and pinning the calling thread to the CPU a workload measures on.
 */
#ifndef RTGATE_WL_CPU_H
#define RTGATE_WL_CPU_H

/* The lowest CPU we may run on; 0 when the mask cannot be read. */
int wl_cpu_first_allowed(void);

/* How many CPUs we may run on; 1 when the mask cannot be read. */
unsigned int wl_cpu_count_allowed(void);

/*
 * Pins the calling thread to cpu. Returns 0, or -errno after printing
 *   sysctl-read: sched_setaffinity(CPU 3): Invalid argument
 */
int wl_cpu_pin(int cpu);

#endif
