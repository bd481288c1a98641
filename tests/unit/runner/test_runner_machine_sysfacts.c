// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system facts (runner/runner_sysfacts.c) read from a planted root:
 * every fact from its kernel file, offline CPUs and unreadable IRQs left
 * out, and a root with nothing in it (a VM without DMI, cpuidle, NUMA)
 * giving every key as null, never an error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "jsonio.h"
#include "runner/machine/machine.h"

static const char *const keys[] = {
	"clocksource", "cpuidle", "cpu_dma_latency_us", "sched_rt_runtime_us", "sched_rt_period_us",
	"irq_affinity", "thp", "smt_active", "numa", "microcode",
	"dmi_sys_vendor", "dmi_product_name",
};
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

static char root[] = "/tmp/rtgate-unit-sysfacts.XXXXXX";

/* Writes @text to @rel under the root, making its directories. */
static void plant(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* /dev/cpu_dma_latency as the kernel reads it: a native s32. */
static void plant_dma(int32_t us)
{
	char path[512];
	FILE *f;

	plant("dev/cpu_dma_latency", "");
	snprintf(path, sizeof(path), "%s/dev/cpu_dma_latency", root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(&us, sizeof(us), 1, f), 1);
	fclose(f);
}

static void plant_state(int cpu, int state, const char *name, int lat,
			int disable)
{
	char rel[256], buf[32];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/"
		 "state%d/name", cpu, state);
	snprintf(buf, sizeof(buf), "%s\n", name);
	plant(rel, buf);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/"
		 "state%d/latency", cpu, state);
	snprintf(buf, sizeof(buf), "%d\n", lat);
	plant(rel, buf);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/"
		 "state%d/disable", cpu, state);
	snprintf(buf, sizeof(buf), "%d\n", disable);
	plant(rel, buf);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

static const cJSON *get(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_non_null(v);
	return v;
}

/* Runs first: nothing planted yet, so every fact is absent. */
static void test_absent(void **state)
{
	cJSON *o;
	size_t i;

	(void)state;
	o = runner_sysfacts_record(root);
	assert_non_null(o);
	assert_int_equal(cJSON_GetArraySize(o), NKEYS);
	for (i = 0; i < NKEYS; i++)
		assert_true(cJSON_IsNull(get(o, keys[i])));
	cJSON_Delete(o);
}

static void test_planted(void **state)
{
	const cJSON *idle, *st, *irq, *per, *numa;
	cJSON *o;
	int cpu;

	(void)state;
	plant("sys/devices/system/cpu/online", "0-3\n");
	plant("sys/devices/system/clocksource/clocksource0/"
	      "current_clocksource", "tsc\n");
	plant("sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
	plant("sys/devices/system/cpu/cpuidle/current_governor_ro", "menu\n");
	plant_dma(20);
	for (cpu = 0; cpu < 6; cpu++) {
		/* C6 off on CPUs 2-3 and on offline CPU 5 (not counted). */
		plant_state(cpu, 0, "POLL", 0, 0);
		plant_state(cpu, 1, "C1", 2, 0);
		plant_state(cpu, 2, "C6", 133, cpu == 2 || cpu == 3 ||
			    cpu == 5);
	}
	plant("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	plant("proc/sys/kernel/sched_rt_period_us", "1000000\n");
	plant("proc/irq/0/smp_affinity_list", "0-3\n");
	plant("proc/irq/1/smp_affinity_list", "0-1\n");
	plant("proc/irq/9/smp_affinity_list", "0-2\n");
	plant("proc/irq/12/spurious", "0\n");	/* no affinity: left out */
	plant("proc/irq/default_smp_affinity", "f\n");	/* not an IRQ */
	plant("sys/kernel/mm/transparent_hugepage/enabled",
	      "always [madvise] never\n");
	plant("sys/devices/system/cpu/smt/active", "0\n");
	plant("sys/devices/system/node/node1/cpulist", "2-3\n");
	plant("sys/devices/system/node/node0/cpulist", "0-1\n");
	plant("sys/devices/system/node/possible", "0-1\n");
	plant("proc/cpuinfo", "processor\t: 0\nmodel name\t: X\n"
	      "microcode\t: 0xf0\n\nprocessor\t: 1\nmicrocode\t: 0xf1\n");
	plant("sys/class/dmi/id/sys_vendor", "QEMU\n");

	o = runner_sysfacts_record(root);
	assert_non_null(o);
	assert_int_equal(cJSON_GetArraySize(o), NKEYS);
	assert_string_equal(get(o, "clocksource")->valuestring, "tsc");

	idle = get(o, "cpuidle");
	assert_string_equal(get(idle, "driver")->valuestring, "intel_idle");
	/* Before 5.8 only current_governor_ro exists. */
	assert_string_equal(get(idle, "governor")->valuestring, "menu");
	assert_int_equal(get(o, "cpu_dma_latency_us")->valueint, 20);
	assert_int_equal(cJSON_GetArraySize(get(idle, "states")), 3);
	st = cJSON_GetArrayItem(get(idle, "states"), 2);
	assert_string_equal(get(st, "name")->valuestring, "C6");
	assert_int_equal(get(st, "latency_us")->valueint, 133);
	assert_string_equal(get(st, "disabled_cpus")->valuestring, "2-3");
	st = cJSON_GetArrayItem(get(idle, "states"), 0);
	assert_string_equal(get(st, "name")->valuestring, "POLL");
	assert_string_equal(get(st, "disabled_cpus")->valuestring, "");

	assert_int_equal(get(o, "sched_rt_runtime_us")->valueint, -1);
	assert_int_equal(get(o, "sched_rt_period_us")->valueint, 1000000);

	irq = get(o, "irq_affinity");
	assert_int_equal(get(irq, "irqs")->valueint, 3);
	per = get(irq, "per_cpu");
	assert_int_equal(cJSON_GetArraySize(per), 4);
	assert_int_equal(get(per, "0")->valueint, 3);
	assert_int_equal(get(per, "2")->valueint, 2);
	assert_int_equal(get(per, "3")->valueint, 1);

	assert_string_equal(get(o, "thp")->valuestring, "madvise");
	assert_true(cJSON_IsFalse(get(o, "smt_active")));
	numa = get(o, "numa");
	assert_int_equal(cJSON_GetArraySize(numa), 2);
	assert_string_equal(numa->child->string, "node0");
	assert_string_equal(get(numa, "node1")->valuestring, "2-3");
	assert_string_equal(get(o, "microcode")->valuestring, "0xf0");
	assert_string_equal(get(o, "dmi_sys_vendor")->valuestring, "QEMU");
	assert_true(cJSON_IsNull(get(o, "dmi_product_name")));
	cJSON_Delete(o);
}

/* current_governor wins over _ro; the device's s32 as it reads. */
static void test_governor_dma(void **state)
{
	cJSON *o;

	(void)state;
	plant("sys/devices/system/cpu/cpuidle/current_governor", "teo\n");
	plant_dma(2000000000);
	o = runner_sysfacts_record(root);
	assert_non_null(o);
	assert_string_equal(get(get(o, "cpuidle"), "governor")->valuestring,
			    "teo");
	assert_int_equal(get(o, "cpu_dma_latency_us")->valuedouble,
			 2000000000);
	cJSON_Delete(o);
	/* A short read is no value. */
	plant("dev/cpu_dma_latency", "0");
	o = runner_sysfacts_record(root);
	assert_true(cJSON_IsNull(get(o, "cpu_dma_latency_us")));
	cJSON_Delete(o);
}

/* This machine: every key there, whatever it has. */
static void test_this_machine(void **state)
{
	cJSON *o;
	size_t i;

	(void)state;
	o = runner_sysfacts_record("");
	assert_non_null(o);
	for (i = 0; i < NKEYS; i++)
		get(o, keys[i]);
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_planted),
		cmocka_unit_test(test_governor_dma),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
