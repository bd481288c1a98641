// SPDX-License-Identifier: GPL-2.0-only
/*
 * The randomized order's shuffle (GSL's gsl_ran_shuffle behind
 * runner_shuffle_steps): a permutation of the round, different rounds in
 * different orders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "runner/runner_priv.h"

#define N 8

static void test_shuffle(void **state)
{
	bool first[N] = { false }, moved = false;
	struct runner_step st[N];
	int round, i;

	(void)state;
	assert_int_equal(runner_shuffle_steps(st, 0), 0);
	for (round = 0; round < 200; round++) {
		bool seen[N] = { false };

		for (i = 0; i < N; i++)
			st[i] = (struct runner_step){ i, 1 + round };
		assert_int_equal(runner_shuffle_steps(st, N), 0);
		for (i = 0; i < N; i++) {
			assert_true(st[i].scen < N);
			assert_false(seen[st[i].scen]);
			assert_int_equal(st[i].rep, 1 + round);
			seen[st[i].scen] = true;
			moved |= st[i].scen != (size_t)i;
		}
		first[st[0].scen] = true;
	}
	assert_true(moved);
	/* 200 rounds: each scenario has come first (P(miss) < 1e-10). */
	for (i = 0; i < N; i++)
		assert_true(first[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
