// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time (measure.h): cyclictest -v's samples as per-second
 * maxima per thread, written as timeline.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "runner/measure/measure.h"

#define SERIES_WINDOW_US	10000	/* a printed maximum covers <= 10 ms */
#define SERIES_MAX_SECONDS	(366UL * 24 * 3600)
#define SERIES_MAX_THREADS	1024

unsigned int runner_series_window(long interval_us)
{
	if (interval_us <= 0 || interval_us >= SERIES_WINDOW_US)
		return 1;
	return SERIES_WINDOW_US / interval_us;
}

void runner_series_init(struct runner_series *s, unsigned int window,
			long default_interval_us)
{
	memset(s, 0, sizeof(*s));
	s->window = window ? window : 1;
	s->default_interval_us = default_interval_us > 0 ?
				 default_interval_us : 1000;
}

static struct runner_series_thread *thread_of(struct runner_series *s,
					      int thread)
{
	struct runner_series_thread *t;
	size_t n;

	if (thread < 0 || thread >= SERIES_MAX_THREADS)
		return NULL;
	if ((size_t)thread < s->nr)
		return &s->t[thread];
	n = thread + 1;
	t = realloc(s->t, n * sizeof(*t));
	if (!t)
		return NULL;
	memset(t + s->nr, 0, (n - s->nr) * sizeof(*t));
	s->t = t;
	s->nr = n;
	return &s->t[thread];
}

static int grow(struct runner_series_thread *t, size_t need)
{
	size_t n = t->cap ? t->cap : 16, i;
	long *v;

	while (n < need)
		n *= 2;
	v = realloc(t->max_us, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = t->cap; i < n; i++)
		v[i] = -1;
	t->max_us = v;
	t->cap = n;
	return 0;
}

int runner_series_add(struct runner_series *s, int thread,
		      unsigned long cycle, long us)
{
	struct runner_series_thread *t = thread_of(s, thread);
	unsigned long long sec;
	long interval;
	int ret;

	if (!t)
		return thread < 0 || thread >= SERIES_MAX_THREADS ?
		       -EINVAL : -ENOMEM;
	interval = t->interval_us > 0 ? t->interval_us :
		   s->default_interval_us;
	sec = (unsigned long long)cycle * interval / 1000000ULL;
	if (sec >= SERIES_MAX_SECONDS)
		return -EINVAL;
	if (sec >= t->cap) {
		ret = grow(t, sec + 1);
		if (ret)
			return ret;
	}
	if (sec >= t->nsec)
		t->nsec = sec + 1;
	if (us > t->max_us[sec])
		t->max_us[sec] = us;
	t->samples++;
	return 0;
}

/* "       0:     287:     342": cyclictest's "%8d:%8lu:%8ld". */
static bool parse_sample(const char *line, struct runner_series_sample *o)
{
	int n = 0;

	if (sscanf(line, " %d : %lu : %ld %n", &o->thread, &o->cycle, &o->us,
		   &n) != 3 || line[n])
		return false;
	return true;
}

int runner_series_line(struct runner_series *s, const char *line,
		       struct runner_series_sample *out)
{
	struct runner_series_thread *t;
	long interval;
	int n = 0, thread, ret;

	if (parse_sample(line, out)) {
		ret = runner_series_add(s, out->thread, out->cycle, out->us);
		return ret ? ret : 1;
	}
	if (sscanf(line, "Thread %d Interval: %ld %n", &thread, &interval,
		   &n) == 2 && !line[n] && interval > 0) {
		t = thread_of(s, thread);
		if (!t)
			return -EINVAL;
		t->interval_us = interval;
		return 2;
	}
	return 0;
}

long runner_series_max(const struct runner_series *s, int thread)
{
	const struct runner_series_thread *t;
	long max = -1;
	size_t i;

	if (thread < 0 || (size_t)thread >= s->nr)
		return -1;
	t = &s->t[thread];
	for (i = 0; i < t->nsec; i++)
		if (t->max_us[i] > max)
			max = t->max_us[i];
	return max;
}

static cJSON *thread_json(const struct runner_series *s, size_t i,
			  size_t nsec)
{
	const struct runner_series_thread *t = &s->t[i];
	cJSON *o = cJSON_CreateObject(), *a;
	size_t k;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "thread", i);
	cJSON_AddNumberToObject(o, "interval_us", t->interval_us > 0 ?
				t->interval_us : s->default_interval_us);
	cJSON_AddNumberToObject(o, "windows", t->samples);
	a = cJSON_AddArrayToObject(o, "max_us");
	for (k = 0; a && k < nsec; k++)
		cJSON_AddItemToArray(a, k < t->nsec && t->max_us[k] >= 0 ?
				     cJSON_CreateNumber(t->max_us[k]) :
				     cJSON_CreateNull());
	return o;
}

int runner_series_write(const struct runner_series *s, const char *path)
{
	cJSON *root = cJSON_CreateObject(), *threads;
	char src[96];
	size_t i, nsec = 0;
	int ret;

	if (!root)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++)
		if (s->t[i].nsec > nsec)
			nsec = s->t[i].nsec;
	cJSON_AddStringToObject(root, "schema", "rtgate-timeline/1");
	snprintf(src, sizeof(src), "cyclictest -v -o %u: the largest "
		 "latency of every %u samples", s->window, s->window);
	cJSON_AddStringToObject(root, "source", src);
	cJSON_AddNumberToObject(root, "window_samples", s->window);
	cJSON_AddNumberToObject(root, "seconds", nsec);
	threads = cJSON_AddArrayToObject(root, "threads");
	for (i = 0; threads && i < s->nr; i++) {
		cJSON *t = thread_json(s, i, nsec);

		if (!t) {
			cJSON_Delete(root);
			return -ENOMEM;
		}
		cJSON_AddItemToArray(threads, t);
	}
	ret = json_write_file(path, root);
	cJSON_Delete(root);
	return ret;
}

void runner_series_free(struct runner_series *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->t[i].max_us);
	free(s->t);
	s->t = NULL;
	s->nr = 0;
}
