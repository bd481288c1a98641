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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lab/lab.h"
#include "reproduce/reproduce.h"
#include "runner/suite/suite.h"

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

static void test_the_suites_label(void **state)
{
	const struct reproduce_seed *s = reproduce_seed_find("004");
	char buf[256];

	(void)state;
	assert_false(reproduce_seed_suites(s, NULL, buf, sizeof(buf)));
	assert_string_equal(buf, "slice-ext-7-solo (full), "
			    "slice-ext-7-solo-rt (rt)");
	assert_true(reproduce_seed_suites(s, "rt", buf, sizeof(buf)));
	assert_string_equal(buf, "slice-ext-7-solo-rt");
	assert_true(reproduce_seed_suites(reproduce_seed_find("000"), NULL,
					  buf, sizeof(buf)));
	assert_string_equal(buf, "setparam");
	/* cut, never overrun */
	assert_false(reproduce_seed_suites(s, NULL, buf, 10));
	assert_int_equal(strlen(buf), 9);
}

/*
 * Every non-RT seed kernel takes pcp-batch, the page allocator's batches
 * unscaled (interrupts off for milliseconds in the lab without it); an
 * RT kernel does not need it, and every fragment named is in kconfigs/.
 */
/*
 * 000 and 001 judge cyclictest beside a load on the max: at the suites' 3
 * repetitions a boot every latency row was INCONCLUSIVE (2026-12-07), so
 * the seed asks for the count that decided them; within --repeat's range.
 */
static void test_latency_seeds_run_enough_repetitions(void **state)
{
	const struct reproduce_seed *s;

	(void)state;
	assert_true(reproduce_seed_find("000")->repeat >= 10);
	assert_true(reproduce_seed_find("001")->repeat >= 10);
	for (s = reproduce_seeds; s->id; s++)
		assert_true(s->repeat == 0 ||
			    (s->repeat >= 2 && s->repeat <= 100));
}

static void test_the_kernels_fragments(void **state)
{
	const struct reproduce_seed *s;
	char buf[128], path[256], *tok, *save = NULL;
	FILE *f;
	int i;

	(void)state;
	reproduce_seed_fragments(reproduce_seed_find("004"), "rt", buf,
				 sizeof(buf));
	assert_string_equal(buf, "rseq,hrtick");
	reproduce_seed_fragments(reproduce_seed_find("004"), "full", buf,
				 sizeof(buf));
	assert_string_equal(buf, "rseq,hrtick,pcp-batch");
	/* a model the seed is not judged on: the seed's own only */
	reproduce_seed_fragments(reproduce_seed_find("000"), "rt", buf,
				 sizeof(buf));
	assert_string_equal(buf, "rseq,hrtick");
	for (s = reproduce_seeds; s->id; s++) {
		for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++) {
			reproduce_seed_fragments(s, s->models[i], buf,
						 sizeof(buf));
			assert_int_equal(strcmp(s->models[i], "rt") ?
					 !!strstr(buf, "pcp-batch") :
					 !strstr(buf, "pcp-batch"), 1);
			for (tok = strtok_r(buf, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				snprintf(path, sizeof(path),
					 "kconfigs/%s.config", tok);
				f = fopen(path, "r");
				assert_non_null(f);
				fclose(f);
			}
		}
		for (; i < REPRODUCE_MAX_MODELS; i++)
			assert_null(s->model_fragments[i]);
	}
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

/*
 * A patch's seed is an A/B/A: every scenario of its suite is judged base
 * against patched, and the reproduction's exit counts each verdict. The
 * table must show each, or its rows could all read as expected while
 * the exit says REGRESSION (seed 000's load scenarios, 2026-12-07).
 */
static void test_a_patch_seed_has_a_row_per_scenario(void **state)
{
	const struct reproduce_seed *s;
	char path[256];
	size_t i, j;

	(void)state;
	for (s = reproduce_seeds; s->id; s++) {
		struct runner_suite suite;
		struct runner_suite_error err;

		if (s->kind != REPRODUCE_KERNELS)
			continue;
		snprintf(path, sizeof(path), "suites/%s.suite", s->suite);
		assert_int_equal(runner_suite_load(path, &suite, &err), 0);
		for (i = 0; i < suite.nr_scenarios; i++) {
			bool found = false;

			for (j = 0; j < REPRODUCE_MAX_ROWS; j++)
				found |= s->rows[j].scenario &&
					 !strcmp(s->rows[j].scenario,
						 suite.scenarios[i].name);
			if (!found)
				fail_msg("seed %s: scenario %s of %s has no row",
					 s->id, suite.scenarios[i].name, path);
		}
		runner_suite_free(&suite);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_004_rt_runs_its_own_suite),
		cmocka_unit_test(test_others_run_the_seeds_suite),
		cmocka_unit_test(test_the_suites_label),
		cmocka_unit_test(test_the_kernels_fragments),
		cmocka_unit_test(test_latency_seeds_run_enough_repetitions),
		cmocka_unit_test(test_every_suite_exists_with_the_seeds_vcpus),
		cmocka_unit_test(test_a_patch_seed_has_a_row_per_scenario),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
