// SPDX-License-Identifier: GPL-2.0-only
/*
 * workloads/common: strict options, round statistics, the summary line,
 * the stop flag, pacing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "workloads/common/wl_opt.h"
#include "workloads/common/wl_pace.h"
#include "workloads/common/wl_proto.h"
#include "workloads/common/wl_stats.h"
#include "workloads/common/wl_summary.h"

static void test_opt_numbers(void **state)
{
	unsigned int u;
	uint64_t v;
	double d;
	int i;

	(void)state;
	assert_int_equal(wl_opt_u64("--n", "42", 1, 100, &v), 0);
	assert_true(v == 42);
	assert_int_equal(wl_opt_u64("--n", "0", 1, 100, &v), -EINVAL);
	assert_int_equal(wl_opt_u64("--n", "101", 1, 100, &v), -EINVAL);
	assert_int_equal(wl_opt_u64("--n", "4x", 1, 100, &v), -EINVAL);
	assert_int_equal(wl_opt_u64("--n", "", 1, 100, &v), -EINVAL);
	assert_int_equal(wl_opt_uint("--n", "7", 0, 9, &u), 0);
	assert_int_equal(u, 7);
	assert_int_equal(wl_opt_int("--nice", "-20", -20, 19, &i), 0);
	assert_int_equal(i, -20);
	assert_int_equal(wl_opt_int("--nice", "20", -20, 19, &i), -EINVAL);
	assert_int_equal(wl_opt_double("--x", "1.5", 0, 2, &d), 0);
	assert_int_equal(wl_opt_double("--x", "nan", 0, 2, &d), -EINVAL);
}

static void test_opt_duration_cpu_choice(void **state)
{
	static const char *const modes[] = { "bench", "load", NULL };
	cpu_set_t set;
	uint64_t ns;
	int idx, cpu;

	(void)state;
	assert_int_equal(wl_opt_duration("--d", "500ms", 10000000000ULL, &ns), 0);
	assert_true(ns == 500000000ULL);
	assert_int_equal(wl_opt_duration("--d", "11s", 10000000000ULL, &ns),
			 -EINVAL);
	assert_int_equal(wl_opt_choice("mode", "load", modes, &idx), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(wl_opt_choice("mode", "Load", modes, &idx), -EINVAL);
	/* CPU 0 is allowed here; CPU_SETSIZE-1 is not on any test machine. */
	assert_int_equal(wl_opt_cpu("--cpu", "0", &cpu), 0);
	assert_int_equal(wl_opt_cpu("--cpu", "1023", &cpu), -EINVAL);
	assert_int_equal(wl_opt_cpulist("--cpus", "0", &set), 0);
	assert_int_equal(wl_opt_cpulist("--cpus", "0-", &set), -EINVAL);
}

static void test_getopt_exact(void **state)
{
	static const struct option opts[] = {
		{ "width-us", required_argument, NULL, 'w' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	char *ok_argv[] = { "t", "--width-us", "5", "--verbose", "-w7", NULL };
	char *abbr[] = { "t", "--width", "5", NULL };
	char *missing[] = { "t", "--width-us", NULL };
	char *unknown[] = { "t", "-x", NULL };
	char *extra[] = { "t", "-v", "stray", NULL };

	(void)state;
	optind = 0;
	assert_int_equal(wl_getopt(5, ok_argv, "w:v", opts), 'w');
	assert_string_equal(optarg, "5");
	assert_int_equal(wl_getopt(5, ok_argv, "w:v", opts), 'v');
	assert_int_equal(wl_getopt(5, ok_argv, "w:v", opts), 'w');
	assert_string_equal(optarg, "7");
	assert_int_equal(wl_getopt(5, ok_argv, "w:v", opts), -1);
	assert_int_equal(wl_opt_no_operands(5, ok_argv), 0);
	/* getopt_long would take "--width" for "--width-us": we do not. */
	optind = 0;
	assert_int_equal(wl_getopt(3, abbr, "w:v", opts), '?');
	optind = 0;
	assert_int_equal(wl_getopt(2, missing, "w:v", opts), '?');
	optind = 0;
	assert_int_equal(wl_getopt(2, unknown, "w:v", opts), '?');
	optind = 0;
	assert_int_equal(wl_getopt(3, extra, "w:v", opts), 'v');
	assert_int_equal(wl_getopt(3, extra, "w:v", opts), -1);
	assert_int_equal(wl_opt_no_operands(3, extra), -EINVAL);
}

static void test_stats(void **state)
{
	const double v[] = { 100, 102, 98, 100 };
	struct wl_stats st;

	(void)state;
	wl_stats_compute(v, 4, &st);
	assert_true(st.n == 4);
	assert_true(fabs(st.mean - 100) < 1e-9);
	/* sample sd of {0, 2, -2, 0} = sqrt(8 / 3) */
	assert_true(fabs(st.sd - sqrt(8.0 / 3)) < 1e-9);
	assert_true(fabs(st.cv_pct - sqrt(8.0 / 3)) < 1e-9);
	assert_true(st.min == 98 && st.max == 102);
	wl_stats_compute(v, 1, &st);
	assert_true(st.cv_pct == 0 && st.mean == 100);
	wl_stats_compute(v, 0, &st);
	assert_true(st.n == 0 && st.mean == 0);
}

/* The summary is exactly one line of JSON on stdout: capture it. */
static char *capture_summary(cJSON *s)
{
	char path[] = "/tmp/rtgate-test-sum.XXXXXX", *buf;
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	FILE *f;
	long len;

	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	assert_int_equal(wl_summary_print(s), 0);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	assert_int_equal(fread(buf, 1, len, f), (size_t)len);
	fclose(f);
	unlink(path);
	return buf;
}

static void test_summary(void **state)
{
	struct wl_work w = { .work_done = 3, .unit = "runs", .errors = 1,
			     .duration_s = 1.23456 };
	const double rounds[] = { 8547.2941, 8551.0 };
	cJSON *s = wl_summary_new("demo", &w), *j, *m;
	char *line;

	(void)state;
	assert_non_null(s);
	wl_summary_u64(s, "spins", 7);
	assert_int_equal(wl_summary_metric(s, "ns_per_read", "ns", "lower",
					   rounds, 2), 0);
	line = capture_summary(s);
	/* One line, newline-terminated, common fields first. */
	assert_non_null(strchr(line, '\n'));
	assert_true(strchr(line, '\n')[1] == '\0');
	assert_true(!strncmp(line, "{\"workload\":\"demo\",\"version\":", 29));
	j = cJSON_Parse(line);
	assert_non_null(j);
	assert_true(cJSON_GetObjectItem(j, "work_done")->valuedouble == 3);
	assert_string_equal(cJSON_GetObjectItem(j, "work_unit")->valuestring,
			    "runs");
	assert_true(cJSON_GetObjectItem(j, "duration_s")->valuedouble == 1.235);
	m = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "metrics"),
				"ns_per_read");
	assert_string_equal(cJSON_GetObjectItem(m, "better")->valuestring,
			    "lower");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "values")),
			 2);
	assert_true(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "values"), 0)
		    ->valuedouble == 8547.294);
	cJSON_Delete(j);
	free(line);
}

static void test_stop_and_pace(void **state)
{
	struct wl_pace pace;
	uint64_t t0;
	int n = 0;

	(void)state;
	assert_int_equal(wl_init("test"), 0);
	assert_false(wl_stopping());
	/* 1000/s for 50 ms: about 50 slots, never a burst. */
	t0 = wl_now_ns();
	wl_pace_init(&pace, 1000);
	while (wl_pace_wait(&pace, t0 + 50000000ULL))
		n++;
	assert_true(n + pace.skipped >= 40 && n + pace.skipped <= 52);
	/* wl_wait returns early once a stop is requested. */
	t0 = wl_now_ns();
	wl_stop();
	assert_true(wl_stopping());
	assert_true(wl_wait(5000000000ULL));
	assert_true(wl_now_ns() - t0 < 1000000000ULL);
	assert_false(wl_pace_wait(&pace, UINT64_MAX));
	assert_int_equal(wl_stop_signal(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opt_numbers),
		cmocka_unit_test(test_opt_duration_cpu_choice),
		cmocka_unit_test(test_getopt_exact),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_stop_and_pace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
