// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tool table (analyze.h's struct an_tool) and the runner's drivers
 * (runner/measure/runner_tool.c) agree: every tool that runs a program
 * has a driver, a tool without one has none; every tool's facts are
 * whole (a reader where it measures, a tracer's tool is traced by
 * itself); the suite parser knows every tool by its name and refuses a
 * name no entry has; and the family counts each further side both tools
 * of a pair measure.
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
#include "fsio.h"
#include "runner/measure/measure.h"

static void test_every_program_has_a_driver(void **state)
{
	const struct an_tool *t;
	size_t i, n = 0;

	(void)state;
	for (i = 0; (t = an_tool_at(i)); i++, n++) {
		const struct runner_tool_ops *ops = runner_tool_get(t);

		assert_ptr_equal(an_tool_find(t->name), t);
		assert_int_equal(an_tool_index(t), i);
		assert_true(an_tool_nsides(t) >= 1);
		if (!t->program) {
			assert_null(ops);
			assert_null(t->read);
			continue;
		}
		if (!ops)
			print_error("tool %s: no driver in runner_tool.c\n",
				    t->name);
		assert_non_null(ops);
		assert_non_null(ops->init);
		assert_non_null(ops->finish);
		assert_non_null(ops->worst_us);
		assert_non_null(t->read);
		assert_non_null(t->args_key);
		assert_non_null(t->owned_why);
		if (t->tracer)
			assert_true(t->own_tracer && t->needs_duration);
	}
	assert_true(n >= 3 && n <= AN_TOOL_MAX);
	/* The default, what a suite naming no tool measures with. */
	assert_string_equal(an_tool_at(0)->name, "cyclictest");
	assert_null(an_tool_find("hwnoise"));
	assert_null(runner_tool_get(NULL));
}

static const char *write_suite(const char *tool)
{
	static char path[64];
	char text[512];

	snprintf(path, sizeof(path), "/tmp/rtgate-unit-tool-%d.suite",
		 (int)getpid());
	snprintf(text, sizeof(text), "[suite]\nname = t\n[measure]\n"
		 "tool = %s\nduration = 1s\n[scenario a]\n"
		 "[scenario b]\ncompare = a\n", tool);
	assert_int_equal(fsio_write_atomic(path, text, strlen(text)), 0);
	return path;
}

/* Each name of the table is a suite's `tool =`; the family follows. */
static void test_suites_name_every_tool(void **state)
{
	struct runner_suite_error err;
	struct runner_suite s;
	const struct an_tool *t;
	size_t i;

	(void)state;
	for (i = 0; (t = an_tool_at(i)); i++) {
		if (runner_suite_load(write_suite(t->name), &s, &err))
			print_error("%s: %s\n", t->name, err.msg);
		assert_ptr_equal(s.scenarios[0].tool, t);
		assert_int_equal(runner_suite_family(&s), an_tool_nsides(t));
		assert_int_equal(an_pair_comparisons(t, an_tool_at(0)), 1);
		runner_suite_free(&s);
	}
	assert_int_not_equal(runner_suite_load(write_suite("hwnoise"), &s,
					       &err), 0);
	assert_non_null(strstr(err.msg, "'hwnoise' is not cyclictest"));
	unlink(write_suite("x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_program_has_a_driver),
		cmocka_unit_test(test_suites_name_every_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
