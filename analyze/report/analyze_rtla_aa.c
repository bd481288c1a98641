// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla's auto-analysis in the reports (report.h): the parser of
 * rtla's text first, then the loader of a results directory (manifest
 * "rtla_aa" objects, each repetition's rtla-aa.txt), then the sections.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "analyze/input/input.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"

/* ---- the parser ---------------------------------------------------------- */

struct aa_parse {
	const char *name;
	unsigned int line;
	struct an_aa *aa;
	struct an_aa_cpu *cur;	/* the open block, NULL outside one */
	bool want_blocking;	/* the next line names the blocking thread */
	bool done;		/* the open block's total line came */
};

static int aa_err(const struct aa_parse *p, const char *what)
{
	pr_err("%s:%u: %s", p->name, p->line, what);
	return -EINVAL;
}

/* The number after the label's colon ("  IRQ latency:   28.13 us"). */
static int aa_value(const struct aa_parse *p, const char *s, double *v)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (!colon)
		return aa_err(p, "no ':' in an analysis line");
	colon++;
	colon += strspn(colon, " \t");
	if (!strncmp(colon, "(exit from idle)", 16))
		colon += 16;
	*v = strtod(colon, &end);
	if (end == colon)
		return aa_err(p, "no number after the label");
	return 0;
}

/* The number right after a label without a colon ("IRQ interference"). */
static int aa_after(const struct aa_parse *p, const char *s, size_t n,
		    double *v)
{
	char *end;

	s += n;
	*v = strtod(s, &end);
	if (end == s)
		return aa_err(p, "no number after the label");
	return 0;
}

/* "... 27.49 us (65.52 %)": the percentage, 0 when none. */
static double aa_pct(const char *s)
{
	const char *open = strrchr(s, '(');

	return open && strchr(open, '%') ? strtod(open + 1, NULL) : 0;
}

/* "    objtool:49256     3.79 us" or "    objtool:49256". */
static void aa_blocking(struct an_aa_cpu *c, const char *s)
{
	char name[64];

	if (sscanf(s, " %63s", name) == 1)
		snprintf(c->blocking, sizeof(c->blocking), "%s", name);
}

static int aa_block_line(struct aa_parse *p, const char *raw)
{
	const char *s = raw + strspn(raw, " \t");
	struct an_aa_cpu *c = p->cur;
	int ret = 0;

	if (p->want_blocking) {
		p->want_blocking = false;
		if (strchr(s, ':') && !strstr(s, "latency") &&
		    !strstr(s, "interference")) {
			aa_blocking(c, s);
			return 0;
		}
	}
	if (!strncmp(s, "IRQ handler delay:", 18)) {
		c->from_idle = strstr(s, "(exit from idle)") != NULL;
		ret = aa_value(p, s, &c->irq_delay_us);
		c->irq_delay_pct = aa_pct(s);
	} else if (!strncmp(s, "Timerlat IRQ duration:", 22)) {
		ret = aa_value(p, s, &c->irq_duration_us);
	} else if (!strncmp(s, "Blocking thread:", 16)) {
		p->want_blocking = true;
		if (strpbrk(s + 16, "0123456789"))
			ret = aa_value(p, s, &c->blocking_us);
	} else if (!strncmp(s, "NMI interference", 16)) {
		ret = aa_after(p, s, 16, &c->nmi_us);
	} else if (!strncmp(s, "IRQ interference", 16)) {
		ret = aa_after(p, s, 16, &c->irq_if_us);
	} else if (!strncmp(s, "Softirq interference", 20)) {
		ret = aa_after(p, s, 20, &c->softirq_if_us);
	} else if (!strncmp(s, "Thread interference", 19)) {
		ret = aa_after(p, s, 19, &c->thread_if_us);
	} else if ((!strncmp(s, "Thread latency:", 15) ||
		    !strncmp(s, "IRQ latency:", 12)) && strstr(s, "(100%)")) {
		c->irq = s[0] == 'I';
		ret = aa_value(p, s, &c->total_us);
		p->done = true;
		p->cur = NULL;
	} else if (!strncmp(s, "IRQ latency:", 12)) {
		ret = aa_value(p, s, &c->irq_latency_us);
	}
	/* Stack frames, per-IRQ and per-thread lines: the text keeps them. */
	return ret;
}

/* Lines outside a block: the summary lines rtla prints around them. */
static int aa_other_line(struct aa_parse *p, const char *raw)
{
	const char *s = raw + strspn(raw, " \t");
	struct an_aa *aa = p->aa;
	double v;
	int cpu;

	if (strstr(s, "hit stop tracing") && strncmp(s, "##", 2)) {
		aa->stopped = true;
	} else if (!strncmp(s, "Max latency was", 15)) {
		v = strtod(s + 15, NULL);
		aa->max_latency_us = v;
	} else if (sscanf(s, "Max timerlat IRQ latency from idle: %lf us in "
			  "cpu %d", &v, &cpu) == 2) {
		aa->idle_max_us = v;
		aa->idle_cpu = cpu;
	}
	return 0;
}

int an_aa_parse(const char *name, const char *text, struct an_aa *aa)
{
	struct aa_parse p = { .name = name, .aa = aa };
	const char *line = text, *eol;
	char buf[1024];
	int ret = 0, cpu;

	memset(aa, 0, sizeof(*aa));
	aa->max_latency_us = aa->idle_max_us = -1;
	aa->idle_cpu = -1;
	while (!ret && line && *line) {
		eol = strchr(line, '\n');
		snprintf(buf, sizeof(buf), "%.*s", (int)(eol ? eol - line :
			 (long)strlen(line)), line);
		p.line++;
		if (sscanf(buf, " ## CPU %d hit stop tracing", &cpu) == 1) {
			if (p.cur)
				return aa_err(&p, "a CPU's analysis before the "
					      "last one ended");
			if (aa->nr_cpus == AN_AA_MAX_CPUS)
				return aa_err(&p, "more CPUs analysed than "
					      "rtgate keeps");
			p.cur = &aa->cpus[aa->nr_cpus++];
			p.cur->cpu = cpu;
			p.done = false;
			aa->stopped = true;
		} else if (p.cur) {
			ret = aa_block_line(&p, buf);
		} else {
			ret = aa_other_line(&p, buf);
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!ret && p.cur) {
		pr_err("%s: CPU %d's analysis has no total latency line (the "
		       "output was cut short)", name, p.cur->cpu);
		ret = -EINVAL;
	}
	return ret;
}

struct aa_part {
	const char *what;
	double us;
};

void an_aa_describe(const struct an_aa_cpu *c, char *buf, size_t len)
{
	char blocking[96], part[160];
	struct aa_part parts[] = {
		{ "IRQ handler delay", c->irq_delay_us },
		{ "timerlat IRQ duration", c->irq_duration_us },
		{ blocking, c->blocking_us },
		{ "IRQ interference", c->irq_if_us },
		{ "softirq interference", c->softirq_if_us },
		{ "thread interference", c->thread_if_us },
		{ "NMI interference", c->nmi_us },
	};
	size_t n = sizeof(parts) / sizeof(parts[0]), i, k, used;
	bool seen[sizeof(parts) / sizeof(parts[0])] = { false };

	snprintf(blocking, sizeof(blocking), "blocking thread %s",
		 c->blocking[0] ? c->blocking : "?");
	used = snprintf(buf, len, "CPU %d, %s latency %.2f us:", c->cpu,
			c->irq ? "IRQ" : "thread", c->total_us);
	/* largest part first, parts of 0 us left out */
	for (k = 0; k < n; k++) {
		size_t best = n;

		for (i = 0; i < n; i++)
			if (!seen[i] && parts[i].us > 0 &&
			    (best == n || parts[i].us > parts[best].us))
				best = i;
		if (best == n)
			break;
		seen[best] = true;
		snprintf(part, sizeof(part), "%s %s %.2f us (%.1f %%)",
			 k ? "," : "", parts[best].what, parts[best].us,
			 c->total_us > 0 ? 100 * parts[best].us / c->total_us :
			 0);
		if (used < len)
			used += snprintf(buf + used, len - used, "%s", part);
	}
	if (c->irq && c->blocking[0] && used < len)
		snprintf(buf + used, len - used, "; the IRQ came in %s",
			 c->blocking);
	if (c->from_idle && used < len)
		snprintf(buf + used, len - used, " (exit from idle)");
}

/* ---- a results directory ------------------------------------------------- */

struct aa_rep {
	int rep;
	double threshold_us, duration_s;
	char file[PATH_MAX];	/* "" without one */
	char error[256];	/* the runner's, or the parser's */
	bool parsed;
	struct an_aa aa;
};

struct aa_scen {
	char name[128];
	struct aa_rep *reps;
	size_t nreps;
};

struct aa_run {
	struct aa_scen *scens;
	size_t nscens;
};

static void load_rep(const char *run_dir, const cJSON *rj, struct aa_rep *r)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(rj, "rtla_aa");
	const char *dir = json_get_str(rj, "dir", NULL);
	const char *file = json_get_str(o, "file", NULL);
	char *text = NULL;
	size_t len;
	int ret;

	r->rep = json_get_num(rj, "rep", 0);
	r->threshold_us = json_get_num(o, "threshold_us", 0);
	r->duration_s = json_get_num(o, "duration_s", 0);
	rtpaths_fmt(r->error, sizeof(r->error), "%s",
		    json_get_str(o, "error", ""));
	if (!file || !dir || !rtpaths_below(dir) || strchr(file, '/'))
		return;
	rtpaths_fmt(r->file, sizeof(r->file), "%s/%s/%s", run_dir, dir, file);
	ret = fsio_read_all(r->file, &text, &len);
	if (ret) {
		rtpaths_fmt(r->error, sizeof(r->error), "%s: %s", r->file,
			    strerror(-ret));
		return;
	}
	if (an_aa_parse(r->file, text, &r->aa))
		rtpaths_fmt(r->error, sizeof(r->error), "%s does not read as "
			    "rtla's auto-analysis", r->file);
	else
		r->parsed = true;
	free(text);
}

static void aa_run_free(struct aa_run *t)
{
	size_t i;

	for (i = 0; i < t->nscens; i++)
		free(t->scens[i].reps);
	free(t->scens);
	memset(t, 0, sizeof(*t));
}

static int aa_run_load(const char *run_dir, struct aa_run *t)
{
	const cJSON *all, *sj, *rj;
	struct json_error err;
	char path[PATH_MAX];
	cJSON *m;

	memset(t, 0, sizeof(*t));
	if (!run_dir)
		return 0;
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return 0;	/* the report's own reader said why */
	all = cJSON_GetObjectItemCaseSensitive(m, "scenarios");
	t->scens = calloc(cJSON_GetArraySize(all) + 1, sizeof(*t->scens));
	if (!t->scens) {
		cJSON_Delete(m);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(sj, all) {
		const cJSON *reps = cJSON_GetObjectItemCaseSensitive(sj,
							"repetitions");
		struct aa_scen *s = &t->scens[t->nscens];

		s->reps = calloc(cJSON_GetArraySize(reps) + 1,
				 sizeof(*s->reps));
		if (!s->reps)
			break;
		rtpaths_fmt(s->name, sizeof(s->name), "%s",
			    json_get_str(sj, "name", "?"));
		cJSON_ArrayForEach(rj, reps)
			if (cJSON_GetObjectItemCaseSensitive(rj, "rtla_aa"))
				load_rep(run_dir, rj, &s->reps[s->nreps++]);
		if (s->nreps)
			t->nscens++;
		else
			free(s->reps);
	}
	cJSON_Delete(m);
	return 0;
}

/* One line per repetition, in words. */
static void rep_line(const struct aa_rep *r, char *buf, size_t len)
{
	char d[512];

	if (r->parsed && r->aa.nr_cpus) {
		an_aa_describe(&r->aa.cpus[0], d, sizeof(d));
		snprintf(buf, len, "rep %d (>= %.0f us): %s%s", r->rep,
			 r->threshold_us, d, r->aa.nr_cpus > 1 ?
			 " (and more CPUs: see the file)" : "");
	} else if (r->parsed && r->aa.stopped) {
		snprintf(buf, len, "rep %d: rtla stopped at a wake-up of %.0f "
			 "us or more but analysed no CPU (its events were "
			 "lost)", r->rep, r->threshold_us);
	} else if (r->parsed) {
		snprintf(buf, len, "rep %d: no wake-up reached %.0f us in %.0f "
			 "s%s", r->rep, r->threshold_us, r->duration_s,
			 r->aa.max_latency_us >= 0 ? " (rtla saw at most" : "");
		if (r->aa.max_latency_us >= 0)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 " %.0f us)", r->aa.max_latency_us);
	} else {
		snprintf(buf, len, "rep %d: no analysis: %s", r->rep,
			 r->error[0] ? r->error : "no file");
	}
}

void an_aa_txt(const struct an_report *r, FILE *f)
{
	struct aa_run t;
	char line[1024];
	size_t i, k;

	if (aa_run_load(r->run_dir, &t))
		return;
	for (i = 0; i < t.nscens; i++) {
		const struct aa_scen *s = &t.scens[i];

		fprintf(f, "== rtla auto-analysis: %s (rtla timerlat top "
			"--aa-only after each histogram; %zu repetition%s)\n",
			s->name, s->nreps, s->nreps == 1 ? "" : "s");
		for (k = 0; k < s->nreps; k++) {
			rep_line(&s->reps[k], line, sizeof(line));
			fprintf(f, "  %s\n", line);
		}
		for (k = 0; k < s->nreps; k++)
			if (s->reps[k].file[0]) {
				fprintf(f, "  rtla's text: %s\n",
					s->reps[k].file);
				break;
			}
		fputc('\n', f);
	}
	aa_run_free(&t);
}

void an_aa_md(const struct an_report *r, FILE *f)
{
	struct aa_run t;
	char line[1024];
	size_t i, k;

	if (aa_run_load(r->run_dir, &t))
		return;
	if (t.nscens)
		fprintf(f, "## rtla auto-analysis\n\n");
	for (i = 0; i < t.nscens; i++) {
		const struct aa_scen *s = &t.scens[i];

		fputs("### ", f);
		text_md_escape(f, s->name);
		fputs("\n\n", f);
		for (k = 0; k < s->nreps; k++) {
			rep_line(&s->reps[k], line, sizeof(line));
			fputs("- ", f);
			text_md_escape(f, line);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	aa_run_free(&t);
}

void an_aa_html(const struct an_report *r, FILE *f)
{
	struct aa_run t;
	char line[1024];
	size_t i, k;

	if (aa_run_load(r->run_dir, &t))
		return;
	if (!t.nscens) {
		aa_run_free(&t);
		return;
	}
	fprintf(f, "<section id=\"rtla-aa\"><h2>rtla auto-analysis</h2>\n"
		"<p class=\"muted\">rtla timerlat top --aa-only after each "
		"histogram: rtla's own breakdown of one late wake-up "
		"(docs/tracing.md).</p>\n");
	for (i = 0; i < t.nscens; i++) {
		const struct aa_scen *s = &t.scens[i];

		fprintf(f, "<h3>");
		text_xml_escape(f, s->name);
		fprintf(f, "</h3>\n<ul>\n");
		for (k = 0; k < s->nreps; k++) {
			rep_line(&s->reps[k], line, sizeof(line));
			fprintf(f, "<li>");
			text_xml_escape(f, line);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
	aa_run_free(&t);
}

static cJSON *cpu_json(const struct an_aa_cpu *c)
{
	cJSON *o = cJSON_CreateObject();
	char d[512];

	cJSON_AddNumberToObject(o, "cpu", c->cpu);
	cJSON_AddStringToObject(o, "hit", c->irq ? "irq" : "thread");
	cJSON_AddNumberToObject(o, "latency_us", c->total_us);
	cJSON_AddNumberToObject(o, "irq_latency_us", c->irq_latency_us);
	cJSON_AddNumberToObject(o, "irq_handler_delay_us", c->irq_delay_us);
	cJSON_AddBoolToObject(o, "exit_from_idle", c->from_idle);
	cJSON_AddNumberToObject(o, "irq_duration_us", c->irq_duration_us);
	cJSON_AddStringToObject(o, "blocking_thread", c->blocking);
	cJSON_AddNumberToObject(o, "blocking_us", c->blocking_us);
	cJSON_AddNumberToObject(o, "irq_interference_us", c->irq_if_us);
	cJSON_AddNumberToObject(o, "softirq_interference_us",
				c->softirq_if_us);
	cJSON_AddNumberToObject(o, "thread_interference_us", c->thread_if_us);
	cJSON_AddNumberToObject(o, "nmi_us", c->nmi_us);
	an_aa_describe(c, d, sizeof(d));
	cJSON_AddStringToObject(o, "text", d);
	return o;
}

static cJSON *rep_json(const struct aa_rep *r)
{
	cJSON *o = cJSON_CreateObject(), *cpus;
	int i;

	cJSON_AddNumberToObject(o, "rep", r->rep);
	cJSON_AddNumberToObject(o, "threshold_us", r->threshold_us);
	cJSON_AddNumberToObject(o, "duration_s", r->duration_s);
	cJSON_AddBoolToObject(o, "hit", r->parsed && r->aa.nr_cpus > 0);
	if (r->file[0])
		cJSON_AddStringToObject(o, "file", r->file);
	if (r->error[0])
		cJSON_AddStringToObject(o, "error", r->error);
	cpus = cJSON_AddArrayToObject(o, "cpus");
	for (i = 0; r->parsed && i < r->aa.nr_cpus; i++)
		cJSON_AddItemToArray(cpus, cpu_json(&r->aa.cpus[i]));
	if (r->parsed && r->aa.max_latency_us >= 0)
		cJSON_AddNumberToObject(o, "max_latency_us",
					r->aa.max_latency_us);
	if (r->parsed && r->aa.idle_max_us >= 0)
		cJSON_AddNumberToObject(o, "idle_irq_max_us",
					r->aa.idle_max_us);
	return o;
}

cJSON *an_aa_json(const struct an_report *r)
{
	cJSON *arr = cJSON_CreateArray(), *o, *reps;
	struct aa_run t;
	size_t i, k;

	if (!arr || aa_run_load(r->run_dir, &t))
		return arr;
	for (i = 0; i < t.nscens; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "scenario", t.scens[i].name);
		reps = cJSON_AddArrayToObject(o, "repetitions");
		for (k = 0; k < t.scens[i].nreps; k++)
			cJSON_AddItemToArray(reps,
					     rep_json(&t.scens[i].reps[k]));
		cJSON_AddItemToArray(arr, o);
	}
	aa_run_free(&t);
	return arr;
}
