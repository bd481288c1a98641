// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for bisect/: what counts as "the metric moved" for each
 * --moves, and the names --moves takes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "bisect/bisect.h"
#include "exitcode.h"
#include "jsonio.h"

static bool ruled_out(const char *lines)
{
	char text[1024];
	cJSON *cmp;
	bool r;

	snprintf(text, sizeof(text), "{\"verdict\": \"NO CHANGE\", "
		 "\"lines\": %s}", lines);
	cmp = cJSON_Parse(text);
	assert_non_null(cmp);
	r = bisect_fall_ruled_out(cmp);
	cJSON_Delete(cmp);
	return r;
}

/*
 * The 003 bisection's prefix 2: NO CHANGE, 70.9 -> 39.6 runs, interval
 * -70.9..+8.4 against a floor of 63.8: a fall of the floor was left open,
 * so the step is no "not yet fixed".
 */
static void test_improvement_interval(void **state)
{
	(void)state;
	assert_false(ruled_out("[{\"deciding\": true, \"floor\": 63.8, "
			       "\"interval\": [-70.9, 8.4]}]"));
	assert_true(ruled_out("[{\"deciding\": true, \"floor\": 63.8, "
			      "\"interval\": [-20, 8.4]}]"));
	/* every deciding line must rule it out; others do not count */
	assert_false(ruled_out("[{\"deciding\": true, \"floor\": 5, "
			       "\"interval\": [-2, 2]}, {\"deciding\": true, "
			       "\"floor\": 5, \"interval\": [-9, 1]}]"));
	assert_true(ruled_out("[{\"deciding\": true, \"floor\": 5, "
			      "\"interval\": [-2, 2]}, {\"deciding\": false, "
			      "\"floor\": 5, \"interval\": [-9, 1]}]"));
	/* no interval: nothing was ruled out */
	assert_false(ruled_out("[{\"deciding\": true, \"floor\": 5}]"));
	assert_false(ruled_out("[]"));
}

static void test_regression(void **state)
{
	(void)state;
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "REGRESSION"), EXITCODE_REGRESSION);
	/* A faster setparam is not a latency regression. */
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "IMPROVEMENT"), EXITCODE_PASS);
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "NO CHANGE"), EXITCODE_PASS);
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "INCONCLUSIVE"),
			 EXITCODE_INCONCLUSIVE);
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "INVALID"), EXITCODE_INCONCLUSIVE);
	assert_int_equal(bisect_step_code(BISECT_MOVES_REGRESSION,
					  "SKIPPED"), EXITCODE_PASS);
}

static void test_improvement(void **state)
{
	(void)state;
	/* A fix's own metric: the first patch that makes it better. */
	assert_int_equal(bisect_step_code(BISECT_MOVES_IMPROVEMENT,
					  "IMPROVEMENT"), EXITCODE_REGRESSION);
	/* Worse is not the move looked for: the search goes on past it. */
	assert_int_equal(bisect_step_code(BISECT_MOVES_IMPROVEMENT,
					  "REGRESSION"), EXITCODE_PASS);
	assert_int_equal(bisect_step_code(BISECT_MOVES_IMPROVEMENT,
					  "NO CHANGE"), EXITCODE_PASS);
	assert_int_equal(bisect_step_code(BISECT_MOVES_IMPROVEMENT,
					  "INCONCLUSIVE"),
			 EXITCODE_INCONCLUSIVE);
}

static void test_change(void **state)
{
	(void)state;
	assert_int_equal(bisect_step_code(BISECT_MOVES_CHANGE, "REGRESSION"),
			 EXITCODE_REGRESSION);
	assert_int_equal(bisect_step_code(BISECT_MOVES_CHANGE, "IMPROVEMENT"),
			 EXITCODE_REGRESSION);
	assert_int_equal(bisect_step_code(BISECT_MOVES_CHANGE, "NO CHANGE"),
			 EXITCODE_PASS);
	assert_int_equal(bisect_step_code(BISECT_MOVES_CHANGE, "INVALID"),
			 EXITCODE_INCONCLUSIVE);
}

static void test_names(void **state)
{
	enum bisect_moves m = BISECT_MOVES_CHANGE;

	(void)state;
	assert_int_equal(bisect_moves_parse("improvement", &m), 0);
	assert_int_equal(m, BISECT_MOVES_IMPROVEMENT);
	assert_string_equal(bisect_moves_name(m), "improvement");
	assert_int_equal(bisect_moves_parse("regression", &m), 0);
	assert_int_equal(m, BISECT_MOVES_REGRESSION);
	assert_int_equal(bisect_moves_parse("change", &m), 0);
	assert_string_equal(bisect_moves_name(m), "change");
	assert_int_not_equal(bisect_moves_parse("Improvement", &m), 0);
	assert_int_not_equal(bisect_moves_parse("", &m), 0);
	assert_null(bisect_moves_name((enum bisect_moves)7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regression),
		cmocka_unit_test(test_improvement),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_improvement_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
