// SPDX-License-Identifier: GPL-2.0-only
/*
 * The randomized order's shuffle (GSL's gsl_ran_shuffle behind
 * runner_shuffle_steps): a permutation of the round, different rounds in
 * different orders. Which comparisons --until-decided runs another round
 * for (runner_until_decided_open).
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

/*
 * Every INCONCLUSIVE comparison gets another round, whatever the "more
 * repetitions" figure of the line it rests on says: -1 ("none would")
 * is the scatter of the repetitions so far, and another line may still
 * show the change (docs/statistics.md, "Repetitions until decided": on
 * the recordings, stopping there lost most of the 100 us spinner's
 * detections). Every other verdict is decided and stops.
 */
static void test_until_decided_open(void **state)
{
	static const int more[] = { -1, 0, 1, 25 };
	struct an_run_verdict v;
	int k, i;

	(void)state;
	for (k = AN_NO_CHANGE; k <= AN_REGRESSION; k++)
		for (i = 0; i < 4; i++) {
			memset(&v, 0, sizeof(v));
			v.verdict = k;
			v.more_reps = more[i];
			v.control = i % 2;
			assert_int_equal(runner_until_decided_open(&v),
					 k == AN_INCONCLUSIVE);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_until_decided_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
