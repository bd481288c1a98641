/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's noise profile for a run (docs/statistics.md): which
 * measurement a profile holds for (its key), finding the pooled profile
 * of this host in the history, saying before the run what the suite can
 * see here, and keeping the profile in the manifest for the analyzer.
 */
#ifndef RTGATE_RUNNER_PROFILE_H
#define RTGATE_RUNNER_PROFILE_H

#include <stddef.h>

#include "analyze/analyze.h"
#include "runner_suite.h"

/*
 * The measurement key: cyclictest's options as the suite gives them, the
 * duration (or loops) as run, the histogram size and the online CPUs. A
 * profile is the noise of exactly this measurement.
 */
void runner_measure_key(const struct runner_suite *s, double scale, char *buf,
			size_t len);
/* The history database a run of RESULTS (or NULL: the default) uses. */
void runner_history_db(const char *results, char *buf, size_t len);
/* This host's pooled profile for key: 0, 1 (none) or -errno. */
int runner_profile_find(const char *db, const char *key,
			struct an_profile *out);
/*
 * One line per CPU: the smallest p99 and maximum rise a suite of reps
 * repetitions a side would call a regression here, at the share of alpha
 * its comparisons get, and the repetitions that would reach the floor.
 */
void runner_profile_print(const struct an_profile *pr,
			  const struct runner_suite *s, unsigned int reps);

#endif
