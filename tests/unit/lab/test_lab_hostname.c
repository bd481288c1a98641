// SPDX-License-Identifier: GPL-2.0-only
/*
 * The name a lab guest gives itself (lab_guest_hostname): the machine
 * that runs the emulator, then "-lab", within a hostname's 64 bytes;
 * never "(none)", which every unnamed guest on every machine would share,
 * and never a byte a report, a JUnit file or a shell would read as more
 * than a name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lab/lab.h"

/* The name a guest of machine @host gives itself is @want. */
static void named(const char *host, const char *want)
{
	char buf[80];

	lab_guest_hostname(host, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_the_machine_then_lab(void **state)
{
	(void)state;
	named("bench-nuc-1", "bench-nuc-1-lab");
}

static void test_unnamed_machine(void **state)
{
	(void)state;
	named("", "lab");
	named("(none)", "lab");
	named(NULL, "lab");
}

static void test_a_long_name_is_cut_before_the_suffix(void **state)
{
	char host[101], buf[80];

	(void)state;
	memset(host, 'a', 100);
	host[100] = '\0';
	lab_guest_hostname(host, buf, sizeof(buf));
	assert_int_equal(strlen(buf), 64);
	assert_string_equal(buf + 60, "-lab");
	assert_int_equal(strspn(buf, "a"), 60);
}

/* A machine's name is data in every output: only "._-", letters, digits. */
static void test_a_hostile_name_stays_data(void **state)
{
	(void)state;
	named("a\"b;$(reboot)\n\xff", "a-b---reboot----lab");
	named("bench nuc.lab", "bench-nuc.lab-lab");
	/* a first byte that is no letter or digit: no name of its own */
	named("-x", "lab");
	named("\xc3\xa9t\xc3\xa9", "lab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_machine_then_lab),
		cmocka_unit_test(test_unnamed_machine),
		cmocka_unit_test(test_a_long_name_is_cut_before_the_suffix),
		cmocka_unit_test(test_a_hostile_name_stays_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
