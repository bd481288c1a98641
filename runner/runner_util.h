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

/* CLOCK_MONOTONIC in seconds. */
double mono_now(void);
void realtime_now(struct timespec *ts);

#endif
