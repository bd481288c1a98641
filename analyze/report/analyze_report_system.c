// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system header of the reports: which machine, kernel, preemption
 * model, command line and tools a run measured, from its manifest.json
 * (docs/results.md). A reader comparing numbers with a publication needs
 * this first, as rteval's report gives it.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/report/report.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"

static void copy(char *dst, size_t len, const cJSON *o, const char *key)
{
	rtpaths_fmt(dst, len, "%s", json_get_str(o, key, ""));
}

void an_system_from_manifest(const cJSON *m, const char *label,
			     struct an_system *sys)
{
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(m, "host");
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(m, "kernel");
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(m, "tools");
	const cJSON *suite = cJSON_GetObjectItemCaseSensitive(m, "suite");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(k, "preempt_rt");

	memset(sys, 0, sizeof(*sys));
	rtpaths_fmt(sys->label, sizeof(sys->label), "%s", label ? label : "");
	copy(sys->run_id, sizeof(sys->run_id), m, "run_id");
	copy(sys->host, sizeof(sys->host), host, "hostname");
	copy(sys->cpu_model, sizeof(sys->cpu_model), host, "cpu_model");
	sys->cpus = (int)json_get_num(host, "cpus_online", 0);
	copy(sys->release, sizeof(sys->release), k, "release");
	copy(sys->version, sizeof(sys->version), k, "version");
	copy(sys->preempt, sizeof(sys->preempt), k, "preempt_model");
	sys->preempt_rt = cJSON_IsTrue(rt);
	copy(sys->cmdline, sizeof(sys->cmdline), k, "cmdline");
	copy(sys->config_sha256, sizeof(sys->config_sha256), k,
	     "config_sha256");
	copy(sys->cyclictest, sizeof(sys->cyclictest), tools, "cyclictest");
	copy(sys->stress_ng, sizeof(sys->stress_ng), tools, "stress-ng");
	copy(sys->rtgate, sizeof(sys->rtgate), m, "rtgate_version");
	copy(sys->suite, sizeof(sys->suite), suite, "name");
	copy(sys->suite_sha256, sizeof(sys->suite_sha256), suite, "sha256");
	copy(sys->start_time, sizeof(sys->start_time), m, "start_time");
	copy(sys->end_time, sizeof(sys->end_time), m, "end_time");
	sys->scale = json_get_num(suite, "duration_scale", 0);
	an_system_clock(m, sys->clock, sizeof(sys->clock),
			sys->clock_statement, sizeof(sys->clock_statement));
	an_system_facts(m, sys);
	an_like_from_manifest(m, &sys->like);
}

const char *an_system_preempt(const struct an_system *s, char *buf,
			      size_t len)
{
	const char *model = s->preempt[0] ? s->preempt : "unknown";
	const char *uname = NULL;

	if (strstr(s->version, "PREEMPT_RT"))
		uname = "PREEMPT_RT";
	else if (strstr(s->version, "PREEMPT_DYNAMIC"))
		uname = "PREEMPT_DYNAMIC";
	else if (strstr(s->version, "PREEMPT"))
		uname = "PREEMPT";
	if (s->preempt_rt)
		rtpaths_fmt(buf, len, "%s (PREEMPT_RT)", model);
	else if (uname)
		rtpaths_fmt(buf, len, "%s (not PREEMPT_RT; uname: %s)", model,
			    uname);
	else
		rtpaths_fmt(buf, len, "%s (not PREEMPT_RT)", model);
	return buf;
}

const char *an_system_kernel(const struct an_system *s, char *buf,
			     size_t len)
{
	rtpaths_fmt(buf, len, "%s%s%s", s->release[0] ? s->release : "unknown",
		    s->version[0] ? " " : "", s->version);
	return buf;
}

size_t an_system_rows(const struct an_system *s, struct an_system_row *rows,
		      size_t max)
{
	char buf[400];
	size_t n = 0;

#define ROW(k, ...)							\
	do {								\
		if (n < max) {						\
			rows[n].key = k;				\
			rtpaths_fmt(rows[n].value, sizeof(rows[n].value), \
				    __VA_ARGS__); \
			n++;						\
		}							\
	} while (0)

	if (s->host[0] || s->cpus)
		ROW("host", "%s, %d CPU%s%s%s", s->host[0] ? s->host : "?",
		    s->cpus, s->cpus == 1 ? "" : "s", s->cpu_model[0] ?
		    ", " : "", s->cpu_model);
	ROW("kernel", "%s", an_system_kernel(s, buf, sizeof(buf)));
	ROW("preemption", "%s", an_system_preempt(s, buf, sizeof(buf)));
	if (s->cmdline[0])
		ROW("cmdline", "%s", s->cmdline);
	if (s->clock_statement[0])
		ROW("clock", "%s: %s", s->clock, s->clock_statement);
	ROW("tools", "%s%s%s%s%srtgate %s",
	    s->cyclictest[0] ? "cyclictest " : "", s->cyclictest,
	    s->cyclictest[0] ? ", " : "",
	    s->stress_ng[0] ? "stress-ng " : "", s->stress_ng[0] ?
	    strcat(strcpy(buf, s->stress_ng), ", ") : "",
	    s->rtgate[0] ? s->rtgate : RTGATE_VERSION);
	if (s->start_time[0])
		ROW("time", "%s%s%s%s", s->end_time[0] ? "" : "started ",
		    s->start_time, s->end_time[0] ? " .. " : "", s->end_time);
	if (s->suite_sha256[0])
		ROW("suite", "%s, sha256 %.16s", s->suite, s->suite_sha256);
	if (s->facts) {
		ROW("machine", "%s", s->machine);
		ROW("topology", "%s", s->topology);
		ROW("clocksource", "%s", s->clocksource);
		ROW("cpuidle", "%s", s->cpuidle);
		ROW("rt throttle", "%s", s->rt_throttle);
		ROW("irqs", "%s", s->irqs);
		ROW("thp", "%s", s->thp);
	} else {
		ROW("facts", "not recorded (a run from before rtgate "
		    "recorded clocksource, cpuidle, IRQs and the rest)");
	}
	if (s->isolation[0])
		ROW("isolation", "%s", s->isolation);
#undef ROW
	return n;
}

void an_report_system_txt(const struct an_report *r, FILE *f)
{
	struct an_system_row rows[AN_SYSTEM_ROWS];
	size_t i, k, n;

	for (i = 0; i < r->nsystems; i++) {
		const struct an_system *s = &r->systems[i];

		n = an_system_rows(s, rows, AN_SYSTEM_ROWS);
		if (s->label[0])
			fprintf(f, "%s (%s):\n", s->label, s->run_id);
		for (k = 0; k < n; k++)
			fprintf(f, "%s%-11s %s\n", s->label[0] ? "  " : "",
				rows[k].key, rows[k].value);
	}
}
