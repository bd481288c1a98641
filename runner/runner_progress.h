/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress on stdout. On a terminal: one live status line (step i/n,
 * scenario, repetition, time left, current max per CPU from cyclictest's
 * T: lines), redrawn a few times a second, and one permanent line per
 * repetition. Not on a terminal (CI logs): plain timestamped lines, a
 * live one every 10 s at most.
 */
#ifndef RTGATE_RUNNER_PROGRESS_H
#define RTGATE_RUNNER_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "ctline.h"

#define PROGRESS_MAX_CPUS 64

struct progress {
	bool tty;
	bool drawn;		/* a status line is on the screen */
	double last;		/* last live update (mono_now) */
	size_t step, nr_steps;
	char what[160];		/* "[2/9] hackbench rep 1/3" */
	double end;		/* expected end of the measurement, or 0 */
	long max_us[PROGRESS_MAX_CPUS];
	int nr_cpus;
};

void progress_init(struct progress *pg, size_t nr_steps);
void progress_rep_start(struct progress *pg, size_t step,
			const char *scenario, unsigned int rep,
			unsigned int nr_reps);
/* The measurement started: @seconds expected (0 if unknown). */
void progress_measure(struct progress *pg, double seconds);
void progress_ctline(struct progress *pg, const struct ctline *t);
/* Redraws the live line when it is due (no cyclictest: time only). */
void progress_tick(struct progress *pg);
/* A permanent line about the current repetition ("ok, max 40 43 us"). */
void progress_rep_end(struct progress *pg, const char *status,
		      const char *reason);
/* A permanent line of its own, printed above the status line. */
void progress_note(struct progress *pg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void progress_clear(struct progress *pg);

#endif
