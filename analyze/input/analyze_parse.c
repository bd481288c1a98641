// SPDX-License-Identifier: GPL-2.0-only
/*
 * cyclictest's three output forms, each into one an_run:
 *  - --json (rt-tests 2.x): "cmdline:" and "rt_test_version:" carry a stray
 *    colon; "histogram" lists non-empty buckets only; the -h limit is only
 *    in the command line; samples above it are cycles - sum(histogram).
 *  - --histfile / -h text: one row per bucket, one column per thread, and
 *    in the old layout (or with -H) a last column with the row's total;
 *    "# Total/Min/Avg/Max Latencies/Histogram Overflows" summary lines.
 *  - T: lines as printed live and pasted on mailing lists.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
#include "ctline.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"

/*
 * Counts are exact only up to 2^53 (cJSON keeps numbers as doubles) and a
 * sum of them must not wrap: anything larger is refused, naming the line.
 */
#define COUNT_MAX	9007199254740992.0	/* 2^53 */

/*
 * The JSON being parsed, for the line of a bad value in a message (cJSON
 * keeps no positions): an_parse_json() sets it for its own duration.
 */
static const char *json_src;

static const char *find_key(const char *from, const char *key)
{
	char quoted[64];
	const char *p = from;
	size_t n;

	n = snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	if (n >= sizeof(quoted))
		return NULL;
	while ((p = strstr(p, quoted))) {
		const char *q = p + n;

		q += strspn(q, " \t\r\n");
		if (*q == ':')
			return p;
		p += n;
	}
	return NULL;
}

/* The line of thread @thread's @key (in its "histogram" when @bucket). */
static unsigned int json_line(int thread, const char *key, bool bucket)
{
	const char *p, *start = json_src;
	char num[16];
	unsigned int line = 1;

	if (!json_src)
		return 0;
	snprintf(num, sizeof(num), "%d", thread);
	p = find_key(start, "thread");
	p = p ? find_key(p, num) : NULL;
	p = p && bucket ? find_key(p, "histogram") : p;
	p = p ? find_key(p, key) : NULL;
	if (!p)
		return 0;
	for (; start < p; start++)
		line += *start == '\n';
	return line;
}

/* What the cyclictest command line says about the threads. */
struct ct_cmdline {
	long limit;		/* -h / -H; 0 none */
	long interval;		/* -i, default 1000 */
	long distance;		/* -d, default 500 */
	int prio;		/* -p; -1 none */
};

static void cmdline_set(struct ct_cmdline *cl, int opt, const char *val)
{
	char *end;
	long v;

	if (!val)
		return;
	v = strtol(val, &end, 10);
	if (end == val || *end || v < 0)
		return;
	switch (opt) {
	case 'h':
		cl->limit = v;
		break;
	case 'i':
		cl->interval = v;
		break;
	case 'd':
		cl->distance = v;
		break;
	case 'p':
		cl->prio = v;
		break;
	}
}

static int long_opt(const char *name)
{
	static const struct { const char *name; int opt; } map[] = {
		{ "histogram", 'h' }, { "histofall", 'h' },
		{ "interval", 'i' }, { "distance", 'd' },
		{ "priority", 'p' }, { "prio", 'p' },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(name, map[i].name))
			return map[i].opt;
	return 0;
}

/* Options with a required argument that matter here, and getopt-style. */
static void cmdline_scan(const char *cmd, struct ct_cmdline *cl)
{
	char buf[4096], *tok[256], *save = NULL, *p;
	int n = 0, i;

	cl->limit = 0;
	cl->interval = 1000;
	cl->distance = 500;
	cl->prio = -1;
	if (!cmd)
		return;
	rtpaths_fmt(buf, sizeof(buf), "%s", cmd);
	for (p = strtok_r(buf, " \t", &save); p && n < 256;
	     p = strtok_r(NULL, " \t", &save))
		tok[n++] = p;
	for (i = 1; i < n; i++) {
		char *t = tok[i], *eq;

		if (!strncmp(t, "--", 2)) {
			int opt;

			eq = strchr(t, '=');
			if (eq)
				*eq = '\0';
			opt = long_opt(t + 2);
			if (opt && eq)
				cmdline_set(cl, opt, eq + 1);
			else if (opt && i + 1 < n)
				cmdline_set(cl, opt, tok[++i]);
			continue;
		}
		if (t[0] != '-')
			continue;
		/*
		 * cyclictest's optstring: b c d D F h H i l o p take an
		 * argument (attached or next), a A t an attached one.
		 */
		for (t++; *t; t++) {
			if (strchr("bcdDFhHilop", *t)) {
				int opt = *t == 'H' ? 'h' : *t;
				const char *val = t[1] ? t + 1 :
						  i + 1 < n ? tok[++i] : NULL;

				cmdline_set(cl, opt, val);
				break;
			}
			if (strchr("aAt", *t))
				break;
		}
	}
}

static int json_int(const char *path, const cJSON *obj, int thread,
		    const char *key, bool required, double min, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v) {
		if (!required)
			return 1;
		pr_err("%s: thread %d: \"%s\" is missing", path, thread, key);
		return -EINVAL;
	}
	if (!cJSON_IsNumber(v) || v->valuedouble < min ||
	    v->valuedouble > COUNT_MAX) {
		pr_err("%s:%u: thread %d: \"%s\" is not a valid number%s",
		       path, json_line(thread, key, false), thread, key,
		       cJSON_IsNumber(v) && v->valuedouble > COUNT_MAX ?
		       " (above 2^53)" : "");
		return -EINVAL;
	}
	*out = v->valuedouble;
	return 0;
}

static int bucket_cmp(const void *a, const void *b)
{
	const struct an_bucket *x = a, *y = b;

	return (x->us > y->us) - (x->us < y->us);
}

static int json_histogram(const char *path, const cJSON *h, int thread,
			  const struct ct_cmdline *cl, struct an_cpu *c)
{
	const cJSON *b;
	struct an_bucket *buckets;
	uint64_t key, top = 0;
	double sum = 0;
	uint32_t limit;
	size_t n = 0;
	int ret;

	cJSON_ArrayForEach(b, h) {
		if (parse_u64(b->string, &key) || key > 100000000) {
			pr_err("%s: thread %d: histogram key \"%s\" is not a "
			       "latency in us", path, thread, b->string);
			return -EINVAL;
		}
		/* Range first: casting 1e95 to an integer is undefined. */
		if (!cJSON_IsNumber(b) || b->valuedouble < 0 ||
		    b->valuedouble > COUNT_MAX ||
		    b->valuedouble != (double)(uint64_t)b->valuedouble) {
			pr_err("%s:%u: thread %d: histogram bucket \"%s\" has a "
			       "count that is not a non-negative integer up "
			       "to 2^53", path,
			       json_line(thread, b->string, true), thread,
			       b->string);
			return -EINVAL;
		}
		sum += b->valuedouble;
		if (sum > COUNT_MAX) {
			pr_err("%s:%u: thread %d: the histogram's counts add "
			       "up to more than 2^53 by bucket \"%s\"", path,
			       json_line(thread, b->string, true), thread,
			       b->string);
			return -EINVAL;
		}
		if (cl->limit && key >= (uint64_t)cl->limit) {
			pr_err("%s: thread %d: histogram bucket %s is beyond "
			       "the -h %ld limit of the command line", path,
			       thread, b->string, cl->limit);
			return -EINVAL;
		}
		if (key + 1 > top)
			top = key + 1;
		n++;
	}
	/* Without -h in the command line the limit is only a lower bound. */
	limit = cl->limit ? (uint32_t)cl->limit : (uint32_t)top;
	if (!limit)
		return 0;
	buckets = calloc(n ? n : 1, sizeof(*buckets));
	if (!buckets)
		return -ENOMEM;
	n = 0;
	cJSON_ArrayForEach(b, h) {
		parse_u64(b->string, &key);
		buckets[n].us = key;
		buckets[n++].n = (uint64_t)b->valuedouble;
	}
	/* A bucket listed twice would be summed: refused, as in a .hist. */
	qsort(buckets, n, sizeof(*buckets), bucket_cmp);
	for (size_t i = 1; i < n; i++)
		if (buckets[i].us == buckets[i - 1].us) {
			pr_err("%s: thread %d: histogram key \"%u\" appears "
			       "twice", path, thread, buckets[i].us);
			free(buckets);
			return -EINVAL;
		}
	ret = an_cpu_set_buckets(c, buckets, n, limit);
	free(buckets);
	if (ret == -EOVERFLOW)
		pr_err("%s: thread %d: the histogram's counts add up to more "
		       "than 2^64", path, thread);
	return ret == -EOVERFLOW ? -EINVAL : ret;
}

static int json_thread(const char *path, const cJSON *t, int thread,
		       const struct ct_cmdline *cl, struct an_cpu *c)
{
	double cycles, min, max, avg, cpu;
	uint64_t sum = 0;
	const cJSON *h;
	uint32_t i;
	int ret;

	if (!cJSON_IsObject(t)) {
		pr_err("%s: thread %d is not an object", path, thread);
		return -EINVAL;
	}
	if (json_int(path, t, thread, "cycles", true, 0, &cycles) ||
	    json_int(path, t, thread, "min", true, 0, &min) ||
	    json_int(path, t, thread, "max", true, 0, &max) ||
	    json_int(path, t, thread, "avg", true, 0, &avg))
		return -EINVAL;
	if (json_int(path, t, thread, "cpu", false, -1, &cpu) < 0)
		return -EINVAL;
	if (!cycles)
		min = max = 0;	/* cyclictest's min starts at 1000000 */
	if (max < min) {
		pr_err("%s: thread %d: max %g is below min %g", path, thread,
		       max, min);
		return -EINVAL;
	}
	c->thread = thread;
	c->cycles = (uint64_t)cycles;
	c->min_us = min;
	c->max_us = max;
	c->avg_us = avg;
	c->cpu = cJSON_GetObjectItemCaseSensitive(t, "cpu") ? (int)cpu : -1;
	c->interval_us = cl->interval + thread * cl->distance;
	c->prio = cl->prio;
	h = cJSON_GetObjectItemCaseSensitive(t, "histogram");
	if (!h)
		return 0;
	if (!cJSON_IsObject(h)) {
		pr_err("%s: thread %d: \"histogram\" is not an object", path,
		       thread);
		return -EINVAL;
	}
	ret = json_histogram(path, h, thread, cl, c);
	if (ret)
		return ret;
	for (i = 0; i < c->nbuckets; i++)
		sum += c->b[i].n;
	if (c->b && sum > (uint64_t)cycles) {
		pr_err("%s: thread %d: the histogram holds %llu samples but "
		       "cycles is %llu", path, thread,
		       (unsigned long long)sum, (unsigned long long)cycles);
		return -EINVAL;
	}
	if (c->b && !c->overflows && c->nbuckets &&
	    c->max_us < (long)c->b[c->nbuckets - 1].us) {
		pr_err("%s: thread %d: max %ld is below the highest bucket "
		       "%u", path, thread, c->max_us,
		       c->b[c->nbuckets - 1].us);
		return -EINVAL;
	}
	return 0;
}

int an_parse_json(const char *path, const char *buf, size_t len,
		  struct an_run *run)
{
	struct ct_cmdline cl;
	struct json_error err;
	const cJSON *threads, *t, *cmd;
	cJSON *json;
	int n = 0, i, ret = -EINVAL;
	double num;

	json_src = buf;
	if (json_parse_buf(path, buf, len, &json, &err)) {
		json_src = NULL;
		/* cyclictest prints "avg": -nan for a thread that never ran. */
		pr_err("%s%s", err.msg, strstr(buf, "-nan") ? " (cyclictest "
		       "writes -nan for a thread that took no samples: the "
		       "measurement did not run)" : "");
		return -EINVAL;
	}
	/* rt-tests 2.x writes "cmdline:"; accept the fixed spelling too. */
	cmd = cJSON_GetObjectItemCaseSensitive(json, "cmdline:");
	if (!cmd)
		cmd = cJSON_GetObjectItemCaseSensitive(json, "cmdline");
	cmdline_scan(cJSON_IsString(cmd) ? cmd->valuestring : NULL, &cl);
	rtpaths_fmt(run->start_time, sizeof(run->start_time), "%s",
		    json_get_str(json, "start_time", ""));
	threads = cJSON_GetObjectItemCaseSensitive(json, "thread");
	if (!cJSON_IsObject(threads) || !threads->child) {
		pr_err("%s: no \"thread\" object: not a cyclictest --json "
		       "file, or one without results", path);
		goto out;
	}
	cJSON_ArrayForEach(t, threads)
		n++;
	num = json_get_num(json, "num_threads", n);
	/* Compared as doubles: (int)3e64 is undefined. */
	if (num != (double)n) {
		pr_err("%s: \"num_threads\" is %g but %d threads are listed",
		       path, num, n);
		goto out;
	}
	run->cpus = calloc(n, sizeof(*run->cpus));
	if (!run->cpus) {
		ret = -ENOMEM;
		goto out;
	}
	run->ncpus = n;
	for (i = 0; i < n; i++) {
		char key[16];

		rtpaths_fmt(key, sizeof(key), "%d", i);
		t = cJSON_GetObjectItemCaseSensitive(threads, key);
		if (!t) {
			pr_err("%s: thread \"%d\" is missing (threads must be "
			       "numbered 0..%d)", path, i, n - 1);
			goto out;
		}
		run->cpus[i].act_us = -1;
		ret = json_thread(path, t, i, &cl, &run->cpus[i]);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	json_src = NULL;
	cJSON_Delete(json);
	return ret;
}

/* ---- histfile text ---- */

#define HIST_MAX_COLS	1025

struct hist_text {
	uint64_t *rows;		/* nrows x ncols */
	size_t nrows, cap;
	int ncols;
	long total[HIST_MAX_COLS], min[HIST_MAX_COLS], avg[HIST_MAX_COLS];
	long max[HIST_MAX_COLS], ovf[HIST_MAX_COLS];
	int ntotal, nmin, navg, nmax, novf, nthread_lines;
	bool seen_total;
	uint64_t colsum[HIST_MAX_COLS];	/* per column, for overflow */
	struct ctline tl[HIST_MAX_COLS];
	int ntl;
};

/* Splits a row "000012 000008\t000001"; returns columns or -1. */
static int row_split(const char *s, uint64_t *v, int max)
{
	int n = 0;
	char *end;

	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			break;
		if (!isdigit((unsigned char)*s) || n == max)
			return -1;
		errno = 0;
		v[n++] = strtoull(s, &end, 10);
		if (*end && *end != ' ' && *end != '\t' && *end != '\r')
			return -1;
		if (errno == ERANGE || v[n - 1] > (uint64_t)COUNT_MAX)
			return -ERANGE;
		s = end;
	}
	return n;
}

/* "# Max Latencies: 00075 00039" -> values after the label. */
static int summary_list(const char *s, long *v)
{
	int n = 0;
	char *end;

	while (*s && n < HIST_MAX_COLS) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			break;
		errno = 0;
		v[n] = strtol(s, &end, 10);
		if (end == s || errno == ERANGE || v[n] < 0 ||
		    v[n] > (long)COUNT_MAX)
			return -1;
		n++;
		s = end;
	}
	return n;
}

static int hist_summary(const char *path, unsigned int lineno,
			const char *line, struct hist_text *h)
{
	static const char *const labels[] = {
		"# Total:", "# Min Latencies:", "# Avg Latencies:",
		"# Max Latencies:", "# Histogram Overflows:",
	};
	long *lists[] = { h->total, h->min, h->avg, h->max, h->ovf };
	int *counts[] = { &h->ntotal, &h->nmin, &h->navg, &h->nmax,
			  &h->novf };
	size_t i;

	for (i = 0; i < 5; i++) {
		size_t l = strlen(labels[i]);

		if (strncmp(line, labels[i], l))
			continue;
		*counts[i] = summary_list(line + l, lists[i]);
		if (*counts[i] < 0) {
			pr_err("%s:%u: malformed summary line (numbers from 0 "
			       "to 2^53)", path, lineno);
			return -EINVAL;
		}
		if (i == 0)
			h->seen_total = true;
		return 0;
	}
	if (!strncmp(line, "# Thread ", 9))
		h->nthread_lines++;
	return 0;	/* any other comment */
}

static int hist_row(const char *path, unsigned int lineno, const char *line,
		    struct hist_text *h)
{
	uint64_t v[HIST_MAX_COLS + 1];
	int n = row_split(line, v, HIST_MAX_COLS + 1), j;

	if (n == -ERANGE) {
		pr_err("%s:%u: a count beyond 2^53 in a histogram row", path,
		       lineno);
		return -EINVAL;
	}
	if (n < 2) {
		pr_err("%s:%u: not a histogram row: \"%.40s\"", path, lineno,
		       line);
		return -EINVAL;
	}
	if (h->seen_total) {
		pr_err("%s:%u: histogram row after the \"# Total:\" line",
		       path, lineno);
		return -EINVAL;
	}
	if (v[0] != h->nrows) {
		pr_err("%s:%u: bucket %llu where %zu was expected", path,
		       lineno, (unsigned long long)v[0], h->nrows);
		return -EINVAL;
	}
	if (!h->ncols)
		h->ncols = n - 1;
	if (n - 1 != h->ncols) {
		pr_err("%s:%u: %d columns where the histogram has %d (a "
		       "truncated or edited file?)", path, lineno, n - 1,
		       h->ncols);
		return -EINVAL;
	}
	if (h->nrows == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 1024;
		uint64_t *r = realloc(h->rows, cap * h->ncols * sizeof(*r));

		if (!r)
			return -ENOMEM;
		h->rows = r;
		h->cap = cap;
	}
	for (j = 0; j < h->ncols; j++) {
		h->colsum[j] += v[j + 1];
		if (h->colsum[j] > (uint64_t)COUNT_MAX) {
			pr_err("%s:%u: column %d: the counts add up to more "
			       "than 2^53", path, lineno, j + 1);
			return -EINVAL;
		}
	}
	memcpy(h->rows + h->nrows * h->ncols, v + 1, h->ncols * sizeof(*v));
	h->nrows++;
	return 0;
}

static int hist_line(const char *path, unsigned int lineno, char *line,
		     struct hist_text *h)
{
	const char *s = line;
	struct ctline tl;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s)
		return 0;
	if (*s == '#')
		return hist_summary(path, lineno, s, h);
	if (isdigit((unsigned char)*s))
		return hist_row(path, lineno, s, h);
	if (ctline_parse(s, &tl)) {
		if (h->ntl < HIST_MAX_COLS && tl.thread == h->ntl)
			h->tl[h->ntl++] = tl;
		return 0;
	}
	if (!strncmp(s, "policy:", 7))
		return 0;
	pr_err("%s:%u: not part of a cyclictest histogram: \"%.40s\"", path,
	       lineno, s);
	return -EINVAL;
}

/* Threads, and whether the last column is the old all-threads total. */
static int hist_layout(const char *path, struct hist_text *h, int *nthreads)
{
	int n = h->nmin > 0 ? h->nmin : h->nthread_lines > 0 ?
		h->nthread_lines : h->ncols;
	size_t r;
	int j;

	if (h->ncols == n) {
		*nthreads = n;
		return 0;
	}
	if (h->ncols != n + 1 || n < 1) {
		pr_err("%s: %d histogram columns for %d threads", path,
		       h->ncols, n);
		return -EINVAL;
	}
	for (r = 0; r < h->nrows; r++) {
		uint64_t sum = 0, *row = h->rows + r * h->ncols;

		for (j = 0; j < n; j++)
			sum += row[j];
		if (row[n] != sum) {
			pr_err("%s: bucket %zu: the totals column says %llu, "
			       "the threads add up to %llu", path, r,
			       (unsigned long long)row[n],
			       (unsigned long long)sum);
			return -EINVAL;
		}
	}
	*nthreads = n;
	return 0;
}

static int hist_thread(const char *path, struct hist_text *h, int j,
		       struct an_cpu *c)
{
	uint64_t *b, sum = 0;
	size_t r;
	int ret;

	b = calloc(h->nrows ? h->nrows : 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (r = 0; r < h->nrows; r++) {
		b[r] = h->rows[r * h->ncols + j];
		sum += b[r];
	}
	if (j < h->ntotal && (uint64_t)h->total[j] != sum) {
		pr_err("%s: thread %d: \"# Total:\" says %ld but the buckets "
		       "add up to %llu", path, j, h->total[j],
		       (unsigned long long)sum);
		free(b);
		return -EINVAL;
	}
	c->thread = j;
	c->cycles = sum + (j < h->novf ? (uint64_t)h->ovf[j] : 0);
	ret = an_cpu_set_hist(c, b, h->nrows, h->nrows);
	free(b);
	if (ret)
		return ret;
	c->max_us = j < h->nmax ? h->max[j] :
		    c->overflows ? (long)c->limit :
		    c->nbuckets ? (long)c->b[c->nbuckets - 1].us : 0;
	c->min_us = j < h->nmin ? h->min[j] :
		    c->nbuckets ? (long)c->b[0].us : 0;
	if (!c->cycles)
		c->min_us = c->max_us = 0;	/* the 1000000 sentinel */
	/* The invariants the JSON parser checks (json_thread()). */
	if (c->max_us < c->min_us) {
		pr_err("%s: thread %d: \"# Max Latencies:\" %ld is below "
		       "\"# Min Latencies:\" %ld", path, j, c->max_us,
		       c->min_us);
		return -EINVAL;
	}
	if (!c->overflows && c->nbuckets &&
	    c->max_us < (long)c->b[c->nbuckets - 1].us) {
		pr_err("%s: thread %d: \"# Max Latencies:\" %ld is below the "
		       "highest bucket %u", path, j, c->max_us,
		       c->b[c->nbuckets - 1].us);
		return -EINVAL;
	}
	c->avg_us = j < h->navg ? h->avg[j] : 0;
	if (j >= h->navg && sum) {
		double s = 0;

		for (r = 0; r < c->nbuckets; r++)
			s += (double)c->b[r].us * c->b[r].n;
		c->avg_us = s / sum;
	}
	if (j < h->ntl) {
		c->interval_us = h->tl[j].interval_us;
		c->prio = h->tl[j].prio;
		c->tid = h->tl[j].tid;
	}
	return 0;
}

int an_parse_histfile(const char *path, const char *buf, struct an_run *run)
{
	struct hist_text *h;
	unsigned int lineno = 0;
	char *copy, *line, *save = NULL;
	int nthreads = 0, j, ret = -EINVAL;

	h = calloc(1, sizeof(*h));
	copy = strdup(buf);
	if (!h || !copy) {
		ret = -ENOMEM;
		goto out;
	}
	/* strsep keeps empty lines, so line numbers stay right. */
	line = copy;
	while ((save = strsep(&line, "\n"))) {
		lineno++;
		ret = hist_line(path, lineno, save, h);
		if (ret)
			goto out;
	}
	ret = -EINVAL;
	if (!h->nrows) {
		pr_err("%s: no histogram rows", path);
		goto out;
	}
	if (!h->seen_total) {
		pr_err("%s:%u: the file ends before the \"# Total:\" line: "
		       "truncated", path, lineno);
		goto out;
	}
	if (hist_layout(path, h, &nthreads))
		goto out;
	run->cpus = calloc(nthreads, sizeof(*run->cpus));
	if (!run->cpus) {
		ret = -ENOMEM;
		goto out;
	}
	run->ncpus = nthreads;
	for (j = 0; j < nthreads; j++) {
		run->cpus[j].cpu = -1;
		run->cpus[j].prio = -1;
		run->cpus[j].act_us = -1;
		ret = hist_thread(path, h, j, &run->cpus[j]);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	if (h)
		free(h->rows);
	free(h);
	free(copy);
	return ret;
}

/* ---- T: lines ---- */

static bool looks_like_tline(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '>' || *s == '\r')
		s++;
	/* Escape sequences of the live display precede the line. */
	while (*s == '\033') {
		s++;
		if (*s == '[')
			s++;
		while (*s && !isalpha((unsigned char)*s))
			s++;
		if (*s)
			s++;
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
	}
	return s[0] == 'T' && s[1] == ':';
}

static void ctline_to_cpu(const struct ctline *t, struct an_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->thread = t->thread;
	c->cpu = -1;
	c->tid = t->tid;
	c->prio = t->prio;
	c->interval_us = t->interval_us;
	c->cycles = t->cycles;
	c->min_us = t->min_us;
	c->act_us = t->act_us;
	c->avg_us = t->avg_us;
	c->max_us = t->max_us;
	if (!t->cycles)
		c->min_us = c->max_us = 0;	/* Min: 1000000 sentinel */
}

/*
 * The last complete block of T: lines (a live capture holds many; the
 * last is the final state). A block starts at T: 0.
 */
static int tline_blocks(const char *what, char **lines, size_t n,
			bool numbered, struct an_cpu **cpus, size_t *ncpus)
{
	struct ctline *blk, t;
	size_t i, nb = 0, best = 0, start = 0;
	int ret = -EINVAL;

	blk = calloc(n ? n : 1, sizeof(*blk));
	if (!blk)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!looks_like_tline(lines[i]))
			continue;
		if (!ctline_parse(lines[i], &t)) {
			if (numbered)
				pr_err("%s:%zu: malformed cyclictest T: line",
				       what, i + 1);
			else
				pr_err("%s: malformed cyclictest T: line "
				       "\"%.60s\"", what, lines[i]);
			goto out;
		}
		if (t.thread == 0)
			start = nb;
		if (t.thread != (int)(nb - start)) {
			pr_err("%s%s%zu: T: %d follows T: %d (threads must be "
			       "numbered 0, 1, ... in each block)", what,
			       numbered ? ":" : " line ", i + 1, t.thread,
			       nb > start ? blk[nb - 1].thread : -1);
			goto out;
		}
		blk[nb++] = t;
		best = start;
	}
	if (!nb) {
		pr_err("%s: no cyclictest T: lines", what);
		goto out;
	}
	*ncpus = nb - best;
	*cpus = calloc(*ncpus, sizeof(**cpus));
	if (!*cpus) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < *ncpus; i++)
		ctline_to_cpu(&blk[best + i], &(*cpus)[i]);
	ret = 0;
out:
	free(blk);
	return ret;
}

int an_parse_tline_array(const char *what, const char *const *lines,
			 size_t n, struct an_cpu **cpus, size_t *ncpus)
{
	return tline_blocks(what, (char **)lines, n, false, cpus, ncpus);
}

int an_parse_tlines(const char *path, const char *buf, struct an_run *run)
{
	char *copy, *p, **lines = NULL, **l;
	size_t n = 0, cap = 0;
	int ret;

	copy = strdup(buf);
	if (!copy)
		return -ENOMEM;
	for (p = copy; p;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			l = realloc(lines, cap * sizeof(*l));
			if (!l) {
				ret = -ENOMEM;
				goto out;
			}
			lines = l;
		}
		lines[n++] = strsep(&p, "\n");
	}
	ret = tline_blocks(path, lines, n, true, &run->cpus, &run->ncpus);
out:
	free(lines);
	free(copy);
	return ret;
}

/* ---- detection ---- */

enum an_file_kind an_file_detect(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	bool tl = false;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && *p == '{')
		return AN_FILE_JSON;
	for (p = buf; p < end; p = memchr(p, '\n', end - p) + 1) {
		const char *s = p;

		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (!strncmp(s, "# Histogram", 11) && s[11] != ' ')
			return AN_FILE_HIST;
		if (looks_like_tline(s))
			tl = true;
		if (!memchr(p, '\n', end - p))
			break;
	}
	return tl ? AN_FILE_TLINES : AN_FILE_UNKNOWN;
}

int an_parse_file(const char *path, struct an_run *run)
{
	char *buf = NULL;
	size_t len;
	int ret;

	ret = fsio_read_input(path, &buf, &len);
	if (ret) {
		pr_err("%s: %s", path, fsio_input_why(ret));
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	if (strlen(buf) != len) {
		pr_err("%s: byte %zu: a NUL byte in a text file", path,
		       strlen(buf));
		ret = -EINVAL;
		goto out;
	}
	switch (an_file_detect(buf, len)) {
	case AN_FILE_JSON:
		ret = an_parse_json(path, buf, len, run);
		break;
	case AN_FILE_HIST:
		ret = an_parse_histfile(path, buf, run);
		break;
	case AN_FILE_TLINES:
		ret = an_parse_tlines(path, buf, run);
		break;
	default:
		pr_err("%s: %s", path, len ? "not cyclictest output (--json, "
		       "--histfile or T: lines)" : "empty file");
		ret = -EINVAL;
	}
out:
	free(buf);
	return ret;
}
