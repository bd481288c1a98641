/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `rtgate bisect`: which patch of a set added the latency (docs/kernels.md,
 * "bisect"). Given a built base kernel, a patch set in series order, a
 * suite and its gate, it builds the base's tree and config with the first
 * k patches (ccache shares the objects), runs the lab gate base -> prefix
 * and binary-searches for the first k whose gate is REGRESSION. Each
 * step's kernel, runs and verdict are kept in out/bisect/NAME/state.json,
 * so a run that was interrupted goes on where it stopped; an INCONCLUSIVE
 * step is measured again with twice the repetitions before it steers.
 * `moves` says what a moved step is: a REGRESSION (the default), an
 * IMPROVEMENT (a fix's own metric: the first patch that makes it better)
 * or either. The series may be a list of sets (kernel_patches.h): the
 * culprit then names its set too.
 *
 *	struct bisect_params p = { .base = "rt-base", .series = "set",
 *				   .suite = "lab-control" };
 *	struct bisect_result r;
 *	bisect_run(&p, &r);	// r.culprit: 1-based, 0 none
 */
#ifndef RTGATE_BISECT_H
#define RTGATE_BISECT_H

#include <limits.h>
#include <stdbool.h>

#include "lab/lab.h"

#define BISECT_MAX_SCENARIOS 16

/* Which verdict of a step's gate counts as "the metric moved". */
enum bisect_moves {
	BISECT_MOVES_REGRESSION,
	BISECT_MOVES_IMPROVEMENT,
	BISECT_MOVES_CHANGE,		/* either */
};

struct bisect_params {
	const char *base;		/* a built kernel: NAME or folder */
	const char *series;		/* a patch set in patches/ */
	const char *suite;
	const char *scenarios[BISECT_MAX_SCENARIOS];	/* "" all */
	int nr_scenarios;
	const char *append_b;		/* more cmdline for the prefixes */
	enum bisect_moves moves;
	unsigned int remeasure;		/* re-measurements of INCONCLUSIVE */
	const char *name;		/* the bisection's folder name */
	int jobs;			/* make -j; 0: nproc */
	struct lab_run_params lab;	/* boots: accel, timeout, args ... */
};

enum bisect_status {
	BISECT_FOUND,		/* culprit named */
	BISECT_CLEAN,		/* the whole series is no REGRESSION */
	BISECT_STUCK,		/* a step stayed INCONCLUSIVE */
	BISECT_FAILED,		/* a build or a run failed */
};

struct bisect_result {
	enum bisect_status status;
	int culprit;			/* 1-based patch number, 0 none */
	char subject[256];
	char set[64];			/* the culprit's set (a list's member) */
	char dir[PATH_MAX];		/* out/bisect/NAME */
	int exit_code;			/* docs/exit-codes.md */
};

/**
 * bisect_moves_name() - --moves's word for a move
 * @m: the move
 *
 * Return: "regression", "improvement", "change"; NULL for another value.
 */
const char *bisect_moves_name(enum bisect_moves m);
/**
 * bisect_moves_parse() - a move from --moves's word
 * @s: "regression", "improvement" or "change"
 * @m: gets the move
 *
 * Return: 0, or -EINVAL for another word.
 */
int bisect_moves_parse(const char *s, enum bisect_moves *m);

/**
 * bisect_step_code() - a comparison's verdict as a step's code
 * @moves: the move the bisection looks for
 * @counts_as: the verdict the comparison counts as (report.json's
 *             counts_as)
 *
 * Return: 1 (EXITCODE_REGRESSION, "moved") when it is the move @moves asks
 * for; 2 (EXITCODE_INCONCLUSIVE) when it cannot tell (INCONCLUSIVE,
 * INVALID); 0 otherwise: a move the other way too (a fix's metric that
 * got worse is not the fix's first mover).
 */
int bisect_step_code(enum bisect_moves moves, const char *counts_as);

struct cJSON;
/**
 * bisect_fall_ruled_out() - whether a comparison ruled out a fall of the
 * floor
 * @cmp: a report.json comparisons[] entry
 *
 * Under --moves improvement a NO CHANGE step counts as "not yet fixed"
 * only when it did: every deciding line's interval starts above -floor.
 *
 * Return: true when it did; false when it did not, or no deciding line
 * has an interval.
 */
bool bisect_fall_ruled_out(const struct cJSON *cmp);

/**
 * bisect_run() - bisects a patch set
 * @p: the base kernel, the series, the suite and its scenarios, the move
 *     looked for, the lab's boots
 * @r: filled: the status, the culprit, where the state and report are,
 *     and the exit code (a failed step's too)
 *
 * A bisection that was interrupted goes on where it stopped
 * (out/bisect/NAME/state.json).
 *
 * Return: 0 with @r filled, or -errno for bad input or the environment
 * before the search could start.
 */
int bisect_run(const struct bisect_params *p, struct bisect_result *r);

/**
 * bisect_cmd_bisect() - `rtgate bisect`
 * @argc: the number of arguments
 * @argv: "bisect" and its options (docs/kernels.md, "bisect")
 *
 * Return: the exit code (docs/exit-codes.md): 1 when a culprit is named,
 * 0 when the series is clean, 2 when a step stayed INCONCLUSIVE.
 */
int bisect_cmd_bisect(int argc, char **argv);

#endif
