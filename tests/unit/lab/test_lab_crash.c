// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a guest crash from the lab's console: a real one (Debian's
 * 6.1-rt panicked with sysrq-c during a repetition, the runner's terminal
 * progress on the same line; tests/fixtures/lab/README.md), an oops the
 * kernel survived, a hang, and a console without a crash.
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
#include "lab/lab_priv.h"

#define KERNEL "debian-6.1.0-57-rt-amd64"
#define RUN "tests/fixtures/lab/timerlat-7.2-rt"

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/rtgate-crash-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_real_panic(void **state)
{
	struct lab_crash c;

	(void)state;
	assert_true(lab_crash_read("tests/fixtures/lab/crash-console.log",
				   false, &c));
	assert_string_equal(c.kind, "panic");
	assert_string_equal(c.scenario, "crash");
	assert_int_equal(c.rep, 1);
	assert_int_equal(c.reps, 2);
	assert_false(c.step_ended);
	assert_string_equal(c.step, "[2/4] crash rep 1/2");
	assert_non_null(strstr(c.headline, "Kernel panic - not syncing: "
			       "sysrq triggered crash"));
	assert_non_null(c.oops);
	assert_non_null(strstr(c.oops, "sysrq_handle_crash"));
	lab_crash_free(&c);
}

/* Plain progress (not a terminal); an oops, then the run went on. */
static void test_oops_after_a_step(void **state)
{
	struct lab_crash c;
	char *p = write_tmp(
		"12:00:01 [1/4] no-hrtick rep 1/2: start\n"
		"12:00:11 [1/4] no-hrtick rep 1/2: ok\n"
		"12:00:12 [2/4] hrtick rep 1/2: start\n"
		"12:00:22 [2/4] hrtick rep 1/2: ok\n"
		"[   40.1] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n"
		"[   40.1] RIP: 0010:__schedule+0x86/0x8c0\n"
		"[   40.2] Kernel panic - not syncing: Fatal exception in "
		"interrupt\n");

	(void)state;
	assert_true(lab_crash_read(p, false, &c));
	assert_string_equal(c.kind, "panic");
	assert_string_equal(c.scenario, "hrtick");
	assert_true(c.step_ended);
	assert_string_equal(c.headline, "Oops: int3: 0000 [#1] PREEMPT SMP "
			    "NOPTI");
	assert_non_null(strstr(c.oops, "__schedule+0x86"));
	assert_non_null(strstr(c.oops, "Fatal exception in interrupt"));
	lab_crash_free(&c);
	unlink(p);
}

static void test_hang_and_clean(void **state)
{
	struct lab_crash c;
	char *p = write_tmp("\r\033[K[3/6] idle rep 2/3  4s left\r\033[K"
			    "[3/6] idle rep 2/3  3s left");

	(void)state;
	assert_true(lab_crash_read(p, true, &c));
	assert_string_equal(c.kind, "timeout");
	assert_non_null(strstr(c.headline, "time limit ran out"));
	lab_crash_last_sign(&c, 7);
	assert_non_null(strstr(c.headline, "its last output (console or "
			       "share) came 7 s before"));
	assert_string_equal(c.scenario, "idle");
	assert_int_equal(c.rep, 2);
	assert_false(c.step_ended);
	lab_crash_free(&c);
	unlink(p);
	p = write_tmp("12:00:01 [1/1] idle rep 1/1: start\n"
		      "12:00:11 [1/1] idle rep 1/1: ok\n"
		      "rtgate-lab: done: exit 0\n");
	assert_false(lab_crash_read(p, false, &c));
	unlink(p);
}

/*
 * junit.xml against both schemas the default tier holds every JUnit file
 * to (tests/integration/export_junit.sh): Apache Ant's and rtgate's own.
 */
static void validate(const char *dir)
{
	static const char *const xsd[] = { "tests/schemas/junit-ant.xsd",
					   "tests/schemas/junit-strict.xsd" };
	char cmd[512];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout --schema %s "
			 "%s/junit.xml", xsd[i], dir);
		assert_int_equal(system(cmd), 0);
	}
}

static char *slurp(const char *dir, const char *name)
{
	static char buf[1 << 16];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void remove_dir(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * The crash's testcase, the JUnit lab_crash.sh's boot gets (a crash after
 * the reports were rendered: added to the run's junit.xml; a crash with
 * no report: a junit.xml of its own), valid without booting anything.
 */
static void test_junit_valid(void **state)
{
	char own[] = "/tmp/rtgate-crash-junit.XXXXXX";
	char run[] = "/tmp/rtgate-crash-junit.XXXXXX";
	struct an_params ap;
	struct lab_crash c;
	char *x;

	(void)state;
	if (system("command -v xmllint >/dev/null")) {
		skip();
		return;
	}
	assert_true(lab_crash_read("tests/fixtures/lab/crash-console.log",
				   false, &c));
	assert_non_null(mkdtemp(own));
	assert_int_equal(lab_crash_write(&c, own, KERNEL), 0);
	validate(own);
	x = slurp(own, "junit.xml");
	assert_non_null(strstr(x, "name=\"guest crash: crash rep 1\""));
	assert_non_null(strstr(x, "tests=\"1\" failures=\"0\" errors=\"1\""));
	remove_dir(own);

	assert_non_null(mkdtemp(run));
	an_params_init(&ap);
	ap.quiet = true;
	ap.out_dir = run;
	ap.formats = AN_FMT_JUNIT;
	assert_true(an_report_run(RUN, &ap) >= 0);
	x = slurp(run, "junit.xml");
	assert_non_null(strstr(x, "tests=\"2\" failures=\"0\" errors=\"2\""));
	assert_int_equal(lab_crash_write(&c, run, KERNEL), 0);
	validate(run);
	x = slurp(run, "junit.xml");
	/* One more test, an error; the run's own testcases kept. */
	assert_non_null(strstr(x, "tests=\"3\" failures=\"0\" errors=\"3\""));
	assert_int_equal(count(x, "<testcase "), 3);
	assert_non_null(strstr(x, "name=\"guest crash: crash rep 1\""));
	remove_dir(run);
	lab_crash_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_panic),
		cmocka_unit_test(test_oops_after_a_step),
		cmocka_unit_test(test_hang_and_clean),
		cmocka_unit_test(test_junit_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
