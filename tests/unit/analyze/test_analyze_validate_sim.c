// SPDX-License-Identifier: GPL-2.0-only
/*
 * Calibration: thousands of A/A pairs drawn from heavy-tailed latency
 * models with run-to-run variation and host-noise spikes must not be
 * called a change more often than alpha; injected shifts must be found.
 * docs/statistics.md has the full table (bench/analyze_calibrate).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/validate/validate.h"

static double rate(const struct an_sim_params *p, size_t pairs,
		   uint64_t seed, bool changes)
{
	size_t count[AN_REGRESSION + 1];
	struct an_gate gate;

	an_gate_default(&gate);
	assert_int_equal(an_sim_run(p, &gate, pairs, seed, count), 0);
	if (changes)
		return (double)(count[AN_REGRESSION] +
				count[AN_IMPROVEMENT]) / pairs;
	return (double)count[AN_REGRESSION] / pairs;
}

static void check_fpr(enum an_sim_model m, size_t reps, size_t cpus,
		      uint64_t cycles, bool summary, size_t pairs)
{
	struct an_sim_params p = {
		.model = m, .reps = reps, .cpus = cpus, .cycles = cycles,
		.summary_only = summary,
	};
	double fpr = rate(&p, pairs, 42 + reps + cpus, true);

	printf("# %s %zu+%zu x %zu%s: %zu A/A pairs, false changes %.2f%%\n",
	       m == AN_SIM_RT ? "RT" : "VM", reps, reps, cpus,
	       summary ? " T: lines" : "", pairs, 100 * fpr);
	assert_true(fpr <= 0.05);
}

static void test_false_positives(void **state)
{
	(void)state;
	check_fpr(AN_SIM_RT, 3, 2, 20000, false, 2000);
	check_fpr(AN_SIM_VM, 3, 2, 20000, false, 1000);
	check_fpr(AN_SIM_VM, 1, 2, 60000, false, 1000);
	check_fpr(AN_SIM_RT, 1, 7, 5000, true, 1000);
}

static void test_power(void **state)
{
	struct an_sim_params p = {
		.model = AN_SIM_RT, .how = AN_SHIFT_TAIL, .reps = 3,
		.cpus = 2, .cycles = 20000, .shift_us = 30,
	};
	double power = rate(&p, 200, 7, false);

	(void)state;
	printf("# RT 3+3 x 2, tail +30 us: %.1f%% REGRESSION\n", 100 * power);
	assert_true(power >= 0.85);
	p = (struct an_sim_params){
		.model = AN_SIM_VM, .how = AN_SHIFT_ALL, .reps = 5,
		.cpus = 4, .cycles = 20000, .shift_us = 30,
	};
	power = rate(&p, 100, 8, false);
	printf("# VM 5+5 x 4, every sample +30 us: %.1f%% REGRESSION\n",
	       100 * power);
	assert_true(power >= 0.9);
	/* Below the practical floor: not a regression. */
	p = (struct an_sim_params){
		.model = AN_SIM_RT, .how = AN_SHIFT_ALL, .reps = 3,
		.cpus = 2, .cycles = 20000, .shift_us = 2,
	};
	power = rate(&p, 200, 9, false);
	printf("# RT 3+3 x 2, +2 us (floor 5): %.1f%% REGRESSION\n",
	       100 * power);
	assert_true(power <= 0.05);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_false_positives),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
