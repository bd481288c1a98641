// SPDX-License-Identifier: GPL-2.0-only
/*
 * cyclictest's output forms, read from files recorded on this machine
 * (tests/fixtures/analyze/README.md), and the inputs a parser must refuse.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "ctline.h"

#define FIX "tests/fixtures/analyze/"

static struct an_side *read_side(const char *path)
{
	struct an_side *s = NULL;

	assert_int_equal(an_input_read(path, &s), 0);
	assert_non_null(s);
	return s;
}

static uint64_t hist_sum(const struct an_cpu *c)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < c->nbuckets; i++)
		n += c->b[i].n;
	return n;
}

/* --json: stray colons, sparse buckets, -h from the command line. */
static void test_json(void **state)
{
	struct an_side *s = read_side(FIX "formats/ct240-h25.json");
	const struct an_cpu *c;

	(void)state;
	assert_int_equal(s->nruns, 1);
	assert_int_equal(s->runs[0].ncpus, 2);
	c = &s->runs[0].cpus[0];
	assert_int_equal(c->limit, 25);
	assert_int_equal(c->cycles, 3710);
	assert_int_equal(hist_sum(c), 3408);
	assert_int_equal(c->overflows, 3710 - 3408);
	assert_int_equal(c->max_us, 5660);
	assert_int_equal(c->interval_us, 1000);
	assert_int_equal(c->prio, 95);
	assert_int_equal(c->cpu, 0);
	c = &s->runs[0].cpus[1];
	assert_int_equal(c->interval_us, 1500);
	assert_int_equal(c->overflows, 3992 - 3655);
	an_side_free(s);
}

/* The same run's --histfile agrees with its JSON bucket by bucket. */
static void test_histfile_matches_json(void **state)
{
	struct an_side *j = read_side(FIX "formats/ct240-h25.json");
	struct an_side *h = read_side(FIX "formats/ct240-h25.hist");
	size_t t, k;

	(void)state;
	assert_int_equal(h->runs[0].ncpus, 2);
	for (t = 0; t < 2; t++) {
		const struct an_cpu *a = &j->runs[0].cpus[t];
		const struct an_cpu *b = &h->runs[0].cpus[t];

		assert_int_equal(a->cycles, b->cycles);
		assert_int_equal(a->overflows, b->overflows);
		assert_int_equal(a->max_us, b->max_us);
		assert_int_equal(a->min_us, b->min_us);
		assert_int_equal(a->limit, b->limit);
		assert_int_equal(a->nbuckets, b->nbuckets);
		for (k = 0; k < a->nbuckets; k++) {
			assert_int_equal(a->b[k].us, b->b[k].us);
			assert_int_equal(a->b[k].n, b->b[k].n);
		}
	}
	an_side_free(j);
	an_side_free(h);
}

/* -H (and older cyclictest): a last column with every row's total. */
static void test_histfile_totals_column(void **state)
{
	struct an_side *h = read_side(FIX "formats/ct240-H40.hist");
	const struct an_cpu *c;

	(void)state;
	assert_int_equal(h->runs[0].ncpus, 2);
	c = &h->runs[0].cpus[0];
	assert_int_equal(c->limit, 40);
	assert_int_equal(hist_sum(c), 2845);
	assert_int_equal(c->overflows, 151);
	assert_int_equal(c->cycles, 2845 + 151);
	assert_int_equal(c->max_us, 2875);
	c = &h->runs[0].cpus[1];
	assert_int_equal(hist_sum(c), 613);
	assert_int_equal(c->max_us, 312);
	an_side_free(h);
}

/* Live output with cursor escapes: the last block is the final state. */
static void test_tlines(void **state)
{
	struct an_side *s = read_side(FIX "formats/ct240-live.txt");
	struct an_side *p = read_side(FIX "seed/load-extend-sched-5us.txt");
	struct an_side *q;
	struct ctline t;
	size_t i;

	(void)state;
	q = read_side(FIX "seed/load-extend-sched-5us-quoted.txt");
	assert_int_equal(s->runs[0].ncpus, 2);
	assert_int_equal(s->runs[0].cpus[0].cycles, 1992);
	assert_int_equal(s->runs[0].cpus[1].max_us, 2351);
	assert_null(s->runs[0].cpus[0].b);
	assert_int_equal(p->runs[0].ncpus, 7);
	assert_int_equal(p->runs[0].cpus[0].tid, 104507);
	assert_int_equal(p->runs[0].cpus[6].interval_us, 4000);
	for (i = 0; i < 7; i++)
		assert_int_equal(p->runs[0].cpus[i].max_us,
				 q->runs[0].cpus[i].max_us);
	/* A thread that has not run yet, as in the first live lines. */
	assert_true(ctline_parse("T: 1 (    0) P:95 I:1500 C:      0 "
				 "Min:1000000 Act:    0 Avg:    0 "
				 "Max:       0", &t));
	an_side_free(s);
	an_side_free(p);
	an_side_free(q);
}

/* A directory is one repetition per file; N.json shadows N.hist. */
static void test_directory(void **state)
{
	struct an_side *s = read_side(FIX "formats");

	(void)state;
	/* ct240-H40.hist, ct240-h25.json (not .hist), ct240-live.txt */
	assert_int_equal(s->nruns, 3);
	an_side_free(s);
}

static void expect_bad(const char *path)
{
	struct an_side *s = NULL;

	assert_int_equal(an_input_read(path, &s), -EINVAL);
	assert_null(s);
}

static void test_bad_inputs(void **state)
{
	static const char *const bad[] = {
		"truncated.json", "nan-avg.json", "histogram-over-cycles.json",
		"bad-bucket-key.json", "truncated.hist", "missing-column.hist",
		"totals-mismatch.hist", "empty-thread.hist",
		"malformed-tline.txt", "thread-order.txt", "empty.txt",
		"not-cyclictest.txt",
		/* Numbers beyond what can be counted exactly (2^53). */
		"count-wraps.json", "count-1e95.json", "count-erange.hist",
		"count-sum-wraps.hist", "max-erange.txt",
	};
	char path[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), FIX "bad/%s", bad[i]);
		expect_bad(path);
	}
	expect_bad(FIX "no-such-file.json");
	expect_bad(FIX "bad");	/* a directory of bad files */
}

/* Inline JSON: what the parser checks beyond the syntax. */
static void test_json_semantics(void **state)
{
	struct an_run run = { 0 };
	static const char *const bad[] = {
		"{\"thread\": {}}",
		"{\"thread\": {\"1\": {\"cycles\": 1, \"min\": 1, \"max\": 1, "
		"\"avg\": 1}}, \"num_threads\": 1}",
		"{\"thread\": {\"0\": {\"cycles\": 5, \"min\": 3, \"max\": 2, "
		"\"avg\": 1}}}",
		"{\"thread\": {\"0\": {\"cycles\": 5, \"min\": 1, "
		"\"max\": 2}}}",
		"{\"cmdline:\": \"cyclictest -h 10\", \"thread\": {\"0\": "
		"{\"histogram\": {\"12\": 1}, \"cycles\": 5, \"min\": 1, "
		"\"max\": 20, \"avg\": 3}}}",
		"{\"thread\": {\"0\": {\"histogram\": {\"2\": 1.5}, "
		"\"cycles\": 5, \"min\": 1, \"max\": 2, \"avg\": 1}}}",
		/* Each count exact, their sum not: 2^53 + 2^53. */
		"{\"thread\": {\"0\": {\"histogram\": {\"1\": "
		"9007199254740992, \"2\": 9007199254740992}, \"cycles\": "
		"9007199254740992, \"min\": 1, \"max\": 2, \"avg\": 1}}}",
		"{\"thread\": {\"0\": {\"cycles\": 1e95, \"min\": 1, "
		"\"max\": 2, \"avg\": 1}}}",
	};
	const char *good = "{\"cmdline\": \"cyclictest -i500 --distance=100 "
			   "-h 10 -p 80\", \"thread\": {\"0\": {\"histogram\": "
			   "{\"2\": 3}, \"cycles\": 5, \"min\": 2, \"max\": "
			   "40, \"avg\": 10}, \"1\": {\"histogram\": {}, "
			   "\"cycles\": 2, \"min\": 11, \"max\": 12, "
			   "\"avg\": 11.5}}}";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(an_parse_json("t.json", bad[i],
					       strlen(bad[i]), &run), -EINVAL);
		free(run.cpus);
		run.cpus = NULL;
	}
	assert_int_equal(an_parse_json("t.json", good, strlen(good), &run), 0);
	assert_int_equal(run.ncpus, 2);
	assert_int_equal(run.cpus[0].limit, 10);
	assert_int_equal(run.cpus[0].overflows, 2);
	assert_int_equal(run.cpus[0].interval_us, 500);
	assert_int_equal(run.cpus[1].interval_us, 600);
	assert_int_equal(run.cpus[1].prio, 80);
	/* Every sample of thread 1 is beyond the histogram. */
	assert_true(an_cpu_has_hist(&run.cpus[1]));
	assert_int_equal(run.cpus[1].overflows, 2);
	for (i = 0; i < run.ncpus; i++)
		an_cpu_release(&run.cpus[i]);
	free(run.cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_histfile_matches_json),
		cmocka_unit_test(test_histfile_totals_column),
		cmocka_unit_test(test_tlines),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_json_semantics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
