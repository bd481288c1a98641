// SPDX-License-Identifier: GPL-2.0-only
/*
 * Growable arrays and NULL-terminated string vectors (vec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

void *vec_push(void *arr, size_t *nr, size_t size)
{
	void **parr = arr;
	char *grown;

	grown = realloc(*parr, (*nr + 1) * size);
	if (!grown)
		return NULL;
	*parr = grown;
	memset(grown + *nr * size, 0, size);
	return grown + (*nr)++ * size;
}

size_t vec_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char **vec_strv_dup(char *const *v)
{
	size_t i, n = vec_strv_len(v);
	char **copy = calloc(n + 1, sizeof(*copy));

	if (!copy)
		return NULL;
	for (i = 0; i < n; i++) {
		copy[i] = strdup(v[i]);
		if (!copy[i]) {
			vec_strv_free(copy);
			return NULL;
		}
	}
	return copy;
}

int vec_strv_push(char ***v, const char *s)
{
	size_t n = vec_strv_len(*v);
	char **grown;
	char *copy;

	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	grown = realloc(*v, (n + 2) * sizeof(*grown));
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	grown[n] = copy;
	grown[n + 1] = NULL;
	*v = grown;
	return 0;
}

void vec_strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}
