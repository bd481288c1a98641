// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel counters beside a repetition (runner/runner_kstat.c): debugfs
 * rseq/stats in the format of Linux 7.3's rseq_stats_show() ("%-7s
 * %16lu" per line), the difference over a repetition, and a file that is
 * not on debugfs refused (a planted path is never read).
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
#include "runner/measure/measure.h"

/* The lines as 7.3 prints them with CONFIG_RSEQ_SLICE_EXTENSION. */
static void stats_text(char *buf, size_t len, unsigned long sgrant,
		       unsigned long syield)
{
	snprintf(buf, len,
		 "exit:   %16lu\nsignal: %16lu\nslowp:  %16lu\n"
		 "fastp:  %16lu\nids:    %16lu\ncs:     %16lu\n"
		 "clear:  %16lu\nfixup:  %16lu\nsgrant: %16lu\n"
		 "sexpir: %16lu\nsrevok: %16lu\nsyield: %16lu\n"
		 "sabort: %16lu\n", 1000UL, 2UL, 30UL, 970UL, 40UL, 0UL,
		 900UL, 0UL, sgrant, 3UL, 1UL, syield, 0UL);
}

static void test_parse_and_delta(void **state)
{
	struct runner_kstat_snap a, b;
	char text[1024];
	unsigned int line;
	cJSON *d;

	(void)state;
	stats_text(text, sizeof(text), 10, 7);
	assert_int_equal(runner_kstat_parse(text, &a, &line), 0);
	assert_int_equal(a.n, 13);
	assert_string_equal(a.name[8], "sgrant");
	assert_true(a.val[8] == 10);
	stats_text(text, sizeof(text), 5010, 4007);
	assert_int_equal(runner_kstat_parse(text, &b, &line), 0);
	d = runner_kstat_delta(&a, &b);
	assert_non_null(d);
	assert_int_equal(cJSON_GetObjectItem(d, "sgrant")->valueint, 5000);
	assert_int_equal(cJSON_GetObjectItem(d, "syield")->valueint, 4000);
	assert_int_equal(cJSON_GetObjectItem(d, "sexpir")->valueint, 0);
	cJSON_Delete(d);

	/* A counter that went down is no grant: -1. */
	d = runner_kstat_delta(&b, &a);
	assert_int_equal(cJSON_GetObjectItem(d, "sgrant")->valueint, -1);
	cJSON_Delete(d);

	/* Without CONFIG_RSEQ_SLICE_EXTENSION: no s* lines, no sgrant. */
	assert_int_equal(runner_kstat_parse("exit: 1\ncs: 0\n", &a, &line), 0);
	d = runner_kstat_delta(&a, &a);
	assert_null(cJSON_GetObjectItem(d, "sgrant"));
	cJSON_Delete(d);

	/* Nothing read on one side: no evidence at all. */
	memset(&a, 0, sizeof(a));
	assert_null(runner_kstat_delta(&a, &b));
}

static void test_parse_bad(void **state)
{
	struct runner_kstat_snap s;
	unsigned int line;

	(void)state;
	assert_int_equal(runner_kstat_parse("exit: 1\nsgrant 3\n", &s, &line),
			 -EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(runner_kstat_parse("sgrant: -3\n", &s, &line),
			 -EINVAL);
	assert_int_equal(runner_kstat_parse("sgrant: 3x\n", &s, &line),
			 -EINVAL);
	assert_int_equal(runner_kstat_parse(": 3\n", &s, &line), -EINVAL);
}

static void test_read_refuses_other_fs(void **state)
{
	char dir[] = "/tmp/rtgate-unit-kstat.XXXXXX", path[128], text[1024];
	struct runner_kstat_snap s;

	(void)state;
	assert_int_equal(runner_kstat_read(NULL, &s), -ENOENT);
	assert_int_equal(s.n, 0);
	assert_non_null(mkdtemp(dir));
	/* No rseq/ at all: the kernel has no stats. */
	assert_int_equal(runner_kstat_read(dir, &s), -ENOENT);
	snprintf(path, sizeof(path), "%s/rseq", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/rseq/stats", dir);
	stats_text(text, sizeof(text), 1, 1);
	assert_int_equal(fsio_write_atomic(path, text, strlen(text)), 0);
	/* A well-formed file, but on tmpfs/ext4: never read as evidence. */
	assert_int_equal(runner_kstat_read(dir, &s), -EXDEV);
	assert_int_equal(s.n, 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/rseq", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_delta),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_read_refuses_other_fs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
