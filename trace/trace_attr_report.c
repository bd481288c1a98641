// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution in words, in JSON, and culprits compared between a baseline
 * and a candidate.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "trace.h"

#define CULPRIT_SHARE	10	/* % of a window that makes a culprit */
#define CULPRIT_MIN_NS	1000

static const char *const kind_names[] = {
	[TRACE_ATTR_TASK] = "task", [TRACE_ATTR_IRQ] = "irq",
	[TRACE_ATTR_SOFTIRQ] = "softirq",
	[TRACE_ATTR_TIMER_LATE] = "timer_late", [TRACE_ATTR_OTHER] = "other",
};

static void fmt_us(unsigned long long ns, char *buf, size_t len)
{
	if (ns < 10000)
		snprintf(buf, len, "%.1f us", ns / 1000.0);
	else
		snprintf(buf, len, "%.0f us", ns / 1000.0);
}

static void part_text(const struct trace_attr_part *p, char *buf,
		      size_t len)
{
	char us[32], prio[16];

	fmt_us(p->ns, us, sizeof(us));
	switch (p->kind) {
	case TRACE_ATTR_TASK:
		trace_prio_str(p->prio, prio, sizeof(prio));
		snprintf(buf, len, "%s/%d (%s) ran %s%s", p->name, p->pid,
			 prio, us, p->extended ?
			 " under a granted slice extension" : "");
		break;
	case TRACE_ATTR_IRQ:
		if (p->irq >= 0)
			snprintf(buf, len, "irq %d (%s) %s", p->irq, p->name,
				 us);
		else
			snprintf(buf, len, "irq %s %s", p->name, us);
		break;
	case TRACE_ATTR_SOFTIRQ:
		snprintf(buf, len, "softirq %s %s", p->name, us);
		break;
	case TRACE_ATTR_TIMER_LATE:
		snprintf(buf, len, "timer irq %s late", us);
		break;
	default:
		snprintf(buf, len, "other %s", us);
		break;
	}
}

int trace_attr_explain(const struct trace_attr_window *w, char *buf,
		       size_t len)
{
	char lat[32], part[160], us[32];
	size_t used;
	int i;

	fmt_us(w->latency_ns, lat, sizeof(lat));
	used = snprintf(buf, len, "CPU %d, %s:", w->cpu, lat);
	for (i = 0; i < w->nr_parts && used < len; i++) {
		/* Below half a microsecond is noise: it goes to other. */
		if (w->part[i].ns < 500)
			continue;
		part_text(&w->part[i], part, sizeof(part));
		used += snprintf(buf + used, len - used, "%s %s",
				 i ? "," : "", part);
	}
	if (used < len) {
		unsigned long long other = w->other_ns;

		for (i = 0; i < w->nr_parts; i++)
			if (w->part[i].ns < 500)
				other += w->part[i].ns;
		fmt_us(other, us, sizeof(us));
		if (other >= 500 || buf[used - 1] == ':')
			used += snprintf(buf + used, len - used, "%s other %s",
					 buf[used - 1] == ':' ? "" : ",", us);
	}
	if (w->partial && used < len)
		used += snprintf(buf + used, len - used,
				 " (events were lost in this window)");
	return used < len ? 0 : -ENOSPC;
}

void trace_attr_print(FILE *f, const struct trace_attr_result *r)
{
	char line[1024];
	unsigned int i;

	fprintf(f, "Worst wake-ups: %llu seen over %.1f s of trace, "
		"%llu events lost\n", r->nr_wakeups,
		r->last_ts > r->first_ts ?
		(r->last_ts - r->first_ts) / 1e9 : 0.0, r->missed);
	if (r->unseen_switches)
		fprintf(f, "  (%llu switches are missing from the trace: %llu "
			"wake-ups without a visible switch-in were skipped)\n",
			r->unseen_switches, r->unmatched);
	for (i = 0; i < r->nr_win; i++) {
		const struct trace_attr_window *w = &r->win[i];

		trace_attr_explain(w, line, sizeof(line));
		fprintf(f, "  %s %s%s\n", w->is_break ? "break" : "     ",
			line, w->from_timer ? "" : " [from the wake-up]");
	}
}

/* Per-CPU thread numbers differ between runs: "kworker/1:2" -> "/N:N". */
static void fold_comm(const char *comm, char *buf, size_t len)
{
	const char *slash = strchr(comm, '/');
	size_t n = 0;
	const char *p;

	if (!slash) {
		snprintf(buf, len, "%s", comm);
		return;
	}
	for (p = comm; *p && n + 1 < len; p++) {
		if (p > slash && isdigit((unsigned char)*p)) {
			if (n && buf[n - 1] == 'N')
				continue;
			buf[n++] = 'N';
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
}

void trace_attr_part_key(const struct trace_attr_part *p, char *buf,
			 size_t len)
{
	char comm[TRACE_NAME_LEN], prio[16];

	switch (p->kind) {
	case TRACE_ATTR_TASK:
		fold_comm(p->name, comm, sizeof(comm));
		trace_prio_str(p->prio, prio, sizeof(prio));
		snprintf(buf, len, "%s (%s)%s", comm, prio,
			 p->extended ? " under extension" : "");
		break;
	case TRACE_ATTR_IRQ:
		snprintf(buf, len, "irq %s", p->name);
		break;
	case TRACE_ATTR_SOFTIRQ:
		snprintf(buf, len, "softirq %s", p->name);
		break;
	case TRACE_ATTR_TIMER_LATE:
		snprintf(buf, len, "timer irq late");
		break;
	default:
		snprintf(buf, len, "other");
		break;
	}
}

static cJSON *part_json(const struct trace_attr_part *p)
{
	cJSON *o = cJSON_CreateObject();
	char prio[16];

	cJSON_AddStringToObject(o, "kind", kind_names[p->kind]);
	cJSON_AddStringToObject(o, "name", p->name);
	if (p->kind == TRACE_ATTR_TASK) {
		trace_prio_str(p->prio, prio, sizeof(prio));
		cJSON_AddNumberToObject(o, "pid", p->pid);
		cJSON_AddNumberToObject(o, "prio", p->prio);
		cJSON_AddStringToObject(o, "policy", prio);
		cJSON_AddBoolToObject(o, "extended", p->extended);
	}
	if (p->kind == TRACE_ATTR_IRQ)
		cJSON_AddNumberToObject(o, "irq", p->irq);
	cJSON_AddNumberToObject(o, "ns", p->ns);
	return o;
}

static cJSON *window_json(const struct trace_attr_window *w)
{
	const struct json_num nums[] = {
		{ "cpu", w->cpu }, { "tid", w->tid },
		{ "latency_ns", w->latency_ns }, { "start_ns", w->start_ns },
		{ "wake_ns", w->wake_ns }, { "run_ns", w->run_ns },
	};
	cJSON *o = cJSON_CreateObject(), *parts;
	char text[1024];
	int i;

	json_add_nums(o, nums, sizeof(nums) / sizeof(nums[0]));
	cJSON_AddBoolToObject(o, "from_timer", w->from_timer);
	cJSON_AddBoolToObject(o, "break", w->is_break);
	cJSON_AddBoolToObject(o, "partial", w->partial);
	parts = cJSON_AddArrayToObject(o, "parts");
	for (i = 0; i < w->nr_parts; i++)
		cJSON_AddItemToArray(parts, part_json(&w->part[i]));
	cJSON_AddNumberToObject(o, "other_ns", w->other_ns);
	trace_attr_explain(w, text, sizeof(text));
	cJSON_AddStringToObject(o, "text", text);
	return o;
}

cJSON *trace_attr_to_json(const struct trace_attr_result *r)
{
	const struct json_num nums[] = {
		{ "wakeups", r->nr_wakeups }, { "first_ns", r->first_ts },
		{ "last_ns", r->last_ts }, { "events_lost", r->missed },
		{ "unseen_switches", r->unseen_switches },
		{ "unmatched_wakeups", r->unmatched },
	};
	cJSON *o = cJSON_CreateObject(), *wins;
	unsigned int i;

	cJSON_AddStringToObject(o, "schema", "rtgate-trace-attr/1");
	json_add_nums(o, nums, sizeof(nums) / sizeof(nums[0]));
	wins = cJSON_AddArrayToObject(o, "windows");
	for (i = 0; i < r->nr_win; i++)
		cJSON_AddItemToArray(wins, window_json(&r->win[i]));
	return o;
}

static unsigned long long num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ?
	       (unsigned long long)v->valuedouble : 0;
}

static bool flag(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int kind_from(const char *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

static int part_from_json(const cJSON *o, struct trace_attr_part *p)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const cJSON *v;

	if (!cJSON_IsString(kind) || !cJSON_IsString(name))
		return -EINVAL;
	p->kind = kind_from(kind->valuestring);
	if (p->kind < 0)
		return -EINVAL;
	snprintf(p->name, sizeof(p->name), "%s", name->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(o, "pid");
	p->pid = cJSON_IsNumber(v) ? v->valueint : -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "prio");
	p->prio = cJSON_IsNumber(v) ? v->valueint : 120;
	v = cJSON_GetObjectItemCaseSensitive(o, "irq");
	p->irq = cJSON_IsNumber(v) ? v->valueint : -1;
	p->extended = flag(o, "extended");
	p->ns = num(o, "ns");
	return 0;
}

static int window_from_json(const cJSON *o, struct trace_attr_window *w)
{
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(o, "parts");
	const cJSON *p;
	int ret;

	if (!cJSON_IsObject(o) || !cJSON_IsArray(parts))
		return -EINVAL;
	w->cpu = num(o, "cpu");
	w->tid = num(o, "tid");
	w->latency_ns = num(o, "latency_ns");
	w->start_ns = num(o, "start_ns");
	w->wake_ns = num(o, "wake_ns");
	w->run_ns = num(o, "run_ns");
	w->from_timer = flag(o, "from_timer");
	w->is_break = flag(o, "break");
	w->partial = flag(o, "partial");
	w->other_ns = num(o, "other_ns");
	cJSON_ArrayForEach(p, parts) {
		if (w->nr_parts == TRACE_ATTR_PARTS)
			break;
		ret = part_from_json(p, &w->part[w->nr_parts]);
		if (ret)
			return ret;
		w->nr_parts++;
	}
	return 0;
}

int trace_attr_from_json(const cJSON *j, struct trace_attr_result *r)
{
	const cJSON *wins = cJSON_GetObjectItemCaseSensitive(j, "windows");
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
	const cJSON *w;
	int n, ret;

	memset(r, 0, sizeof(*r));
	r->break_idx = -1;
	if (!cJSON_IsString(schema) ||
	    strcmp(schema->valuestring, "rtgate-trace-attr/1") ||
	    !cJSON_IsArray(wins))
		return -EINVAL;
	n = cJSON_GetArraySize(wins);
	r->win = calloc(n ? n : 1, sizeof(*r->win));
	if (!r->win)
		return -ENOMEM;
	cJSON_ArrayForEach(w, wins) {
		ret = window_from_json(w, &r->win[r->nr_win]);
		if (ret) {
			trace_attr_result_free(r);
			return ret;
		}
		if (r->win[r->nr_win].is_break)
			r->break_idx = r->nr_win;
		r->nr_win++;
	}
	r->nr_wakeups = num(j, "wakeups");
	r->first_ts = num(j, "first_ns");
	r->last_ts = num(j, "last_ns");
	r->missed = num(j, "events_lost");
	r->unseen_switches = num(j, "unseen_switches");
	r->unmatched = num(j, "unmatched_wakeups");
	return 0;
}

static struct trace_attr_culprit *culprit_get(struct trace_attr_culprits *c,
					      const char *key)
{
	struct trace_attr_culprit *tmp;
	unsigned int i;
	size_t n;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->c[i].key, key))
			return &c->c[i];
	tmp = realloc(c->c, (c->nr + 1) * sizeof(*tmp));
	if (!tmp)
		return NULL;
	c->c = tmp;
	memset(&c->c[c->nr], 0, sizeof(c->c[0]));
	n = strnlen(key, sizeof(c->c[0].key) - 1);
	memcpy(c->c[c->nr].key, key, n);
	c->c[c->nr].key[n] = '\0';
	return &c->c[c->nr++];
}

/* One window: its parts folded by key, each counted once. */
static int add_window(struct trace_attr_culprits *c, int side,
		      const struct trace_attr_window *w)
{
	struct { char key[64]; unsigned long long ns; } k[TRACE_ATTR_PARTS + 1];
	unsigned long long min = w->latency_ns * CULPRIT_SHARE / 100;
	struct trace_attr_culprit *cu;
	int i, j, nr = 0;

	if (min < CULPRIT_MIN_NS)
		min = CULPRIT_MIN_NS;
	for (i = 0; i <= w->nr_parts; i++) {
		struct trace_attr_part other = { .kind = TRACE_ATTR_OTHER,
						 .ns = w->other_ns };
		const struct trace_attr_part *p = i < w->nr_parts ?
						  &w->part[i] : &other;
		char key[64];

		trace_attr_part_key(p, key, sizeof(key));
		for (j = 0; j < nr && strcmp(k[j].key, key); j++)
			;
		if (j == nr) {
			snprintf(k[nr].key, sizeof(k[nr].key), "%s", key);
			k[nr++].ns = 0;
		}
		k[j].ns += p->ns;
	}
	for (j = 0; j < nr; j++) {
		if (k[j].ns < min)
			continue;
		cu = culprit_get(c, k[j].key);
		if (!cu)
			return -ENOMEM;
		cu->windows[side]++;
		cu->ns[side] += k[j].ns;
	}
	c->total[side]++;
	return 0;
}

static const struct trace_attr_culprits *sort_ctx;

static double share(const struct trace_attr_culprits *c,
		    const struct trace_attr_culprit *cu, int side)
{
	return c->total[side] ? 100.0 * cu->windows[side] / c->total[side] :
				0.0;
}

static int culprit_cmp(const void *x, const void *y)
{
	const struct trace_attr_culprit *p = x, *q = y;
	double a = share(sort_ctx, p, 1), b = share(sort_ctx, q, 1);

	if (a != b)
		return a < b ? 1 : -1;
	a = share(sort_ctx, p, 0);
	b = share(sort_ctx, q, 0);
	if (a != b)
		return a < b ? 1 : -1;
	return strcmp(p->key, q->key);
}

int trace_attr_culprits(const struct trace_attr_result *base,
			unsigned int nr_base,
			const struct trace_attr_result *cand,
			unsigned int nr_cand, struct trace_attr_culprits *out)
{
	const struct trace_attr_result *side[2] = { base, cand };
	unsigned int nr[2] = { nr_base, nr_cand }, i, j;
	int s, ret;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < 2; s++) {
		for (i = 0; i < nr[s]; i++) {
			for (j = 0; j < side[s][i].nr_win; j++) {
				ret = add_window(out, s, &side[s][i].win[j]);
				if (ret) {
					trace_attr_culprits_free(out);
					return ret;
				}
			}
		}
	}
	sort_ctx = out;
	qsort(out->c, out->nr, sizeof(out->c[0]), culprit_cmp);
	sort_ctx = NULL;
	return 0;
}

static void cell(const struct trace_attr_culprits *c,
		 const struct trace_attr_culprit *cu, int side, char *buf,
		 size_t len)
{
	char us[32];

	if (!cu->windows[side]) {
		snprintf(buf, len, "%5s %10s", "-", "");
		return;
	}
	fmt_us(cu->ns[side] / cu->windows[side], us, sizeof(us));
	snprintf(buf, len, "%4.0f%% %10s", share(c, cu, side), us);
}

void trace_attr_culprits_print(FILE *f, const struct trace_attr_culprits *c)
{
	char b[64], k[64];
	unsigned int i;

	fprintf(f, "%-40s %-16s %-16s\n", "Culprits of the worst wake-ups",
		"baseline", "candidate");
	fprintf(f, "%-40s %-16s %-16s\n", "(share of windows, avg time)",
		"", "");
	snprintf(b, sizeof(b), "%u windows", c->total[0]);
	snprintf(k, sizeof(k), "%u windows", c->total[1]);
	fprintf(f, "%-40s %-16s %-16s\n", "", b, k);
	for (i = 0; i < c->nr; i++) {
		const struct trace_attr_culprit *cu = &c->c[i];
		const char *note = "";

		if (!cu->windows[0] && cu->windows[1])
			note = "new";
		else if (cu->windows[0] && !cu->windows[1])
			note = "gone";
		cell(c, cu, 0, b, sizeof(b));
		cell(c, cu, 1, k, sizeof(k));
		fprintf(f, "  %-38.38s %-16s %-16s %s\n", cu->key, b, k, note);
	}
}

/* How much of the worst wake-ups a culprit explains: share x time. */
static double weight(const struct trace_attr_culprits *c,
		     const struct trace_attr_culprit *cu, int side)
{
	return c->total[side] ? (double)cu->ns[side] / c->total[side] : 0.0;
}

int trace_attr_culprits_headline(const struct trace_attr_culprits *c,
				 char *buf, size_t len)
{
	const struct trace_attr_culprit *best = NULL;
	double gain, best_gain = 0.0;
	char us[32];
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct trace_attr_culprit *cu = &c->c[i];

		if (!strcmp(cu->key, "other") || !cu->windows[1])
			continue;
		gain = weight(c, cu, 1) - weight(c, cu, 0);
		if (gain > best_gain) {
			best_gain = gain;
			best = cu;
		}
	}
	if (!best)
		return -ENOENT;
	fmt_us(best->ns[1] / best->windows[1], us, sizeof(us));
	snprintf(buf, len, "%s: %s, %s in %.0f %% of the worst wake-ups",
		 best->windows[0] ? "grew" : "new", best->key, us,
		 share(c, best, 1));
	return 0;
}

void trace_attr_culprits_free(struct trace_attr_culprits *c)
{
	free(c->c);
	c->c = NULL;
	c->nr = 0;
}
