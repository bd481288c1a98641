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
void *runner_array_push(void *arr, size_t *nr, size_t size);

/* NULL-terminated string vectors. */
size_t runner_strv_len(char *const *v);
char **runner_strv_dup(char *const *v);
int runner_strv_push(char ***v, const char *s);
void runner_strv_free(char **v);

/* CLOCK_MONOTONIC in seconds. */
double runner_mono_now(void);
void runner_realtime_now(struct timespec *ts);

#endif
