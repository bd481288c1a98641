// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time as rtgate writes it (timefmt.h): UTC ISO-8601 stamps and the
 * compact stamp that names a run's folder.
 */
#include "timefmt.h"

static void utc(time_t t, const char *fmt, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	if (!strftime(buf, len, fmt, &tm) && len)
		buf[0] = '\0';
}

void timefmt_iso8601(time_t t, char *buf, size_t len)
{
	utc(t, "%Y-%m-%dT%H:%M:%SZ", buf, len);
}

void timefmt_iso8601_now(char *buf, size_t len)
{
	timefmt_iso8601(time(NULL), buf, len);
}

void timefmt_compact(time_t t, char *buf, size_t len)
{
	utc(t, "%Y%m%d-%H%M%S", buf, len);
}
