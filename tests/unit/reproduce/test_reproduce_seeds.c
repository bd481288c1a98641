// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeds' table (reproduce/reproduce_seeds.c): ids found however they
 * are written, and the suite each model runs: the seed's, or a model's
 * own where it needs another layout (004 on RT). Every suite named must
 * exist and ask the lab for the same vCPUs as the seed's own, since
 * `reproduce --list` and reproduce.json report one count a seed.
 * Run from the top of the tree (tests/run-tests.sh does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lab/lab.h"
#include "reproduce/reproduce.h"

static void test_find(void **state)
{
	(void)state;
	assert_string_equal(reproduce_seed_find("004")->id, "004");
	assert_string_equal(reproduce_seed_find("4")->id, "004");
	assert_string_equal(reproduce_seed_find("0")->id, "000");
	assert_null(reproduce_seed_find("002"));
	assert_null(reproduce_seed_find("4x"));
	assert_null(reproduce_seed_find(""));
	assert_null(reproduce_seed_find(NULL));
}

static void test_004_rt_runs_its_own_suite(void **state)
{
	const struct reproduce_seed *s = reproduce_seed_find("004");

	(void)state;
	assert_string_equal(reproduce_seed_suite(s, "full"),
			    "slice-ext-7-solo");
	assert_string_equal(reproduce_seed_suite(s, "rt"),
			    "slice-ext-7-solo-rt");
	assert_null(reproduce_seed_suite(s, "none"));
	assert_null(reproduce_seed_suite(s, NULL));
	assert_null(reproduce_seed_suite(NULL, "rt"));
}

static void test_others_run_the_seeds_suite(void **state)
{
	const struct reproduce_seed *s = reproduce_seed_find("003");

	(void)state;
	assert_string_equal(reproduce_seed_suite(s, "full"), s->suite);
	/* a model the seed is not judged on has no suite */
	assert_null(reproduce_seed_suite(s, "rt"));
}

static void test_every_suite_exists_with_the_seeds_vcpus(void **state)
{
	const struct reproduce_seed *s;
	int i, want, cpus;

	(void)state;
	for (s = reproduce_seeds; s->id; s++) {
		assert_int_equal(lab_suite_cpus(s->suite, &want), 0);
		for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++) {
			const char *suite = reproduce_seed_suite(s, s->models[i]);

			assert_non_null(suite);
			assert_int_equal(lab_suite_cpus(suite, &cpus), 0);
			assert_int_equal(cpus, want);
		}
		/* no suite for a model that is not there */
		for (; i < REPRODUCE_MAX_MODELS; i++)
			assert_null(s->model_suites[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_004_rt_runs_its_own_suite),
		cmocka_unit_test(test_others_run_the_seeds_suite),
		cmocka_unit_test(test_every_suite_exists_with_the_seeds_vcpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
