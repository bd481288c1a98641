// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stress workload's reader of stress-ng's --yaml report, on a report
 * recorded from stress-ng 0.15.06 (Debian bookworm) and broken copies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <cmocka.h>

#include "workloads/stress/stress_yaml.h"

#define FIXTURES "tests/fixtures/workloads/"

static void test_recorded_report(void **state)
{
	struct stress_report rep;
	char err[512];

	(void)state;
	assert_int_equal(stress_yaml_read(FIXTURES "stress-ng-0.15.06.yaml",
					  &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.n, 2);
	assert_string_equal(rep.m[0].stressor, "cpu");
	assert_int_equal(rep.m[0].bogo_ops, 122);
	assert_true(rep.m[0].ops_per_s > 60.99 && rep.m[0].ops_per_s < 61.0);
	assert_true(rep.m[0].wall_s > 2.0 && rep.m[0].wall_s < 2.001);
	assert_string_equal(rep.m[1].stressor, "vm");
	assert_int_equal(rep.m[1].bogo_ops, 617);
}

static void test_no_metrics(void **state)
{
	struct stress_report rep;
	char err[512];

	(void)state;
	/* A report cut before "metrics:" (stress-ng run without metrics). */
	assert_int_equal(stress_yaml_read(FIXTURES "stress-ng-no-metrics.yaml",
					  &rep, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "no metrics"));
	assert_int_equal(stress_yaml_read(FIXTURES "does-not-exist.yaml",
					  &rep, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "does-not-exist.yaml"));
}

static int write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		/* not a number */
		"metrics:\n    - stressor: cpu\n      bogo-ops: lots\n",
		/* no bogo-ops */
		"metrics:\n    - stressor: cpu\n      wall-clock-time: 2.0\n",
		/* not YAML at all: an unclosed flow sequence */
		"metrics: [\n",
		/* metrics is not a sequence */
		"metrics:\n    stressor: cpu\n",
	};
	struct stress_report rep;
	char path[] = "/tmp/rtgate-test-yaml.XXXXXX", err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(path, "/tmp/rtgate-test-yaml.XXXXXX");
		assert_int_equal(write_tmp(path, bad[i]), 0);
		assert_int_equal(stress_yaml_read(path, &rep, err, sizeof(err)),
				 -EINVAL);
		/* FILE:LINE: what */
		assert_non_null(strstr(err, path));
		assert_non_null(strchr(err + strlen(path), ':'));
		unlink(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_report),
		cmocka_unit_test(test_no_metrics),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
