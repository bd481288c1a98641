// SPDX-License-Identifier: GPL-2.0-only
/*
 * The quiet lab's guest command line (lab_clock_guest_append): under
 * icount a periodic tick with the CPUs' ticks apart and no lockup
 * detectors, unless the user's --append sets a word's key itself; on the
 * host's clock only the user's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lab/lab.h"

static void check(const char *clock, const char *user, const char *want)
{
	struct lab_clock c;
	char buf[256];

	assert_int_equal(lab_clock_parse(clock, &c), 0);
	lab_clock_guest_append(&c, user, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_icount_adds_the_quiet_words(void **state)
{
	(void)state;
	check("icount:3", NULL, "nohz=off skew_tick=1 nowatchdog");
	check("icount", "", "nohz=off skew_tick=1 nowatchdog");
	check("icount:3", "rtgate_inject.width_us=30",
	      "nohz=off skew_tick=1 nowatchdog rtgate_inject.width_us=30");
}

static void test_user_words_win(void **state)
{
	(void)state;
	check("icount:3", "nohz=on", "skew_tick=1 nowatchdog nohz=on");
	check("icount:3", "a skew_tick=0 b",
	      "nohz=off nowatchdog a skew_tick=0 b");
	/* a word that only starts with the key is not the key */
	check("icount:3", "nohz_full=1",
	      "nohz=off skew_tick=1 nowatchdog nohz_full=1");
}

static void test_user_keeps_the_lockup_detectors(void **state)
{
	(void)state;
	/* the detector with the kernel's own period, or another */
	check("icount:3", "watchdog_thresh=10",
	      "nohz=off skew_tick=1 watchdog_thresh=10");
	check("icount:3", "nmi_watchdog=1",
	      "nohz=off skew_tick=1 nmi_watchdog=1");
	check("icount:3", "nosoftlockup", "nohz=off skew_tick=1 nosoftlockup");
	check("icount:3", "nowatchdog", "nohz=off skew_tick=1 nowatchdog");
}

static void test_host_clock_keeps_the_user_line(void **state)
{
	(void)state;
	check("host", NULL, "");
	check("host", "quiet", "quiet");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icount_adds_the_quiet_words),
		cmocka_unit_test(test_user_words_win),
		cmocka_unit_test(test_user_keeps_the_lockup_detectors),
		cmocka_unit_test(test_host_clock_keeps_the_user_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
