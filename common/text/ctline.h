/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cyclictest's terminal line, as printed live and pasted on mailing lists:
 *   T: 0 ( 4213) P:95 I:1000 C:   5163 Min:      3 Act:    3 Avg:    3 Max:      12
 * Shared by the runner (live progress) and the analyzer (pasted input).
 */
#ifndef RTGATE_CTLINE_H
#define RTGATE_CTLINE_H

#include <stdbool.h>

struct ctline {
	int thread;		/* T: */
	int tid;		/* ( tid ) */
	int prio;		/* P: */
	long interval_us;	/* I: */
	long cycles;		/* C: */
	long min_us;
	long act_us;
	long avg_us;
	long max_us;
};

/*
 * Parses one line; leading blanks, a '>' quote prefix and terminal escape
 * sequences are ignored. Returns true for a complete T: line.
 */
bool ctline_parse(const char *line, struct ctline *out);

#endif
