// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outcome table (common/cmd/outcome.h, docs/exports.md): what exits
 * non-zero passes in no format, comparisons are classified as the
 * document says, and a run folds them as docs/exit-codes.md orders them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "exitcode.h"
#include "outcome.h"

/* INCONCLUSIVE, INVALID, incomplete ...: never a pass anywhere. */
static void test_never_a_pass(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < OUTCOME_NR; k++) {
		const struct outcome *o = outcome_get(k);

		assert_int_equal(o->kind, k);
		assert_non_null(o->name);
		if (o->exit_code == EXITCODE_PASS) {
			assert_true(!*o->junit || !strcmp(o->junit, "skipped"));
			assert_string_not_equal(o->lava, "fail");
			continue;
		}
		assert_true(!strcmp(o->junit, "failure") ||
			    !strcmp(o->junit, "error"));
		assert_string_not_equal(o->kcidb, "PASS");
		assert_string_not_equal(o->kcidb, "DONE");
		assert_string_not_equal(o->kcidb, "SKIP");
		assert_string_equal(o->lava, "fail");
		/* A regression fails; the rest err, in JUnit and KCIDB. */
		assert_string_equal(o->junit,
				    o->exit_code == EXITCODE_REGRESSION ?
				    "failure" : "error");
		assert_true(!strcmp(o->kcidb, o->exit_code ==
				    EXITCODE_REGRESSION ? "FAIL" : "ERROR") ||
			    (k == OUTCOME_NOTHING_MEASURED &&
			     !strcmp(o->kcidb, "MISS")));
	}
	assert_string_equal(outcome_get(OUTCOME_NR)->name, "INVALID");
	assert_string_equal(outcome_get(-1)->name, "INVALID");
}

static void test_classify(void **state)
{
	(void)state;
	assert_int_equal(outcome_of_comparison("REGRESSION", "REGRESSION",
			 "", "CPU 1 p99 rose"), OUTCOME_REGRESSION);
	assert_int_equal(outcome_of_comparison("REGRESSION", NULL, NULL,
			 "over budget: the candidate's worst max is 3444 us"),
			 OUTCOME_OVER_BUDGET);
	assert_int_equal(outcome_of_comparison("REGRESSION", "NO CHANGE",
			 "positive", "positive control, flagged"),
			 OUTCOME_FLAGGED_CONTROL);
	assert_int_equal(outcome_of_comparison("NO CHANGE", "INCONCLUSIVE",
			 "positive", ""), OUTCOME_MISSED_CONTROL);
	assert_int_equal(outcome_of_comparison("INCONCLUSIVE", "INCONCLUSIVE",
			 "positive", ""), OUTCOME_MISSED_CONTROL);
	assert_int_equal(outcome_of_comparison("INVALID", "INVALID",
			 "positive", ""), OUTCOME_INVALID);
	/* Shown beside a control: what it counts as. */
	assert_int_equal(outcome_of_comparison("REGRESSION", "NO CHANGE",
			 "shown", ""), OUTCOME_NO_CHANGE);
	assert_int_equal(outcome_of_comparison("IMPROVEMENT", "", "", ""),
			 OUTCOME_IMPROVEMENT);
	assert_int_equal(outcome_of_comparison("SKIPPED", "SKIPPED", "", ""),
			 OUTCOME_SKIPPED);
	assert_int_equal(outcome_of_comparison("INCONCLUSIVE", "", "", ""),
			 OUTCOME_INCONCLUSIVE);
	/* What the table does not know is never a pass. */
	assert_int_equal(outcome_of_comparison("MAYBE", "", "", ""),
			 OUTCOME_INVALID);
	assert_int_equal(outcome_of_comparison(NULL, NULL, NULL, NULL),
			 OUTCOME_INVALID);
}

static enum outcome_kind fold(const enum outcome_kind *k, size_t n,
			      bool complete)
{
	struct outcome_tally t = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		outcome_tally_add(&t, k[i]);
	return outcome_tally_run(&t, complete);
}

static void test_fold(void **state)
{
	const enum outcome_kind reg_inc[] = { OUTCOME_INCONCLUSIVE,
		OUTCOME_OVER_BUDGET, OUTCOME_NO_CHANGE };
	const enum outcome_kind inc_ok[] = { OUTCOME_IMPROVEMENT,
		OUTCOME_MISSED_CONTROL, OUTCOME_SKIPPED };
	const enum outcome_kind ok_skip[] = { OUTCOME_SKIPPED,
		OUTCOME_FLAGGED_CONTROL, OUTCOME_NOT_JUDGED };
	const enum outcome_kind skips[] = { OUTCOME_SKIPPED, OUTCOME_SKIPPED,
		OUTCOME_NOT_JUDGED };

	(void)state;
	/* A regression before an inconclusive one: exit 1 before 2. */
	assert_int_equal(fold(reg_inc, 3, true), OUTCOME_OVER_BUDGET);
	assert_int_equal(fold(inc_ok, 3, true), OUTCOME_MISSED_CONTROL);
	assert_int_equal(outcome_get(fold(ok_skip, 3, true))->exit_code,
			 EXITCODE_PASS);
	assert_int_equal(fold(skips, 3, true), OUTCOME_NOTHING_MEASURED);
	assert_int_equal(fold(skips + 2, 1, true), OUTCOME_NOT_JUDGED);
	assert_int_equal(fold(NULL, 0, true), OUTCOME_NOT_JUDGED);
	/* Incomplete wins over everything, a regression included. */
	assert_int_equal(fold(reg_inc, 3, false), OUTCOME_INCOMPLETE);
	assert_int_equal(outcome_get(OUTCOME_INCOMPLETE)->exit_code,
			 EXITCODE_INCOMPLETE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_a_pass),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
