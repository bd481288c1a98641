// SPDX-License-Identifier: GPL-2.0-only
/*
 * extend-sched's lock-thread pause (workloads/extend-sched/extend_sched.h):
 * --sleep-us plus --sleep-step-us per CPU number; 0 means no sleep at all,
 * the lock thread always runnable (what one CPU on PREEMPT_RT needs for
 * the tick's lazy reschedule to find it in a critical section).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/extend-sched/extend_sched.h"

#define US 1000ULL

static void test_pause_steps_per_cpu(void **state)
{
	struct ext_params p = { .sleep_ns = 100 * US,
				.sleep_step_ns = 27 * US };

	(void)state;
	assert_int_equal(ext_pause_ns(&p, 0), 100 * US);
	assert_int_equal(ext_pause_ns(&p, 3), 181 * US);
}

static void test_zero_is_no_pause(void **state)
{
	struct ext_params p = { .sleep_ns = 0, .sleep_step_ns = 0 };

	(void)state;
	assert_int_equal(ext_pause_ns(&p, 0), 0);
	assert_int_equal(ext_pause_ns(&p, 7), 0);
	/* a zero sleep with a step: only CPU 0 never sleeps */
	p.sleep_step_ns = 5 * US;
	assert_int_equal(ext_pause_ns(&p, 0), 0);
	assert_int_equal(ext_pause_ns(&p, 2), 10 * US);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause_steps_per_cpu),
		cmocka_unit_test(test_zero_is_no_pause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
