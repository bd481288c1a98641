// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system facts of a run (machine.h). Every path is relative
 * to a root, so that a test reads a planted tree; every file is opened
 * read-only. CPU facts follow the online CPUs (cpu/online), so an
 * offline CPU's stale cpuidle files say nothing.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "parse.h"
#include "runner/machine/machine.h"

#define SYS_CPU		"sys/devices/system/cpu"
#define SYS_NODE	"sys/devices/system/node"

struct sysfacts {
	const char *root;
	cpu_set_t online;
	int first;		/* the lowest online CPU */
};

static int sf_read(const struct sysfacts *sf, char *buf, size_t len,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Reads the file @fmt names under the root: 0 or -errno. */
static int sf_read(const struct sysfacts *sf, char *buf, size_t len,
		   const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", sf->root, rel);
	return fsio_read_str(path, buf, len);
}

static void sf_path(const struct sysfacts *sf, const char *rel, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s/%s", sf->root, rel);
}

/* The file as a string, or null. */
static void add_str(cJSON *o, const char *key, const struct sysfacts *sf,
		    const char *rel)
{
	char buf[512];

	if (sf_read(sf, buf, sizeof(buf), "%s", rel) || !buf[0])
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddStringToObject(o, key, buf);
}

/* The file as a whole number (sched_rt_runtime_us may be -1), or null. */
static void add_int(cJSON *o, const char *key, const struct sysfacts *sf,
		    const char *rel)
{
	char buf[64];
	int64_t v;

	if (sf_read(sf, buf, sizeof(buf), "%s", rel) ||
	    parse_s64(parse_strip(buf), &v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)v);
}

static void online_cpus(struct sysfacts *sf)
{
	char buf[1024];
	int cpu;

	if (sf_read(sf, buf, sizeof(buf), SYS_CPU "/online") ||
	    parse_cpulist(parse_strip(buf), &sf->online)) {
		CPU_ZERO(&sf->online);
		CPU_SET(0, &sf->online);
	}
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &sf->online); cpu++)
		;
	sf->first = cpu;
}

/* ---- cpuidle ------------------------------------------------------------ */

/*
 * The first online CPU's states in order (name, exit latency) and, per
 * state, the online CPUs where it is disabled: an RT machine disables the
 * deep states on its measured CPUs, and this shows whether it did.
 */
static cJSON *cpuidle_json(const struct sysfacts *sf)
{
	char name[64], lat[32], dis[8], list[1024];
	cJSON *o, *states, *st;
	cpu_set_t off;
	int64_t us;
	int i, cpu;

	if (sf_read(sf, name, sizeof(name),
		    SYS_CPU "/cpu%d/cpuidle/state0/name", sf->first))
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	add_str(o, "driver", sf, SYS_CPU "/cpuidle/current_driver");
	/* current_governor_ro without cpuidle_sysfs_switch (before 5.8). */
	if (sf_read(sf, name, sizeof(name), SYS_CPU
		    "/cpuidle/current_governor") || !name[0])
		add_str(o, "governor", sf, SYS_CPU
			"/cpuidle/current_governor_ro");
	else
		cJSON_AddStringToObject(o, "governor", name);
	states = cJSON_AddArrayToObject(o, "states");
	for (i = 0; !sf_read(sf, name, sizeof(name),
			     SYS_CPU "/cpu%d/cpuidle/state%d/name",
			     sf->first, i); i++) {
		st = cJSON_CreateObject();
		cJSON_AddStringToObject(st, "name", name);
		if (sf_read(sf, lat, sizeof(lat),
			    SYS_CPU "/cpu%d/cpuidle/state%d/latency",
			    sf->first, i) || parse_s64(lat, &us))
			cJSON_AddNullToObject(st, "latency_us");
		else
			cJSON_AddNumberToObject(st, "latency_us", (double)us);
		CPU_ZERO(&off);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &sf->online) &&
			    !sf_read(sf, dis, sizeof(dis), SYS_CPU
				     "/cpu%d/cpuidle/state%d/disable", cpu,
				     i) && !strcmp(dis, "1"))
				CPU_SET(cpu, &off);
		if (parse_cpulist_format(&off, list, sizeof(list)) < 0)
			list[0] = '\0';
		cJSON_AddStringToObject(st, "disabled_cpus", list);
		cJSON_AddItemToArray(states, st);
	}
	return o;
}

/* ---- PM QoS -------------------------------------------------------------- */

/*
 * The CPU latency limit /dev/cpu_dma_latency holds before the run, in us:
 * the device reads as the kernel's s32 (2000000000 when nobody asks for
 * one). tuned and other daemons hold it open; cyclictest sets it to 0
 * while it measures unless told otherwise (its options are the
 * measurement's). Opening it adds a request of the default value, which
 * constrains nothing. Null when there is no device or it is not readable
 * (not root).
 */
static cJSON *dma_latency_json(const struct sysfacts *sf)
{
	char path[PATH_MAX];
	int32_t v;
	ssize_t n;
	int fd;

	sf_path(sf, "dev/cpu_dma_latency", path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cJSON_CreateNull();
	n = read(fd, &v, sizeof(v));
	close(fd);
	if (n != (ssize_t)sizeof(v) || v < 0)
		return cJSON_CreateNull();
	return cJSON_CreateNumber(v);
}

/* ---- IRQ affinity -------------------------------------------------------- */

/*
 * How many IRQs (of /proc/irq, by smp_affinity_list) may run on each
 * online CPU: a measured CPU shielded from device interrupts shows few
 * or none; one that every IRQ may land on shows them all.
 */
static cJSON *irq_json(const struct sysfacts *sf)
{
	int count[CPU_SETSIZE] = { 0 };
	char path[PATH_MAX], list[4096], key[16];
	cJSON *o, *per;
	struct dirent *de;
	cpu_set_t set;
	int irqs = 0, cpu;
	DIR *d;

	sf_path(sf, "proc/irq", path, sizeof(path));
	d = opendir(path);
	if (!d)
		return cJSON_CreateNull();
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (sf_read(sf, list, sizeof(list),
			    "proc/irq/%s/smp_affinity_list", de->d_name) ||
		    parse_cpulist(parse_strip(list), &set))
			continue;
		irqs++;
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			count[cpu] += !!CPU_ISSET(cpu, &set);
	}
	closedir(d);
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "irqs", irqs);
	per = cJSON_AddObjectToObject(o, "per_cpu");
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &sf->online))
			continue;
		snprintf(key, sizeof(key), "%d", cpu);
		cJSON_AddNumberToObject(per, key, count[cpu]);
	}
	return o;
}

/* ---- memory, topology, firmware ----------------------------------------- */

/* "always [madvise] never": the bracketed word, or null. */
static cJSON *thp_json(const struct sysfacts *sf)
{
	char buf[256], *open_p, *close_p;

	if (sf_read(sf, buf, sizeof(buf),
		    "sys/kernel/mm/transparent_hugepage/enabled"))
		return cJSON_CreateNull();
	open_p = strchr(buf, '[');
	close_p = open_p ? strchr(open_p, ']') : NULL;
	if (!close_p)
		return cJSON_CreateNull();
	*close_p = '\0';
	return cJSON_CreateString(open_p + 1);
}

static cJSON *smt_json(const struct sysfacts *sf)
{
	char buf[8];

	if (sf_read(sf, buf, sizeof(buf), SYS_CPU "/smt/active") ||
	    (strcmp(buf, "0") && strcmp(buf, "1")))
		return cJSON_CreateNull();
	return cJSON_CreateBool(!strcmp(buf, "1"));
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* {"node0": "0-3", "node1": "4-7"}, in node order; null without NUMA. */
static cJSON *numa_json(const struct sysfacts *sf)
{
	char path[PATH_MAX], list[1024], key[32];
	int nodes[1024], n = 0, i, id;
	struct dirent *de;
	cJSON *o;
	DIR *d;

	sf_path(sf, SYS_NODE, path, sizeof(path));
	d = opendir(path);
	if (!d)
		return cJSON_CreateNull();
	while ((de = readdir(d)) && n < 1024) {
		char end;

		if (sscanf(de->d_name, "node%d%c", &id, &end) == 1 && id >= 0)
			nodes[n++] = id;
	}
	closedir(d);
	if (!n)
		return cJSON_CreateNull();
	qsort(nodes, n, sizeof(nodes[0]), cmp_int);
	o = cJSON_CreateObject();
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "node%d", nodes[i]);
		if (sf_read(sf, list, sizeof(list), SYS_NODE "/node%d/cpulist",
			    nodes[i]))
			cJSON_AddNullToObject(o, key);
		else
			cJSON_AddStringToObject(o, key, list);
	}
	return o;
}

/* The first "microcode : 0x..." of /proc/cpuinfo (x86), or null. */
static cJSON *microcode_json(const struct sysfacts *sf)
{
	char path[PATH_MAX], *all, *p, *next, *val;
	cJSON *o = NULL;

	sf_path(sf, "proc/cpuinfo", path, sizeof(path));
	if (fsio_read_all(path, &all, NULL))
		return cJSON_CreateNull();
	for (p = all; p && !o; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		val = strchr(p, ':');
		if (strncmp(p, "microcode", 9) || !val)
			continue;
		val = parse_strip(val + 1);
		if (!*val)
			break;
		o = cJSON_CreateString(val);
	}
	free(all);
	return o ? o : cJSON_CreateNull();
}

cJSON *runner_sysfacts_record(const char *root)
{
	struct sysfacts sf = { .root = root ? root : "" };
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	online_cpus(&sf);
	add_str(o, "clocksource", &sf, "sys/devices/system/clocksource/"
		"clocksource0/current_clocksource");
	cJSON_AddItemToObject(o, "cpuidle", cpuidle_json(&sf));
	cJSON_AddItemToObject(o, "cpu_dma_latency_us", dma_latency_json(&sf));
	add_int(o, "sched_rt_runtime_us", &sf,
		"proc/sys/kernel/sched_rt_runtime_us");
	add_int(o, "sched_rt_period_us", &sf,
		"proc/sys/kernel/sched_rt_period_us");
	cJSON_AddItemToObject(o, "irq_affinity", irq_json(&sf));
	cJSON_AddItemToObject(o, "thp", thp_json(&sf));
	cJSON_AddItemToObject(o, "smt_active", smt_json(&sf));
	cJSON_AddItemToObject(o, "numa", numa_json(&sf));
	cJSON_AddItemToObject(o, "microcode", microcode_json(&sf));
	add_str(o, "dmi_sys_vendor", &sf, "sys/class/dmi/id/sys_vendor");
	add_str(o, "dmi_product_name", &sf, "sys/class/dmi/id/product_name");
	return o;
}
