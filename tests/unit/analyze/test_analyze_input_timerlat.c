// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla timerlat hist's output, as recorded in the QEMU lab on Debian's
 * 6.1-rt (tests/fixtures/analyze/timerlat/README.md), and the texts the
 * parser must refuse.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"

#define FIX "tests/fixtures/analyze/timerlat/"

static uint64_t hist_sum(const struct an_cpu *c)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < c->nbuckets; i++)
		n += c->b[i].n;
	return n;
}

/* "Thr" (thread latency) or "IRQ" columns of rtla timerlat hist's text. */
static struct an_run *parse(struct an_side *s, const char *path,
			    const char *column, uint32_t limit)
{
	struct an_run *run = an_side_add_run(s, "rep 1", 0);

	assert_non_null(run);
	assert_int_equal(an_parse_rtla_file(path, "timerlat", column, limit,
					    run), 0);
	return run;
}

/* Thread and IRQ columns are two runs; over: is what -E 2000 cut. */
static void test_both_latencies(void **state)
{
	struct an_side *s = an_side_new("t");
	struct an_run *thr, *irq;

	(void)state;
	thr = parse(s, FIX "debian-6.1-rt-tcg-3s.txt", "Thr",
		    2000);
	irq = parse(s, FIX "debian-6.1-rt-tcg-3s.txt", "IRQ", 2000);
	thr = &s->runs[0];
	assert_int_equal(thr->ncpus, 2);
	assert_int_equal(irq->ncpus, 2);
	/* Thr-000: count 2909, over 12, min 48, avg 212, max 3839. */
	assert_int_equal(thr->cpus[0].cpu, 0);
	assert_int_equal(thr->cpus[0].cycles, 2909);
	assert_int_equal(thr->cpus[0].overflows, 12);
	assert_int_equal(hist_sum(&thr->cpus[0]), 2909 - 12);
	assert_int_equal(thr->cpus[0].min_us, 48);
	assert_int_equal(thr->cpus[0].max_us, 3839);
	assert_int_equal(thr->cpus[0].limit, 2000);
	/* IRQ-001: count 2888, over 11, min 7, max 4470. */
	assert_int_equal(irq->cpus[1].cpu, 1);
	assert_int_equal(irq->cpus[1].cycles, 2888);
	assert_int_equal(irq->cpus[1].overflows, 11);
	assert_int_equal(irq->cpus[1].min_us, 7);
	assert_int_equal(irq->cpus[1].max_us, 4470);
	/* The thread is woken by the IRQ: never earlier than it. */
	assert_true(thr->cpus[1].min_us >= irq->cpus[1].min_us);
	an_side_free(s);
}

/* The positive control's run: a 100 ms histogram, nothing over. */
static void test_inject_run(void **state)
{
	struct an_side *s = an_side_new("t");
	struct an_run *thr;

	(void)state;
	thr = parse(s, FIX "debian-6.1-rt-tcg-inject.txt", "Thr",
		    100000);
	assert_int_equal(thr->cpus[1].cycles, 2019);
	assert_int_equal(thr->cpus[1].overflows, 0);
	assert_int_equal(hist_sum(&thr->cpus[1]), 2019);
	assert_int_equal(thr->cpus[1].max_us, 21986);
	/* The highest non-empty bucket is the maximum. */
	assert_int_equal(thr->cpus[1].b[thr->cpus[1].nbuckets - 1].us, 21986);
	an_side_free(s);
}

static int parse_text(const char *text, uint32_t limit)
{
	struct an_side *s = an_side_new("t");
	struct an_run *run = an_side_add_run(s, "rep 1", 0);
	int ret;

	ret = an_parse_rtla("bad.txt", text, "timerlat", "Thr", limit, run);
	an_side_free(s);
	return ret;
}

#define HEAD "# RTLA timerlat histogram\n# Time unit is microseconds (us)\n" \
	     "Index   IRQ-000   Thr-000\n"
#define SUMMARY "over: 0 0\ncount: 3 3\nmin: 1 2\navg: 1 2\nmax: 2 3\n"

static void test_bad_inputs(void **state)
{
	(void)state;
	/* The good text, to show the bad ones fail for their own reason. */
	assert_int_equal(parse_text(HEAD "1 2 0\n2 1 1\n3 0 2\n" SUMMARY, 10),
			 0);
	assert_int_equal(parse_text("T: 0 ( 1) P:95 I:1000 C: 5 Min: 1 Act: 1 "
				    "Avg: 1 Max: 2\n", 10), -EINVAL);
	/* Truncated: rtla killed before its summary. */
	assert_int_equal(parse_text(HEAD "1 2 0\n2 1 1\n", 10), -EINVAL);
	/* Totals that disagree with count:. */
	assert_int_equal(parse_text(HEAD "1 2 0\n2 1 1\n3 0 1\n" SUMMARY, 10),
			 -EINVAL);
	/* A bucket beyond -E. */
	assert_int_equal(parse_text(HEAD "1 2 0\n2 1 1\n30 0 2\n" SUMMARY, 10),
			 -EINVAL);
	/* A short row, a non-number, nanoseconds. */
	assert_int_equal(parse_text(HEAD "1 2\n" SUMMARY, 10), -EINVAL);
	assert_int_equal(parse_text(HEAD "1 2 x\n" SUMMARY, 10), -EINVAL);
	assert_int_equal(parse_text("# RTLA timerlat histogram\n# Time unit "
				    "is nanoseconds (ns)\nIndex IRQ-000 "
				    "Thr-000\n" SUMMARY, 10), -EINVAL);
	/* No column of the wanted kind (--no-thread). */
	assert_int_equal(parse_text("# RTLA timerlat histogram\nIndex "
				    "IRQ-000\nover: 0\ncount: 1\nmin: 1\n"
				    "avg: 1\nmax: 1\n1 1\n", 10), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_latencies),
		cmocka_unit_test(test_inject_run),
		cmocka_unit_test(test_bad_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
