/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers shared by the analyzer's files. */
#ifndef RTGATE_ANALYZE_UTIL_H
#define RTGATE_ANALYZE_UTIL_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

/* snprintf for labels and messages: a long value is cut, never overflows. */
void an_sfmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "dir/name" into buf; -ENAMETOOLONG rather than a cut path. */
static inline int an_path_join(char *buf, size_t len, const char *dir,
			       const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

#endif
