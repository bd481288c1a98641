// SPDX-License-Identifier: GPL-2.0-only
/*
 * workloads/common, one file for the folder: strict options and the
 * option core every workload shares (wl_opt), benchmark rounds and
 * bench|load options (wl_bench), round statistics, the summary line, the
 * stop flag and pacing (wl_pace), the CPU mask (wl_cpu) and the
 * children's output lines (wl_lines).
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

#include "exitcode.h"
#include "workloads/common/loop/wl_bench.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/loop/wl_lines.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/loop/wl_pace.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_stats.h"
#include "workloads/common/core/wl_summary.h"

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

struct bench_ctx {
	struct wl_bench_opts bl;
	struct wl_common co;
};

static int one_bench(int c, void *ctx)
{
	struct bench_ctx *b = ctx;

	return wl_bench_opt(c, optarg, "--reads", &b->bl);
}

static void test_bench_parse(void **state)
{
	static const struct option longopts[] = {
		{ "reads", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'R' },
		WL_OPT_DURATION,
		WL_OPT_HELP,
		WL_OPT_END,
	};
	static const struct wl_opts opts = {
		"n:R:d:h", longopts, one_bench, NULL,
		offsetof(struct bench_ctx, co),
	};
	char *load[] = { "t", "load", "--rate", "5", "-d", "2s", NULL };
	char *bench[] = { "t", "bench", "-n", "7", NULL };
	char *none[] = { "t", "-n", "7", NULL };
	char *bad[] = { "t", "bench", "-n", "0", NULL };
	char *help[] = { "t", "-h", NULL };
	struct bench_ctx o = { 0 };
	enum wl_bench_mode mode;

	(void)state;
	optind = 0;
	assert_int_equal(wl_bench_parse(6, load, &opts, &o, &mode), 0);
	assert_int_equal(mode, WL_MODE_LOAD);
	assert_true(o.bl.rate == 5 && o.bl.seen_rate && !o.bl.seen_bench);
	assert_true(o.co.duration_ns == 2000000000ULL && o.co.seen_duration);
	assert_int_equal(wl_bench_check_mode(mode, &o.bl, &o.co, "--reads"), 0);
	assert_int_equal(wl_bench_check_mode(WL_MODE_BENCH, &o.bl, &o.co,
					     "--reads"), -EINVAL);
	assert_string_equal(wl_bench_mode_name(mode), "load");
	memset(&o, 0, sizeof(o));
	optind = 0;
	assert_int_equal(wl_bench_parse(4, bench, &opts, &o, &mode), 0);
	assert_int_equal(mode, WL_MODE_BENCH);
	assert_true(o.bl.per_round == 7 && o.bl.seen_bench && !o.bl.seen_rate);
	assert_false(o.co.seen_duration);
	assert_int_equal(wl_bench_check_mode(WL_MODE_LOAD, &o.bl, &o.co,
					     "--reads"), -EINVAL);
	optind = 0;
	assert_int_equal(wl_bench_parse(3, none, &opts, &o, &mode), -EINVAL);
	optind = 0;
	assert_int_equal(wl_bench_parse(4, bad, &opts, &o, &mode), -EINVAL);
	optind = 0;
	assert_int_equal(wl_bench_parse(2, help, &opts, &o, &mode), 1);
}

/*
 * The common options reach struct wl_common, never the workload's own
 * parse function, whatever short letter the table gives them; the defaults
 * are set before the first option.
 */
struct core_ctx {
	int own;		/* the workload's -x, counted */
	int saw_common;		/* its parse function saw a common one */
	struct wl_common co;
};

static int one_core(int c, void *ctx)
{
	struct core_ctx *x = ctx;

	if (c == 'x') {
		x->own++;
		return 0;
	}
	x->saw_common = 1;
	return -EINVAL;
}

static void test_opt_common(void **state)
{
	static const struct option with_cpu[] = {
		{ "x", no_argument, NULL, 'x' },
		WL_OPT_CPU, WL_OPT_DURATION, WL_OPT_HELP, WL_OPT_END,
	};
	static const struct option t_duration[] = {	/* extend-sched's */
		{ "x", no_argument, NULL, 'x' },
		{ "duration", required_argument, NULL, 't' },
		WL_OPT_HELP, WL_OPT_END,
	};
	static const struct wl_opts a = {
		"xc:d:h", with_cpu, one_core, NULL,
		offsetof(struct core_ctx, co),
	};
	static const struct wl_opts b = {
		"xt:h", t_duration, one_core, NULL,
		offsetof(struct core_ctx, co),
	};
	char *args_a[] = { "t", "-x", "--cpu", "0", "--duration=500ms", "-x",
			   NULL };
	char *args_b[] = { "t", "-t", "2m", "-x", NULL };
	char *bad_b[] = { "t", "--cpu", "0", NULL };
	char *bad_d[] = { "t", "-d", "soon", NULL };
	struct core_ctx x = { .co.cpu = 99, .co.duration_ns = 7 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	optind = 0;
	assert_int_equal(wl_opt_parse(6, args_a, &a, &x), 0);
	assert_int_equal(x.own, 2);
	assert_false(x.saw_common);
	assert_true(x.co.seen_cpu && x.co.seen_duration);
	assert_int_equal(x.co.cpu, 0);
	assert_true(x.co.duration_ns == 500000000ULL);

	memset(&x, 0, sizeof(x));
	x.co.duration_ns = 7;
	optind = 0;
	assert_int_equal(wl_opt_parse(4, args_b, &b, &x), 0);
	assert_true(x.co.duration_ns == 120000000000ULL);
	assert_int_equal(x.co.cpu, wl_cpu_first_allowed());
	assert_false(x.saw_common);
	optind = 0;
	assert_int_equal(wl_opt_parse(3, bad_b, &b, &x), -EINVAL);
	optind = 0;
	assert_int_equal(wl_opt_parse(3, bad_d, &a, &x), -EINVAL);

	/* One wording, each line only for an option the table has. */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	wl_opt_usage_common(f, t_duration);
	fclose(f);
	assert_string_equal(text,
		"  -t, --duration D     stop after D (20, 20s, 500ms, 2m); default: never\n"
		"  -h, --help           this text\n"
		"      --version        print the version and exit\n");
	free(text);
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
		cmocka_unit_test(test_opt_numbers),
		cmocka_unit_test(test_opt_duration_cpu_choice),
		cmocka_unit_test(test_getopt_exact),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_bench_rounds_summary),
		cmocka_unit_test(test_bench_summary_unstarted),
		cmocka_unit_test(test_bench_parse),
		cmocka_unit_test(test_opt_common),
		cmocka_unit_test(test_opt_exit),
		cmocka_unit_test(test_pace_summary),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_lines),
		/* Last: the stop flag it raises stays raised. */
		cmocka_unit_test(test_stop_and_pace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
