/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One outcome everywhere: what a comparison's verdict, or a run's end,
 * is in each CI format -- JUnit, KernelCI's KCIDB, LAVA -- and the exit
 * code it makes. docs/exports.md prints this table; every exporter reads
 * it (analyze/report/analyze_report_junit.c, export/export_kcidb.c,
 * export/export_lava.c) and none keeps a mapping of its own.
 *
 *	struct outcome_tally t = { 0 };
 *
 *	for each comparison:
 *		outcome_tally_add(&t, outcome_of_comparison(verdict,
 *				  counts_as, control, reason));
 *	row = outcome_get(outcome_tally_run(&t, complete));
 *	row->exit_code, row->junit, row->kcidb, row->lava
 */
#ifndef RTGATE_OUTCOME_H
#define RTGATE_OUTCOME_H

#include <stdbool.h>

enum outcome_kind {
	OUTCOME_NO_CHANGE,
	OUTCOME_IMPROVEMENT,
	OUTCOME_FLAGGED_CONTROL,	/* a positive control, flagged */
	OUTCOME_SKIPPED,
	OUTCOME_NOT_JUDGED,		/* measured, compared with nothing */
	OUTCOME_REGRESSION,
	OUTCOME_OVER_BUDGET,		/* a REGRESSION: a budget passed */
	OUTCOME_INCONCLUSIVE,
	OUTCOME_MISSED_CONTROL,		/* a positive control missed */
	OUTCOME_INVALID,
	OUTCOME_NOTHING_MEASURED,	/* every comparison SKIPPED */
	OUTCOME_INCOMPLETE,		/* a run that did not complete */
	OUTCOME_NR
};

struct outcome {
	enum outcome_kind kind;
	const char *name;	/* as docs/exports.md names it */
	int exit_code;		/* of a run with this outcome alone */
	const char *junit;	/* "" (passes), failure, error or skipped */
	const char *kcidb;	/* PASS, FAIL, ERROR, MISS, DONE or SKIP */
	const char *lava;	/* pass, fail or skip */
};

/* The row of @kind; never NULL (an unknown kind is INVALID's row). */
const struct outcome *outcome_get(enum outcome_kind kind);

/*
 * A comparison's outcome from its verdict, the verdict it counts as for
 * the gate (report.json's counts_as; NULL or "" for the verdict), its
 * control ("positive", "negative", "shown"; NULL or "" for none) and its
 * reason (a budget's REGRESSION says "over budget: ..."). A verdict this
 * table does not know is INVALID, never a pass.
 */
enum outcome_kind outcome_of_comparison(const char *verdict,
					const char *counts_as,
					const char *control,
					const char *reason);

/* The comparisons of a run, folded as the gate folds them. */
struct outcome_tally {
	enum outcome_kind worst;	/* of those that were not SKIPPED */
	unsigned int judged;		/* comparisons, SKIPPED included */
	unsigned int ran;		/* ... not SKIPPED */
};

void outcome_tally_add(struct outcome_tally *t, enum outcome_kind kind);

/*
 * The run's outcome (docs/exit-codes.md): INCOMPLETE when it did not
 * complete; NOTHING_MEASURED when it has comparisons and every one was
 * SKIPPED; NOT_JUDGED when it has none; else the worst comparison.
 */
enum outcome_kind outcome_tally_run(const struct outcome_tally *t,
				    bool complete);

#endif
