/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cyclictest, the measurement. The suite's options plus the runner's:
 * -D/-l, -h N --histfile=... --json=... (always both: rt-tests 2.4 can
 * crash on --json without -h) and never -q, because the live T: lines
 * drive the progress line. The JSON and histogram go to *.part names and
 * are renamed when cyclictest has finished them; cyclictest.log keeps the
 * header, any message, and the final T: line of each thread.
 */
#ifndef RTGATE_RUNNER_CYCLICTEST_H
#define RTGATE_RUNNER_CYCLICTEST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "ctline.h"
#include "runner_suite.h"

#define CT_MAX_THREADS	1024

struct ct_run {
	char dir[PATH_MAX];	/* the repetition's directory */
	char **argv;
	char *header;		/* lines before the first T: line */
	char *notes;		/* other lines (warnings, errors) */
	char *status_line;	/* the last "policy: ..." line */
	struct ctline last[CT_MAX_THREADS];
	bool have[CT_MAX_THREADS];
	int nr_threads;		/* highest thread seen + 1 */
	unsigned int expect_s;	/* -D, or 0 */
	unsigned long long expect_loops;	/* -l, or 0 */
	double elapsed_s;	/* how long it ran; the caller sets it */
};

/* Scaled -D seconds (at least 1) or -l loops, for the manifest. */
unsigned int runner_ct_duration_s(const struct suite_measure *m, double scale);
unsigned long long runner_ct_loops(const struct suite_measure *m, double scale);

int runner_ct_init(struct ct_run *c, const struct suite_measure *m, double scale,
		   const char *dir);
/* Takes one output line; fills @t and returns true for a T: line. */
bool runner_ct_feed(struct ct_run *c, const char *line, struct ctline *t);
/*
 * Writes cyclictest.log; when @complete, renames the JSON and histogram
 * into place and checks that the measurement was not cut short: it ran
 * 90% of its -D, every thread took 10% of the samples -D implies or 90%
 * of -l (-ERANGE otherwise; a -b break is not checked). Returns 0, or
 * -errno with @why said.
 */
int runner_ct_finish(struct ct_run *c, bool complete, char *why, size_t len);
void runner_ct_free(struct ct_run *c);

#endif
