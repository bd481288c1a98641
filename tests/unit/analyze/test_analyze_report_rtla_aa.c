// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla's timerlat auto-analysis, as recorded in the QEMU lab on Debian's
 * 6.1-rt with the 7.3 tree's rtla (tests/fixtures/analyze/rtla-aa/
 * README.md), and the same texts cut or damaged, which the parser must
 * refuse.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/report/report.h"
#include "fsio.h"

#define FIX "tests/fixtures/analyze/rtla-aa/"

/*
 * noinline: inlined into a test, GCC 12 at -O2 takes the pointer it returns
 * for one to the test's own local and fails -Wdangling-pointer (a false
 * positive; the sanitizer build never saw it).
 */
static __attribute__((noinline)) char *load(const char *path)
{
	char *text = NULL;
	size_t len;

	assert_int_equal(fsio_read_all(path, &text, &len), 0);
	return text;
}

static void near(double a, double b)
{
	assert_true(fabs(a - b) < 0.005);
}

/* Two CPUs' IRQ latencies over the threshold, both woken from idle. */
static void test_irq_hits(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-idle-irq.txt");
	struct an_aa aa;

	(void)state;
	assert_int_equal(an_aa_parse("idle-irq", text, &aa), 0);
	assert_true(aa.stopped);
	assert_int_equal(aa.nr_cpus, 2);
	assert_int_equal(aa.cpus[0].cpu, 0);
	assert_true(aa.cpus[0].irq);
	near(aa.cpus[0].total_us, 71505.77);
	near(aa.cpus[0].irq_latency_us, 71505.77);
	near(aa.cpus[0].irq_delay_us, 372.95);
	near(aa.cpus[0].irq_delay_pct, 0.52);
	assert_string_equal(aa.cpus[0].blocking, "swapper/0:0");
	near(aa.cpus[0].blocking_us, 0);	/* an IRQ hit has no time */
	assert_int_equal(aa.cpus[1].cpu, 1);
	near(aa.cpus[1].total_us, 43585.65);
	assert_string_equal(aa.cpus[1].blocking, "swapper/1:0");
	near(aa.idle_max_us, 71505.77);
	assert_int_equal(aa.idle_cpu, 0);
	near(aa.max_latency_us, -1);
	free(text);
}

/* A thread hit: its parts, and the words that name the largest first. */
static void test_thread_hit(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-inject-thread.txt");
	struct an_aa aa;
	char d[512];

	(void)state;
	assert_int_equal(an_aa_parse("inject-thread", text, &aa), 0);
	assert_int_equal(aa.nr_cpus, 1);
	assert_false(aa.cpus[0].irq);
	near(aa.cpus[0].total_us, 47360.38);
	near(aa.cpus[0].irq_latency_us, 2842.73);
	near(aa.cpus[0].irq_delay_us, 2823.51);
	near(aa.cpus[0].irq_duration_us, 44357.75);
	near(aa.cpus[0].blocking_us, 176.29);
	assert_string_equal(aa.cpus[0].blocking, "swapper/0:0");
	near(aa.idle_max_us, 14801.07);
	an_aa_describe(&aa.cpus[0], d, sizeof(d));
	assert_string_equal(d, "CPU 0, thread latency 47360.38 us: timerlat "
			    "IRQ duration 44357.75 us (93.7 %), IRQ handler "
			    "delay 2823.51 us (6.0 %), blocking thread "
			    "swapper/0:0 176.29 us (0.4 %)");
	free(text);
}

/* Stopped, but no CPU's analysis: not a hit, and not an error. */
static void test_stopped_without_cpu(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-stopped-no-cpu.txt");
	struct an_aa aa;

	(void)state;
	assert_int_equal(an_aa_parse("stopped", text, &aa), 0);
	assert_true(aa.stopped);
	assert_int_equal(aa.nr_cpus, 0);
	near(aa.idle_max_us, 14888.05);
	assert_int_equal(aa.idle_cpu, 1);
	free(text);
}

/* Cut before its total line: refused, not half a breakdown. */
static void test_cut_refused(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-inject-thread.txt");
	char *cut = strstr(text, "-----");
	struct an_aa aa;

	(void)state;
	assert_non_null(cut);
	*cut = '\0';
	assert_int_equal(an_aa_parse("cut", text, &aa), -EINVAL);
	free(text);
}

/* A value that does not read is refused with its line. */
static void test_bad_number_refused(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-inject-thread.txt");
	char *v = strstr(text, "2823.51");
	struct an_aa aa;

	(void)state;
	assert_non_null(v);
	memcpy(v, "x823.5", 6);
	assert_int_equal(an_aa_parse("bad", text, &aa), -EINVAL);
	free(text);
}

/* A second block before the first one ended: refused. */
static void test_nested_block_refused(void **state)
{
	char *text = load(FIX "debian-6.1-rt-tcg-idle-irq.txt");
	char *total = strstr(text, "     IRQ latency:");
	struct an_aa aa;

	(void)state;
	assert_non_null(total);
	memcpy(total, "     IRQ ", 9);	/* no longer a total line */
	memcpy(total + 9, "XXXXXXXX", 8);
	assert_int_equal(an_aa_parse("nested", text, &aa), -EINVAL);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_hits),
		cmocka_unit_test(test_thread_hit),
		cmocka_unit_test(test_stopped_without_cpu),
		cmocka_unit_test(test_cut_refused),
		cmocka_unit_test(test_bad_number_refused),
		cmocka_unit_test(test_nested_block_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
