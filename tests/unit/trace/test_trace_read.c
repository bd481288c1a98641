// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for trace/trace_read.c on a real trace.dat kept as a fixture
 * (tests/fixtures/trace/README.md), and on files that are not traces.
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
#include "trace/trace.h"

#define FIXTURE		"tests/fixtures/trace/inject-cpu1.dat"
#define EXPLAINED	"tests/fixtures/trace/inject-cpu1.explain"
#define CT_TID		17534

/* libtraceevent keeps a few bytes per parsed format: not our leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:libtracecmd.so\n";
}

static void test_fixture_events(void **state)
{
	struct trace_file_info info;

	(void)state;
	assert_int_equal(trace_file_check(FIXTURE, &info), 0);
	/* The counts trace-cmd report gives for the same file. */
	assert_true(info.nr_records == 17229);
	assert_true(info.per_type[TRACE_EV_SWITCH] == 5754);
	assert_true(info.per_type[TRACE_EV_WAKING] == 3496);
	assert_true(info.per_type[TRACE_EV_WAKEUP] == 3497);
	assert_true(info.per_type[TRACE_EV_WAKEUP_NEW] == 4);
	assert_true(info.per_type[TRACE_EV_IRQ_ENTRY] == 1244);
	assert_true(info.per_type[TRACE_EV_HRTIMER_START] == 540);
	assert_true(info.missed == 0);
}

struct first_switch {
	struct trace_ev ev;
	int seen;
};

static int keep_first_switch(const struct trace_ev *ev, void *ctx)
{
	struct first_switch *f = ctx;

	if (ev->type != TRACE_EV_SWITCH)
		return 0;
	f->ev = *ev;
	f->seen = 1;
	return 1;	/* stop here */
}

static void test_fixture_decode(void **state)
{
	struct first_switch f = { .seen = 0 };

	(void)state;
	assert_int_equal(trace_file_read(FIXTURE, keep_first_switch, &f, NULL),
			 0);
	assert_true(f.seen);
	assert_int_equal(f.ev.cpu, 1);
	assert_true(f.ev.sw.prev.pid > 0 || f.ev.sw.next.pid > 0);
	assert_true(strlen(f.ev.sw.next.comm) > 0);
}

/* The attribution of the file, printed, is the one recorded with it. */
static void test_fixture_attribution(void **state)
{
	int tids[] = { CT_TID };
	struct trace_attr_params p = { .tids = tids, .nr_tids = 1 };
	struct trace_attr_result r;
	char *want, *got;
	size_t len;
	FILE *f;

	(void)state;
	assert_int_equal(trace_attr_file(FIXTURE, &p, &r), 0);
	assert_int_equal(r.nr_win, TRACE_ATTR_TOP);
	assert_string_equal(r.win[0].part[0].name, "inject");
	assert_int_equal(r.win[0].part[0].prio, 0);
	f = open_memstream(&got, &len);
	trace_attr_print(f, &r);
	fclose(f);
	assert_int_equal(fsio_read_all(EXPLAINED, &want, NULL), 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	trace_attr_result_free(&r);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void test_bad_files(void **state)
{
	char dir[] = "/tmp/rtgate-unit.XXXXXX", path[256], *buf;
	struct trace_file_info info;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(trace_file_check("/nonexistent/trace.dat", &info),
			 -ENOENT);
	snprintf(path, sizeof(path), "%s/text.dat", dir);
	write_file(path, "hello, not a trace\n", 19);
	assert_int_equal(trace_file_check(path, &info), -EINVAL);
	assert_int_equal(fsio_read_all(FIXTURE, &buf, &len), 0);
	snprintf(path, sizeof(path), "%s/cut.dat", dir);
	write_file(path, buf, len / 2);
	assert_int_equal(trace_file_check(path, &info), -EINVAL);
	/* (The last ~110 bytes are trailing options, not events.) */
	write_file(path, buf, len - 1000);
	assert_int_equal(trace_file_check(path, &info), -EINVAL);
	write_file(path, buf, 64);
	assert_int_equal(trace_file_check(path, &info), -EINVAL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/text.dat", dir);
	unlink(path);
	rmdir(dir);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_events),
		cmocka_unit_test(test_fixture_decode),
		cmocka_unit_test(test_fixture_attribution),
		cmocka_unit_test(test_bad_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
