// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for analyze/report/report.h: a histogram plot's x axis
 * reaches both measured maxima, also when they lie far beyond the
 * histogram's limit (the markers were drawn outside the frame).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analyze/report/report.h"

/* A CPU whose samples sit at 20..29 us, with its max elsewhere. */
static void cpu(struct an_cpu *c, struct an_bucket *b, long max,
		uint32_t limit)
{
	size_t i;

	for (i = 0; i < 10; i++)
		b[i] = (struct an_bucket){ .us = 20 + i, .n = 1000 };
	*c = (struct an_cpu){ .cycles = 10000, .max_us = max, .limit = limit,
			      .nbuckets = 10, .b = b, .min_us = 20 };
}

static void maxima_inside(void **state)
{
	struct an_bucket hb[10], hc[10];
	struct an_cpu b, c;
	long lo, hi;
	bool log_x;

	(void)state;
	/* The fixture's case: max 12952 us, histogram of 2000 us. */
	cpu(&b, hb, 12952, 2000);
	cpu(&c, hc, 3204, 2000);
	an_plot_hist_xrange(&b, &c, &lo, &hi, &log_x);
	assert_true(log_x);
	assert_true(lo <= 20 && hi > 12952);
	an_plot_hist_xrange(&c, &b, &lo, &hi, &log_x);
	assert_true(hi > 12952);
	/* Maxima near the body: a linear axis that still reaches them. */
	cpu(&b, hb, 45, 2000);
	cpu(&c, hc, 61, 2000);
	an_plot_hist_xrange(&b, &c, &lo, &hi, &log_x);
	assert_false(log_x);
	assert_true(lo == 0 && hi > 61);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maxima_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
