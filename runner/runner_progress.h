/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress on stdout. On a terminal: one live status line (step i/n,
 * scenario, repetition, time left in it and in the whole suite, current
 * max per CPU from cyclictest's T: lines: "max CPU0 1013 us, CPU1 772 us")
 * cut to the terminal's width, redrawn a few times a second, and one
 * permanent line per repetition, a long reason wrapped under it. Not on a
 * terminal (CI logs): plain timestamped lines, a live one every 10 s at
 * most. The suite's time left is the expected measurement time of the
 * steps to come plus each step's overhead as measured so far.
 */
#ifndef RTGATE_RUNNER_PROGRESS_H
#define RTGATE_RUNNER_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "ctline.h"

#define PROGRESS_MAX_CPUS 64

struct runner_progress {
	bool tty;
	bool drawn;		/* a status line is on the screen */
	double last;		/* last live update (clocks_mono_s) */
	size_t step, nr_steps;
	char what[160];		/* "[2/9] hackbench rep 1/3" */
	double end;		/* expected end of the measurement, or 0 */
	long max_us[PROGRESS_MAX_CPUS];
	int nr_cpus;
	double step_s;		/* expected measurement of a step; 0 unknown */
	double step_start;	/* clocks_mono_s() at the current step's start */
	double done_s;		/* wall time of the finished steps */
	size_t done;		/* finished steps */
};

/* @step_s: the measurement each step is expected to take (0 unknown). */
void runner_progress_init(struct runner_progress *pg, size_t nr_steps,
			  double step_s);
/* "~2m10s" for the suite (0 when unknown) into buf. */
const char *runner_progress_suite_left(const struct runner_progress *pg,
				       double now, char *buf, size_t len);
void runner_progress_rep_start(struct runner_progress *pg, size_t step,
			       const char *scenario, unsigned int rep,
			       unsigned int nr_reps);
/* The measurement started: @seconds expected (0 if unknown). */
void runner_progress_measure(struct runner_progress *pg, double seconds);
void runner_progress_ctline(struct runner_progress *pg, const struct ctline *t);
/* Redraws the live line when it is due (no cyclictest: time only). */
void runner_progress_tick(struct runner_progress *pg);
/* A permanent line about the current repetition ("ok, max 40 43 us"). */
void runner_progress_rep_end(struct runner_progress *pg, const char *status,
			     const char *reason);
/* A permanent line of its own, printed above the status line. */
void runner_progress_note(struct runner_progress *pg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void runner_progress_clear(struct runner_progress *pg);

#endif
