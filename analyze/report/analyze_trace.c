// SPDX-License-Identifier: GPL-2.0-only
/*
 * Root causes of a traced run (report.h, docs/tracing.md): the
 * attributions of every traced repetition of a scenario pooled, their
 * culprits counted, the worst wake-ups told in words.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"

#define MAX_TIDS	256
#define AN_TRACE_TOP	50	/* as the runner keeps (RTRACE_TOP) */
#define NEW_SHARE	10	/* % of windows: a new culprit is told */

struct worst {
	const struct an_trace_rep *rep;
	const struct trace_attr_window *w;
};

static int rep_from_file(const cJSON *tr, struct an_trace_rep *rep)
{
	struct trace_attr_params ap = { 0 };
	const cJSON *tids = cJSON_GetObjectItemCaseSensitive(tr,
							     "measured_tids");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(tr, "break"), *e;
	int buf[MAX_TIDS];

	cJSON_ArrayForEach(e, tids)
		if (cJSON_IsNumber(e) && ap.nr_tids < MAX_TIDS)
			buf[ap.nr_tids++] = e->valueint;
	ap.tids = ap.nr_tids ? buf : NULL;
	ap.top_n = AN_TRACE_TOP;
	ap.break_tid = json_get_num(b, "tid", 0);
	ap.break_us = json_get_num(b, "us", 0);
	return trace_attr_file(rep->dat, &ap, &rep->res);
}

/* One repetition's trace: its attribution JSON, else its trace.dat. */
static int load_rep(const char *run_dir, const cJSON *rj,
		    struct an_trace_rep *rep)
{
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(rj, "trace");
	const char *dir = json_get_str(rj, "dir", NULL);
	const char *file = json_get_str(tr, "file", NULL);
	const char *attr = json_get_str(tr, "attribution", NULL);
	char path[PATH_MAX];
	struct json_error err;
	cJSON *j;
	int ret;

	if (!dir || !rtpaths_below(dir) || !file || strchr(file, '/') ||
	    (attr && strchr(attr, '/')))
		return -ENOENT;
	rep->rep = json_get_num(rj, "rep", 0);
	rtpaths_fmt(rep->mode, sizeof(rep->mode), "%s",
		    json_get_str(tr, "mode", "?"));
	rtpaths_fmt(rep->stopped, sizeof(rep->stopped), "%s",
		    json_get_str(tr, "stopped_at", "?"));
	rtpaths_fmt(rep->dat, sizeof(rep->dat), "%s/%s/%s", run_dir, dir, file);
	if (!attr)
		return rep_from_file(tr, rep);
	rtpaths_fmt(path, sizeof(path), "%s/%s/%s", run_dir, dir, attr);
	if (json_read_file(path, &j, &err)) {
		pr_warn("%s", err.msg);
		return rep_from_file(tr, rep);
	}
	ret = trace_attr_from_json(j, &rep->res);
	cJSON_Delete(j);
	if (ret) {
		pr_warn("%s: not an attribution (rtgate-trace-attr/1)", path);
		return rep_from_file(tr, rep);
	}
	return 0;
}

static int load_scen(const char *run_dir, const cJSON *sj,
		     struct an_trace_scen *s)
{
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(sj,
							     "repetitions");
	const cJSON *rj;
	int n = cJSON_GetArraySize(reps);

	memset(s, 0, sizeof(*s));
	rtpaths_fmt(s->name, sizeof(s->name), "%s", json_get_str(sj, "name",
		    "?"));
	rtpaths_fmt(s->compare, sizeof(s->compare), "%s",
		    json_get_str(sj, "compare", ""));
	s->reps = calloc(n ? n : 1, sizeof(*s->reps));
	if (!s->reps)
		return -ENOMEM;
	cJSON_ArrayForEach(rj, reps)
		if (!load_rep(run_dir, rj, &s->reps[s->nreps]))
			s->nreps++;
	return 0;
}

int an_trace_load(const char *run_dir, struct an_trace *t)
{
	const cJSON *all, *sj;
	struct json_error err;
	char path[PATH_MAX];
	cJSON *m;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (!run_dir)
		return 0;
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return 0;	/* the report's own reader said why */
	all = cJSON_GetObjectItemCaseSensitive(m, "scenarios");
	t->scens = calloc(cJSON_GetArraySize(all) + 1, sizeof(*t->scens));
	if (!t->scens) {
		ret = -ENOMEM;
		goto out;
	}
	cJSON_ArrayForEach(sj, all) {
		struct an_trace_scen *s = &t->scens[t->nscens];

		ret = load_scen(run_dir, sj, s);
		if (ret)
			break;
		if (s->nreps)
			t->nscens++;
		else
			free(s->reps);
	}
out:
	cJSON_Delete(m);
	if (ret)
		an_trace_free(t);
	return ret;
}

void an_trace_free(struct an_trace *t)
{
	size_t i, j;

	for (i = 0; i < t->nscens; i++) {
		for (j = 0; j < t->scens[i].nreps; j++)
			trace_attr_result_free(&t->scens[i].reps[j].res);
		free(t->scens[i].reps);
	}
	free(t->scens);
	memset(t, 0, sizeof(*t));
}

static const struct an_trace_scen *find_scen(const struct an_trace *t,
					     const char *name)
{
	size_t i;

	for (i = 0; i < t->nscens; i++)
		if (!strcmp(t->scens[i].name, name))
			return &t->scens[i];
	return NULL;
}

/* The results of a scenario's repetitions, as one array. */
static struct trace_attr_result *results(const struct an_trace_scen *s)
{
	struct trace_attr_result *res = calloc(s->nreps ? s->nreps : 1,
					       sizeof(*res));
	size_t i;

	for (i = 0; res && i < s->nreps; i++)
		res[i] = s->reps[i].res;
	return res;
}

/* Culprits of one side (the scenario as candidate, no baseline). */
static int culprits(const struct an_trace_scen *base,
		    const struct an_trace_scen *cand,
		    struct trace_attr_culprits *c)
{
	struct trace_attr_result *b = base ? results(base) : NULL;
	struct trace_attr_result *k = results(cand);
	int ret = -ENOMEM;

	if (k && (b || !base))
		ret = trace_attr_culprits(b, base ? base->nreps : 0, k,
					  cand->nreps, c);
	free(b);
	free(k);
	return ret;
}

static int worst_cmp(const void *x, const void *y)
{
	const struct worst *a = x, *b = y;

	if (a->w->latency_ns != b->w->latency_ns)
		return a->w->latency_ns < b->w->latency_ns ? 1 : -1;
	return a->rep->rep - b->rep->rep;
}

/*
 * The worst windows of every repetition, worst first, AN_TRACE_WORST of
 * them, then each break window not among them.
 */
static size_t worst_windows(const struct an_trace_scen *s, struct worst **out)
{
	struct worst *all;
	size_t n = 0, i, j, kept;

	for (i = 0; i < s->nreps; i++)
		n += s->reps[i].res.nr_win;
	all = calloc(n ? n : 1, sizeof(*all));
	*out = all;
	if (!all)
		return 0;
	n = 0;
	for (i = 0; i < s->nreps; i++)
		for (j = 0; j < s->reps[i].res.nr_win; j++)
			all[n++] = (struct worst){ &s->reps[i],
						   &s->reps[i].res.win[j] };
	qsort(all, n, sizeof(*all), worst_cmp);
	kept = n < AN_TRACE_WORST ? n : AN_TRACE_WORST;
	for (i = kept; i < n; i++)
		if (all[i].w->is_break)
			all[kept++] = all[i];
	return kept;
}

static void explain(const struct worst *w, char *buf, size_t len)
{
	char text[1024];

	trace_attr_explain(w->w, text, sizeof(text));
	rtpaths_fmt(buf, len, "%s%s", text, w->w->from_timer ? "" :
		    " [from the wake-up]");
}

static double share(const struct trace_attr_culprits *c,
		    const struct trace_attr_culprit *cu, int side)
{
	return c->total[side] ? 100.0 * cu->windows[side] / c->total[side] :
				0;
}

static double avg_us(const struct trace_attr_culprit *cu, int side)
{
	return cu->windows[side] ? cu->ns[side] / 1e3 / cu->windows[side] :
				   0;
}

/* ---- text ---- */

static void txt_culprits(FILE *f, const struct trace_attr_culprits *c)
{
	unsigned int i;

	if (!c->total[1]) {
		fprintf(f, "no wake-up of cyclictest's threads is in the "
			"trace\n");
		return;
	}
	fprintf(f, "culprits of the %u worst wake-ups (share of them, "
		"average time there):\n", c->total[1]);
	for (i = 0; i < c->nr; i++)
		fprintf(f, "  %-40.40s %4.0f%% %9.1f us\n", c->c[i].key,
			share(c, &c->c[i], 1), avg_us(&c->c[i], 1));
}

/*
 * Every culprit the baseline never had, in at least NEW_SHARE % of the
 * worst windows, beside the headline: host noise that grew between two
 * repetitions must not hide a new cause.
 */
static void txt_new(FILE *f, const struct trace_attr_culprits *c,
		    const char *headline)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct trace_attr_culprit *cu = &c->c[i];
		char key[80];

		rtpaths_fmt(key, sizeof(key), "new: %s,", cu->key);
		if (cu->windows[0] || share(c, cu, 1) < NEW_SHARE ||
		    !strcmp(cu->key, "other") || strstr(headline, key))
			continue;
		fprintf(f, "also new: %s, %.0f us in %.0f %% of the worst "
			"wake-ups\n", cu->key, avg_us(cu, 1), share(c, cu, 1));
	}
}

static void txt_compare(FILE *f, const struct an_trace *t,
			const struct an_trace_scen *s)
{
	const struct an_trace_scen *base = find_scen(t, s->compare);
	struct trace_attr_culprits c;
	char line[256];

	if (!base || culprits(base, s, &c))
		return;
	fprintf(f, "against %s:\n", base->name);
	trace_attr_culprits_print(f, &c);
	if (!trace_attr_culprits_headline(&c, line, sizeof(line)))
		fprintf(f, "root cause: %s\n", line);
	else
		line[0] = '\0';
	txt_new(f, &c, line);
	trace_attr_culprits_free(&c);
}

static void txt_scen(FILE *f, const struct an_trace *t,
		     const struct an_trace_scen *s)
{
	struct trace_attr_culprits c;
	struct worst *w;
	char text[1100];
	size_t i, n;

	fprintf(f, "== root causes: %s (trace %s; %zu repetition%s traced)\n",
		s->name, s->reps[0].mode, s->nreps, s->nreps == 1 ? "" : "s");
	if (!culprits(NULL, s, &c)) {
		txt_culprits(f, &c);
		trace_attr_culprits_free(&c);
	}
	n = worst_windows(s, &w);
	if (n)
		fprintf(f, "worst wake-ups captured (rep, time in the trace):"
			"\n");
	for (i = 0; i < n; i++) {
		explain(&w[i], text, sizeof(text));
		fprintf(f, "  rep %d at %.6f %s%s\n", w[i].rep->rep,
			w[i].w->start_ns / 1e9, w[i].w->is_break ?
			"break " : "", text);
	}
	free(w);
	if (s->compare[0])
		txt_compare(f, t, s);
	fprintf(f, "traces (trace-cmd report -i FILE; kernelshark FILE):\n");
	for (i = 0; i < s->nreps; i++) {
		const struct an_trace_rep *rep = &s->reps[i];
		const struct trace_attr_result *res = &rep->res;

		fprintf(f, "  rep %d: %s (%.1f s, stopped at the %s%s)\n",
			rep->rep, rep->dat, res->last_ts > res->first_ts ?
			(res->last_ts - res->first_ts) / 1e9 : 0.0,
			rep->stopped, res->missed ? "; older events were "
			"overwritten" : "");
	}
	fputc('\n', f);
}

void an_trace_txt(const struct an_report *r, FILE *f)
{
	struct an_trace t;
	size_t i;

	if (an_trace_load(r->run_dir, &t))
		return;
	for (i = 0; i < t.nscens; i++)
		txt_scen(f, &t, &t.scens[i]);
	an_trace_free(&t);
}

/* ---- HTML ---- */

static void html_culprits(FILE *f, const struct trace_attr_culprits *c,
			  bool two)
{
	unsigned int i;
	int side;

	fprintf(f, "<table class=\"culprits\"><tr><th>culprit</th>");
	if (two)
		fprintf(f, "<th>baseline share</th><th>avg</th>");
	fprintf(f, "<th>%sshare</th><th>avg</th></tr>\n", two ?
		"candidate " : "");
	for (i = 0; i < c->nr; i++) {
		const struct trace_attr_culprit *cu = &c->c[i];

		fprintf(f, "<tr><td>");
		text_xml_escape(f, cu->key);
		fprintf(f, "</td>");
		for (side = two ? 0 : 1; side < 2; side++) {
			if (!cu->windows[side])
				fprintf(f, "<td class=\"n\">-</td><td></td>");
			else
				fprintf(f, "<td class=\"n\">%.0f%% of %u</td>"
					"<td class=\"n\">%.1f us</td>",
					share(c, cu, side), c->total[side],
					avg_us(cu, side));
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

static void html_new(FILE *f, const struct trace_attr_culprits *c,
		     const char *headline)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	txt_new(m, c, headline);
	fclose(m);
	if (len) {
		fprintf(f, "<p>");
		text_xml_escape(f, buf);
		fprintf(f, "</p>\n");
	}
	free(buf);
}

static void html_scen(FILE *f, const struct an_trace *t,
		      const struct an_trace_scen *s)
{
	const struct an_trace_scen *base = s->compare[0] ?
					   find_scen(t, s->compare) : NULL;
	struct trace_attr_culprits c;
	char text[1100];
	struct worst *w;
	size_t i, n;

	fprintf(f, "<h3>");
	text_xml_escape(f, s->name);
	fprintf(f, "</h3>\n<p class=\"muted\">trace %s, %zu repetition%s "
		"traced</p>\n", s->reps[0].mode, s->nreps,
		s->nreps == 1 ? "" : "s");
	if (base && !culprits(base, s, &c)) {
		fprintf(f, "<p class=\"reason\">");
		if (!trace_attr_culprits_headline(&c, text, sizeof(text))) {
			fprintf(f, "Root cause against ");
			text_xml_escape(f, base->name);
			fprintf(f, ": <b>");
			text_xml_escape(f, text);
			fprintf(f, "</b>");
		} else {
			text[0] = '\0';
		}
		fprintf(f, "</p>\n");
		html_new(f, &c, text);
		html_culprits(f, &c, true);
		trace_attr_culprits_free(&c);
	} else if (!culprits(NULL, s, &c)) {
		html_culprits(f, &c, false);
		trace_attr_culprits_free(&c);
	}
	n = worst_windows(s, &w);
	if (n)
		fprintf(f, "<table class=\"worst\"><tr><th>rep</th><th>time "
			"in the trace (s)</th><th>what delayed the wake-up"
			"</th></tr>\n");
	for (i = 0; i < n; i++) {
		explain(&w[i], text, sizeof(text));
		fprintf(f, "<tr><td class=\"n\">%d</td><td class=\"n\">%.6f"
			"</td><td>%s", w[i].rep->rep, w[i].w->start_ns / 1e9,
			w[i].w->is_break ? "<b>break</b> " : "");
		text_xml_escape(f, text);
		fprintf(f, "</td></tr>\n");
	}
	if (n)
		fprintf(f, "</table>\n");
	free(w);
	fprintf(f, "<p>Traces, for <code>trace-cmd report -i FILE</code> and "
		"<code>kernelshark FILE</code>:</p>\n<ul class=\"traces\">\n");
	for (i = 0; i < s->nreps; i++) {
		fprintf(f, "<li>rep %d: <code>", s->reps[i].rep);
		text_xml_escape(f, s->reps[i].dat);
		fprintf(f, "</code> (stopped at the ");
		text_xml_escape(f, s->reps[i].stopped);
		fprintf(f, ")</li>\n");
	}
	fprintf(f, "</ul>\n");
}

void an_trace_html(const struct an_report *r, FILE *f)
{
	struct an_trace t;
	size_t i;

	if (an_trace_load(r->run_dir, &t))
		return;
	if (!t.nscens) {
		an_trace_free(&t);
		return;
	}
	fprintf(f, "<section id=\"root-causes\"><h2>Root causes</h2>\n"
		"<p class=\"muted\">What delayed the worst wake-ups captured "
		"(docs/tracing.md).</p>\n");
	for (i = 0; i < t.nscens; i++)
		html_scen(f, &t, &t.scens[i]);
	fprintf(f, "</section>\n");
	an_trace_free(&t);
}

/* ---- JSON ---- */

static cJSON *culprits_json(const struct trace_attr_culprits *c, bool two)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct trace_attr_culprit *cu = &c->c[i];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "culprit", cu->key);
		if (two) {
			cJSON_AddNumberToObject(o, "baseline_windows",
						cu->windows[0]);
			cJSON_AddNumberToObject(o, "baseline_avg_us",
						avg_us(cu, 0));
		}
		cJSON_AddNumberToObject(o, "windows", cu->windows[1]);
		cJSON_AddNumberToObject(o, "share_pct", share(c, cu, 1));
		cJSON_AddNumberToObject(o, "avg_us", avg_us(cu, 1));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* Culprits the baseline never had, in NEW_SHARE % of windows or more. */
static void json_new(cJSON *o, const struct trace_attr_culprits *c)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "new");
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		if (!c->c[i].windows[0] && share(c, &c->c[i], 1) >= NEW_SHARE &&
		    strcmp(c->c[i].key, "other"))
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(c->c[i].key));
}

static void json_compare(cJSON *o, const struct an_trace *t,
			 const struct an_trace_scen *s)
{
	const struct an_trace_scen *base = find_scen(t, s->compare);
	struct trace_attr_culprits c;
	char line[256];
	cJSON *cmp;

	if (!base || culprits(base, s, &c))
		return;
	cmp = cJSON_AddObjectToObject(o, "against_baseline");
	cJSON_AddStringToObject(cmp, "baseline", base->name);
	cJSON_AddNumberToObject(cmp, "baseline_windows", c.total[0]);
	if (!trace_attr_culprits_headline(&c, line, sizeof(line)))
		cJSON_AddStringToObject(cmp, "headline", line);
	else
		cJSON_AddNullToObject(cmp, "headline");
	json_new(cmp, &c);
	cJSON_AddItemToObject(cmp, "culprits", culprits_json(&c, true));
	trace_attr_culprits_free(&c);
}

static cJSON *scen_json(const struct an_trace *t,
			const struct an_trace_scen *s)
{
	cJSON *o = cJSON_CreateObject(), *arr, *e;
	struct trace_attr_culprits c;
	char text[1100];
	struct worst *w;
	size_t i, n;

	cJSON_AddStringToObject(o, "scenario", s->name);
	cJSON_AddStringToObject(o, "mode", s->reps[0].mode);
	arr = cJSON_AddArrayToObject(o, "repetitions");
	for (i = 0; i < s->nreps; i++) {
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "rep", s->reps[i].rep);
		cJSON_AddStringToObject(e, "trace", s->reps[i].dat);
		cJSON_AddStringToObject(e, "stopped_at", s->reps[i].stopped);
		cJSON_AddNumberToObject(e, "wakeups", s->reps[i].res.nr_wakeups);
		cJSON_AddNumberToObject(e, "events_lost", s->reps[i].res.missed);
		cJSON_AddItemToArray(arr, e);
	}
	if (!culprits(NULL, s, &c)) {
		cJSON_AddNumberToObject(o, "windows", c.total[1]);
		cJSON_AddItemToObject(o, "culprits", culprits_json(&c, false));
		trace_attr_culprits_free(&c);
	}
	arr = cJSON_AddArrayToObject(o, "worst");
	n = worst_windows(s, &w);
	for (i = 0; i < n; i++) {
		e = cJSON_CreateObject();
		explain(&w[i], text, sizeof(text));
		cJSON_AddNumberToObject(e, "rep", w[i].rep->rep);
		cJSON_AddNumberToObject(e, "cpu", w[i].w->cpu);
		cJSON_AddNumberToObject(e, "latency_us",
					w[i].w->latency_ns / 1e3);
		cJSON_AddNumberToObject(e, "at_s", w[i].w->start_ns / 1e9);
		cJSON_AddBoolToObject(e, "break", w[i].w->is_break);
		cJSON_AddStringToObject(e, "text", text);
		cJSON_AddItemToArray(arr, e);
	}
	free(w);
	if (s->compare[0])
		json_compare(o, t, s);
	return o;
}

cJSON *an_trace_json(const struct an_report *r)
{
	cJSON *arr = cJSON_CreateArray();
	struct an_trace t;
	size_t i;

	if (!arr || an_trace_load(r->run_dir, &t))
		return arr;
	for (i = 0; i < t.nscens; i++)
		cJSON_AddItemToArray(arr, scen_json(&t, &t.scens[i]));
	an_trace_free(&t);
	return arr;
}
