/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Latency over time: cyclictest's verbose stream reduced to the largest
 * latency of every second, per thread, kept as <rep>/timeline.json
 * (schema rtgate-timeline/1, docs/results.md).
 *
 * With -v cyclictest's measuring threads store each sample in a ring
 * buffer and its main thread prints them ("THREAD:CYCLE:US"); with -o N
 * it prints only the largest of every N samples and the cycle it was
 * taken at. Cycle k of a thread of interval I us is taken k * I us after
 * the thread's first wake-up, so a sample belongs to second
 * floor(k * I / 1e6) of the measurement. The runner keeps only these
 * per-second maxima in memory and on disk, never the sample stream.
 * Holds no process state: tests feed it lines by hand.
 */
#ifndef RTGATE_RUNNER_SERIES_H
#define RTGATE_RUNNER_SERIES_H

#include <stdbool.h>
#include <stddef.h>

/* One cyclictest thread's per-second maxima; -1: no sample that second. */
struct runner_series_thread {
	long interval_us;	/* "Thread N Interval: I"; 0 unknown */
	long *max_us;
	size_t nsec;		/* seconds seen: max_us[0 .. nsec - 1] */
	size_t cap;		/* max_us's length */
	unsigned long samples;	/* reduced samples (windows) taken in */
};

/* A sample line as read: the window's maximum and the cycle it was at. */
struct runner_series_sample {
	int thread;
	unsigned long cycle;
	long us;
};

struct runner_series {
	unsigned int window;	/* -o: samples per printed maximum */
	long default_interval_us;	/* -i, for a thread never announced */
	struct runner_series_thread *t;
	size_t nr;
};

/* The samples per window that keep a window at or under 10 ms. */
unsigned int runner_series_window(long interval_us);

void runner_series_init(struct runner_series *s, unsigned int window,
			long default_interval_us);
/*
 * One sample (a window's maximum): @us taken at @cycle of @thread goes
 * into its second. Returns 0, or -EINVAL (negative thread, a second
 * beyond a year) or -ENOMEM.
 */
int runner_series_add(struct runner_series *s, int thread,
		      unsigned long cycle, long us);
/*
 * One line of cyclictest -v output: a sample line or "Thread N
 * Interval: I". Returns 1 when it was a sample (@out is set), 2 for an
 * interval line, 0 for any other line, -errno on failure.
 */
int runner_series_line(struct runner_series *s, const char *line,
		       struct runner_series_sample *out);
/* The largest per-second maximum of @thread so far; -1 none. */
long runner_series_max(const struct runner_series *s, int thread);
/* Writes the series as JSON (atomically); 0 or -errno. */
int runner_series_write(const struct runner_series *s, const char *path);
void runner_series_free(struct runner_series *s);

#endif
