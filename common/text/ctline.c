// SPDX-License-Identifier: GPL-2.0-only
/*
 * cyclictest's T: line (ctline.h): parsed from live output and pasted
 * mailing-list text.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ctline.h"

/* Skips blanks, mail quote markers and ANSI escape sequences. */
static const char *skip_noise(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '>' || *p == '\r')
			p++;
		if (*p != '\033')
			return p;
		p++;
		if (*p == '[') {
			p++;
			while (*p && !isalpha((unsigned char)*p))
				p++;
			if (*p)
				p++;
		}
	}
}

/* Exact as a double: what the analyzer can count (and no more). */
#define CTLINE_NUM_MAX	9007199254740992LL	/* 2^53 */

static bool literal(const char **p, const char *lit, bool blanks)
{
	const char *s = *p;
	size_t n = strlen(lit);

	if (blanks)
		while (isspace((unsigned char)*s))
			s++;
	if (strncmp(s, lit, n))
		return false;
	*p = s + n;
	return true;
}

/* A decimal number; refuses what does not fit (sscanf would clamp). */
static bool number(const char **p, long long lo, long long hi, long *out)
{
	long long v;
	char *end;

	while (isspace((unsigned char)**p))
		(*p)++;
	if (!isdigit((unsigned char)**p) && **p != '-' && **p != '+')
		return false;
	errno = 0;
	v = strtoll(*p, &end, 10);
	if (end == *p || errno == ERANGE || v < lo || v > hi)
		return false;
	*p = end;
	*out = (long)v;
	return true;
}

bool ctline_parse(const char *line, struct ctline *out)
{
	static const char *const labels[] = {
		"I:", "C:", "Min:", "Act:", "Avg:", "Max:",
	};
	long v[3 + 6];
	struct ctline c;
	size_t i;

	line = skip_noise(line);
	if (!literal(&line, "T:", false) ||
	    !number(&line, 0, INT_MAX, &v[0]) || !literal(&line, "(", true) ||
	    !number(&line, INT_MIN, INT_MAX, &v[1]) ||
	    !literal(&line, ")", true) || !literal(&line, "P:", true) ||
	    !number(&line, INT_MIN, INT_MAX, &v[2]))
		return false;
	for (i = 0; i < 6; i++)
		if (!literal(&line, labels[i], true) ||
		    !number(&line, -CTLINE_NUM_MAX, CTLINE_NUM_MAX, &v[3 + i]))
			return false;
	c.thread = (int)v[0];
	c.tid = (int)v[1];
	c.prio = (int)v[2];
	c.interval_us = v[3];
	c.cycles = v[4];
	c.min_us = v[5];
	c.act_us = v[6];
	c.avg_us = v[7];
	c.max_us = v[8];
	/* A thread without samples yet shows Min: 1000000 and Max: 0. */
	if (c.cycles < 0 || c.min_us < 0 ||
	    (c.cycles > 0 && c.max_us < c.min_us))
		return false;
	while (*line == ' ' || *line == '\r' || *line == '\n')
		line++;
	if (*line)
		return false;
	*out = c;
	return true;
}
