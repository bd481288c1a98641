/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Growable arrays and NULL-terminated string vectors.
 */
#ifndef RTGATE_VEC_H
#define RTGATE_VEC_H

#include <stddef.h>

/*
 * Appends one zeroed element of @size bytes to the array *@arr holding
 * *@nr elements; returns it, or NULL when out of memory (the array is
 * left as it was).
 */
void *vec_push(void *arr, size_t *nr, size_t size);

/* NULL-terminated string vectors. */
size_t vec_strv_len(char *const *v);
char **vec_strv_dup(char *const *v);
int vec_strv_push(char ***v, const char *s);
void vec_strv_free(char **v);

#endif
