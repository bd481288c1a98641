// SPDX-License-Identifier: GPL-2.0-only
/*
 * A list of sets spans lines (patches/seeds-7.3: `sets = A` then one set
 * a line). libinih's settings are process-wide, and the suite parser
 * turns multi-line values off: a bisection that had loaded its suite
 * could no longer read the list for its second prefix ("manifest.ini:12:
 * malformed line", 2026-12-07). The manifest must read the same after a
 * suite as before it (inisettings.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/kernel.h"
#include "runner/suite/suite.h"

static void load_list(int *nr)
{
	struct kernel_patch_set s;

	assert_int_equal(kernel_patchset_load("patches", "seeds-7.3", &s), 0);
	*nr = s.nr_sets;
}

static void test_a_list_reads_the_same_after_a_suite(void **state)
{
	struct runner_suite suite;
	struct runner_suite_error err;
	int before, after;

	(void)state;
	load_list(&before);
	assert_int_equal(before, 4);
	assert_int_equal(runner_suite_load("suites/smoke.suite", &suite,
					   &err), 0);
	runner_suite_free(&suite);
	load_list(&after);
	assert_int_equal(after, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_list_reads_the_same_after_a_suite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
