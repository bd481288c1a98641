// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system facts of the reports' header: what manifest.json's "system"
 * object (runner/machine/machine.h) and the recorded isolation say, put
 * into the words an RT engineer reads them in. A fact the kernel had no
 * interface for is "absent"; a manifest from before the facts were
 * recorded gives none of them (an_system_rows() says "not recorded").
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "jsonio.h"
#include "parse.h"
#include "rtpaths.h"
#include "textfmt.h"

#define ABSENT	"absent"

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The string fact @key, or "absent". */
static void str_fact(char *buf, size_t len, const cJSON *sys, const char *key)
{
	const cJSON *v = item(sys, key);

	rtpaths_fmt(buf, len, "%s", cJSON_IsString(v) && v->valuestring[0] ?
		    v->valuestring : ABSENT);
}

/* "QEMU Standard PC (Q35 + ICH9, 2009), microcode 0x1000065". */
static void machine(char *buf, size_t len, const cJSON *sys)
{
	const cJSON *vendor = item(sys, "dmi_sys_vendor");
	const cJSON *product = item(sys, "dmi_product_name");
	char mc[64];

	buf[0] = '\0';
	if (cJSON_IsString(vendor))
		text_appendf(buf, len, "%s", vendor->valuestring);
	if (cJSON_IsString(product))
		text_appendf(buf, len, "%s%s", buf[0] ? " " : "",
			     product->valuestring);
	if (!buf[0])
		text_appendf(buf, len, "DMI " ABSENT);
	str_fact(mc, sizeof(mc), sys, "microcode");
	text_appendf(buf, len, ", microcode %s", mc);
}

/* "SMT inactive (control notsupported), NUMA 1 node: node0 0-1". */
static void topology(char *buf, size_t len, const cJSON *sys,
		     const cJSON *host)
{
	const cJSON *smt = item(sys, "smt_active");
	const cJSON *numa = item(sys, "numa"), *node;
	const char *control = json_get_str(host, "smt", "");
	int n = cJSON_GetArraySize(numa);

	rtpaths_fmt(buf, len, "SMT %s", cJSON_IsBool(smt) ?
		    (cJSON_IsTrue(smt) ? "active" : "inactive") : ABSENT);
	if (control[0])
		text_appendf(buf, len, " (control %s)", control);
	if (!cJSON_IsObject(numa) || !n) {
		text_appendf(buf, len, ", NUMA " ABSENT);
		return;
	}
	text_appendf(buf, len, ", NUMA %d node%s:", n, n == 1 ? "" : "s");
	cJSON_ArrayForEach(node, numa)
		text_appendf(buf, len, " %s %s", node->string,
			     cJSON_IsString(node) ? node->valuestring : "?");
}

/* "intel_idle: POLL 0 us, C1 2 us, C6 133 us (disabled on CPUs 2-3)". */
static void cpuidle(char *buf, size_t len, const cJSON *sys)
{
	const cJSON *idle = item(sys, "cpuidle"), *st, *lat;
	const char *driver = json_get_str(idle, "driver", "");
	const char *off;
	bool first = true;

	if (!cJSON_IsObject(idle)) {
		rtpaths_fmt(buf, len, ABSENT);
		return;
	}
	rtpaths_fmt(buf, len, "%s%s", driver, driver[0] ? ": " : "");
	cJSON_ArrayForEach(st, item(idle, "states")) {
		lat = item(st, "latency_us");
		off = json_get_str(st, "disabled_cpus", "");
		text_appendf(buf, len, "%s%s", first ? "" : ", ",
			     json_get_str(st, "name", "?"));
		if (cJSON_IsNumber(lat))
			text_appendf(buf, len, " %.0f us", lat->valuedouble);
		if (off[0])
			text_appendf(buf, len, " (disabled on CPUs %s)", off);
		first = false;
	}
	if (first)
		text_appendf(buf, len, "no states");
}

/* "950000 of 1000000 us (RT tasks throttled at 95%)", "off (-1)". */
static void rt_throttle(char *buf, size_t len, const cJSON *sys)
{
	const cJSON *rt = item(sys, "sched_rt_runtime_us");
	const cJSON *period = item(sys, "sched_rt_period_us");

	if (!cJSON_IsNumber(rt))
		rtpaths_fmt(buf, len, ABSENT);
	else if (rt->valuedouble < 0)
		rtpaths_fmt(buf, len, "off (sched_rt_runtime_us -1)");
	else if (!cJSON_IsNumber(period) || period->valuedouble <= 0)
		rtpaths_fmt(buf, len, "sched_rt_runtime_us %.0f",
			    rt->valuedouble);
	else
		rtpaths_fmt(buf, len, "%.0f of %.0f us (RT tasks throttled at "
			    "%.0f%%)", rt->valuedouble, period->valuedouble,
			    100 * rt->valuedouble / period->valuedouble);
}

/*
 * "19 IRQs; CPUs 0-2 may take 19, CPU 3 may take 2": the online CPUs
 * grouped by how many IRQs their smp_affinity_list lets in, in CPU
 * order of each group's first CPU.
 */
static void irqs(char *buf, size_t len, const cJSON *sys)
{
	const cJSON *aff = item(sys, "irq_affinity");
	const cJSON *per = item(aff, "per_cpu"), *c, *d;
	char list[256];
	cpu_set_t set;
	int cpu;

	if (!cJSON_IsObject(aff)) {
		rtpaths_fmt(buf, len, ABSENT);
		return;
	}
	rtpaths_fmt(buf, len, "%.0f IRQs", json_get_num(aff, "irqs", 0));
	cJSON_ArrayForEach(c, per) {
		bool seen = false;

		/* A count already shown with an earlier CPU's group. */
		for (d = per->child; d != c; d = d->next)
			seen |= d->valuedouble == c->valuedouble;
		if (seen)
			continue;
		CPU_ZERO(&set);
		for (d = c; d; d = d->next) {
			cpu = atoi(d->string);
			if (d->valuedouble == c->valuedouble && cpu >= 0 &&
			    cpu < CPU_SETSIZE)
				CPU_SET(cpu, &set);
		}
		if (parse_cpulist_format(&set, list, sizeof(list)) < 0)
			rtpaths_fmt(list, sizeof(list), "...");
		text_appendf(buf, len, "%s CPU%s %s may take %.0f",
			     c == per->child ? ";" : ",",
			     CPU_COUNT(&set) > 1 ? "s" : "", list,
			     c->valuedouble);
	}
}

/* "isolcpus 3, nohz_full 3, stalld not running, tuned not running". */
static void isolation(char *buf, size_t len, const cJSON *m)
{
	const cJSON *k = item(m, "kernel"), *env = item(m, "environment");
	static const char *const lists[] = { "isolcpus", "nohz_full" };
	static const char *const daemons[] = { "stalld", "tuned" };
	char key[32];
	const cJSON *v;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < 2; i++) {
		v = item(k, lists[i]);
		if (cJSON_IsString(v))
			text_appendf(buf, len, "%s%s %s", buf[0] ? ", " : "",
				     lists[i], v->valuestring[0] ?
				     v->valuestring : "none");
	}
	for (i = 0; i < 2; i++) {
		rtpaths_fmt(key, sizeof(key), "%s_running", daemons[i]);
		v = item(env, key);
		if (cJSON_IsBool(v))
			text_appendf(buf, len, "%s%s %srunning",
				     buf[0] ? ", " : "", daemons[i],
				     cJSON_IsTrue(v) ? "" : "not ");
	}
}

void an_system_facts(const cJSON *m, struct an_system *s)
{
	const cJSON *sys = item(m, "system");

	isolation(s->isolation, sizeof(s->isolation), m);
	s->facts = cJSON_IsObject(sys);
	if (!s->facts)
		return;
	machine(s->machine, sizeof(s->machine), sys);
	topology(s->topology, sizeof(s->topology), sys, item(m, "host"));
	str_fact(s->clocksource, sizeof(s->clocksource), sys, "clocksource");
	cpuidle(s->cpuidle, sizeof(s->cpuidle), sys);
	rt_throttle(s->rt_throttle, sizeof(s->rt_throttle), sys);
	irqs(s->irqs, sizeof(s->irqs), sys);
	str_fact(s->thp, sizeof(s->thp), sys, "thp");
}
