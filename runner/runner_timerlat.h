/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtla timerlat hist, the measurement of a `tool = timerlat` scenario:
 * the suite's `timerlat =` options plus the runner's -d (duration), -E
 * (histogram entries, 1 us buckets: -b 1). rtla prints its histogram and
 * summary when the session ends; the runner keeps that text as
 * timerlat.txt (renamed into place only when rtla finished normally) and
 * everything rtla said as timerlat.log. The analyzer reads timerlat.txt
 * as two metrics per CPU: thread latency and IRQ latency.
 */
#ifndef RTGATE_RUNNER_TIMERLAT_H
#define RTGATE_RUNNER_TIMERLAT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "runner_suite.h"

struct tl_run {
	char dir[PATH_MAX];	/* the repetition's directory */
	char **argv;
	char *out;		/* everything rtla printed */
	size_t len;
};

/* @rtla: the program's path; argv[0] is "rtla". 0 or -ENOMEM. */
int runner_tl_init(struct tl_run *t, const struct suite_measure *m, double scale,
		   const char *dir);
/* Takes one line of rtla's output. */
void runner_tl_feed(struct tl_run *t, const char *line);
/*
 * Writes timerlat.log; when @complete and the output has rtla's summary,
 * timerlat.txt too. Returns 0, or -errno with @why said.
 */
int runner_tl_finish(struct tl_run *t, bool complete, char *why, size_t len);
void runner_tl_free(struct tl_run *t);

#endif
