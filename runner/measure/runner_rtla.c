// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtla NAME hist` as a measurement (measure.h): its command line, its
 * output kept as NAME.log and NAME.txt, its worst latency; and rtla
 * timerlat's auto-analysis, which may follow a timerlat measurement.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "toolrun.h"
#include "rtpaths.h"
#include "runner/measure/measure.h"
#include "vec.h"

#define TL_OUT_MAX	(16 * 1024 * 1024)

int runner_rtla_init(struct runner_rtla_run *t, const struct an_tool *tool,
		     const struct runner_suite_measure *m, double scale,
		     const char *dir)
{
	char **args = runner_suite_opts(m, tool)->argv;
	char buf[64];
	size_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	t->tool = tool;
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	ret = vec_strv_push(&t->argv, "rtla");
	if (!ret)
		ret = vec_strv_push(&t->argv, tool->name);
	if (!ret)
		ret = vec_strv_push(&t->argv, "hist");
	for (i = 0; !ret && args && args[i]; i++)
		ret = vec_strv_push(&t->argv, args[i]);
	snprintf(buf, sizeof(buf), "-d%us", runner_ct_duration_s(m, scale));
	if (!ret)
		ret = vec_strv_push(&t->argv, buf);
	snprintf(buf, sizeof(buf), "-E%u", m->histogram_us);
	if (!ret)
		ret = vec_strv_push(&t->argv, buf);
	if (!ret)
		ret = vec_strv_push(&t->argv, "-b1");
	if (ret)
		runner_rtla_free(t);
	return ret;
}

static void out_append(char **out, size_t *len, const char *line)
{
	size_t n = strlen(line);
	char *grown;

	if (*len + n + 1 > TL_OUT_MAX)
		return;
	grown = realloc(*out, *len + n + 2);
	if (!grown)
		return;
	*out = grown;
	memcpy(*out + *len, line, n);
	*len += n;
	(*out)[(*len)++] = '\n';
	(*out)[*len] = '\0';
}

void runner_rtla_feed(struct runner_rtla_run *t, const char *line)
{
	out_append(&t->out, &t->len, line);
}

/*
 * Whether the histogram's Index row names a CPU column (IRQ-N, Thr-N,
 * Usr-N, CPU-N): rtla prints the frame of an empty histogram when its
 * tracer never ran, and that measured nothing.
 */
static bool tl_has_cpu(const char *hist, size_t n)
{
	const char *p = hist, *end = hist + n, *eol;

	while (p < end) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (eol - p > 5 && !strncmp(p, "Index", 5))
			return memchr(p + 5, '-', eol - p - 5) != NULL;
		p = eol + 1;
	}
	return false;
}

/* The histogram and its summary: the title through the max: line. */
static int tl_histogram(const struct runner_rtla_run *t, const char **start,
			size_t *len)
{
	const char *title, *max, *eol;
	char head[64];

	if (!t->out)
		return -ENODATA;
	snprintf(head, sizeof(head), "# RTLA %s histogram", t->tool->name);
	title = strstr(t->out, head);
	max = title ? strstr(title, "\nmax:") : NULL;
	if (!max)
		return -ENODATA;
	eol = strchr(max + 1, '\n');
	*start = title;
	*len = (eol ? eol + 1 : t->out + t->len) - title;
	return 0;
}

int runner_rtla_finish(struct runner_rtla_run *t, bool complete, char *why,
		       size_t len)
{
	const char *name = t->tool->name, *hist;
	char path[PATH_MAX + 32];
	size_t n;
	int ret;

	rtpaths_fmt(path, sizeof(path), "%s/%s.log", t->dir, name);
	ret = fsio_write_atomic(path, t->out ? t->out : "", t->len);
	if (ret) {
		snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!complete)
		return 0;
	if (tl_histogram(t, &hist, &n)) {
		snprintf(why, len, "%s printed no histogram summary (%s.log "
			 "says what it did)", t->tool->title, name);
		return -ENODATA;
	}
	rtpaths_fmt(path, sizeof(path), "%s/%s.txt", t->dir, name);
	ret = fsio_write_atomic(path, hist, n);
	if (ret) {
		snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!tl_has_cpu(hist, n)) {
		snprintf(why, len, "%s measured no CPU: its histogram has no "
			 "CPU column (an rtla older than the kernel, or a run "
			 "too short for the tracer to start; %s.log says what "
			 "it did)", t->tool->title, name);
		return -ENODATA;
	}
	return 0;
}

void runner_rtla_free(struct runner_rtla_run *t)
{
	vec_strv_free(t->argv);
	free(t->out);
	t->argv = NULL;
	t->out = NULL;
	t->len = 0;
}

/* The first line of @text starting with @word, or NULL. */
static const char *line_of(const char *text, const char *end,
			   const char *word)
{
	const char *p = text;
	size_t n = strlen(word);

	while (p && p < end) {
		if (!strncmp(p, word, n))
			return p;
		p = memchr(p, '\n', end - p);
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

int runner_rtla_worst_us(const struct runner_rtla_run *t, unsigned long *us)
{
	const char *hist, *end, *index, *max;
	char kinds[512][4];
	int ncols = 0, i;
	size_t n;

	if (tl_histogram(t, &hist, &n))
		return -ENODATA;
	end = hist + n;
	index = line_of(hist, end, "Index");
	max = line_of(hist, end, "max:");
	if (!index || !max)
		return -ENODATA;
	for (index += 5; index < end && *index != '\n' && ncols < 512;) {
		index += strspn(index, " \t");
		if (*index == '\n' || index >= end)
			break;
		snprintf(kinds[ncols++], sizeof(kinds[0]), "%.3s", index);
		index += strcspn(index, " \t\n");
	}
	*us = 0;
	max += 4;
	for (i = 0; i < ncols; i++) {
		char *next;
		unsigned long v;

		max += strspn(max, " \t");
		if (*max == '-') {		/* a CPU without samples */
			max++;
			continue;
		}
		v = strtoul(max, &next, 10);
		if (next == max)
			return -ENODATA;
		max = next;
		if (strcmp(kinds[i], "IRQ") && v > *us)
			*us = v;
	}
	return ncols ? 0 : -ENODATA;
}

bool runner_tl_aa_supported(const char *rtla, char *why, size_t len)
{
	char *argv[] = { (char *)rtla, "timerlat", "top", "--help", NULL };
	struct toolrun r = { .argv = argv, .timeout_ms = 10000 };
	char *out = NULL;
	bool ok;
	int status;

	r.capture = &out;
	if (toolrun(&r, &status)) {
		snprintf(why, len, "cannot run %s timerlat top --help", rtla);
		free(out);
		return false;
	}
	ok = out && strstr(out, "--aa-only");
	if (!ok)
		snprintf(why, len, "%s has no auto-analysis (rtla 6.3 or later "
			 "has; build one: rtgate kernel tools)", rtla);
	free(out);
	return ok;
}

unsigned int runner_tl_aa_secs(unsigned int secs)
{
	return secs < 5 ? 5 : secs > 30 ? 30 : secs;
}

int runner_tl_aa_init(struct runner_tl_aa *a, const struct an_tool *tool,
		      const struct runner_suite_measure *m,
		      unsigned long threshold_us, unsigned int secs)
{
	char **args = runner_suite_opts(m, tool)->argv;
	char buf[32];
	size_t i;
	int ret;

	memset(a, 0, sizeof(*a));
	a->threshold_us = threshold_us ? threshold_us : 1;
	a->secs = secs;
	ret = vec_strv_push(&a->argv, "rtla");
	if (!ret)
		ret = vec_strv_push(&a->argv, tool->name);
	if (!ret)
		ret = vec_strv_push(&a->argv, "top");
	for (i = 0; !ret && args && args[i]; i++)
		ret = vec_strv_push(&a->argv, args[i]);
	snprintf(buf, sizeof(buf), "%lu", a->threshold_us);
	if (!ret)
		ret = vec_strv_push(&a->argv, "--aa-only");
	if (!ret)
		ret = vec_strv_push(&a->argv, buf);
	snprintf(buf, sizeof(buf), "-d%us", secs);
	if (!ret)
		ret = vec_strv_push(&a->argv, buf);
	if (ret)
		runner_tl_aa_free(a);
	return ret;
}

void runner_tl_aa_feed(struct runner_tl_aa *a, const char *line)
{
	out_append(&a->out, &a->len, line);
}

cJSON *runner_tl_aa_finish(struct runner_tl_aa *a, const char *dir,
			   const char *how, const char *error)
{
	cJSON *o = cJSON_CreateObject(), *cmd, *cpus;
	char path[PATH_MAX + 32];
	const char *p;
	size_t i;
	int ret, cpu;

	if (!o)
		return NULL;
	cmd = cJSON_AddArrayToObject(o, "command");
	for (i = 0; a->argv && a->argv[i]; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(a->argv[i]));
	cJSON_AddNumberToObject(o, "threshold_us", a->threshold_us);
	cJSON_AddNumberToObject(o, "duration_s", a->secs);
	cpus = cJSON_AddArrayToObject(o, "cpus");
	for (p = a->out; p && (p = strstr(p, "## CPU ")); p++)
		if (sscanf(p, "## CPU %d hit stop tracing", &cpu) == 1)
			cJSON_AddItemToArray(cpus, cJSON_CreateNumber(cpu));
	cJSON_AddBoolToObject(o, "hit", cJSON_GetArraySize(cpus) > 0);
	cJSON_AddStringToObject(o, "exit", how);
	rtpaths_fmt(path, sizeof(path), "%s/rtla-aa.txt", dir);
	ret = fsio_write_atomic(path, a->out ? a->out : "", a->len);
	if (!ret)
		cJSON_AddStringToObject(o, "file", "rtla-aa.txt");
	else if (!error)
		error = strerror(-ret);
	if (error)
		cJSON_AddStringToObject(o, "error", error);
	return o;
}

void runner_tl_aa_free(struct runner_tl_aa *a)
{
	vec_strv_free(a->argv);
	free(a->out);
	memset(a, 0, sizeof(*a));
}
