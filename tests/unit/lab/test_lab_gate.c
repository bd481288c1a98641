// SPDX-License-Identifier: GPL-2.0-only
/*
 * How many comparisons share alpha in a lab gate (an_gate_family()):
 * every comparison the gate makes (a timerlat scenario is two), and never
 * fewer than the family `rtgate run` judges the suite's comparisons at
 * (an_suite_family(), docs/statistics.md), so a scenario compared alone
 * with --scenario is judged at the level the run and `rtgate compare
 * A:S B:S` judge it. On recorded manifests and on the manifests a run of
 * each shipped suite writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "jsonio.h"
#include "lab/lab_priv.h"
#include "runner/runner_priv.h"

static cJSON *read_manifest(const char *path)
{
	struct json_error err;
	cJSON *m;

	if (json_read_file(path, &m, &err))
		print_error("%s\n", err.msg);
	assert_non_null(m);
	return m;
}

static void check(const cJSON *m, const char *const *scen, int n,
		  int family, int made)
{
	size_t got_made = (size_t)-1;

	assert_int_equal(an_gate_family(m, scen, n, &got_made), family);
	assert_int_equal(got_made, made);
}

/*
 * quick: hackbench and extend against idle, inject the positive control.
 * The run shares alpha over 2; the gate of every scenario makes 4.
 */
static void test_quick(void **state)
{
	static const char *const hackbench[] = { "hackbench" };
	static const char *const two[] = { "idle", "hackbench" };
	static const char *const three[] = { "idle", "hackbench", "inject" };
	cJSON *m = read_manifest("tests/fixtures/nightly/scaled/"
				 "20261201-103331-quick/manifest.json");

	(void)state;
	assert_int_equal(an_suite_family(m), 2);
	check(m, NULL, 0, 4, 4);
	/* Alone, as the run judges it: alpha / 2, not all of alpha. */
	check(m, hackbench, 1, 2, 1);
	check(m, two, 2, 2, 2);
	check(m, three, 3, 3, 3);
	cJSON_Delete(m);
}

/*
 * setparam: default against custom (tool none) and default-load against
 * idle count; custom-load is a negative control.
 */
static void test_setparam(void **state)
{
	static const char *const one[] = { "default-load" };
	cJSON *m = read_manifest("tests/fixtures/nightly/scaled/"
				 "20261201-103246-setparam/manifest.json");

	(void)state;
	assert_int_equal(an_suite_family(m), 2);
	check(m, NULL, 0, 5, 5);
	check(m, one, 1, 2, 1);
	cJSON_Delete(m);
}

/*
 * timerlat in the lab: its one comparison is the positive control, so
 * the run's family is 1; the gate compares thread and IRQ of both.
 */
static void test_timerlat(void **state)
{
	static const char *const idle[] = { "idle" };
	cJSON *m = read_manifest("tests/fixtures/lab/timerlat-7.2-rt/"
				 "manifest.json");

	(void)state;
	assert_int_equal(an_suite_family(m), 1);
	check(m, NULL, 0, 4, 4);
	check(m, idle, 1, 2, 2);
	cJSON_Delete(m);
}

/* The manifest a run of @path writes before its first repetition. */
static cJSON *run_manifest(const char *path, struct runner_suite *s,
			   const char *dir)
{
	struct runner_suite_error err;
	struct runner_run run = { 0 };
	char file[256];
	size_t i;
	cJSON *m;

	if (runner_suite_load(path, s, &err))
		print_error("%s\n", err.msg);
	run.suite = s;
	snprintf(run.id, sizeof(run.id), "20261202-120000-family");
	snprintf(run.dir, sizeof(run.dir), "%s", dir);
	run.scale = 1;
	run.repetitions = s->repetitions;
	run.scens = calloc(s->nr_scenarios, sizeof(*run.scens));
	assert_non_null(run.scens);
	for (i = 0; i < s->nr_scenarios; i++)
		run.scens[i].sc = &s->scenarios[i];
	assert_int_equal(runner_manifest_write(&run), 0);
	runner_run_model_free(&run);
	snprintf(file, sizeof(file), "%s/manifest.json", dir);
	m = read_manifest(file);
	unlink(file);
	return m;
}

/*
 * Every shipped suite: the gate of all its scenarios is never judged at
 * a larger share than the run's, and each of its comparisons' candidates
 * compared alone gets exactly the run's share (slice-ext: 6 comparisons,
 * its two negative controls aside, of 10 scenarios; quick: 2 of 4).
 */
static void test_shipped_suites(void **state)
{
	static const struct {
		const char *path;
		int family, scenarios;
	} shipped[] = {
		{ "suites/quick.suite", 2, 4 },
		{ "suites/slice-ext.suite", 6, 10 },
		{ "suites/setparam.suite", 2, 5 },
		{ "suites/rt-sysctl.suite", 0, 0 },
		{ "suites/hrtick.suite", 0, 0 },
		{ "suites/stress.suite", 0, 0 },
		{ "suites/smoke.suite", 0, 0 },
		{ "suites/lab-control.suite", 1, 1 },
		{ "suites/lab-control-icount.suite", 1, 1 },
		{ "suites/timerlat.suite", 1, 2 },
	};
	char dir[] = "/tmp/rtgate-unit-lab-gate.XXXXXX";
	size_t i, j;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		struct runner_suite s;
		cJSON *m = run_manifest(shipped[i].path, &s, dir);
		int run = (int)an_suite_family(m);
		size_t made;

		if (shipped[i].family) {
			assert_int_equal(run, shipped[i].family);
			assert_int_equal(s.nr_scenarios,
					 shipped[i].scenarios);
		}
		/* The runner's own count (what it can see) is the analyzer's. */
		assert_int_equal((int)runner_suite_family(&s), run);
		assert_true((int)an_gate_family(m, NULL, 0, &made) >= run);
		for (j = 0; j < s.nr_scenarios; j++) {
			const char *name = s.scenarios[j].name;
			bool more_sides = an_tool_nsides(s.scenarios[j].tool)
					  > 1;

			if (!s.scenarios[j].compare || more_sides)
				continue;
			assert_int_equal(an_gate_family(m, &name, 1, &made),
					 run);
			assert_int_equal(made, 1);
		}
		cJSON_Delete(m);
		runner_suite_free(&s);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick),
		cmocka_unit_test(test_setparam),
		cmocka_unit_test(test_timerlat),
		cmocka_unit_test(test_shipped_suites),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
