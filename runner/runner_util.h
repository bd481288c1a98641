/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers the runner's modules share: growable arrays, string
 * vectors, clocks and timestamps.
 */
#ifndef RTGATE_RUNNER_UTIL_H
#define RTGATE_RUNNER_UTIL_H

#include <stddef.h>
#include <time.h>

/*
 * Appends one zeroed element of @size bytes to the array *@arr holding
 * *@nr elements; returns it, or NULL when out of memory (the array is
 * left as it was).
 */
void *array_push(void *arr, size_t *nr, size_t size);

/* NULL-terminated string vectors. */
size_t strv_len(char *const *v);
char **strv_dup(char *const *v);
int strv_push(char ***v, const char *s);
void strv_free(char **v);
/* Joins with single spaces (for messages); the caller frees. */
char *strv_join(char *const *v);

/*
 * snprintf for paths and messages built from paths: 0, or -ENAMETOOLONG
 * when the result was cut (the buffer then holds the cut string).
 */
int path_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* CLOCK_MONOTONIC in seconds. */
double mono_now(void);
/* "2026-11-30T19:41:00Z" (UTC) into buf (at least 21 bytes). */
void iso_time(const struct timespec *ts, char *buf, size_t len);
void realtime_now(struct timespec *ts);

#endif
