// SPDX-License-Identifier: GPL-2.0-only
/*
 * Like with like (analyze.h, docs/nightly.md "Like with like"): before two
 * runs are compared -- `compare RUN_A RUN_B`, `compare A:S B:S` and so
 * `lab gate`, a night against the nights before it -- what is not under
 * test must be equal. The one owner of that list: the clock (different
 * clocks are refused outright), then every setting below, each read from
 * the manifest (runner/machine) into one string that two runs compare.
 * A setting one of the runs did not record (a manifest from before it
 * was recorded) is not compared: nothing can be said about it. The
 * kernel itself (release, version, config, preemption model, and the
 * command line's image and preempt=) is what a comparison tests. Beside
 * the manifest's settings, "cpus": the CPU each thread measured, read
 * from the repetitions (CPUs are paired thread by thread).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "textfmt.h"

struct like_setting {
	const char *name;	/* what --intended names */
	const char *what;	/* in words */
	bool (*get)(const cJSON *m, char *buf, size_t len);
};

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A recorded string (null: @absent); false when the key is not there. */
static bool str_of(const cJSON *o, const char *key, const char *absent,
		   char *buf, size_t len)
{
	const cJSON *v = item(o, key);

	if (!v)
		return false;
	rtpaths_fmt(buf, len, "%s", cJSON_IsString(v) ? v->valuestring :
		    absent);
	return true;
}

static const char *measure_tool(const cJSON *m)
{
	return json_get_str(item(item(m, "suite"), "measure"), "tool",
			    "cyclictest");
}

/* "cyclictest --smp -p95 -m -i 1000 -h 5000" */
static bool get_tool(const cJSON *m, char *buf, size_t len)
{
	const cJSON *meas = item(item(m, "suite"), "measure"), *a;
	const cJSON *h = item(meas, "histogram_us");

	if (!meas)
		return false;
	rtpaths_fmt(buf, len, "%s", measure_tool(m));
	cJSON_ArrayForEach(a, item(meas, "args"))
		if (cJSON_IsString(a))
			text_appendf(buf, len, " %s", a->valuestring);
	if (cJSON_IsNumber(h))
		text_appendf(buf, len, " -h %.0f", h->valuedouble);
	return true;
}

/* The version of every measuring tool the run used: "cyclictest 2.40". */
static bool get_tool_version(const cJSON *m, char *buf, size_t len)
{
	const cJSON *tools = item(m, "tools"), *s;
	bool ct = false, tl = false, any = false;
	const char *t = measure_tool(m);

	ct = !strcmp(t, "cyclictest");
	tl = !strcmp(t, "timerlat");
	cJSON_ArrayForEach(s, item(m, "scenarios")) {
		t = json_get_str(s, "tool", "");
		ct |= !strcmp(t, "cyclictest");
		tl |= !strcmp(t, "timerlat");
	}
	buf[0] = '\0';
	if (ct && item(tools, "cyclictest")) {
		text_appendf(buf, len, "cyclictest %s",
			     json_get_str(tools, "cyclictest", "?"));
		any = true;
	}
	if (tl && item(tools, "rtla")) {
		text_appendf(buf, len, "%srtla %s", any ? ", " : "",
			     json_get_str(tools, "rtla", "?"));
		any = true;
	}
	return any;
}

static const cJSON *facts(const cJSON *m)
{
	return item(m, "system");
}

/* The PM QoS limit; 2000000000 is the kernel's "nobody asked". */
static bool get_dma(const cJSON *m, char *buf, size_t len)
{
	const cJSON *v = item(facts(m), "cpu_dma_latency_us");

	if (!v)
		return false;
	if (!cJSON_IsNumber(v))
		rtpaths_fmt(buf, len, "unreadable");
	else if (v->valuedouble >= 2000000000)
		rtpaths_fmt(buf, len, "none asked");
	else
		rtpaths_fmt(buf, len, "%.0f us", v->valuedouble);
	return true;
}

/* "intel_idle: POLL 0 us, C1 2 us, C6 133 us (disabled on 2-3)" */
static bool get_idle_states(const cJSON *m, char *buf, size_t len)
{
	const cJSON *idle = item(facts(m), "cpuidle"), *st, *lat;
	const char *off;

	if (!idle)
		return false;
	if (!cJSON_IsObject(idle)) {
		rtpaths_fmt(buf, len, "no cpuidle");
		return true;
	}
	rtpaths_fmt(buf, len, "%s:", json_get_str(idle, "driver", "none"));
	cJSON_ArrayForEach(st, item(idle, "states")) {
		lat = item(st, "latency_us");
		off = json_get_str(st, "disabled_cpus", "");
		text_appendf(buf, len, "%s %s",
			     st == item(idle, "states")->child ? "" : ",",
			     json_get_str(st, "name", "?"));
		if (cJSON_IsNumber(lat))
			text_appendf(buf, len, " %.0f us", lat->valuedouble);
		if (off[0])
			text_appendf(buf, len, " (disabled on %s)", off);
	}
	return true;
}

static bool get_idle_governor(const cJSON *m, char *buf, size_t len)
{
	return str_of(item(facts(m), "cpuidle"), "governor", "none", buf,
		      len);
}

static bool get_cpufreq(const cJSON *m, char *buf, size_t len)
{
	return str_of(item(m, "host"), "governor", "unavailable", buf, len);
}

/* "" and the kernel's "(null)" are no CPUs. */
static bool cpus_of(const cJSON *m, const char *key, char *buf, size_t len)
{
	if (!str_of(item(m, "kernel"), key, "", buf, len))
		return false;
	if (!buf[0] || !strcmp(buf, "(null)"))
		rtpaths_fmt(buf, len, "none");
	return true;
}

static bool get_isolcpus(const cJSON *m, char *buf, size_t len)
{
	return cpus_of(m, "isolcpus", buf, len);
}

static bool get_nohz_full(const cJSON *m, char *buf, size_t len)
{
	return cpus_of(m, "nohz_full", buf, len);
}

/*
 * Which CPUs may take every IRQ, some, none: the shape of the affinity,
 * not the count (another kernel may have a driver more, an IRQ more on
 * every CPU, and nothing changed for the measured ones).
 */
static bool get_irq(const cJSON *m, char *buf, size_t len)
{
	static const char *const word[] = { "every IRQ", "some", "none" };
	const cJSON *aff = item(facts(m), "irq_affinity"), *c;
	double all;
	cpu_set_t set[3];
	char list[256];
	int cpu, k;

	if (!aff)
		return false;
	if (!cJSON_IsObject(aff)) {
		rtpaths_fmt(buf, len, "unreadable");
		return true;
	}
	all = json_get_num(aff, "irqs", 0);
	for (k = 0; k < 3; k++)
		CPU_ZERO(&set[k]);
	cJSON_ArrayForEach(c, item(aff, "per_cpu")) {
		cpu = atoi(c->string);
		if (!cJSON_IsNumber(c) || cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		k = c->valuedouble >= all ? 0 : c->valuedouble > 0 ? 1 : 2;
		CPU_SET(cpu, &set[k]);
	}
	buf[0] = '\0';
	for (k = 0; k < 3; k++) {
		if (!CPU_COUNT(&set[k]))
			continue;
		if (parse_cpulist_format(&set[k], list, sizeof(list)) < 0)
			rtpaths_fmt(list, sizeof(list), "?");
		text_appendf(buf, len, "%s%s: CPUs %s", buf[0] ? "; " : "",
			     word[k], list);
	}
	if (!buf[0])
		rtpaths_fmt(buf, len, "no IRQs");
	return true;
}

/*
 * tsc-early is the TSC before its calibration is refined: the kernel
 * replaces it with tsc seconds after boot, so a run recorded right after
 * boot (the lab's) says tsc-early and one a little later tsc: one clock.
 */
static bool get_clocksource(const cJSON *m, char *buf, size_t len)
{
	if (!str_of(facts(m), "clocksource", "absent", buf, len))
		return false;
	if (!strcmp(buf, "tsc-early"))
		rtpaths_fmt(buf, len, "tsc");
	return true;
}

/* "active (control on)", "inactive (control notsupported)". */
static bool get_smt(const cJSON *m, char *buf, size_t len)
{
	const cJSON *active = item(facts(m), "smt_active");
	const char *control = json_get_str(item(m, "host"), "smt", NULL);

	if (!active && !control)
		return false;
	rtpaths_fmt(buf, len, "%s", !active ? "?" : cJSON_IsTrue(active) ?
		    "active" : cJSON_IsFalse(active) ? "inactive" : "absent");
	if (control)
		text_appendf(buf, len, " (control %s)", control);
	return true;
}

/* The kernel under test names its own image; preempt= picks its model. */
static bool under_test(const char *tok)
{
	static const char *const keys[] = { "BOOT_IMAGE", "initrd",
					    "preempt" };
	size_t i, n;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		n = strlen(keys[i]);
		if (!strncmp(tok, keys[i], n) && (tok[n] == '=' || !tok[n]))
			return true;
	}
	return false;
}

/* The command line's words, one space apart, less the kernel's own. */
static bool get_cmdline(const cJSON *m, char *buf, size_t len)
{
	char *all, *tok, *save = NULL;

	if (!str_of(item(m, "kernel"), "cmdline", "", buf, len))
		return false;
	all = strdup(buf);
	if (!all)
		return false;
	buf[0] = '\0';
	/* Arguments after " -- " are init's, not the kernel's. */
	for (tok = strtok_r(all, " \t\n", &save); tok && strcmp(tok, "--");
	     tok = strtok_r(NULL, " \t\n", &save))
		if (!under_test(tok))
			text_appendf(buf, len, "%s%s", buf[0] ? " " : "", tok);
	free(all);
	return true;
}

static const struct like_setting settings[AN_LIKE_N] = {
	[AN_LIKE_TOOL] = { "tool", "the measurement's tool and options",
			   get_tool },
	[AN_LIKE_TOOL_VERSION] = { "tool.version", "the measuring tool's "
				   "version", get_tool_version },
	[AN_LIKE_DMA] = { "cpu_dma_latency", "the /dev/cpu_dma_latency "
			  "limit", get_dma },
	[AN_LIKE_IDLE_STATES] = { "cpuidle.states", "the cpuidle states",
				  get_idle_states },
	[AN_LIKE_IDLE_GOVERNOR] = { "cpuidle.governor", "the cpuidle "
				    "governor", get_idle_governor },
	[AN_LIKE_CPUFREQ] = { "cpufreq.governor", "the cpufreq governor",
			      get_cpufreq },
	[AN_LIKE_ISOLCPUS] = { "isolcpus", "the isolated CPUs",
			       get_isolcpus },
	[AN_LIKE_NOHZ_FULL] = { "nohz_full", "the nohz_full CPUs",
				get_nohz_full },
	[AN_LIKE_IRQ] = { "irq_affinity", "the IRQ affinity", get_irq },
	[AN_LIKE_CLOCKSOURCE] = { "clocksource", "the clocksource",
				  get_clocksource },
	[AN_LIKE_SMT] = { "smt", "SMT", get_smt },
	[AN_LIKE_CMDLINE] = { "cmdline", "the kernel command line",
			      get_cmdline },
};

/*
 * Command line parameters that set one of the settings above: saying
 * that setting is intended says they are too.
 */
static const struct {
	const char *param;
	enum an_like_setting setting;
} param_settings[] = {
	{ "isolcpus", AN_LIKE_ISOLCPUS },
	{ "nohz_full", AN_LIKE_NOHZ_FULL },
	{ "irqaffinity", AN_LIKE_IRQ },
	{ "clocksource", AN_LIKE_CLOCKSOURCE },
	{ "nosmt", AN_LIKE_SMT },
	{ "idle", AN_LIKE_IDLE_STATES },
	{ "cpuidle.off", AN_LIKE_IDLE_STATES },
	{ "intel_idle.max_cstate", AN_LIKE_IDLE_STATES },
	{ "processor.max_cstate", AN_LIKE_IDLE_STATES },
	{ "cpuidle.governor", AN_LIKE_IDLE_GOVERNOR },
	{ "intel_pstate", AN_LIKE_CPUFREQ },
};

/* The --intended name of the CPUs each thread measured. */
static const char like_cpus[] = "cpus";

/* The clock is the first thing two runs must share (analyze.h). */
void an_system_clock(const cJSON *m, char *name, size_t nlen,
		     char *statement, size_t slen)
{
	const cJSON *lab = cJSON_GetObjectItemCaseSensitive(m, "lab");
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(lab, "clock");

	rtpaths_fmt(name, nlen, "%s", json_get_str(clock, "name", "host"));
	if (clock)
		rtpaths_fmt(statement, slen, "%s",
			    json_get_str(clock, "statement", ""));
	else if (lab)
		rtpaths_fmt(statement, slen, "host clock (a lab run that did "
			    "not record its clock)");
	else
		rtpaths_fmt(statement, slen, "%s", "");
}

const char *an_like_name(enum an_like_setting s)
{
	return s < AN_LIKE_N ? settings[s].name : "?";
}

void an_like_from_manifest(const cJSON *m, struct an_like *l)
{
	char statement[8];
	size_t i;

	memset(l, 0, sizeof(*l));
	an_system_clock(m, l->clock, sizeof(l->clock), statement,
			sizeof(statement));
	for (i = 0; i < AN_LIKE_N; i++)
		l->known[i] = settings[i].get(m, l->value[i],
					      sizeof(l->value[i]));
}

/* Is @name (a setting or cmdline.PARAM) in the comma list @intended? */
static bool in_list(const char *intended, const char *name, size_t n)
{
	const char *p = intended;

	while (p && *p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, name, n))
			return true;
		p += k;
		p += *p == ',';
	}
	return false;
}

int an_like_intended_check(const char *intended, char *bad, size_t len)
{
	const char *p = intended;
	size_t i, k;

	while (p && *p) {
		bool ok = false;

		k = strcspn(p, ",");
		for (i = 0; i < AN_LIKE_N && !ok; i++)
			ok = strlen(settings[i].name) == k &&
			     !strncmp(p, settings[i].name, k);
		ok |= k == strlen(like_cpus) && !strncmp(p, like_cpus, k);
		ok |= k > 8 && !strncmp(p, "cmdline.", 8);
		if (!ok) {
			rtpaths_fmt(bad, len, "%.*s", (int)k, p);
			return -EINVAL;
		}
		p += k;
		p += *p == ',';
	}
	return 0;
}

int an_like_intended_add(char *list, size_t len, const char *arg, char *why,
			 size_t wlen)
{
	char bad[128], all[400];
	size_t used = strlen(list);

	if (an_like_intended_check(arg, bad, sizeof(bad))) {
		rtpaths_fmt(why, wlen, "'%s' is no setting (%s)", bad,
			    an_like_settings(all, sizeof(all)));
		return -EINVAL;
	}
	if (used + strlen(arg) + 2 > len) {
		rtpaths_fmt(why, wlen, "'%s' is one too many", arg);
		return -E2BIG;
	}
	rtpaths_fmt(list + used, len - used, "%s%s", used ? "," : "", arg);
	return 0;
}

const char *an_like_settings(char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < AN_LIKE_N; i++)
		text_appendf(buf, len, "%s%s", i ? ", " : "", settings[i].name);
	text_appendf(buf, len, ", cmdline.PARAM, %s", like_cpus);
	return buf;
}

/* The key of a command line word: "isolcpus" of "isolcpus=3". */
static size_t key_len(const char *tok)
{
	return strcspn(tok, "= ");
}

/* Every word of @line whose key is @key, space-separated, into @out. */
static void words_of(const char *line, const char *key, size_t n, char *out,
		     size_t len)
{
	const char *p = line;
	size_t k;

	out[0] = '\0';
	while ((p = parse_cmdline_find(p, key, n, PARSE_CMDLINE_KEY))) {
		k = strcspn(p, PARSE_CMDLINE_BLANKS);
		text_appendf(out, len, "%s%.*s", out[0] ? " " : "", (int)k, p);
		p += k;
	}
}

static bool param_intended(const char *key, size_t n, const char *intended)
{
	char name[160];
	size_t i;

	rtpaths_fmt(name, sizeof(name), "cmdline.%.*s", (int)n, key);
	if (in_list(intended, "cmdline", 7) ||
	    in_list(intended, name, strlen(name)))
		return true;
	for (i = 0; i < sizeof(param_settings) / sizeof(param_settings[0]);
	     i++) {
		const char *s = settings[param_settings[i].setting].name;

		if (strlen(param_settings[i].param) == n &&
		    !strncmp(key, param_settings[i].param, n) &&
		    in_list(intended, s, strlen(s)))
			return true;
	}
	return false;
}

/*
 * The command line's differences, parameter by parameter, those not
 * intended: "cmdline.quiet: 'quiet' -> absent". Returns how many.
 */
static int cmdline_diff(const char *a, const char *b, const char *intended,
			char *why, size_t len)
{
	const char *lines[2] = { a, b }, *p;
	char wa[256], wb[256], seen[2048] = " ";
	int n = 0, side;
	size_t k;

	for (side = 0; side < 2; side++) {
		for (p = lines[side]; *p; p += k, p += *p == ' ') {
			char key[160];

			k = strcspn(p, " ");
			rtpaths_fmt(key, sizeof(key), " %.*s ", (int)key_len(p),
				    p);
			if (strstr(seen, key))
				continue;
			text_appendf(seen, sizeof(seen), "%s", key + 1);
			words_of(a, p, key_len(p), wa, sizeof(wa));
			words_of(b, p, key_len(p), wb, sizeof(wb));
			if (!strcmp(wa, wb) ||
			    param_intended(p, key_len(p), intended))
				continue;
			text_appendf(why, len, "%scmdline.%.*s (the kernel "
				     "command line): %s%.60s%s -> %s%.60s%s",
				     why[0] ? "; " : "", (int)key_len(p), p,
				     wa[0] ? "'" : "", wa[0] ? wa : "absent",
				     wa[0] ? "'" : "", wb[0] ? "'" : "",
				     wb[0] ? wb : "absent", wb[0] ? "'" : "");
			n++;
		}
	}
	return n;
}

int an_like_diff(const struct an_like *a, const struct an_like *b,
		 const char *intended, char *why, size_t len)
{
	size_t i;
	int n = 0;

	why[0] = '\0';
	if (strcmp(a->clock, b->clock)) {
		rtpaths_fmt(why, len, "measured in clock %s and in clock %s: "
			    "latencies of different clocks are never compared",
			    a->clock, b->clock);
		return -EINVAL;
	}
	for (i = 0; i < AN_LIKE_N; i++) {
		if (!a->known[i] || !b->known[i])
			continue;
		if (i == AN_LIKE_CMDLINE) {
			n += cmdline_diff(a->value[i], b->value[i], intended,
					  why, len);
			continue;
		}
		if (!strcmp(a->value[i], b->value[i]) ||
		    in_list(intended, settings[i].name,
			    strlen(settings[i].name)))
			continue;
		text_appendf(why, len, "%s%s (%s): '%.80s' -> '%.80s'",
			     why[0] ? "; " : "", settings[i].name,
			     settings[i].what, a->value[i], b->value[i]);
		n++;
	}
	return n > 0;
}

int an_systems_like_check(const struct an_system *sys, size_t n,
			  const char *intended, char *why, size_t len)
{
	char one[1024];
	size_t i;
	int ret = 0, r;

	why[0] = '\0';
	for (i = 1; i < n; i++) {
		r = an_like_diff(&sys[0].like, &sys[i].like, intended, one,
				 sizeof(one));
		if (r < 0) {
			pr_err("%s (%s) was measured in clock %s, %s (%s) in "
			       "clock %s: latencies of different clocks are "
			       "never compared (docs/kernels.md, \"The quiet "
			       "lab\"); measure both with the same lab "
			       "--clock",
			       sys[0].label[0] ? sys[0].label : "the first run",
			       sys[0].run_id, sys[0].like.clock,
			       sys[i].label[0] ? sys[i].label : "another run",
			       sys[i].run_id, sys[i].like.clock);
			return -EINVAL;
		}
		if (!r)
			continue;
		text_appendf(why, len, "%s%s%s%s%s", why[0] ? "; " : "",
			     n > 2 ? sys[i].label : "",
			     n > 2 ? " against " : "",
			     n > 2 ? sys[0].label : "", n > 2 ? ": " : "");
		text_appendf(why, len, "%s", one);
		ret = 1;
	}
	return ret;
}

void an_cmp_unlike(struct an_cmp *c, const char *why)
{
	an_result_release(&c->res);
	c->res.decisive = -1;
	c->res.verdict = AN_INVALID;
	rtpaths_fmt(c->res.reason, sizeof(c->res.reason), "not like with like: "
		    "%.480s; a difference that is not the one under test makes "
		    "the comparison INVALID (--intended SETTING if it is the "
		    "one; docs/nightly.md, \"Like with like\")", why);
}

/* "0 1" -- the CPU of each thread of @r, "?" where it is not known. */
static void run_cpus(const struct an_run *r, char *buf, size_t len)
{
	size_t j;

	buf[0] = '\0';
	for (j = 0; j < r->ncpus && j < 16; j++) {
		if (r->cpus[j].cpu >= 0)
			text_appendf(buf, len, "%s%d", j ? " " : "",
				     r->cpus[j].cpu);
		else
			text_appendf(buf, len, "%s?", j ? " " : "");
	}
	if (r->ncpus > 16)
		text_appendf(buf, len, " ...");
}

/* The first thread @r measured on another CPU than @ref; -1 none. */
static int cpus_differ(const struct an_run *r, const struct an_run *ref)
{
	size_t j;

	for (j = 0; j < r->ncpus && j < ref->ncpus; j++)
		if (r->cpus[j].cpu >= 0 && ref->cpus[j].cpu >= 0 &&
		    r->cpus[j].cpu != ref->cpus[j].cpu)
			return (int)j;
	return -1;
}

int an_like_cpus_diff(const struct an_side *base, const struct an_side *cand,
		      const char *intended, char *why, size_t len)
{
	const struct an_side *s[2] = { base, cand };
	const struct an_run *ref, *r;
	char a[128], b[128];
	size_t k, i;
	int t;

	why[0] = '\0';
	if (!cand->nruns || in_list(intended, like_cpus, strlen(like_cpus)))
		return 0;
	/* Every repetition (a history's every night) against the first. */
	ref = &cand->runs[0];
	for (k = 0; k < 2; k++) {
		for (i = 0; i < s[k]->nruns; i++) {
			r = &s[k]->runs[i];
			t = cpus_differ(r, ref);
			if (t < 0)
				continue;
			run_cpus(r, a, sizeof(a));
			run_cpus(ref, b, sizeof(b));
			rtpaths_fmt(why, len, "%s (the CPUs measured, paired "
				    "thread by thread; thread %d ran on CPU %d "
				    "in %.100s, on CPU %d in %.100s): '%s' -> "
				    "'%s'", like_cpus, t, r->cpus[t].cpu,
				    r->label, ref->cpus[t].cpu, ref->label, a,
				    b);
			return 1;
		}
	}
	return 0;
}

int an_cmp_like(struct an_cmp *c, const char *unlike, const char *intended)
{
	char cpus[512], why[1600];

	an_like_cpus_diff(c->base, c->cand, intended, cpus, sizeof(cpus));
	if (!unlike)
		unlike = "";
	if (!unlike[0] && !cpus[0])
		return 0;
	rtpaths_fmt(why, sizeof(why), "%s%s%s", unlike, unlike[0] && cpus[0] ?
		    "; " : "", cpus);
	an_cmp_unlike(c, why);
	return 1;
}
