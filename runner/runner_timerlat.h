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

#include <cjson/cJSON.h>

#include "runner_suite.h"

struct runner_tl_run {
	char dir[PATH_MAX];	/* the repetition's directory */
	char **argv;
	char *out;		/* everything rtla printed */
	size_t len;
};

/* @rtla: the program's path; argv[0] is "rtla". 0 or -ENOMEM. */
int runner_tl_init(struct runner_tl_run *t,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir);
/* Takes one line of rtla's output. */
void runner_tl_feed(struct runner_tl_run *t, const char *line);
/*
 * Writes timerlat.log; when @complete and the output has rtla's summary,
 * timerlat.txt too. Returns 0, or -errno with @why said.
 */
int runner_tl_finish(struct runner_tl_run *t, bool complete, char *why,
		     size_t len);
void runner_tl_free(struct runner_tl_run *t);

/*
 * The repetition's worst thread latency (us): the largest `max:` of rtla's
 * Thr and Usr columns. 0, or -ENODATA when the output has no summary.
 */
int runner_tl_worst_us(const struct runner_tl_run *t, unsigned long *us);

/*
 * rtla's auto-analysis of a timerlat scenario traced with `--trace
 * spikes|on` (docs/tracing.md, "rtla auto-analysis"). The histogram must
 * cover the whole repetition, so no threshold may stop it; instead, after
 * it and with the workloads still running, `rtla timerlat top --aa-only
 * US -d SECS` (plus the suite's `timerlat =` options) runs until a
 * wake-up reaches US (half the histogram's worst thread latency) and
 * prints rtla's analysis of that wake-up, kept as rtla-aa.txt.
 */
struct runner_tl_aa {
	char **argv;
	char *out;		/* everything rtla printed */
	size_t len;
	unsigned long threshold_us;
	unsigned int secs;
};

/* Whether @rtla has --aa-only (rtla 6.3 and later); @why when not. */
bool runner_tl_aa_supported(const char *rtla, char *why, size_t len);
/* Seconds the analysis may wait for its wake-up: @secs in 5..30. */
unsigned int runner_tl_aa_secs(unsigned int secs);
/* 0 or -ENOMEM; argv[0] is "rtla". */
int runner_tl_aa_init(struct runner_tl_aa *a,
		      const struct runner_suite_measure *m,
		      unsigned long threshold_us, unsigned int secs);
void runner_tl_aa_feed(struct runner_tl_aa *a, const char *line);
/*
 * Writes @dir/rtla-aa.txt (everything rtla printed) and returns the
 * manifest's "rtla_aa" object: command, threshold, whether a wake-up hit
 * it and which CPUs, @how rtla ended, @error when not NULL.
 */
cJSON *runner_tl_aa_finish(struct runner_tl_aa *a, const char *dir,
			   const char *how, const char *error);
void runner_tl_aa_free(struct runner_tl_aa *a);

#endif
