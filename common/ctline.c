// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stdio.h>
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

bool ctline_parse(const char *line, struct ctline *out)
{
	struct ctline c;
	int n = 0;

	line = skip_noise(line);
	if (sscanf(line,
		   "T:%d (%d) P:%d I:%ld C:%ld Min:%ld Act:%ld Avg:%ld Max:%ld%n",
		   &c.thread, &c.tid, &c.prio, &c.interval_us, &c.cycles,
		   &c.min_us, &c.act_us, &c.avg_us, &c.max_us, &n) != 9)
		return false;
	/* A thread without samples yet shows Min: 1000000 and Max: 0. */
	if (c.thread < 0 || c.cycles < 0 || c.min_us < 0 ||
	    (c.cycles > 0 && c.max_us < c.min_us))
		return false;
	line += n;
	while (*line == ' ' || *line == '\r' || *line == '\n')
		line++;
	if (*line)
		return false;
	*out = c;
	return true;
}
