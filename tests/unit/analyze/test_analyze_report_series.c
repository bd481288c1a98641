// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency over time in the analyzer (analyze/report/analyze_series.c): a
 * repetition's timeline.json read as the per-second maximum over its
 * CPUs, files that are not one refused without touching the run, the
 * spike threshold (the baseline's worst second plus the gate's floor),
 * the spikes and the note every report carries, and the plot drawn.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "log.h"
#include "analyze/input/input.h"
#include "analyze/report/report.h"

static char path[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test-an-series.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

static void put(const char *text)
{
	assert_int_equal(fsio_write_atomic(path, text, strlen(text)), 0);
}

/* Two CPUs: the run's second is the larger; null on both stays NAN. */
static void test_parse(void **state)
{
	struct an_side *s = an_side_new("idle");
	struct an_run *run = an_side_add_run(s, "rep 1", 0);

	(void)state;
	put("{\"schema\": \"rtgate-timeline/1\", \"window_samples\": 10, "
	    "\"seconds\": 4, \"threads\": ["
	    "{\"thread\": 0, \"interval_us\": 1000, \"max_us\": [20, 31, null, 5]},"
	    "{\"thread\": 1, \"interval_us\": 1000, \"max_us\": [25, 900, null]}]}");
	assert_int_equal(an_parse_series(path, run), 0);
	assert_int_equal(run->nseries, 4);
	assert_true(run->series_us[0] == 25);
	assert_true(run->series_us[1] == 900);
	assert_true(isnan(run->series_us[2]));
	assert_true(run->series_us[3] == 5);
	assert_true(an_side_has_series(s));
	an_side_free(s);
}

static void test_parse_refused(void **state)
{
	static const char *const bad[] = {
		"{\"schema\": \"rtgate-timeline/2\", \"seconds\": 1, "
		"\"threads\": [{\"max_us\": [1]}]}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 1, "
		"\"threads\": [{\"max_us\": [-3]}]}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 1, "
		"\"threads\": [{\"max_us\": [1, 2]}]}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 1, "
		"\"threads\": [{\"max_us\": [\"7\"]}]}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 1.5, "
		"\"threads\": []}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 2, "
		"\"threads\": [{\"thread\": 0}]}",
		"{\"schema\": \"rtgate-timeline/1\", \"seconds\": 2, ",
	};
	struct an_side *s = an_side_new("idle");
	struct an_run *run = an_side_add_run(s, "rep 1", 0);
	size_t i;

	(void)state;
	log_set_level(LOG_LEVEL_ERR);	/* the warnings are the point */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(bad[i]);
		assert_int_equal(an_parse_series(path, run), -EINVAL);
		assert_null(run->series_us);
		assert_int_equal(run->nseries, 0);
	}
	assert_false(an_side_has_series(s));
	an_side_free(s);
}

static void series(struct an_run *run, const double *v, size_t n)
{
	run->series_us = malloc(n * sizeof(*v));
	assert_non_null(run->series_us);
	memcpy(run->series_us, v, n * sizeof(*v));
	run->nseries = n;
}

/*
 * Baseline seconds up to 30 us; a floor of 5 us / 10 %: threshold 35.
 * The candidate's 36 and 200 us seconds are spikes, 35 is not.
 */
static void test_spikes(void **state)
{
	static const double b1[] = { 10, 12, 11 }, b2[] = { 9, 30, 10 };
	static const double c1[] = { 20, 36, 35 }, c2[] = { 20, NAN, 200 };
	struct an_side *base = an_side_new("idle");
	struct an_side *cand = an_side_new("inject"), *empty;
	struct an_cmp c = { .base = base, .cand = cand };
	struct an_spike sp[4];
	struct an_plots plots;
	double ceiling, thr;
	size_t secs;
	int ret;

	(void)state;
	an_gate_default(&c.res.gate);
	c.res.gate.min_increase_us = 5;
	c.res.gate.min_increase_pct = 10;
	series(an_side_add_run(base, "rep 1", 0), b1, 3);
	series(an_side_add_run(base, "rep 2", 0), b2, 3);
	an_side_add_run(cand, "rep 1", 0)->rep = 1;
	series(&cand->runs[0], c1, 3);
	an_side_add_run(cand, "rep 2", 0)->rep = 2;
	series(&cand->runs[1], c2, 3);
	thr = an_series_threshold(base, &c.res.gate, &ceiling);
	assert_true(ceiling == 30);
	assert_true(thr == 35);
	assert_int_equal(an_series_spikes(cand, thr, sp, 4, &secs), 2);
	assert_int_equal(secs, 6);
	assert_int_equal(sp[0].rep, 1);
	assert_int_equal(sp[0].second, 1);
	assert_true(sp[0].us == 36);
	assert_int_equal(sp[1].rep, 2);
	assert_int_equal(sp[1].second, 2);
	/* Room for one: the count is still all of them. */
	assert_int_equal(an_series_spikes(cand, thr, sp, 1, NULL), 2);
	/* A larger floor swallows the 36 us second. */
	c.res.gate.min_increase_us = 10;
	assert_int_equal(an_series_spikes(cand, an_series_threshold(base,
			 &c.res.gate, NULL), NULL, 0, NULL), 1);
	c.res.gate.min_increase_us = 5;
	/* No baseline series: no threshold, no spikes. */
	empty = an_side_new("old");
	an_side_add_run(empty, "rep 1", 0);
	thr = an_series_threshold(empty, &c.res.gate, &ceiling);
	assert_true(isnan(thr) && isnan(ceiling));
	assert_int_equal(an_series_spikes(cand, thr, NULL, 0, NULL), 0);
	an_side_free(empty);
	an_series_note(&c);
	assert_int_equal(c.res.nnotes, 1);
	assert_string_equal(c.res.notes[0], "over time: 2 of 6 seconds of "
			    "inject beyond idle's worst second (30 us) by more "
			    "than the floor: rep 1 at 1 s (36 us), rep 2 at "
			    "2 s (200 us)");
	/* The plot, when gnuplot is here: wide, the threshold named. */
	ret = an_plot_cmp(&c, &plots);
	if (ret == -ENOENT) {
		skip();
	} else {
		assert_int_equal(ret, 0);
		assert_int_equal(plots.n, 1);
		assert_true(plots.wide[0]);
		assert_non_null(strstr(plots.title[0], "Latency over time"));
		assert_non_null(strstr(plots.svg[0], "spike threshold 35 us"));
		assert_non_null(strstr(plots.svg[0], "2 spike seconds"));
		an_plots_release(&plots);
	}
	an_side_free(base);
	an_side_free(cand);
}

/* Sides without a series: no note, no plot. */
static void test_none(void **state)
{
	struct an_side *base = an_side_new("idle");
	struct an_side *cand = an_side_new("inject");
	struct an_cmp c = { .base = base, .cand = cand };
	struct an_plots plots;

	(void)state;
	an_gate_default(&c.res.gate);
	an_side_add_run(base, "rep 1", 0);
	an_side_add_run(cand, "rep 1", 0);
	an_series_note(&c);
	assert_int_equal(c.res.nnotes, 0);
	assert_int_equal(an_plot_cmp(&c, &plots), 0);
	assert_int_equal(plots.n, 0);
	an_side_free(base);
	an_side_free(cand);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_refused, setup,
						teardown),
		cmocka_unit_test(test_spikes),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
