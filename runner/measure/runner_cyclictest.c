// SPDX-License-Identifier: GPL-2.0-only
/*
 * cyclictest as a measurement (measure.h): its command line, its live
 * lines and per-second maxima, and its end -- cyclictest.log, the JSON
 * checked through the analyzer's reader, the cut-short checks.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "fsio.h"
#include "rtpaths.h"
#include "runner/measure/measure.h"
#include "vec.h"

#define CT_NOTES_MAX	(64 * 1024)

unsigned int runner_ct_duration_s(const struct runner_suite_measure *m,
				  double scale)
{
	double s;

	if (!m->duration_ns)
		return 0;
	s = round(m->duration_ns / 1e9 * scale);
	return s < 1 ? 1 : (unsigned int)s;
}

unsigned long long runner_ct_loops(const struct runner_suite_measure *m,
				   double scale)
{
	double l;

	if (!m->loops)
		return 0;
	l = round(m->loops * scale);
	return l < 1 ? 1 : (unsigned long long)l;
}

/* The suite's `cyclictest =` options. */
static char **ct_args(const struct runner_suite_measure *m)
{
	return runner_suite_opts(m, an_tool_find("cyclictest"))->argv;
}

static int push_fmt(char ***argv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int push_fmt(char ***argv, const char *fmt, ...)
{
	char buf[PATH_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return vec_strv_push(argv, buf);
}

/*
 * The value of option -@opt or --@lng (-i1000, -i 1000, --interval=1000,
 * --interval 1000) among the suite's cyclictest options; @fallback when
 * it is absent or not a number.
 */
static long arg_num(char **args, char opt, const char *lng, long fallback)
{
	size_t i, n = strlen(lng);
	const char *v;
	char *end;
	long val = fallback;

	for (i = 0; args && args[i]; i++) {
		const char *a = args[i];

		v = NULL;
		if (a[0] == '-' && a[1] == opt)
			v = a[2] ? a + 2 : args[i + 1];
		else if (!strncmp(a, lng, n) && a[n] == '=')
			v = a + n + 1;
		else if (!strcmp(a, lng))
			v = args[i + 1];
		if (!v)
			continue;
		errno = 0;
		val = strtol(v, &end, 10);
		if (errno || end == v || *end || val <= 0)
			val = fallback;
	}
	return val;
}

static int series_args(struct runner_ct_run *c,
		       const struct runner_suite_measure *m)
{
	char **args = ct_args(m);
	long interval = arg_num(args, 'i', "--interval", 1000);
	unsigned int window = runner_series_window(interval);
	int ret;

	c->verbose = true;
	c->prio = (int)arg_num(args, 'p', "--priority", 0);
	runner_series_init(&c->series, window, interval);
	ret = vec_strv_push(&c->argv, "-v");
	if (!ret && window > 1)
		ret = push_fmt(&c->argv, "-o%u", window);
	return ret;
}

int runner_ct_init(struct runner_ct_run *c,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir, bool series)
{
	char **args = ct_args(m);
	size_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->expect_s = runner_ct_duration_s(m, scale);
	c->expect_loops = runner_ct_loops(m, scale);
	ret = vec_strv_push(&c->argv, "cyclictest");
	for (i = 0; !ret && args && args[i]; i++)
		ret = vec_strv_push(&c->argv, args[i]);
	if (!ret && m->duration_ns)
		ret = push_fmt(&c->argv, "-D%u", runner_ct_duration_s(m, scale));
	if (!ret && m->loops)
		ret = push_fmt(&c->argv, "-l%llu", runner_ct_loops(m, scale));
	if (!ret)
		ret = push_fmt(&c->argv, "-h%u", m->histogram_us);
	if (!ret)
		ret = push_fmt(&c->argv, "--histfile=%s/cyclictest.hist.part",
			       dir);
	if (!ret)
		ret = push_fmt(&c->argv, "--json=%s/cyclictest.json.part", dir);
	if (!ret && series)
		ret = series_args(c, m);
	if (ret)
		runner_ct_free(c);
	return ret;
}

static void append_raw(char **buf, const char *s)
{
	size_t old = *buf ? strlen(*buf) : 0, n = s ? strlen(s) : 0;
	char *grown;

	if (!n || old + n > CT_NOTES_MAX)
		return;
	grown = realloc(*buf, old + n + 1);
	if (!grown)
		return;
	memcpy(grown + old, s, n + 1);
	*buf = grown;
}

static void append(char **buf, const char *line)
{
	append_raw(buf, line);
	append_raw(buf, "\n");
}

/* cyclictest moves the cursor up before each refresh: drop the escapes. */
static void strip_escapes(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (*r == '\033') {
			r++;
			if (*r == '[') {
				r++;
				while (*r && !((*r >= 'A' && *r <= 'Z') ||
					       (*r >= 'a' && *r <= 'z')))
					r++;
			}
			if (*r)
				r++;
			continue;
		}
		if (*r != '\r')
			*w++ = *r;
		r++;
	}
	*w = '\0';
	while (w > s && w[-1] == ' ')
		*--w = '\0';
}

/*
 * A window's maximum from cyclictest -v: the thread's state so far, as a
 * T: line would say it (cycles counted in windows, max the largest seen).
 */
static bool feed_sample(struct runner_ct_run *c,
			const struct runner_series_sample *x, struct ctline *t)
{
	struct ctline *l;

	if (x->thread < 0 || x->thread >= CT_MAX_THREADS)
		return false;
	l = &c->last[x->thread];
	if (!c->have[x->thread]) {
		memset(l, 0, sizeof(*l));
		l->thread = x->thread;
		l->min_us = x->us;
	}
	l->prio = c->prio;
	l->interval_us = c->series.t[x->thread].interval_us ?
			 c->series.t[x->thread].interval_us :
			 c->series.default_interval_us;
	l->cycles = (long)(c->series.t[x->thread].samples *
			   c->series.window);
	l->act_us = x->us;
	if (x->us > l->max_us)
		l->max_us = x->us;
	c->have[x->thread] = true;
	if (x->thread >= c->nr_threads)
		c->nr_threads = x->thread + 1;
	*t = *l;
	return true;
}

bool runner_ct_feed(struct runner_ct_run *c, const char *raw, struct ctline *t)
{
	struct runner_series_sample x;
	char line[1024];

	snprintf(line, sizeof(line), "%s", raw);
	strip_escapes(line);
	if (!line[0])
		return false;
	if (c->verbose && runner_series_line(&c->series, line, &x) == 1)
		return feed_sample(c, &x, t);
	if (ctline_parse(line, t)) {
		if (t->thread >= CT_MAX_THREADS)
			return false;
		c->last[t->thread] = *t;
		c->have[t->thread] = true;
		if (t->thread >= c->nr_threads)
			c->nr_threads = t->thread + 1;
		return true;
	}
	/* The first refresh's C: 0 lines (Min:1000000) are not T: lines. */
	if (!strncmp(line, "T:", 2))
		return false;
	if (!strncmp(line, "policy:", 7)) {
		free(c->status_line);
		c->status_line = strdup(line);
		return false;
	}
	if (!c->nr_threads && !c->status_line)
		append(&c->header, line);
	else if (!c->notes || !strstr(c->notes, line))
		append(&c->notes, line);
	return false;
}

static int write_log(struct runner_ct_run *c)
{
	char path[PATH_MAX], tline[256];
	char *text = NULL;
	int i, ret;

	append_raw(&text, c->header);
	if (c->status_line)
		append(&text, c->status_line);
	append_raw(&text, c->notes);
	for (i = 0; i < c->nr_threads; i++) {
		const struct ctline *t = &c->last[i];

		if (!c->have[i])
			continue;
		snprintf(tline, sizeof(tline), "T:%2d (%5d) P:%2d I:%ld C:%7ld "
			 "Min:%7ld Act:%5ld Avg:%5ld Max:%8ld", t->thread,
			 t->tid, t->prio, t->interval_us, t->cycles, t->min_us,
			 t->act_us, t->avg_us, t->max_us);
		append(&text, tline);
	}
	rtpaths_fmt(path, sizeof(path), "%s/cyclictest.log", c->dir);
	ret = fsio_write_atomic(path, text ? text : "",
				text ? strlen(text) : 0);
	free(text);
	return ret;
}

/* rt-tests prints an avg of -nan for a thread with no cycles. */
static bool json_has_nan(const char *path)
{
	bool nan = false;
	char *text;

	if (!fsio_read_all(path, &text, NULL)) {
		nan = strstr(text, "nan") != NULL;
		free(text);
	}
	return nan;
}

static int rename_part(const char *dir, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];

	snprintf(from, sizeof(from), "%s/%s.part", dir, name);
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (rename(from, to))
		return -errno;
	return 0;
}

/*
 * A measurement cut short: cyclictest ended well before its -D (an option
 * that ends it early, such as an abbreviated --loops), or with -l no
 * thread reached it; or a thread hardly ran: far fewer samples than -D
 * and its I: interval imply, or than -l asks. With -l cyclictest stops
 * all threads when the first one has its loops, so the others have what
 * they took until then, as under -D: a thread that started late (beside
 * busy fair threads in the two-vCPU lab, 13 % late; docs/reproducing.md)
 * or runs at a longer interval (-d) is whole. The floors are loose on
 * purpose: threads start late, host pauses cost samples, and under
 * QEMU's TCG a thread takes a third of them; a cut-short run takes a few
 * percent. A -b break ends it early by the suite's own choice.
 */
#define CT_MIN_TIME	0.9	/* of -D */
#define CT_MIN_SAMPLES	0.1	/* of -D / I:, or of -l */
#define CT_MIN_LOOPS	0.9	/* of -l, by the thread that took most */

/* Samples thread i took: the analyzer's per-CPU count, else its T: line. */
static double thread_samples(const struct runner_ct_run *c,
			     const struct an_run *run, int i)
{
	return (size_t)i < run->ncpus ? (double)run->cpus[i].cycles :
	       (double)c->last[i].cycles;
}

static int check_samples(struct runner_ct_run *c, const struct an_run *run,
			 char *why, size_t len)
{
	double want, got, most = 0;
	int i, busiest = -1;

	if ((c->header && strstr(c->header, "# Break thread:")) ||
	    (c->notes && strstr(c->notes, "# Break thread:")))
		return 0;
	if (c->expect_s && c->elapsed_s > 0 &&
	    c->elapsed_s < CT_MIN_TIME * c->expect_s) {
		snprintf(why, len, "cyclictest ran %.1f s of its %u s (the "
			 "measurement was cut short)", c->elapsed_s,
			 c->expect_s);
		return -ERANGE;
	}
	for (i = 0; c->expect_loops && i < c->nr_threads; i++) {
		if (!c->have[i] || c->last[i].interval_us <= 0)
			continue;
		got = thread_samples(c, run, i);
		if (busiest < 0 || got > most) {
			most = got;
			busiest = i;
		}
	}
	if (busiest >= 0 && most < CT_MIN_LOOPS * c->expect_loops) {
		snprintf(why, len, "no cyclictest thread took its -l %llu "
			 "samples: thread %d, the most, took %.0f (the "
			 "measurement was cut short)", c->expect_loops, busiest,
			 most);
		return -ERANGE;
	}
	for (i = 0; i < c->nr_threads; i++) {
		if (!c->have[i] || c->last[i].interval_us <= 0)
			continue;
		got = thread_samples(c, run, i);
		want = c->expect_loops ? (double)c->expect_loops :
		       c->expect_s * 1e6 / c->last[i].interval_us;
		if (got >= want * CT_MIN_SAMPLES)
			continue;
		if (c->expect_loops)
			snprintf(why, len, "cyclictest thread %d took %.0f "
				 "samples where -l %llu asks for %.0f (the "
				 "thread hardly ran)", i, got,
				 c->expect_loops, want);
		else
			snprintf(why, len, "cyclictest thread %d took %.0f "
				 "samples where %u s at %ld us imply %.0f (the "
				 "thread hardly ran, or the measurement was cut "
				 "short)", i, got, c->expect_s,
				 c->last[i].interval_us, want);
		return -ERANGE;
	}
	return 0;
}

/*
 * cyclictest's JSON as the analyzer reads it (one reader: analyze.h's
 * an_parse_file()); NULL when it is not whole or not valid, the analyzer
 * having said why, naming the file.
 */
static struct an_side *read_json(const struct runner_ct_run *c)
{
	char path[PATH_MAX];
	struct an_side *side = an_side_new("cyclictest");
	struct an_run *run;

	rtpaths_fmt(path, sizeof(path), "%s/cyclictest.json.part", c->dir);
	run = side ? an_side_add_run(side, "cyclictest.json", 0) : NULL;
	if (!run || an_parse_file(path, run)) {
		an_side_free(side);
		return NULL;
	}
	return side;
}

/*
 * With -v cyclictest prints no T: lines: the final ones are rebuilt from
 * its JSON (cycles, min, avg, max of the whole measurement).
 */
static void finals_from_json(struct runner_ct_run *c, const struct an_run *run)
{
	size_t i;

	for (i = 0; i < run->ncpus && i < CT_MAX_THREADS; i++) {
		const struct an_cpu *t = &run->cpus[i];
		struct ctline *l = &c->last[i];

		if (!c->have[i]) {
			memset(l, 0, sizeof(*l));
			l->thread = i;
			l->prio = c->prio;
			l->interval_us = c->series.default_interval_us;
		}
		l->cycles = (long)t->cycles;
		l->min_us = t->min_us;
		l->avg_us = (long)t->avg_us;
		l->max_us = t->max_us;
		c->have[i] = true;
		if ((int)i >= c->nr_threads)
			c->nr_threads = i + 1;
	}
	append(&c->notes, "# cyclictest -v prints samples, not T: lines: the "
	       "T: lines below are rebuilt from cyclictest.json (tid "
	       "unknown); the per-second maxima are in timeline.json");
}

int runner_ct_finish(struct runner_ct_run *c, bool complete, char *why,
		     size_t len)
{
	struct an_side *side = complete ? read_json(c) : NULL;
	const struct an_run *run = side ? &side->runs[0] : NULL;
	char path[PATH_MAX];
	int ret;

	if (c->verbose && run)
		finals_from_json(c, run);
	ret = write_log(c);
	if (ret) {
		snprintf(why, len, "cannot write cyclictest.log: %s",
			 strerror(-ret));
		goto out;
	}
	if (!complete)
		goto out;
	/* cyclictest writes the JSON last: it is whole, or it is no result. */
	if (!run) {
		rtpaths_fmt(path, sizeof(path), "%s/cyclictest.json.part",
			    c->dir);
		if (json_has_nan(path))
			snprintf(why, len, "a cyclictest thread measured "
				 "nothing (0 cycles: its CPU was "
				 "monopolised?), "
				 "and rt-tests wrote -nan into its JSON");
		else
			snprintf(why, len, "cyclictest left no usable JSON "
				 "(the error above says why)");
		ret = -EINVAL;
		goto out;
	}
	ret = rename_part(c->dir, "cyclictest.hist");
	if (!ret)
		ret = rename_part(c->dir, "cyclictest.json");
	if (ret)
		snprintf(why, len, "cannot rename cyclictest's files: %s",
			 strerror(-ret));
	else
		ret = check_samples(c, run, why, len);
	if (!ret && c->verbose) {
		rtpaths_fmt(path, sizeof(path), "%s/timeline.json", c->dir);
		ret = runner_series_write(&c->series, path);
		if (ret)
			snprintf(why, len, "cannot write timeline.json: %s",
				 strerror(-ret));
	}
out:
	an_side_free(side);
	return ret;
}

void runner_ct_free(struct runner_ct_run *c)
{
	vec_strv_free(c->argv);
	runner_series_free(&c->series);
	free(c->header);
	free(c->notes);
	free(c->status_line);
	c->argv = NULL;
	c->header = c->notes = c->status_line = NULL;
}
