/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/input: the analyzer's inputs -- parsers, results directories,
 * the data model's helpers, histograms, noise profiles (docs/design.md).
 */
#ifndef RTGATE_ANALYZE_INPUT_H
#define RTGATE_ANALYZE_INPUT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"

/* ---- Readers ---- */

/*
 * The analyzer's inputs. Every reader refuses bad input with one message
 * naming the file and the line (or byte offset) and returns -EINVAL; a
 * file is never read as a shorter histogram than it says it holds.
 */

enum an_file_kind {
	AN_FILE_UNKNOWN,
	AN_FILE_JSON,		/* cyclictest --json */
	AN_FILE_HIST,		/* cyclictest --histfile / -h text */
	AN_FILE_TLINES,		/* cyclictest terminal lines */
};

enum an_file_kind an_file_detect(const char *buf, size_t len);

/*
 * A repetition's timeline.json (rtgate-timeline/1) into run->series_us.
 * A file that is not one is refused with a warning naming it (-EINVAL):
 * the series is not evidence, so the caller goes on without it.
 */
int an_parse_series(const char *path, struct an_run *run);
int an_parse_json(const char *path, const char *buf, size_t len,
		  struct an_run *run);
int an_parse_histfile(const char *path, const char *buf, struct an_run *run);
int an_parse_tlines(const char *path, const char *buf, struct an_run *run);
/*
 * A thread without samples (cycles 0: it never ran, e.g. starved) makes
 * a run unusable; returns its index or -1.
 */
int an_run_empty_thread(const struct an_run *run);
/*
 * Every run of a side measures the same threads, each with samples;
 * returns 0 or -EINVAL with a message.
 */
int an_side_check(const struct an_side *side);
/* Removes the last run of a side (one found unusable). */
void an_side_drop_last(struct an_side *side);
/* T: lines given as strings (a suite's [reference] section). */
int an_parse_tline_array(const char *what, const char *const *lines,
			 size_t n, struct an_cpu **cpus, size_t *ncpus);

/*
 * A side from a command-line argument: a results directory (DIR, a
 * scenario directory, or DIR:SCENARIO), a cyclictest file, or a directory
 * of cyclictest files, one per repetition.
 */
int an_input_read(const char *spec, struct an_side **out);

/*
 * --until-decided: a candidate decided at an earlier look is judged on the
 * repetitions it had then (*nbase, *ncand); 1 when it stopped so, else 0.
 */
int an_results_stop(const struct an_results *res, const char *candidate,
		    size_t *nbase, size_t *ncand);
/* The share of alpha of a candidate's last look (--until-decided). */
/*
 * The information fractions of the looks of --until-decided up to the one
 * that judged candidate (its stop, else the last): their number (at most
 * max), 0 when the run had no looks or its record has no ts.
 */
size_t an_results_look_schedule(const struct an_results *res,
				 const char *candidate, double *t, size_t max);
double an_results_look_level(const struct an_results *res,
			     const char *candidate, double alpha);

/* ---- rtla's histograms (timerlat, osnoise) ---- */

/*
 * The text `rtla NAME hist` prints on exit ("# RTLA NAME histogram", an
 * Index row of KIND-NNN columns -- timerlat: IRQ, Thr, Usr; osnoise: CPU
 * --, one row per non-empty microsecond bucket, then over:, count:, min:,
 * avg:, max:) as one run of the analyzer: one an_cpu per CPU of @column's
 * kind. timerlat's IRQ latency (timer expiry to its handler) and thread
 * latency (to the timerlat thread running: what cyclictest sees) are
 * separate metrics, so one file gives two runs (an_tool's sides).
 *
 * Fills run->cpus (allocated here) from @buf, the text of @path. @limit is
 * the histogram's size (rtla -E, 1 us buckets); samples at or above it
 * are rtla's "over:" count. Bad or truncated text is refused with
 * "PATH:LINE: ..." and -EINVAL.
 */
int an_parse_rtla(const char *path, const char *buf, const char *tool,
		  const char *column, uint32_t limit, struct an_run *run);

/* Reads @path and parses it (as above); -errno when it cannot be read. */
int an_parse_rtla_file(const char *path, const char *tool,
		       const char *column, uint32_t limit, struct an_run *run);

#endif
