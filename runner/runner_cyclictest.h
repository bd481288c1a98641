/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cyclictest, the measurement. The suite's options plus the runner's:
 * -D/-l, -h N --histfile=... --json=... (always both: rt-tests 2.4 can
 * crash on --json without -h) and never -q, because the live T: lines
 * drive the progress line. The JSON and histogram go to *.part names and
 * are renamed when cyclictest has finished them; cyclictest.log keeps the
 * header, any message, and the final T: line of each thread.
 *
 * With the series on (runner_series.h) the runner adds -v -o N as well:
 * cyclictest then prints the maxima of its sample windows instead of T:
 * lines. The live progress is drawn from those maxima, and the final T:
 * lines of cyclictest.log and of the manifest's summary are rebuilt from
 * its JSON (tid unknown: 0), so a traced run, which needs the measured
 * threads' tids, keeps the series off.
 */
#ifndef RTGATE_RUNNER_CYCLICTEST_H
#define RTGATE_RUNNER_CYCLICTEST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "ctline.h"
#include "runner_series.h"
#include "runner_suite.h"

#define CT_MAX_THREADS	1024

struct runner_ct_run {
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
	bool verbose;		/* -v -o N: the series is recorded */
	int prio;		/* -p, for the rebuilt T: lines; 0 unknown */
	struct runner_series series;
};

/* Scaled -D seconds (at least 1) or -l loops, for the manifest. */
unsigned int runner_ct_duration_s(const struct runner_suite_measure *m,
				  double scale);
unsigned long long runner_ct_loops(const struct runner_suite_measure *m,
				   double scale);

/*
 * @series: record the per-second maxima (adds -v -o N); the caller
 * turns it off for a traced run and the suite with `timeline = off`.
 */
int runner_ct_init(struct runner_ct_run *c,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir, bool series);
/*
 * Takes one output line; fills @t and returns true for a T: line (with
 * the series on: for a sample line, @t the thread's state so far).
 */
bool runner_ct_feed(struct runner_ct_run *c, const char *line,
		    struct ctline *t);
/*
 * Writes cyclictest.log; when @complete, renames the JSON and histogram
 * into place and checks that the measurement was not cut short: it ran
 * 90% of its -D, every thread took 10% of the samples -D implies or 90%
 * of -l (-ERANGE otherwise; a -b break is not checked); with the series
 * on, writes timeline.json. Returns 0, or -errno with @why said.
 */
int runner_ct_finish(struct runner_ct_run *c, bool complete, char *why,
		     size_t len);
void runner_ct_free(struct runner_ct_run *c);

#endif
