// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gate on real data (issue 12, docs/statistics.md): every sitting
 * recorded on the test machine (tests/fixtures/real, record.sh) is
 * replayed through an_compare() in many splits, as a suite run of k
 * repetitions a side would see them (k rounds; a round holds one
 * repetition of every scenario, in random order).
 *
 *  - A/A: idle against idle2, the same rounds, either one the baseline:
 *    REGRESSION + IMPROVEMENT in at most alpha of the splits at 1, 2, 3
 *    and 5 repetitions a side, without a noise profile and with one made
 *    from the other sittings (a machine calibrated on another day).
 *  - Power: the 100 us spinner on CPU 1 (inject100) against idle is never
 *    passed (no split says NO CHANGE or IMPROVEMENT). With five
 *    repetitions a side it is found in at least 95 % of all sittings'
 *    splits, and in at least 90 % of every sitting's (95 % with a noise
 *    profile made of the other sittings); with three, in at least 95 % of
 *    all splits with a profile (issue 12's bar; 94 % without one since
 *    lulls are no longer left out), and 70 % of
 *    every sitting's (75 % with a profile). What three repetitions miss
 *    is a sitting's bursts (a host pause that delays a run of wake-ups on
 *    both CPUs: quiet-1's rounds 8-10); the lines of each CPU against the
 *    others (analyze_lines_rel.c) see through most of them. The misses
 *    say INCONCLUSIVE (exit 2); docs/statistics.md.
 *  - The quick suite's control, the 300 us spinner, at a quick
 *    comparison's share of alpha: found in at least 97 % of every
 *    sitting's 3 v 3 splits.
 */
#include <dirent.h>
#include <unistd.h>
#include <limits.h>
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
#include "analyze/validate/validate.h"

#define REAL	"tests/fixtures/real"
#define QUIET	"tests/fixtures/quietlab"
#define SPLITS	200
#define MAX_SITTINGS	16

struct sitting {
	char dir[PATH_MAX];
	struct an_side *idle, *idle2, *inject100, *inject300;
};

static struct sitting sit[MAX_SITTINGS];
static size_t nsit;

static int load(void **state)
{
	struct dirent **ents;
	int n, i;

	(void)state;
	n = scandir(REAL, &ents, NULL, alphasort);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		struct an_results res;
		struct sitting *s = &sit[nsit];
		char path[PATH_MAX];

		snprintf(path, sizeof(path), REAL "/%s/manifest.json",
			 ents[i]->d_name);
		if (ents[i]->d_name[0] == '.' || access(path, R_OK) ||
		    nsit == MAX_SITTINGS) {
			free(ents[i]);
			continue;
		}
		snprintf(s->dir, sizeof(s->dir), REAL "/%s", ents[i]->d_name);
		assert_int_equal(an_results_open(s->dir, &res), 0);
		assert_int_equal(an_results_side(&res, "idle", &s->idle), 0);
		assert_int_equal(an_results_side(&res, "idle2", &s->idle2), 0);
		assert_int_equal(an_results_side(&res, "inject100",
						 &s->inject100), 0);
		assert_int_equal(an_results_side(&res, "inject300",
						 &s->inject300), 0);
		an_results_close(&res);
		nsit++;
		free(ents[i]);
	}
	free(ents);
	/* The issue asks for several sittings and >= 30 idle repetitions. */
	assert_true(nsit >= 2);
	return 0;
}

static int unload(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < nsit; i++) {
		an_side_free(sit[i].idle);
		an_side_free(sit[i].idle2);
		an_side_free(sit[i].inject100);
		an_side_free(sit[i].inject300);
	}
	return 0;
}

/* A profile from every sitting but skip (A/A idle and idle2 groups). */
static bool profile_without(size_t skip, struct an_profile *pr)
{
	struct an_side *groups[2 * MAX_SITTINGS];
	size_t i, n = 0;

	for (i = 0; i < nsit; i++)
		if (i != skip) {
			groups[n++] = sit[i].idle;
			groups[n++] = sit[i].idle2;
		}
	if (!n)
		return false;
	assert_int_equal(an_profile_build(groups, n, pr), 0);
	snprintf(pr->origin, sizeof(pr->origin), "the other sittings");
	return true;
}

/*
 * Splits of sitting i's sides a (baseline) and b through the default gate
 * at level (0: all of alpha), with a profile of the other sittings or
 * without one.
 */
static void replay(size_t i, const struct an_side *a, const struct an_side *b,
		   size_t k, uint64_t seed, bool same, bool with_profile,
		   double level, struct an_replay_count *c)
{
	struct an_profile pr;
	struct an_gate gate;
	bool have = false;

	an_gate_default(&gate);
	gate.level = level;
	if (with_profile && (have = profile_without(i, &pr)))
		gate.profile = &pr;
	assert_int_equal(an_replay(a, b, k, SPLITS, seed, &gate, same, c), 0);
	if (have)
		an_profile_free(&pr);
}

static void aa(bool with_profile)
{
	static const size_t ks[] = { 1, 2, 3, 5 };
	size_t k, i, idle_reps = 0;

	for (i = 0; i < nsit; i++)
		idle_reps += sit[i].idle->nruns + sit[i].idle2->nruns;
	assert_true(idle_reps >= 30);
	for (k = 0; k < 4; k++) {
		size_t changes = 0, splits = 0;

		for (i = 0; i < nsit; i++) {
			struct an_replay_count c;
			double r;

			replay(i, sit[i].idle, sit[i].idle2, ks[k], 11 + k,
			       true, with_profile, 0, &c);
			r = (double)(c.verdict[AN_REGRESSION] +
				     c.verdict[AN_IMPROVEMENT]) / c.splits;
			printf("# A/A %s%s, %zu v %zu: %.1f%% false changes, "
			       "%.1f%% no change\n", sit[i].dir,
			       with_profile ? " (profile of the others)" : "",
			       ks[k], ks[k], 100 * r,
			       100.0 * c.verdict[AN_NO_CHANGE] / c.splits);
			/* One sitting alone: a loose bound on its noise. */
			assert_true(r <= 0.10);
			changes += c.verdict[AN_REGRESSION] +
				   c.verdict[AN_IMPROVEMENT];
			splits += c.splits;
		}
		printf("# A/A all sittings%s, %zu v %zu: %.1f%% false "
		       "changes\n", with_profile ? " (profiles)" : "", ks[k],
		       ks[k], 100.0 * changes / splits);
		assert_true((double)changes / splits <= 0.05);
	}
}

static void test_aa_no_profile(void **state)
{
	(void)state;
	aa(false);
}

static void test_aa_profile(void **state)
{
	(void)state;
	aa(true);
}

/*
 * The 100 us spinner, k repetitions a side, in every sitting: never passed;
 * found in at least min_each of every sitting's splits and min_all of
 * them all.
 */
static void power(bool with_profile, size_t k, double min_each,
		  double min_all)
{
	size_t i, found = 0, splits = 0;

	for (i = 0; i < nsit; i++) {
		struct an_replay_count c;

		replay(i, sit[i].idle, sit[i].inject100, k, 5, false,
		       with_profile, 0, &c);
		printf("# inject 100 us %s%s, %zu v %zu: %.1f%% REGRESSION\n",
		       sit[i].dir, with_profile ? " (profile)" : "", k, k,
		       100.0 * c.verdict[AN_REGRESSION] / c.splits);
		/* A miss is INCONCLUSIVE, never a pass. */
		assert_int_equal(c.verdict[AN_NO_CHANGE], 0);
		assert_int_equal(c.verdict[AN_IMPROVEMENT], 0);
		assert_true(c.verdict[AN_REGRESSION] >= min_each * c.splits);
		found += c.verdict[AN_REGRESSION];
		splits += c.splits;
	}
	printf("# inject 100 us, all sittings%s, %zu v %zu: %.1f%% "
	       "REGRESSION\n", with_profile ? " (profiles)" : "", k, k,
	       100.0 * found / splits);
	assert_true((double)found / splits >= min_all);
}

static void test_power_no_profile(void **state)
{
	(void)state;
	/*
	 * 94 % at 3 v 3 over all sittings (95 % until a repetition below
	 * its side stopped being left out as a "lull": busy-3 went from 100
	 * to 96 %; the rule change is a validity fix, busy-4's A/A).
	 */
	power(false, 3, 0.70, 0.94);
	power(false, 5, 0.90, 0.95);
}

static void test_power_profile(void **state)
{
	(void)state;
	power(true, 3, 0.75, 0.95);
	power(true, 5, 0.95, 0.95);
}

/*
 * The spinner taken off CPU 1 (inject100 the baseline, idle the
 * candidate): CPU 1 fell, and CPU 0 rose against it. That must never be
 * called CPU 0's regression on a line against the other CPUs: a burst in
 * one candidate repetition can hide CPU 1's fall in its own line, so the
 * guard asks CPU 0's own line to show the rise alone
 * (analyze_lines_rel.c). At 2, 3 and 5 a side, with and without a profile.
 * (A REGRESSION on a CPU's own line may happen: on busy-2 removing the
 * spinner raised CPU 0's tail, a VM's effect, in 6-12 % of the splits.)
 */
static void test_spinner_off_not_others(void **state)
{
	static const size_t ks[] = { 2, 3, 5 };
	size_t i, k, p, rel = 0, regs = 0, splits = 0;

	(void)state;
	for (p = 0; p < 2; p++)
		for (k = 0; k < 3; k++)
			for (i = 0; i < nsit; i++) {
				struct an_replay_count c;

				replay(i, sit[i].inject100, sit[i].idle, ks[k],
				       11, false, p, 0, &c);
				rel += c.rel_regressions;
				regs += c.verdict[AN_REGRESSION];
				splits += c.splits;
			}
	printf("# spinner off: %zu of %zu splits REGRESSION, %zu of them on a "
	       "line against the other CPUs\n", regs, splits, rel);
	assert_true(splits > 0);
	assert_int_equal(rel, 0);
}

/*
 * The quick suite's positive control (suites/quick.suite): the 300 us
 * spinner, three repetitions a side, at the share of alpha a quick
 * comparison gets (0.05 over its two comparisons): found in at least 97 %
 * of every sitting's splits, with a profile of the others and without
 * one. (98 % until a profile set aside for scattering less than a line's
 * repetitions stopped adding its degrees of freedom to them: busy-2 with
 * a profile went from 100 to 97.5 %, quiet-2 99 %, the others 100 %.)
 */
static void test_quick_control(void **state)
{
	size_t i, p;

	(void)state;
	for (p = 0; p < 2; p++)
		for (i = 0; i < nsit; i++) {
			struct an_replay_count c;

			replay(i, sit[i].idle, sit[i].inject300, 3, 7, false,
			       p, 0.025, &c);
			printf("# inject 300 us %s%s, 3 v 3 at 0.025: %.1f%% "
			       "REGRESSION\n", sit[i].dir, p ? " (profile)" :
			       "", 100.0 * c.verdict[AN_REGRESSION] / c.splits);
			assert_true(c.verdict[AN_REGRESSION] >= 0.97 * c.splits);
		}
}

/*
 * Issue 23: a spike is evidence. In every recording (the host-clock
 * sittings and the quiet lab's), one wake-up of 10 times the baseline's
 * worst planted in one candidate repetition of an A/A split is a
 * REGRESSION, or an INCONCLUSIVE that names it: never a pass, never an
 * improvement. At 1, 2, 3 and 5 a side, with a profile of the other
 * sittings and without one.
 */
static void spike_splits(const char *what, const struct an_side *s,
			 const struct an_profile *pr)
{
	static const size_t ks[] = { 1, 2, 3, 5 };
	struct an_gate gate;
	size_t k;

	an_gate_default(&gate);
	gate.profile = pr;
	for (k = 0; k < 4; k++) {
		struct an_replay_count c;

		if (s->nruns < 2 * ks[k])
			continue;
		assert_int_equal(an_replay_spike(s, ks[k], 50, 5, &gate, 10,
						 &c), 0);
		printf("# 10x spike %s%s, %zu v %zu: %.0f%% REGRESSION, %.0f%% "
		       "INCONCLUSIVE naming it\n", what, pr ? " (profile)" : "",
		       ks[k], ks[k], 100.0 * c.verdict[AN_REGRESSION] /
		       c.splits, 100.0 * c.spikes_named / c.splits);
		assert_int_equal(c.verdict[AN_REGRESSION] + c.spikes_named,
				 c.splits);
	}
}

static void test_planted_spike(void **state)
{
	static const char *const quiet[] = { QUIET "/tune-1",
					     QUIET "/validate-1" };
	struct an_profile pr;
	size_t i;

	(void)state;
	for (i = 0; i < nsit; i++) {
		spike_splits(sit[i].dir, sit[i].idle, NULL);
		assert_true(profile_without(i, &pr));
		spike_splits(sit[i].dir, sit[i].idle, &pr);
		an_profile_free(&pr);
	}
	for (i = 0; i < 2; i++) {
		struct an_results res;
		struct an_side *idle;

		assert_int_equal(an_results_open(quiet[i], &res), 0);
		assert_int_equal(an_results_side(&res, "idle", &idle), 0);
		an_results_close(&res);
		spike_splits(quiet[i], idle, NULL);
		an_side_free(idle);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_no_profile),
		cmocka_unit_test(test_aa_profile),
		cmocka_unit_test(test_power_no_profile),
		cmocka_unit_test(test_power_profile),
		cmocka_unit_test(test_quick_control),
		cmocka_unit_test(test_spinner_off_not_others),
		cmocka_unit_test(test_planted_spike),
	};

	return cmocka_run_group_tests(tests, load, unload);
}
