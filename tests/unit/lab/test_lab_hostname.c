// SPDX-License-Identifier: GPL-2.0-only
/*
 * The name a lab guest gives itself (lab_guest_hostname): the machine
 * that runs the emulator, then "-lab", within a hostname's 64 bytes;
 * never "(none)", which every unnamed guest on every machine would share.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lab/lab.h"

static void test_the_machine_then_lab(void **state)
{
	char buf[80];

	(void)state;
	lab_guest_hostname("bench-nuc-1", buf, sizeof(buf));
	assert_string_equal(buf, "bench-nuc-1-lab");
}

static void test_unnamed_machine(void **state)
{
	char buf[80];

	(void)state;
	lab_guest_hostname("", buf, sizeof(buf));
	assert_string_equal(buf, "lab");
	lab_guest_hostname("(none)", buf, sizeof(buf));
	assert_string_equal(buf, "lab");
	lab_guest_hostname(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "lab");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_machine_then_lab),
		cmocka_unit_test(test_unnamed_machine),
		cmocka_unit_test(test_a_long_name_is_cut_before_the_suffix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
