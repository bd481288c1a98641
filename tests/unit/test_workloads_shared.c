// SPDX-License-Identifier: GPL-2.0-only
/*
 * workloads/common, the parts the workloads share beyond the protocol:
 * benchmark rounds and bench|load options (wl_bench), the option loop
 * (wl_opt_parse), the load summary (wl_pace), the CPU mask (wl_cpu) and
 * the children's output lines (wl_lines).
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

#include "exitcode.h"
#include "workloads/common/wl_bench.h"
#include "workloads/common/wl_cpu.h"
#include "workloads/common/wl_lines.h"
#include "workloads/common/wl_opt.h"
#include "workloads/common/wl_pace.h"
#include "workloads/common/wl_proto.h"

static char *print_obj(cJSON *s)
{
	char *text = cJSON_PrintUnformatted(s);

	cJSON_Delete(s);
	assert_non_null(text);
	return text;
}

/* The keys and their order are what suites and the analyzer read. */
static void test_bench_rounds_summary(void **state)
{
	struct wl_bench b;
	cJSON *s = cJSON_CreateObject();
	unsigned int k;
	char *text;

	(void)state;
	wl_bench_init(&b, 4, 1, 2);
	assert_int_equal(wl_bench_start(&b), 0);
	for (k = 0; wl_bench_more(&b, k); k++)
		wl_bench_round(&b, k, 1000, 1000 + (k == 2 ? 408 : 400));
	assert_int_equal(k, 3);
	assert_int_equal(b.done, 2);
	wl_bench_summary(s, &b, "calls_per_round", "ns_per_call");
	text = print_obj(s);
	assert_string_equal(text,
		"{\"calls_per_round\":4,\"warmups\":1,\"rounds\":2,"
		"\"complete\":true,\"ns_per_call_mean\":101,"
		"\"ns_per_call_cv_pct\":1.4,\"ns_per_call_min\":100,"
		"\"ns_per_call_max\":102,\"metrics\":{\"ns_per_call\":"
		"{\"unit\":\"ns\",\"better\":\"lower\",\"values\":[100,102]}}}");
	free(text);
	wl_bench_free(&b);
}

/* A summary before any round (failed setup) still says what was asked. */
static void test_bench_summary_unstarted(void **state)
{
	struct wl_bench b;
	cJSON *s = cJSON_CreateObject();
	char *text;

	(void)state;
	wl_bench_init(&b, 4096, 3, 9);
	wl_bench_summary(s, &b, "reads_per_round", "ns_per_read");
	text = print_obj(s);
	assert_string_equal(text,
		"{\"reads_per_round\":4096,\"warmups\":3,\"rounds\":0,"
		"\"complete\":false,\"metrics\":{\"ns_per_read\":"
		"{\"unit\":\"ns\",\"better\":\"lower\",\"values\":[]}}}");
	free(text);
	wl_bench_free(&b);
}

static int one_bench(int c, void *ctx)
{
	return wl_bench_opt(c, optarg, "--reads", ctx);
}

static void test_bench_parse(void **state)
{
	static const struct option longopts[] = {
		{ "reads", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct wl_opts opts = {
		"n:R:h", longopts, one_bench, NULL,
	};
	char *load[] = { "t", "load", "--rate", "5", NULL };
	char *bench[] = { "t", "bench", "-n", "7", NULL };
	char *none[] = { "t", "-n", "7", NULL };
	char *bad[] = { "t", "bench", "-n", "0", NULL };
	char *help[] = { "t", "-h", NULL };
	struct wl_bench_opts o = { 0 };
	enum wl_bench_mode mode;

	(void)state;
	optind = 0;
	assert_int_equal(wl_bench_parse(4, load, &opts, &o, &mode), 0);
	assert_int_equal(mode, WL_MODE_LOAD);
	assert_true(o.rate == 5 && o.seen_load && !o.seen_bench);
	assert_string_equal(wl_bench_mode_name(mode), "load");
	memset(&o, 0, sizeof(o));
	optind = 0;
	assert_int_equal(wl_bench_parse(4, bench, &opts, &o, &mode), 0);
	assert_int_equal(mode, WL_MODE_BENCH);
	assert_true(o.per_round == 7 && o.seen_bench && !o.seen_load);
	optind = 0;
	assert_int_equal(wl_bench_parse(3, none, &opts, &o, &mode), -EINVAL);
	optind = 0;
	assert_int_equal(wl_bench_parse(4, bad, &opts, &o, &mode), -EINVAL);
	optind = 0;
	assert_int_equal(wl_bench_parse(2, help, &opts, &o, &mode), 1);
}

static void usage(FILE *f)
{
	(void)f;
}

static void test_opt_exit(void **state)
{
	(void)state;
	assert_int_equal(wl_opt_exit(1, usage), WL_EXIT_OK);
	assert_int_equal(wl_opt_exit(-EINVAL, usage), WL_EXIT_USAGE);
}

static void test_pace_summary(void **state)
{
	struct wl_pace pace = { .skipped = 3 };
	char *text;
	cJSON *s = cJSON_CreateObject();

	(void)state;
	wl_pace_summary(s, 1000, &pace, 150, 0.5);
	text = print_obj(s);
	assert_string_equal(text, "{\"rate\":1000,\"slots_skipped\":3,"
			    "\"achieved_rate\":300}");
	free(text);
}

static void test_cpu(void **state)
{
	cpu_set_t set;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_true(CPU_ISSET(wl_cpu_first_allowed(), &set));
	assert_int_equal(wl_cpu_count_allowed(), CPU_COUNT(&set));
	assert_int_equal(wl_cpu_pin(wl_cpu_first_allowed()), 0);
	assert_int_equal(wl_cpu_pin(CPU_SETSIZE - 1), -EINVAL);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
}

struct seen {
	char lines[4][16];
	int n;
};

static void take(char *line, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 4)
		snprintf(s->lines[s->n], sizeof(s->lines[0]), "%s", line);
	s->n++;
}

/*
 * Lines across reads; a line longer than the buffer loses its buffer-fulls
 * ("this-is" and "-too-lo" of 7 bytes each); the unterminated tail waits.
 */
static void test_lines(void **state)
{
	static const char out[] = "one\ntw" "o\nthis-is-too-long\nend\ntail";
	struct seen seen = { 0 };
	struct wl_lines l;
	char buf[8];
	int fds[2];

	(void)state;
	assert_int_equal(wl_init("test"), 0);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], out, sizeof(out) - 1),
			 (ssize_t)sizeof(out) - 1);
	close(fds[1]);
	wl_lines_init(&l, buf, sizeof(buf), take, &seen);
	assert_int_equal(wl_lines_follow(&l, fds[0]), 0);
	close(fds[0]);
	assert_int_equal(seen.n, 4);
	assert_string_equal(seen.lines[0], "one");
	assert_string_equal(seen.lines[1], "two");
	assert_string_equal(seen.lines[2], "ng");
	assert_string_equal(seen.lines[3], "end");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_rounds_summary),
		cmocka_unit_test(test_bench_summary_unstarted),
		cmocka_unit_test(test_bench_parse),
		cmocka_unit_test(test_opt_exit),
		cmocka_unit_test(test_pace_summary),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
