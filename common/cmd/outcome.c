// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outcome table (docs/exports.md). INCONCLUSIVE is never a pass in
 * any format: JUnit has <error>, KCIDB ERROR; LAVA has no error result
 * and its "unknown" is counted by no gate (a LAVA job fails on "fail"
 * only), so what exits 2 is "fail" there.
 */
#include <string.h>

#include "exitcode.h"
#include "outcome.h"

static const struct outcome table[OUTCOME_NR] = {
	[OUTCOME_NO_CHANGE] = { OUTCOME_NO_CHANGE, "NO CHANGE",
		EXITCODE_PASS, "", "PASS", "pass" },
	[OUTCOME_IMPROVEMENT] = { OUTCOME_IMPROVEMENT, "IMPROVEMENT",
		EXITCODE_PASS, "", "PASS", "pass" },
	[OUTCOME_FLAGGED_CONTROL] = { OUTCOME_FLAGGED_CONTROL,
		"flagged control", EXITCODE_PASS, "", "PASS", "pass" },
	[OUTCOME_SKIPPED] = { OUTCOME_SKIPPED, "SKIPPED",
		EXITCODE_PASS, "skipped", "SKIP", "skip" },
	[OUTCOME_NOT_JUDGED] = { OUTCOME_NOT_JUDGED, "not judged",
		EXITCODE_PASS, "", "DONE", "pass" },
	[OUTCOME_REGRESSION] = { OUTCOME_REGRESSION, "REGRESSION",
		EXITCODE_REGRESSION, "failure", "FAIL", "fail" },
	[OUTCOME_OVER_BUDGET] = { OUTCOME_OVER_BUDGET, "over budget",
		EXITCODE_REGRESSION, "failure", "FAIL", "fail" },
	[OUTCOME_INCONCLUSIVE] = { OUTCOME_INCONCLUSIVE, "INCONCLUSIVE",
		EXITCODE_INCONCLUSIVE, "error", "ERROR", "fail" },
	[OUTCOME_MISSED_CONTROL] = { OUTCOME_MISSED_CONTROL,
		"missed control", EXITCODE_INCONCLUSIVE, "error", "ERROR",
		"fail" },
	[OUTCOME_INVALID] = { OUTCOME_INVALID, "INVALID",
		EXITCODE_INCONCLUSIVE, "error", "ERROR", "fail" },
	[OUTCOME_NOTHING_MEASURED] = { OUTCOME_NOTHING_MEASURED,
		"nothing measured", EXITCODE_INCONCLUSIVE, "error", "MISS",
		"fail" },
	[OUTCOME_INCOMPLETE] = { OUTCOME_INCOMPLETE, "incomplete",
		EXITCODE_INCOMPLETE, "error", "ERROR", "fail" },
};

const struct outcome *outcome_get(enum outcome_kind kind)
{
	if ((unsigned int)kind >= OUTCOME_NR)
		kind = OUTCOME_INVALID;
	return &table[kind];
}

static bool is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

enum outcome_kind outcome_of_comparison(const char *verdict,
					const char *counts_as,
					const char *control,
					const char *reason)
{
	const char *counts = counts_as && *counts_as ? counts_as : verdict;

	if (is(control, "positive") && is(verdict, "REGRESSION") &&
	    is(counts, "NO CHANGE"))
		return OUTCOME_FLAGGED_CONTROL;
	if (is(counts, "REGRESSION"))
		return reason && strstr(reason, "over budget:") ?
		       OUTCOME_OVER_BUDGET : OUTCOME_REGRESSION;
	if (is(counts, "NO CHANGE"))
		return OUTCOME_NO_CHANGE;
	if (is(counts, "IMPROVEMENT"))
		return OUTCOME_IMPROVEMENT;
	if (is(counts, "INCONCLUSIVE"))
		return is(control, "positive") ? OUTCOME_MISSED_CONTROL :
		       OUTCOME_INCONCLUSIVE;
	if (is(counts, "SKIPPED"))
		return OUTCOME_SKIPPED;
	return OUTCOME_INVALID;
}

/* Worse first by exit code (docs/exit-codes.md), then by the table. */
static bool worse(enum outcome_kind a, enum outcome_kind b)
{
	int ea = table[a].exit_code, eb = table[b].exit_code;

	if (ea != eb)
		return exitcode_worse(ea, eb) == ea;
	return a > b;
}

void outcome_tally_add(struct outcome_tally *t, enum outcome_kind kind)
{
	if ((unsigned int)kind >= OUTCOME_NR)
		kind = OUTCOME_INVALID;
	if (kind == OUTCOME_NOT_JUDGED)
		return;
	t->judged++;
	if (kind == OUTCOME_SKIPPED)
		return;
	if (!t->ran++ || worse(kind, t->worst))
		t->worst = kind;
}

enum outcome_kind outcome_tally_run(const struct outcome_tally *t,
				    bool complete)
{
	if (!complete)
		return OUTCOME_INCOMPLETE;
	if (t->ran)
		return t->worst;
	return t->judged ? OUTCOME_NOTHING_MEASURED : OUTCOME_NOT_JUDGED;
}
