// SPDX-License-Identifier: GPL-2.0-only
/*
 * Diagnostics on stderr with the program's name (log.h): the level, and
 * bytes that are not UTF-8 written as \xNN.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static const char *log_progname = "rtgate";
static enum log_level log_level = LOG_LEVEL_INFO;

void log_init(const char *progname)
{
	log_progname = progname;
}

void log_set_level(enum log_level level)
{
	log_level = level;
}

/* Length of the valid UTF-8 sequence at @s (1-4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (*s < 0x80)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Messages quote what rtgate read (a suite line, a histogram row): bytes
 * that would drive the terminal (escape sequences, carriage returns) or
 * that are not UTF-8 are written as \xNN, so that a binary file cannot
 * rewrite the screen or hide the message. Newlines and tabs stay.
 */
static void put_escaped(const char *msg, FILE *f)
{
	const unsigned char *p = (const unsigned char *)msg;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (n == 1 && (*p >= 0x20 || *p == '\n' || *p == '\t') &&
		    *p != 0x7f) {
			fputc(*p++, f);
		} else if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\x%02x", *p++);
		}
	}
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const prefix[] = {
		[LOG_LEVEL_ERR] = "error: ",
		[LOG_LEVEL_WARN] = "warning: ",
		[LOG_LEVEL_INFO] = "",
		[LOG_LEVEL_DEBUG] = "debug: ",
	};
	char *msg = NULL;
	va_list ap;
	int n;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s", log_progname, prefix[level]);
	if (n >= 0)
		put_escaped(msg, stderr);
	else
		fputs(fmt, stderr);
	free(msg);
	fputc('\n', stderr);
}
