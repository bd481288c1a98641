// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a LAVA server answers, parsed: recorded real answers of LAVA
 * 2023.01 (tests/fixtures/lava/README.md) — a job's state, the results
 * directory a finished job's log carries, LAVA's reason for a job that did
 * not boot — and the same answers damaged the ways a serial console
 * damages them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lava/lava.h"
#include "fsio.h"

#define FIX "tests/fixtures/lava/"

/*
 * noinline: inlined into a test, GCC 12 at -O2 takes the pointer it returns
 * for one to the test's own local and fails -Wdangling-pointer (a false
 * positive; the sanitizer build never saw it).
 */
static __attribute__((noinline)) char *fixture(const char *name)
{
	char path[256], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), FIX "%s", name);
	assert_int_equal(fsio_read_all(path, &buf, &len), 0);
	return buf;
}

static void test_job_complete(void **state)
{
	char *json = fixture("job-complete.json");
	struct lava_job j;

	(void)state;
	assert_int_equal(lava_job_parse(json, NULL, &j), 0);
	assert_int_equal(j.id, 3);
	assert_string_equal(j.state, "Finished");
	assert_string_equal(j.health, "Complete");
	assert_true(lava_job_done(&j));
	assert_string_equal(j.device, "rtgate-qemu-01");
	assert_string_equal(j.device_type, "qemu");
	/* what rtgate put in the definition's metadata, read back */
	assert_string_equal(j.board, "rtgate-qemu-01");
	assert_string_equal(j.suite, "/opt/rtgate/suites/smoke.suite");
	assert_non_null(strstr(j.kernel, "/vmlinuz-rt"));
	assert_int_equal(strncmp(j.start_time, "2026-12-02T18:29", 16), 0);
	free(json);
}

static void test_job_incomplete(void **state)
{
	char *json = fixture("job-incomplete.json");
	struct lava_job j;

	(void)state;
	assert_int_equal(lava_job_parse(json, NULL, &j), 0);
	assert_int_equal(j.id, 2);
	assert_string_equal(j.health, "Incomplete");
	assert_true(lava_job_done(&j));
	/* LAVA 2023.01 leaves failure_comment empty: the log says why */
	assert_string_equal(j.failure, "");
	assert_string_equal(j.board, "rtgate-qemu-02");
	free(json);
}

static void test_job_running_and_not_a_job(void **state)
{
	char *json = fixture("job-complete.json"), *p;
	struct lava_job j;

	(void)state;
	p = strstr(json, "\"Finished\"");
	assert_non_null(p);
	memcpy(p, "\"Running\" ", 10);
	assert_int_equal(lava_job_parse(json, NULL, &j), 0);
	assert_string_equal(j.state, "Running");
	assert_false(lava_job_done(&j));
	assert_int_equal(lava_job_parse("{\"detail\": \"Not found.\"}",
					NULL, &j), -EINVAL);
	json[200] = '\0';	/* a truncated answer */
	assert_int_equal(lava_job_parse(json, NULL, &j), -EINVAL);
	free(json);
}

static void test_log_results(void **state)
{
	char *log = fixture("log-complete.yaml"), run[128];
	unsigned char *tgz = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(lava_log_results(log, run, sizeof(run), &tgz,
					  &len), 0);
	assert_string_equal(run, "20261202-183007-smoke");
	assert_true(len > 1000);
	assert_int_equal(tgz[0], 0x1f);	/* gzip */
	assert_int_equal(tgz[1], 0x8b);
	free(tgz);
	free(log);
}

/* One character of the archive changed: the sha256 says so. */
static void test_log_damaged(void **state)
{
	char *log = fixture("log-complete.yaml"), run[128], *p;
	unsigned char *tgz = NULL;
	size_t len = 0;

	(void)state;
	p = strstr(log, "RTGATE-RESULTS-BEGIN 2026");
	p = strstr(p, "\"msg\": \"H4sI");
	p = strstr(p + 1, "\n- {");
	p = strstr(p, "\"msg\": \"") + 8;
	*p = *p == 'A' ? 'B' : 'A';
	assert_int_equal(lava_log_results(log, run, sizeof(run), &tgz,
					  &len), -EBADMSG);
	assert_null(tgz);
	free(log);
}

/* A kernel message inside a line of it, as a serial console does. */
static void test_log_interleaved(void **state)
{
	char *log = fixture("log-complete.yaml"), run[128], *p, *q;
	unsigned char *tgz = NULL;
	size_t len = 0, n = strlen(log);

	(void)state;
	q = malloc(n + 64);
	p = strstr(log, "\"msg\": \"H4sI") + 20;
	memcpy(q, log, (size_t)(p - log));
	strcpy(q + (p - log), "[   62.3] irq 4: nobody cared");
	strcat(q, p);
	assert_int_equal(lava_log_results(q, run, sizeof(run), &tgz,
					  &len), -EBADMSG);
	free(q);
	free(log);
}

static void test_log_without_results(void **state)
{
	char *log = fixture("log-complete.yaml"), run[128], *p;
	unsigned char *tgz = NULL;
	size_t len = 0;

	(void)state;
	p = strstr(log, "\"msg\": \"RTGATE-RESULTS-END\"");
	assert_non_null(p);
	p[10] = 'X';		/* the END marker never came */
	assert_int_equal(lava_log_results(log, run, sizeof(run), &tgz,
					  &len), -ENOENT);
	free(log);
	log = fixture("log-incomplete.yaml");
	assert_int_equal(lava_log_results(log, run, sizeof(run), &tgz,
					  &len), -ENOENT);
	free(log);
}

static void test_log_reason(void **state)
{
	char *log = fixture("log-incomplete.yaml"), why[512];

	(void)state;
	assert_int_equal(lava_log_reason(log, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "Infrastructure error: Connection closed"));
	assert_non_null(strstr(why, "boot-image-retry failed"));
	free(log);
	/* a log of a complete job gives no reason to fail */
	assert_int_equal(lava_log_reason("- {\"dt\": \"x\", \"lvl\": "
			 "\"info\", \"msg\": \"ok\"}\n", why, sizeof(why)),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_complete),
		cmocka_unit_test(test_job_incomplete),
		cmocka_unit_test(test_job_running_and_not_a_job),
		cmocka_unit_test(test_log_results),
		cmocka_unit_test(test_log_damaged),
		cmocka_unit_test(test_log_interleaved),
		cmocka_unit_test(test_log_without_results),
		cmocka_unit_test(test_log_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
