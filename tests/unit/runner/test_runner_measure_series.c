// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time (runner/runner_series.c): cyclictest -v's sample lines
 * reduced to per-second maxima per thread, a spike landing in its second
 * and nowhere else, the window that keeps -o under 10 ms, and the whole
 * path through runner_ct_feed()/runner_ct_finish(): the live T: state,
 * the rebuilt final T: lines and timeline.json on disk.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "jsonio.h"
#include "runner/measure/measure.h"

static void test_window(void **state)
{
	(void)state;
	assert_int_equal(runner_series_window(1000), 10);
	assert_int_equal(runner_series_window(100), 100);
	assert_int_equal(runner_series_window(3000), 3);
	assert_int_equal(runner_series_window(10000), 1);
	assert_int_equal(runner_series_window(0), 1);
}

/*
 * Three seconds of one thread at 1000 us, every sample printed (window
 * 1): 20 us everywhere but one 900 us spike at cycle 1500 (second 1).
 */
static void test_reduce_spike(void **state)
{
	struct runner_series s;
	struct runner_series_sample x;
	char line[64];
	unsigned long k;

	(void)state;
	runner_series_init(&s, 1, 1000);
	assert_int_equal(runner_series_line(&s, "Thread 0 Interval: 1000", &x),
			 2);
	for (k = 0; k < 3000; k++) {
		snprintf(line, sizeof(line), "%8d:%8lu:%8ld", 0, k,
			 k == 1500 ? 900L : 20L + (long)(k % 7));
		assert_int_equal(runner_series_line(&s, line, &x), 1);
	}
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.t[0].nsec, 3);
	assert_int_equal(s.t[0].max_us[0], 26);
	assert_int_equal(s.t[0].max_us[1], 900);
	assert_int_equal(s.t[0].max_us[2], 26);
	assert_int_equal(s.t[0].samples, 3000);
	assert_int_equal(runner_series_max(&s, 0), 900);
	assert_int_equal(runner_series_max(&s, 1), -1);
	/* The spike's neighbours stay in their own seconds. */
	runner_series_free(&s);
}

/*
 * Windows of 10 samples, as -o 10 prints them (the max and the cycle it
 * was at), two threads of different intervals, a second with no window,
 * lines that are not samples.
 */
static void test_windows_threads(void **state)
{
	struct runner_series s;
	struct runner_series_sample x;

	(void)state;
	runner_series_init(&s, 10, 1000);
	assert_int_equal(runner_series_line(&s, "Thread 1 Interval: 2000", &x),
			 2);
	/* thread 0 at the default 1000 us: cycle 999 is second 0 */
	assert_int_equal(runner_series_line(&s, "  0:  999:  41", &x), 1);
	assert_int_equal(x.thread, 0);
	assert_int_equal(x.cycle, 999);
	assert_int_equal(x.us, 41);
	assert_int_equal(runner_series_line(&s, "  0: 1000:  12", &x), 1);
	/* nothing in second 2; second 3 */
	assert_int_equal(runner_series_line(&s, "  0: 3005: 300", &x), 1);
	/* thread 1 at 2000 us: cycle 500 is second 1 */
	assert_int_equal(runner_series_line(&s, "  1:  499:  7", &x), 1);
	assert_int_equal(runner_series_line(&s, "  1:  500:  8", &x), 1);
	assert_int_equal(runner_series_line(&s, "Max CPUs = 2", &x), 0);
	assert_int_equal(runner_series_line(&s, "T: 0 ( 12) P:95 I:1000 C: "
					    "10 Min: 1 Act: 2 Avg: 2 Max: 3",
					    &x), 0);
	assert_int_equal(runner_series_line(&s, "0:1:2 trailing", &x), 0);
	assert_int_equal(runner_series_line(&s, "-1:1:2", &x), -EINVAL);
	assert_int_equal(s.t[0].nsec, 4);
	assert_int_equal(s.t[0].max_us[0], 41);
	assert_int_equal(s.t[0].max_us[1], 12);
	assert_int_equal(s.t[0].max_us[2], -1);
	assert_int_equal(s.t[0].max_us[3], 300);
	assert_int_equal(s.t[1].nsec, 2);
	assert_int_equal(s.t[1].max_us[0], 7);
	assert_int_equal(s.t[1].max_us[1], 8);
	/* A cycle a year away is refused, not allocated. */
	assert_int_equal(runner_series_add(&s, 0, 40000000000UL, 1), -EINVAL);
	runner_series_free(&s);
}

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-series.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static void put(const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(fsio_write_atomic(path, text, strlen(text)), 0);
}

/*
 * The runner's side: -v -o 10 on the command line, the progress state
 * from sample lines, the final T: lines from the JSON, timeline.json
 * with the spike in its second.
 */
static void test_ct_run(void **state)
{
	static char *args[] = { "--smp", "-p95", "-m", "-i", "1000", NULL };
	struct runner_suite_measure m = {
		.opts[0] = { .argv = args },	/* the table's first: cyclictest */
		.duration_ns = 3000000000ULL, .histogram_us = 100,
	};
	struct runner_ct_run c;
	struct ctline t;
	char why[256], path[256], line[64], *log;
	const cJSON *th, *mx;
	struct json_error jerr;
	cJSON *json;
	bool v = false, o = false;
	size_t i;
	unsigned long k;

	(void)state;
	assert_int_equal(runner_ct_init(&c, &m, 1.0, tmpdir, true), 0);
	for (i = 0; c.argv[i]; i++) {
		v |= !strcmp(c.argv[i], "-v");
		o |= !strcmp(c.argv[i], "-o10");
	}
	assert_true(v && o);
	assert_false(runner_ct_feed(&c, "Thread 0 Interval: 1000", &t));
	for (k = 9; k < 3000; k += 10) {
		snprintf(line, sizeof(line), "%8d:%8lu:%8ld", 0, k,
			 k == 2009 ? 777L : 15L);
		assert_true(runner_ct_feed(&c, line, &t));
	}
	assert_int_equal(t.thread, 0);
	assert_int_equal(t.max_us, 777);
	assert_int_equal(t.prio, 95);
	assert_int_equal(t.interval_us, 1000);
	assert_int_equal(t.cycles, 3000);
	put("cyclictest.json.part", "{\"thread\": {\"0\": {\"cycles\": 3000, "
	    "\"min\": 3, \"max\": 777, \"avg\": 9.5, \"cpu\": 0}}}");
	put("cyclictest.hist.part", "# Histogram\n");
	c.elapsed_s = 3.0;
	assert_int_equal(runner_ct_finish(&c, true, why, sizeof(why)), 0);
	assert_int_equal(c.last[0].min_us, 3);
	assert_int_equal(c.last[0].avg_us, 9);
	snprintf(path, sizeof(path), "%s/cyclictest.log", tmpdir);
	assert_int_equal(fsio_read_all(path, &log, NULL), 0);
	assert_non_null(strstr(log, "T: 0 (    0) P:95 I:1000 C:   3000 "
				"Min:      3"));
	free(log);
	snprintf(path, sizeof(path), "%s/timeline.json", tmpdir);
	assert_int_equal(json_read_file(path, &json, &jerr), 0);
	assert_string_equal(json_get_str(json, "schema", ""),
			    "rtgate-timeline/1");
	assert_int_equal(json_get_num(json, "seconds", 0), 3);
	th = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "threads"), 0);
	mx = cJSON_GetObjectItem(th, "max_us");
	assert_int_equal(cJSON_GetArraySize(mx), 3);
	assert_int_equal(cJSON_GetArrayItem(mx, 0)->valuedouble, 15);
	assert_int_equal(cJSON_GetArrayItem(mx, 2)->valuedouble, 777);
	cJSON_Delete(json);
	runner_ct_free(&c);
}

/* Off (a traced run): no -v, T: lines are T: lines, no timeline.json. */
static void test_ct_run_off(void **state)
{
	static char *args[] = { "--smp", "-p95", NULL };
	struct runner_suite_measure m = {
		.opts[0] = { .argv = args },	/* the table's first: cyclictest */
		.duration_ns = 1000000000ULL, .histogram_us = 100,
	};
	struct runner_ct_run c;
	struct ctline t;
	size_t i;

	(void)state;
	assert_int_equal(runner_ct_init(&c, &m, 1.0, tmpdir, false), 0);
	for (i = 0; c.argv[i]; i++)
		assert_string_not_equal(c.argv[i], "-v");
	assert_false(runner_ct_feed(&c, "       0:     287:     342", &t));
	assert_true(runner_ct_feed(&c, "T: 0 ( 4213) P:95 I:1000 C:   5163 "
				   "Min:      3 Act:    3 Avg:    3 Max:"
				   "      12", &t));
	assert_int_equal(t.tid, 4213);
	runner_ct_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_reduce_spike),
		cmocka_unit_test(test_windows_threads),
		cmocka_unit_test_setup_teardown(test_ct_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ct_run_off, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
