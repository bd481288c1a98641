/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtla timerlat hist's output (the text `rtla timerlat hist` prints on
 * exit: "# RTLA timerlat histogram", an Index row of IRQ-NNN / Thr-NNN
 * columns, one row per non-empty microsecond bucket, then over:, count:,
 * min:, avg:, max:) as one run of the analyzer: one an_cpu per CPU, of
 * either latency. The IRQ latency (timer expiry to its handler) and the
 * thread latency (to the timerlat thread running: what cyclictest sees)
 * are separate metrics, so one file gives two runs.
 */
#ifndef RTGATE_ANALYZE_TIMERLAT_H
#define RTGATE_ANALYZE_TIMERLAT_H

#include <stdint.h>

#include "analyze.h"

enum an_timerlat_kind {
	AN_TIMERLAT_THREAD,	/* Thr-NNN columns */
	AN_TIMERLAT_IRQ,	/* IRQ-NNN columns */
};

/* The side-name suffix of a timerlat scenario's IRQ latency: "S.irq". */
#define AN_TIMERLAT_IRQ_SUFFIX ".irq"

/*
 * Fills run->cpus (allocated here, one per CPU column of @kind) from @buf,
 * the text of @path. @limit is the histogram's size (rtla -E, 1 us
 * buckets); samples at or above it are rtla's "over:" count. Bad or
 * truncated text is refused with "PATH:LINE: ..." and -EINVAL.
 */
int an_parse_timerlat(const char *path, const char *buf,
		      enum an_timerlat_kind kind, uint32_t limit,
		      struct an_run *run);

/* Reads @path and parses it (as above); -errno when it cannot be read. */
int an_parse_timerlat_file(const char *path, enum an_timerlat_kind kind,
			   uint32_t limit, struct an_run *run);

#endif
