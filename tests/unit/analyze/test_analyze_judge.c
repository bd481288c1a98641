// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verdicts on real data: the numbers published in the slice-extension
 * thread (pasted T: lines), sides built in memory through the API the
 * nightly history uses, workload metrics with A/B/A drift.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"

#define SEED "tests/fixtures/analyze/seed/"

static enum an_verdict judge(const char *base, const char *cand,
			     struct an_result *res)
{
	struct an_side *b = NULL, *c = NULL;
	struct an_gate gate;

	assert_int_equal(an_input_read(base, &b), 0);
	assert_int_equal(an_input_read(cand, &c), 0);
	an_gate_default(&gate);
	assert_int_equal(an_compare(b, c, &gate, res), 0);
	an_side_free(b);
	an_side_free(c);
	return res->verdict;
}

static const struct an_line *overall_max(const struct an_result *res)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].kind == AN_LINE_MAX &&
		    res->lines[i].cpu < 0)
			return &res->lines[i];
	fail();
	return NULL;
}

/* Steven Rostedt's numbers, 2025-06-09 (seeds/004). */
static void test_seed_verdicts(void **state)
{
	const struct an_line *l;
	struct an_result res;

	(void)state;
	/*
	 * idle -> extend-sched (30 us delay): 12 -> 39 us. One repetition a
	 * side: the seven CPUs are the replicates.
	 */
	assert_int_equal(judge(SEED "idle.txt", SEED "extend-sched-30us.txt",
			       &res), AN_REGRESSION);
	l = overall_max(&res);
	assert_true(l->deciding && l->cand > 3 * l->base);
	assert_true(l->p_adj < 0.025 / 2);
	assert_true(l->lo > 0 && l->lo <= l->delta && l->delta <= l->hi);
	assert_non_null(strstr(res.notes[0], "Gumbel"));
	/* Shown as published: the largest Max of the T: lines. */
	assert_true(l->raw_base == 12 && l->raw_cand == 39);
	assert_non_null(strstr(res.reason, "max 12 -> 39 us; its typical "
			       "max (geometric mean over CPUs) rose from"));
	an_result_release(&res);
	/* idle -> 5 us delay: 12 -> 21 us. */
	assert_int_equal(judge(SEED "idle.txt", SEED "extend-sched-5us.txt",
			       &res), AN_REGRESSION);
	an_result_release(&res);
	/* 30 us delay -> 5 us delay: 39 -> 21 us. */
	assert_int_equal(judge(SEED "extend-sched-30us.txt",
			       SEED "extend-sched-5us.txt", &res),
			 AN_IMPROVEMENT);
	an_result_release(&res);
	/*
	 * Under load, 30 -> 34 us with three times the samples: the typical
	 * max of the seven CPUs rose 1.44 us, and the pass rule's one-sided
	 * bound at alpha / 2 (intersection-union: each line at that level,
	 * not divided over the family) leaves at most 4.39 us open, below
	 * the 5 us floor on every line: NO CHANGE, saying that bound. (It
	 * was INCONCLUSIVE while the bounds were divided over the family.)
	 */
	judge(SEED "load.txt", SEED "load-extend-sched-5us.txt", &res);
	assert_int_equal(res.verdict, AN_NO_CHANGE);
	l = overall_max(&res);
	assert_false(isnan(l->p_worse));
	assert_true(l->pass_hi < l->floor && l->pass_hi <= l->hi);
	assert_non_null(strstr(res.reason, "at most 4.39 us at 0.025, its "
			       "floor 5 us"));
	an_result_release(&res);
}

/*
 * Worst case is worst case: Steven's idle lines against the same lines
 * with CPU 0's maximum at 50 ms. Six CPUs agree, so the CPUs as replicates
 * see nothing; the size of one maximum against the Gumbel law of the
 * baseline's maxima is a regression even from one repetition a side.
 */
static void test_one_huge_max(void **state)
{
	struct an_side *b = NULL, *c = NULL;
	struct an_result res;
	struct an_gate gate;
	const struct an_line *l;

	(void)state;
	assert_int_equal(an_input_read(SEED "idle.txt", &b), 0);
	assert_int_equal(an_input_read(SEED "idle.txt", &c), 0);
	c->runs[0].cpus[0].max_us = 50000;
	an_gate_default(&gate);
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_REGRESSION);
	assert_true(res.decisive >= 0);
	l = &res.lines[res.decisive];
	assert_int_equal(l->kind, AN_LINE_EXCEED);
	assert_int_equal(l->cpu, 0);
	assert_true(l->cand == 50000 && l->lo > 0);
	an_result_release(&res);
	/*
	 * A share of alpha so small (a suite of 100 comparisons) that 20,000
	 * simulated draws could not reach its level: the null is drawn
	 * until its floor lies below it, and the maximum still decides.
	 */
	gate.level = 0.0005;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_REGRESSION);
	l = &res.lines[res.decisive];
	assert_true(l->kind == AN_LINE_EXCEED || l->kind == AN_LINE_SPIKE);
	assert_true(l->p_worse < res.level);
	an_result_release(&res);
	gate.level = 0;
	/* The same lines on both sides are no regression. */
	c->runs[0].cpus[0].max_us = 12;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_not_equal(res.verdict, AN_REGRESSION);
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/* A Gaussian-ish body at 10 us, a tail, and optionally extra tail. */
static void fill(struct an_run *run, size_t ncpus, int extra_at,
		 uint64_t extra)
{
	uint64_t h[200] = { 0 };
	size_t j, i;

	for (j = 0; j < ncpus; j++) {
		memset(h, 0, sizeof(h));
		for (i = 8; i < 13; i++)
			h[i] = 4000 - 1000 * labs((long)i - 10);
		for (i = 13; i < 40; i++)
			h[i] = 40 - i;
		h[extra_at] += j == 1 ? extra : 0;
		run->cpus[j].cycles = 0;
		run->cpus[j].min_us = 8;
		run->cpus[j].max_us = extra && j == 1 ? extra_at : 39;
		run->cpus[j].avg_us = 10.5;
		assert_int_equal(an_cpu_set_hist(&run->cpus[j], h, 200, 200),
				 0);
	}
}

/*
 * A spike is evidence (issue 23): five repetitions a side alike, but one
 * candidate wake-up of 50 ms on CPU 1. Beyond the baseline's law and a
 * tight noise profile's pauses: a REGRESSION naming it. A profile whose
 * pauses reach that far, or none: INCONCLUSIVE, naming it, never a pass.
 */
static void test_spike_evidence(void **state)
{
	struct an_side *b = an_side_new("base"), *c = an_side_new("cand");
	struct an_profile_line pl[2] = {
		{ .cpu = 0, .metric = "max", .mean = 3.69, .var = 0.05 },
		{ .cpu = 1, .metric = "max", .mean = 3.69, .var = 0.05 },
	};
	struct an_profile pr = { .df = 20, .nreps = 21, .lines = pl,
				 .nlines = 2 };
	struct an_result res;
	struct an_gate gate;
	struct an_cpu *x;
	int r;

	(void)state;
	for (r = 0; r < 5; r++) {
		fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
		fill(an_side_add_run(c, "rep", 2), 2, 0, 0);
	}
	x = &c->runs[2].cpus[1];
	x->cycles++;
	x->overflows++;
	x->max_us = 50000;
	an_gate_default(&gate);
	gate.profile = &pr;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_REGRESSION);
	assert_int_equal(res.lines[res.decisive].kind, AN_LINE_SPIKE);
	printf("# %s\n", res.reason);
	assert_non_null(strstr(res.reason, "one wake-up of 50.0 ms on CPU 1 "
			       "in repetition 3; the baseline's worst 39 us"));
	an_result_release(&res);
	/* Pauses of this machine reach tens of ms: plausible. */
	pl[0].var = pl[1].var = 4;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_non_null(strstr(res.reason, "one wake-up of 50.0 ms"));
	assert_non_null(strstr(res.reason, "pauses make it plausible"));
	an_result_release(&res);
	gate.profile = NULL;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_non_null(strstr(res.reason, "one wake-up of 50.0 ms"));
	assert_non_null(strstr(res.reason, "no noise profile"));
	assert_non_null(strstr(res.reason, "not a pass"));
	/* Both rules held, and the reason says each (nightly-run: one). */
	assert_non_null(strstr(res.reason, "beyond the baseline's law (p="));
	assert_non_null(strstr(res.reason, ") and 5 times its worst or "
			       "more: not a pass"));
	printf("# %s\n", res.reason);
	an_result_release(&res);
	/* Without the spike the two sides are no REGRESSION, no spike. */
	x->max_us = 39;
	x->cycles--;
	x->overflows--;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_not_equal(res.verdict, AN_REGRESSION);
	assert_null(strstr(res.reason, "one wake-up of"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * The spike on many CPUs (issue 23): the CPU's p is multiplied by the
 * CPUs looked at, so its simulated null is drawn for the level split as
 * far. On 8 CPUs, at the default alpha and at a share of 0.005 (a
 * suite of ten comparisons), one 50 ms wake-up against a worst of 39 us
 * and a tight profile is a REGRESSION naming CPU, repetition and size.
 * With the null drawn for the line's level alone its floor times 8 lay
 * above that level: INCONCLUSIVE, blaming pauses the profile ruled out.
 * The 2-CPU cases of test_spike_evidence are unchanged.
 */
static void test_spike_many_cpus(void **state)
{
	const double levels[] = { 0, 0.005 };
	struct an_side *b = an_side_new("base"), *c = an_side_new("cand");
	struct an_profile_line pl[8];
	struct an_profile pr = { .df = 20, .nreps = 21, .lines = pl,
				 .nlines = 8 };
	const struct an_line *l;
	struct an_result res;
	struct an_gate gate;
	struct an_cpu *x;
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < 8; i++)
		pl[i] = (struct an_profile_line){ .cpu = (int)i,
			.metric = "max", .mean = 3.69, .var = 0.05 };
	for (r = 0; r < 5; r++) {
		fill(an_side_add_run(b, "rep", 8), 8, 0, 0);
		fill(an_side_add_run(c, "rep", 8), 8, 0, 0);
	}
	x = &c->runs[2].cpus[1];
	x->cycles++;
	x->overflows++;
	x->max_us = 50000;
	for (i = 0; i < 2; i++) {
		an_gate_default(&gate);
		gate.profile = &pr;
		gate.level = levels[i];
		assert_int_equal(an_compare(b, c, &gate, &res), 0);
		printf("# level %g: %s: %s\n", levels[i],
		       an_verdict_name(res.verdict), res.reason);
		assert_int_equal(res.verdict, AN_REGRESSION);
		l = &res.lines[res.decisive];
		assert_int_equal(l->kind, AN_LINE_SPIKE);
		assert_int_equal(l->cpu, 1);
		assert_true(l->p_worse < res.level);
		assert_non_null(strstr(res.reason, "one wake-up of 50.0 ms on "
				       "CPU 1 in repetition 3; the baseline's "
				       "worst 39 us"));
		assert_null(strstr(res.reason, "make it plausible"));
		an_result_release(&res);
	}
	/*
	 * The limit: a null of at most 1e6 draws gives 1e-6 at least, 8e-6
	 * over 8 CPUs, above the line's level at a share of 0.0005 (a suite
	 * of 100 comparisons). Named and no pass, and the reason says so
	 * rather than blame pauses the profile rules out.
	 */
	gate.level = 0.0005;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	printf("# level 0.0005: %s: %s\n", an_verdict_name(res.verdict),
	       res.reason);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_int_equal(res.lines[res.decisive].kind, AN_LINE_SPIKE);
	assert_non_null(strstr(res.reason, "one wake-up of 50.0 ms on CPU 1 "
			       "in repetition 3"));
	assert_non_null(strstr(res.reason, "pauses rule it out"));
	assert_non_null(strstr(res.reason, "the least its simulated null "
			       "can give"));
	assert_null(strstr(res.reason, "make it plausible"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * A spike five times the baseline's worst that the profile rules out,
 * but the baseline's own maxima spread so widely (39 us to 3 ms over its
 * repetitions) that its law does not rule it out at the line's level:
 * INCONCLUSIVE, naming it and what held it back, not the pauses.
 */
static void test_spike_base_short(void **state)
{
	const double mx[5] = { 39, 100, 300, 1000, 3000 };
	struct an_side *b = an_side_new("base"), *c = an_side_new("cand");
	struct an_profile_line pl[2] = {
		{ .cpu = 0, .metric = "max", .mean = 3.69, .var = 0.05 },
		{ .cpu = 1, .metric = "max", .mean = 3.69, .var = 0.05 },
	};
	struct an_profile pr = { .df = 20, .nreps = 21, .lines = pl,
				 .nlines = 2 };
	struct an_result res;
	struct an_gate gate;
	struct an_run *run;
	int r, j;

	(void)state;
	for (r = 0; r < 5; r++) {
		run = an_side_add_run(b, "rep", 2);
		fill(run, 2, 0, 0);
		for (j = 0; j < 2; j++)
			run->cpus[j].max_us = mx[r];
		run = an_side_add_run(c, "rep", 2);
		fill(run, 2, 0, 0);
		for (j = 0; j < 2; j++)
			run->cpus[j].max_us = mx[r];
	}
	c->runs[2].cpus[1].cycles++;
	c->runs[2].cpus[1].overflows++;
	c->runs[2].cpus[1].max_us = 20000;
	an_gate_default(&gate);
	gate.profile = &pr;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	printf("# %s\n", res.reason);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_int_equal(res.lines[res.decisive].kind, AN_LINE_SPIKE);
	assert_non_null(strstr(res.reason, "one wake-up of 20.0 ms on CPU 1 "
			       "in repetition 3; the baseline's worst "
			       "3.00 ms"));
	assert_non_null(strstr(res.reason, "pauses rule it out"));
	assert_non_null(strstr(res.reason, "the baseline's law does not at "
			       "the line's level: over the 2 CPUs"));
	assert_null(strstr(res.reason, "make it plausible"));
	assert_non_null(strstr(res.reason, "not a pass"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * fill()'s body with its tail moved up by shift[j] us on CPU j: the
 * repetitions of a side scatter, CPU by CPU.
 */
static void fill_shifted(struct an_run *run, size_t ncpus, const int *shift)
{
	uint64_t h[200] = { 0 };
	size_t j, i;

	for (j = 0; j < ncpus; j++) {
		memset(h, 0, sizeof(h));
		for (i = 8; i < 13; i++)
			h[i] = 4000 - 1000 * labs((long)i - 10);
		for (i = 13; i < 40; i++)
			h[i + shift[j]] = 40 - i;
		run->cpus[j].cycles = 0;
		run->cpus[j].min_us = 8;
		run->cpus[j].max_us = 39 + shift[j];
		run->cpus[j].avg_us = 10.5;
		assert_int_equal(an_cpu_set_hist(&run->cpus[j], h, 200, 200),
				 0);
	}
}

/*
 * An INCONCLUSIVE that asks for more repetitions asks for at least one.
 * Seed 000's A/B/A (28 pooled base repetitions against 14) said "0 more
 * repetitions a side would rule it out" of a p99 whose pass bound, 5.09
 * us, was just above its 5 us floor: the estimate counted the larger
 * side's repetitions and the trimmed ones at full weight. Unequal sides
 * with tails that scatter by a few microseconds, the candidate shifted
 * by 0 to 5: every reason that names a number of repetitions names one
 * of at least 1, and some are the "rule it out" kind.
 */
static void test_more_repetitions_never_zero(void **state)
{
	static const int scatter[] = { 0, 1, 3, 0, 2, 0, 1, 0, 4, 1, 0, 2 };
	struct an_result res;
	struct an_gate gate;
	int delta, r, seen = 0, sh[2];
	unsigned int seed;

	(void)state;
	for (seed = 0; seed < 6; seed++) {
		for (delta = 0; delta <= 5; delta++) {
			struct an_side *b = an_side_new("base");
			struct an_side *c = an_side_new("cand");

			for (r = 0; r < 28; r++) {
				sh[0] = sh[1] = scatter[(r * 7 + seed) % 12];
				fill_shifted(an_side_add_run(b, "rep", 2), 2,
					     sh);
			}
			for (r = 0; r < 14; r++) {
				sh[0] = sh[1] = delta +
					scatter[(r * 5 + seed * 3) % 12];
				fill_shifted(an_side_add_run(c, "rep", 2), 2,
					     sh);
			}
			an_gate_default(&gate);
			gate.min_increase_us = 5;
			gate.min_increase_pct = 10;
			assert_int_equal(an_compare(b, c, &gate, &res), 0);
			assert_null(strstr(res.reason,
					   " 0 more repetitions"));
			seen += res.verdict == AN_INCONCLUSIVE &&
				strstr(res.reason, "would rule it out");
			an_result_release(&res);
			an_side_free(b);
			an_side_free(c);
		}
	}
	printf("# %d of 36 INCONCLUSIVE asking for repetitions to rule a "
	       "rise out\n", seen);
	assert_true(seen > 0);
}

/* CPU cpu's own p99 line of a comparison. */
static const struct an_line *own_p99(const struct an_result *res, int cpu)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].kind == AN_LINE_TAIL &&
		    res->lines[i].cpu == cpu &&
		    fabs(res->lines[i].q - 0.99) < 1e-12)
			return &res->lines[i];
	fail();
	return NULL;
}

/*
 * Degrees of freedom a prior carries (issue 23, docs/statistics.md).
 * Two repetitions a side: each line's own scatter has 2 df.
 *
 *  - A noise profile that scatters far less than the repetitions (an F
 *    test at 0.99) is scaled up to them and adds nothing: df 2, the
 *    evidence names the repetitions' scatter alone. (It used to add as
 *    many df as the repetitions have: 4.)
 *  - Without a profile the other CPUs' scatter at the same level counts
 *    at half weight, never more than the line's own df: with 2 CPUs
 *    half of the other's 2 (df 3); with 4, half of the others' 6 would
 *    be 3, capped at 2 (df 4, not 5). The other CPUs' repetitions are
 *    the same repetitions: a burst is shared.
 */
static void test_prior_df_caps(void **state)
{
	static const int sb[2][4] = { { 0, 5, 2, 7 }, { 6, 1, 8, 3 } };
	static const int sc[2][4] = { { 1, 4, 6, 2 }, { 7, 9, 0, 5 } };
	static const char *const metrics[] = { "p90", "p95", "p97", "p99",
					       "p99.5", "p99.9", "max" };
	struct an_profile_line pl[2 * 7];
	struct an_profile pr = { .df = 20, .nreps = 21, .lines = pl,
				 .nlines = 2 * 7,
				 .origin = "a quieter day" };
	const struct an_line *l;
	struct an_result res;
	struct an_gate gate;
	size_t ncpus, i, j;
	int c, r;

	(void)state;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 7; j++)
			pl[i * 7 + j] = (struct an_profile_line){
				.cpu = (int)i, .mean = 3, .var = 1e-6 };
	for (i = 0; i < 2 * 7; i++)
		snprintf(pl[i].metric, sizeof(pl[i].metric), "%s",
			 metrics[i % 7]);
	for (ncpus = 2; ncpus <= 4; ncpus += 2) {
		struct an_side *b = an_side_new("base");
		struct an_side *cs = an_side_new("cand");

		for (r = 0; r < 2; r++) {
			fill_shifted(an_side_add_run(b, "rep", ncpus), ncpus,
				     sb[r]);
			fill_shifted(an_side_add_run(cs, "rep", ncpus), ncpus,
				     sc[r]);
		}
		an_gate_default(&gate);
		/* The other CPUs as the prior: half their df, at most 2. */
		assert_int_equal(an_compare(b, cs, &gate, &res), 0);
		for (c = 0; c < (int)ncpus; c++) {
			l = own_p99(&res, c);
			assert_true(l->df == (ncpus == 2 ? 3 : 4));
			assert_non_null(strstr(l->evidence, "scatter from the "
					       "repetitions and the other "
					       "CPUs"));
		}
		printf("# %zu CPUs, no profile: CPU 0 p99 df %g: %s\n", ncpus,
		       own_p99(&res, 0)->df, own_p99(&res, 0)->evidence);
		an_result_release(&res);
		if (ncpus != 2) {
			an_side_free(b);
			an_side_free(cs);
			continue;
		}
		/* A profile scaled up to the repetitions: no df of its own. */
		gate.profile = &pr;
		assert_int_equal(an_compare(b, cs, &gate, &res), 0);
		for (c = 0; c < 2; c++) {
			l = own_p99(&res, c);
			assert_true(l->df == 2);
			assert_non_null(strstr(l->evidence, "scatter from the "
					       "repetitions"));
			assert_null(strstr(l->evidence, "noise profile"));
		}
		printf("# a tight profile: CPU 0 p99 df %g: %s\n",
		       own_p99(&res, 0)->df, own_p99(&res, 0)->evidence);
		for (i = 0; i < res.nnotes; i++)
			if (strstr(res.notes[i], "scatter more than it says"))
				break;
		assert_true(i < res.nnotes);
		an_result_release(&res);
		an_side_free(b);
		an_side_free(cs);
	}
}

/*
 * A level's support is counted in integers: 100 wake-ups hold p90 (10
 * beyond it), although 100 * (1 - 0.9) < 10 in doubles.
 */
static void test_level_support_integers(void **state)
{
	(void)state;
	assert_true(an_level_supported(100, 0.9));
	assert_false(an_level_supported(99, 0.9));
	assert_true(an_level_supported(200, 0.95));
	assert_true(an_level_supported(1000, 0.99));
	assert_false(an_level_supported(999, 0.99));
	assert_true(an_level_supported(10000, 0.999));
	assert_true(an_level_supported(100000, 0.9999));
	assert_false(an_level_supported(99999, 0.9999));
	assert_true(an_level_supported(10000000, 0.999999));
	assert_int_equal(an_level_needs(0.999), 10000);
	assert_int_equal(an_level_needs(0.97), 334);
	assert_int_equal(an_level_needs(0.5), 20);
	assert_false(an_level_supported(UINT64_MAX, 1.0));
}

/* What the nightly history does: sides from arrays, no files. */
static void test_in_memory_api(void **state)
{
	struct an_side *b = an_side_new("last-week");
	struct an_side *c = an_side_new("tonight");
	struct an_result res;
	struct an_gate gate;
	int r;

	(void)state;
	for (r = 0; r < 4; r++) {
		fill(an_side_add_run(b, "night", 2), 2, 0, 0);
		fill(an_side_add_run(c, "night", 2), 2, 150, 200 + 10 * r);
	}
	an_gate_default(&gate);
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_REGRESSION);
	assert_non_null(strstr(res.reason, "CPU 1"));
	an_result_release(&res);
	/*
	 * The same data on both sides is never a change; but a pass is a
	 * claim: two repetitions whose maxima could each scatter by their
	 * top samples' spacing cannot rule out a 5 us rise of the maximum.
	 * Four can: every line's one-sided bound at alpha / 2 (the
	 * intersection-union rule; sixteen were needed while the bounds were
	 * divided over the family).
	 */
	b->nruns = 2;
	assert_int_equal(an_compare(b, b, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_non_null(strstr(res.reason, "more repetitions"));
	an_result_release(&res);
	b->nruns = 4;
	assert_int_equal(an_compare(b, b, &gate, &res), 0);
	printf("# %s: %s\n", an_verdict_name(res.verdict), res.reason);
	assert_int_equal(res.verdict, AN_NO_CHANGE);
	assert_true(res.settled);
	assert_non_null(strstr(res.reason, "at most"));
	an_result_release(&res);
	for (r = 4; r < 16; r++)
		fill(an_side_add_run(b, "night", 2), 2, 0, 0);
	/* A quantile gate judges that quantile only. */
	snprintf(gate.metric, sizeof(gate.metric), "p99.9");
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_REGRESSION);
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * Two repetitions a side whose maxima scatter fivefold: the change they
 * could see is beyond any latency that matters; the reason says that in
 * words, not as a 14-digit number of microseconds.
 */
static void test_blind_says_so(void **state)
{
	struct an_side *b = an_side_new("base");
	struct an_side *c = an_side_new("cand");
	struct an_result res;
	struct an_gate gate;

	(void)state;
	fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
	fill(an_side_add_run(b, "rep", 2), 2, 190, 1);
	fill(an_side_add_run(c, "rep", 2), 2, 0, 0);
	fill(an_side_add_run(c, "rep", 2), 2, 195, 1);
	an_gate_default(&gate);
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_non_null(strstr(res.reason, "could not have seen"));
	assert_non_null(strstr(res.reason, "100 times its"));
	assert_null(strstr(res.reason, "could only have seen"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

static void add_rounds(struct an_side *s, int order, double mean,
		       bool higher)
{
	struct an_run *run = an_side_add_run(s, "rep", 0);
	double v[9];
	int i;

	for (i = 0; i < 9; i++)
		v[i] = mean * (1 + 0.001 * ((i % 3) - 1));
	run->order = order;
	assert_int_equal(an_run_add_metric(run, "bench.ns_per_call",
					   higher ? "ops" : "ns", higher, v,
					   9), 0);
}

static const struct an_line *metric_line(const struct an_result *res)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].kind == AN_LINE_METRIC)
			return &res->lines[i];
	fail();
	return NULL;
}

static enum an_verdict metric_verdict(struct an_side *b, struct an_side *c,
				      struct an_result *res)
{
	struct an_gate gate;

	an_gate_default(&gate);
	snprintf(gate.metric, sizeof(gate.metric), "bench.ns_per_call");
	assert_int_equal(an_compare(b, c, &gate, res), 0);
	return res->verdict;
}

/* An A/B/A comparison's verdict, and whether drift was its reason. */
static void check_aba(struct an_side *b, struct an_side *c,
		      enum an_verdict want, bool drifted)
{
	struct an_result res;

	assert_int_equal(metric_verdict(b, c, &res), want);
	assert_true(res.drift_checked);
	assert_true(!!strstr(res.reason, "drifted") == drifted);
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

static void test_workload_metrics(void **state)
{
	struct an_side *b = an_side_new("orig"), *c = an_side_new("patched");
	struct an_result res;
	int i;

	(void)state;
	/* sysctl reads, seeds/001: 8.5 us per read -> 0.26 us. */
	for (i = 0; i < 3; i++) {
		add_rounds(b, 2 * i, 8547 + i, false);
		add_rounds(c, 2 * i + 1, 260 + i, false);
	}
	assert_int_equal(metric_verdict(b, c, &res), AN_IMPROVEMENT);
	/* Rounds: the CV is the rounds' within a repetition (0.09 %). */
	assert_non_null(strstr(metric_line(&res)->evidence,
			       "CV within a repetition's rounds, at most 0.09% / 0.09%"));
	an_result_release(&res);
	assert_int_equal(metric_verdict(c, b, &res), AN_REGRESSION);
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);

	/*
	 * One value a repetition (hrtick-hogs' longest slice): the CV is
	 * the repetitions', never a 0 % of rounds there are none of.
	 */
	b = an_side_new("orig");
	c = an_side_new("patched");
	for (i = 0; i < 4; i++) {
		double vb = i % 2 ? 4800 : 3000, vc = 3000 + i;
		struct an_run *rb = an_side_add_run(b, "rep", 0);
		struct an_run *rc = an_side_add_run(c, "rep", 0);

		assert_int_equal(an_run_add_metric(rb, "bench.ns_per_call",
						   "us", false, &vb, 1), 0);
		assert_int_equal(an_run_add_metric(rc, "bench.ns_per_call",
						   "us", false, &vc, 1), 0);
	}
	metric_verdict(b, c, &res);
	assert_non_null(strstr(metric_line(&res)->evidence,
			       "4 vs 4 repetitions, CV across repetitions 26.65% / 0.04%"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);

	/* A/B/A: the baseline drifts by as much as the effect. */
	b = an_side_new("orig");
	c = an_side_new("patched");
	b->order_known = c->order_known = true;
	for (i = 0; i < 6; i++)
		add_rounds(b, 2 * i, i < 3 ? 100 : 112, false);
	for (i = 0; i < 5; i++)
		add_rounds(c, 2 * i + 1, 117, false);
	check_aba(b, c, AN_INCONCLUSIVE, true);

	/*
	 * A/B/A, but the candidate lies beyond both halves: the hrtick
	 * bisection's counts (runs past an expired hrtick), a base whose two
	 * boots scatter 11-99 and 45-119 around a patched kernel's 0-4. No
	 * drift measured around it puts it there.
	 */
	{
		static const double early[] = { 13, 62, 20, 11, 99 };
		static const double late[] = { 114, 119, 102, 45, 89 };
		static const double fixed[] = { 0, 4, 0, 1, 0 };

		b = an_side_new("orig");
		c = an_side_new("patched");
		b->order_known = c->order_known = true;
		for (i = 0; i < 5; i++) {
			add_rounds(b, i, early[i], false);
			add_rounds(c, 5 + i, fixed[i], false);
			add_rounds(b, 10 + i, late[i], false);
		}
		check_aba(b, c, AN_IMPROVEMENT, false);
	}

	/* Higher is better: fewer operations per second is worse. */
	b = an_side_new("a");
	c = an_side_new("b");
	for (i = 0; i < 3; i++) {
		add_rounds(b, -1, 1000 + i, true);
		add_rounds(c, -1, 800 + i, true);
	}
	assert_int_equal(metric_verdict(b, c, &res), AN_REGRESSION);
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * A/B/A on an average line, whose floor is min_increase_us (25) until
 * min_increase_pct (10 %) of the level passes it: the candidate's 230 us
 * lies beyond the baseline's halves (100 and 200 us) by 130 and 30 us,
 * each at least the floor at that half's level (25 us at both). A drift
 * of 100 us against an effect of 80 does not explain it. (The floor at
 * the pooled level scaled to the late half, 25 x 200 / 150 = 33 us,
 * would have left it INCONCLUSIVE.)
 */
static void test_aba_avg_floor(void **state)
{
	struct an_side *b = an_side_new("base"), *c = an_side_new("cand");
	struct an_result res;
	struct an_gate gate;
	struct an_run *run;
	int r, j;

	(void)state;
	b->order_known = c->order_known = true;
	for (r = 0; r < 11; r++) {
		bool cand = r >= 3 && r < 8;

		run = an_side_add_run(cand ? c : b, "rep", 2);
		run->order = r;
		fill(run, 2, 0, 0);
		for (j = 0; j < 2; j++)
			run->cpus[j].avg_us = (cand ? 230 : r < 3 ? 100 : 200) +
					      0.5 * (r % 3);
	}
	an_gate_default(&gate);
	snprintf(gate.metric, sizeof(gate.metric), "avg");
	gate.min_increase_us = 25;
	gate.min_increase_pct = 10;
	/* A change needs p < 0.05: the drift, not p, decides below. */
	gate.alpha = 0.1;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	printf("# %s: %s\n", an_verdict_name(res.verdict), res.reason);
	assert_true(res.drift_checked);
	assert_null(strstr(res.reason, "drifted"));
	assert_int_equal(res.verdict, AN_REGRESSION);
	an_result_release(&res);

	/* 224 us: 24 us past the late half, short of its 25 us floor. */
	for (r = 0; r < (int)c->nruns; r++)
		for (j = 0; j < 2; j++)
			c->runs[r].cpus[j].avg_us = 224 + 0.5 * (r % 3);
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	printf("# %s: %s\n", an_verdict_name(res.verdict), res.reason);
	assert_int_equal(res.verdict, AN_INCONCLUSIVE);
	assert_non_null(strstr(res.reason, "drifted"));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * "max" is the largest wake-up measured: one repetition's 150 us among
 * 39 us ones is the candidate's max, whatever its typical max says.
 */
static void test_max_is_largest(void **state)
{
	struct an_side *b = an_side_new("idle"), *c = an_side_new("cand");
	const struct an_line *l = NULL;
	struct an_result res;
	struct an_gate gate;
	size_t i;

	(void)state;
	an_gate_default(&gate);
	for (i = 0; i < 3; i++) {
		fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
		fill(an_side_add_run(c, "rep", 2), 2, i == 1 ? 150 : 0,
		     i == 1 ? 5 : 0);
	}
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	for (i = 0; i < res.nlines; i++)
		if (res.lines[i].kind == AN_LINE_MAX && res.lines[i].cpu == 1)
			l = &res.lines[i];
	assert_non_null(l);
	assert_true(l->raw_base == 39 && l->raw_cand == 150);
	assert_true(l->cand < 150);
	assert_string_equal(an_line_name(l), "max");
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * The once-per-million latency only within its bounds: ten repetitions
 * of 14,378 wake-ups are 7 times short of a million (within 10), three
 * are 23 times short (beyond): then no figure, and why.
 */
static void test_exceedance_bounds(void **state)
{
	struct an_side *b = an_side_new("a"), *c = an_side_new("b");
	struct an_result res;
	struct an_gate gate;
	size_t i;

	(void)state;
	an_gate_default(&gate);
	for (i = 0; i < 3; i++) {
		fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
		fill(an_side_add_run(c, "rep", 2), 2, 0, 0);
	}
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_true(res.nexceed == 4);
	for (i = 0; i < res.nexceed; i++) {
		assert_true(isnan(res.exceed[i].us) && isnan(res.exceed[i].hi));
		assert_non_null(strstr(res.exceed[i].why, "23 times beyond "
				       "them (at most 10)"));
	}
	an_result_release(&res);
	for (i = 3; i < 10; i++) {
		fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
		fill(an_side_add_run(c, "rep", 2), 2, 0, 0);
	}
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_true(res.nexceed == 4);
	for (i = 0; i < res.nexceed; i++) {
		const struct an_exceedance *e = &res.exceed[i];

		/* Within the bound, the checks decide (fill's tail is no
		 * Pareto law); a figure, when there is one, is bounded. */
		assert_null(strstr(e->why, "times beyond"));
		assert_false(e->measured);
		assert_true(e->checked);
		if (!e->why[0])
			assert_true(e->lo >= 0 && e->lo <= e->us &&
				    e->us <= e->hi && e->hi <= 10 * e->max_us);
		else
			assert_true(isnan(e->us) && isnan(e->hi));
	}
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
}

/*
 * A repetition whose tail is Pareto beyond 30 us (shape 0.5, 1 % of its
 * 14,378 wake-ups at the law's quantiles), with burst extra
 * wake-ups at burst_us, or a plateau: every 20th of its tail's samples
 * at 150 us (a burst's delayed wake-ups, no Pareto law).
 */
static void fill_pareto(struct an_run *run, size_t ncpus, uint64_t burst,
			long burst_us, bool plateau)
{
	static uint64_t h[2000];
	const double u0 = 30, xi = 0.5, tail = 144;
	size_t j, i;
	long top = 0;

	for (j = 0; j < ncpus; j++) {
		memset(h, 0, sizeof(h));
		h[10] = 14378 - (uint64_t)tail;
		/* The law's quantiles: the m-th largest at (m - 1/2) / tail. */
		for (i = 1; i <= (size_t)tail; i++) {
			long x = plateau && i % 20 == 0 ? 150 :
				 lround(u0 * pow((i - 0.5) / tail, -xi));

			h[x]++;
			top = x > top ? x : top;
		}
		h[burst_us] += burst;
		run->cpus[j].cycles = 0;
		run->cpus[j].min_us = 10;
		run->cpus[j].max_us = burst && burst_us > top ? burst_us : top;
		run->cpus[j].avg_us = 11;
		assert_int_equal(an_cpu_set_hist(&run->cpus[j], h, 2000, 2000),
				 0);
	}
}

/*
 * The once-per-million latency only from a tail that passes its checks:
 * a Pareto tail in ten repetitions gets a figure with both checks' p;
 * a burst of 60 wake-ups beyond the threshold in one repetition is not
 * independent; a plateau does not fit the law. Neither gets a figure.
 */
static void test_exceedance_checks(void **state)
{
	static const char *const why[] = { "", "they are not independent",
					   "the tail does not fit a Pareto law" };
	struct an_result res;
	struct an_gate gate;
	size_t i, k;

	(void)state;
	an_gate_default(&gate);
	for (k = 0; k < 3; k++) {
		struct an_side *b = an_side_new("a"), *c = an_side_new("b");

		for (i = 0; i < 10; i++) {
			fill_pareto(an_side_add_run(b, "rep", 2), 2, 0, 0,
				    false);
			fill_pareto(an_side_add_run(c, "rep", 2), 2,
				    k == 1 && i == 3 ? 60 : 0, 400, k == 2);
		}
		assert_int_equal(an_compare(b, c, &gate, &res), 0);
		assert_true(res.nexceed == 4);
		for (i = 0; i < res.nexceed; i++) {
			const struct an_exceedance *e = &res.exceed[i];

			assert_true(e->checked);
			assert_true(e->check.reps == 10);
			if (!e->candidate || k == 0) {
				assert_string_equal(e->why, "");
				assert_true(e->us > 0 && e->lo <= e->us &&
					    e->us <= e->hi);
				assert_true(e->check.disp_p > 0.5);
				assert_true(e->check.fit_p > 0.01);
				continue;
			}
			assert_true(isnan(e->us));
			assert_non_null(strstr(e->why, why[k]));
			if (k == 1)
				assert_true(e->check.disp_p < 1e-3);
			else
				assert_true(e->check.fit_p < 1e-3);
		}
		an_result_release(&res);
		an_side_free(b);
		an_side_free(c);
	}
}

/* No interval end below a latency of 0, none beyond 10 times the line. */
static void test_interval_physical(void **state)
{
	struct an_line l = { .kind = AN_LINE_MAX, .cpu = 0, .base = 900,
			     .cand = 1000, .floor = 90, .lo = -950,
			     .hi = 4.153e10, .raw_base = 2000,
			     .raw_cand = 3000, .unit = "us" };
	char buf[64];
	double lo, hi;

	(void)state;
	an_line_interval_ends(&l, &lo, &hi);
	assert_true(lo == -900 && isnan(hi));
	assert_string_equal(an_line_interval(buf, sizeof(buf), &l),
			    "-900 us..unbounded");
	/* Up to 10 times the largest wake-up measured (3000 us). */
	l.hi = 29000 - 900;
	assert_string_equal(an_line_interval(buf, sizeof(buf), &l),
			    "-900..28100 us");
	l.hi = 30001 - 900;
	an_line_interval_ends(&l, &lo, &hi);
	assert_true(isnan(hi));
	/*
	 * A maximum against a tail law: an end stands for the law's maximum
	 * (candidate - end), neither below 0 nor beyond 10 times the line.
	 */
	l = (struct an_line){ .kind = AN_LINE_EXCEED, .cpu = 0, .base = 50,
			      .cand = 100, .floor = 5, .lo = -1e9, .hi = 150,
			      .raw_base = NAN, .raw_cand = NAN, .unit = "us" };
	assert_string_equal(an_line_interval(buf, sizeof(buf), &l),
			    "unbounded..100 us");
}

static void test_skipped_invalid(void **state)
{
	struct an_side *b = an_side_new("idle"), *c = an_side_new("rt");
	struct an_result res;
	struct an_gate gate;

	(void)state;
	an_gate_default(&gate);
	fill(an_side_add_run(b, "rep", 2), 2, 0, 0);
	c->status = AN_SIDE_SKIPPED;
	snprintf(c->reason, sizeof(c->reason), "requires preempt-rt");
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_SKIPPED);
	assert_non_null(strstr(res.reason, "preempt-rt"));
	an_result_release(&res);
	c->status = AN_SIDE_INVALID;
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INVALID);
	an_result_release(&res);
	/* A gate metric nobody measured is no pass. */
	c->status = AN_SIDE_OK;
	fill(an_side_add_run(c, "rep", 2), 2, 0, 0);
	snprintf(gate.metric, sizeof(gate.metric), "x.ns_per_read");
	assert_int_equal(an_compare(b, c, &gate, &res), 0);
	assert_int_equal(res.verdict, AN_INVALID);
	an_result_release(&res);
	assert_int_equal(an_verdict_exit(AN_REGRESSION), 1);
	assert_int_equal(an_verdict_exit(AN_INVALID), 2);
	assert_int_equal(an_verdict_exit(AN_SKIPPED), 0);
	an_side_free(b);
	an_side_free(c);
}

/*
 * One list of metric names for the suite parser, --metric and history:
 * a quantile is pN with N in (0, 100), digits only (no exponent, no hex).
 */
static void test_metric_names(void **state)
{
	static const struct {
		const char *name;
		enum an_metric_kind kind;
	} cases[] = {
		{ "max", AN_METRIC_MAX }, { "avg", AN_METRIC_AVG },
		{ "p50", AN_METRIC_QUANTILE }, { "p97", AN_METRIC_QUANTILE },
		{ "p99.9", AN_METRIC_QUANTILE },
		{ "p99.999", AN_METRIC_QUANTILE },
		{ "setparam.ns_per_call", AN_METRIC_WORKLOAD },
		{ "sysctl-read.ns_per_read", AN_METRIC_WORKLOAD },
		{ "p99.9999", AN_METRIC_UNKNOWN }, { "p100", AN_METRIC_UNKNOWN },
		{ "p0", AN_METRIC_UNKNOWN }, { "p1e1", AN_METRIC_UNKNOWN },
		{ "p0x10", AN_METRIC_UNKNOWN }, { "p 50", AN_METRIC_UNKNOWN },
		{ "p99.", AN_METRIC_UNKNOWN }, { "p", AN_METRIC_UNKNOWN },
		{ "fastest", AN_METRIC_UNKNOWN }, { ".x", AN_METRIC_UNKNOWN },
		{ "a.", AN_METRIC_UNKNOWN }, { "a.b c", AN_METRIC_UNKNOWN },
		{ "", AN_METRIC_UNKNOWN },
	};
	struct an_gate g;
	double q = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		an_gate_default(&g);
		snprintf(g.metric, sizeof(g.metric), "%s", cases[i].name);
		assert_int_equal(an_metric_kind(cases[i].name), cases[i].kind);
		assert_int_equal(an_gate_check(&g) == 0,
				 cases[i].kind != AN_METRIC_UNKNOWN);
	}
	assert_true(an_metric_quantile("p99.9", &q));
	assert_true(fabs(q - 0.999) < 1e-12);
	assert_false(an_metric_quantile("setparam.ns_per_call", &q));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_verdicts),
		cmocka_unit_test(test_one_huge_max),
		cmocka_unit_test(test_in_memory_api),
		cmocka_unit_test(test_spike_evidence),
		cmocka_unit_test(test_spike_many_cpus),
		cmocka_unit_test(test_spike_base_short),
		cmocka_unit_test(test_prior_df_caps),
		cmocka_unit_test(test_level_support_integers),
		cmocka_unit_test(test_blind_says_so),
		cmocka_unit_test(test_workload_metrics),
		cmocka_unit_test(test_aba_avg_floor),
		cmocka_unit_test(test_skipped_invalid),
		cmocka_unit_test(test_max_is_largest),
		cmocka_unit_test(test_exceedance_bounds),
		cmocka_unit_test(test_exceedance_checks),
		cmocka_unit_test(test_interval_physical),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_more_repetitions_never_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
