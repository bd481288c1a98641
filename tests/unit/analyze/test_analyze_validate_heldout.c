// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gate on data that tuned nothing (issue 23 item 6): the sittings of
 * tests/fixtures/validation were recorded on 2026-12-02, a day after the
 * sittings of tests/fixtures/real that every rule and asserted floor was
 * chosen on, with the constants frozen first. Nothing is fitted on them.
 *
 *  - A/A (idle against idle2): REGRESSION + IMPROVEMENT in at most alpha
 *    of all splits at 1, 2, 3 and 5 repetitions a side, with no profile
 *    and with the profile of the tuning sittings (a machine calibrated on
 *    another day).
 *  - The 100 us spinner against idle: never passed; how often it is found
 *    at 3 and 5 a side is printed (the 95 % at 5 a side does not
 *    hold on these busy sittings: docs/statistics.md).
 *
 * tests/fixtures/overload holds a sitting that failed this validation and
 * changed two rules (its README): tuning data now, it is held to what a
 * gate must keep anywhere (the A/A bound, never passing the spinner, a
 * spike never dropped), not to a power floor.
 *  - One wake-up of 10 times the baseline's worst planted in an A/A split:
 *    a REGRESSION or an INCONCLUSIVE that names it, in every split.
 *  - The other shapes of a sitting (shapes.suite: a rare long spin, a
 *    p99.9-only change, stalls of both CPUs) against idle: what 3 and 5
 *    repetitions a side say, printed for docs/statistics.md.
 *
 * A rate is printed with its Clopper-Pearson 95 % interval counted over
 * independent comparisons (disjoint splits: a sitting's rounds / 2k), not
 * over the overlapping splits drawn from them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "analyze/validate/validate.h"

#define VALID	"tests/fixtures/validation"
#define OVERLOAD	"tests/fixtures/overload"
#define TUNING	"tests/fixtures/real"
#define SPLITS	200
#define MAX_SITTINGS	16
#define MAX_SHAPES	8

struct sitting {
	char dir[PATH_MAX];
	bool overload;		/* tests/fixtures/overload: no power floor */
	struct an_side *idle, *idle2, *inject100;
	struct an_side *shape[MAX_SHAPES];
	size_t nshapes;
};

static struct sitting sit[MAX_SITTINGS];
static size_t nsit;
static struct an_profile tuning;	/* the tuning sittings' A/A groups */

/* The manifest's scenarios other than the A/A pair and the spinner. */
static void load_shapes(struct an_results *res, struct sitting *s)
{
	static const char *const shapes[] = { "rare-long", "p999",
					      "stall-both" };
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (s->nshapes < MAX_SHAPES &&
		    !an_results_side(res, shapes[i], &s->shape[s->nshapes]))
			s->nshapes++;
}

static size_t open_sittings(const char *top, struct sitting *out,
			    size_t max)
{
	struct dirent **ents;
	size_t n = 0;
	int k, i;

	k = scandir(top, &ents, NULL, alphasort);
	assert_true(k > 0);
	for (i = 0; i < k; i++) {
		struct an_results res;
		struct sitting *s = &out[n];
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/manifest.json", top,
			 ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !access(path, R_OK) &&
		    n < max) {
			memset(s, 0, sizeof(*s));
			snprintf(s->dir, sizeof(s->dir), "%s/%s", top,
				 ents[i]->d_name);
			assert_int_equal(an_results_open(s->dir, &res), 0);
			assert_int_equal(an_results_side(&res, "idle",
							 &s->idle), 0);
			assert_int_equal(an_results_side(&res, "idle2",
							 &s->idle2), 0);
			assert_int_equal(an_results_side(&res, "inject100",
							 &s->inject100), 0);
			load_shapes(&res, s);
			an_results_close(&res);
			n++;
		}
		free(ents[i]);
	}
	free(ents);
	return n;
}

static void close_sitting(struct sitting *s)
{
	size_t i;

	an_side_free(s->idle);
	an_side_free(s->idle2);
	an_side_free(s->inject100);
	for (i = 0; i < s->nshapes; i++)
		an_side_free(s->shape[i]);
}

static int load(void **state)
{
	struct sitting tune[MAX_SITTINGS];
	struct an_side *groups[2 * MAX_SITTINGS];
	size_t i, ntune, n = 0;

	(void)state;
	nsit = open_sittings(VALID, sit, MAX_SITTINGS);
	/* Sittings recorded after the constants were frozen. */
	assert_true(nsit >= 3);
	n = open_sittings(OVERLOAD, sit + nsit, MAX_SITTINGS - nsit);
	for (i = nsit; i < nsit + n; i++)
		sit[i].overload = true;
	nsit += n;
	n = 0;
	ntune = open_sittings(TUNING, tune, MAX_SITTINGS);
	for (i = 0; i < ntune; i++) {
		groups[n++] = tune[i].idle;
		groups[n++] = tune[i].idle2;
	}
	assert_int_equal(an_profile_build(groups, n, &tuning), 0);
	snprintf(tuning.origin, sizeof(tuning.origin), "the tuning sittings");
	for (i = 0; i < ntune; i++)
		close_sitting(&tune[i]);
	return 0;
}

static int unload(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < nsit; i++)
		close_sitting(&sit[i]);
	an_profile_free(&tuning);
	return 0;
}

/* Clopper-Pearson 95 % interval of x successes in n. */
static void cp95(double x, double n, double *lo, double *hi)
{
	*lo = x > 0 ? gsl_cdf_beta_Pinv(0.025, x, n - x + 1) : 0;
	*hi = x < n ? gsl_cdf_beta_Pinv(0.975, x + 1, n - x) : 1;
}

/* Independent comparisons in a sitting's rounds at k a side. */
static double disjoint(const struct an_side *s, size_t k, bool aa)
{
	return (double)(s->nruns / (aa ? 2 * k : k));
}

/* False: fewer valid rounds than k a side needs (a partial scenario). */
static bool replay(const struct an_side *a, const struct an_side *b,
		   size_t k, uint64_t seed, bool same, bool with_profile,
		   struct an_replay_count *c)
{
	struct an_gate gate;
	int ret;

	an_gate_default(&gate);
	if (with_profile)
		gate.profile = &tuning;
	ret = an_replay(a, b, k, SPLITS, seed, &gate, same, c);
	if (ret == -EINVAL)
		return false;
	assert_int_equal(ret, 0);
	return true;
}

static void aa(bool with_profile)
{
	static const size_t ks[] = { 1, 2, 3, 5 };
	size_t k, i;

	for (k = 0; k < 4; k++) {
		double changes = 0, splits = 0, ind = 0, lo, hi;

		for (i = 0; i < nsit; i++) {
			struct an_replay_count c;
			double r;

			assert_true(replay(sit[i].idle, sit[i].idle2, ks[k],
					   11 + k, true, with_profile, &c));
			r = (double)(c.verdict[AN_REGRESSION] +
				     c.verdict[AN_IMPROVEMENT]) / c.splits;
			printf("# A/A %s%s, %zu v %zu: %.1f%% false changes, "
			       "%.1f%% no change\n", sit[i].dir,
			       with_profile ? " (tuning profile)" : "", ks[k],
			       ks[k], 100 * r,
			       100.0 * c.verdict[AN_NO_CHANGE] / c.splits);
			changes += c.verdict[AN_REGRESSION] +
				   c.verdict[AN_IMPROVEMENT];
			splits += c.splits;
			ind += disjoint(sit[i].idle, ks[k], false);
		}
		cp95(changes / splits * ind, ind, &lo, &hi);
		printf("# A/A validation%s, %zu v %zu: %.1f%% false changes "
		       "(95 %% CP over %.0f independent comparisons: "
		       "%.1f-%.1f%%)\n", with_profile ? " (tuning profile)" :
		       "", ks[k], ks[k], 100 * changes / splits, ind,
		       100 * lo, 100 * hi);
		assert_true(changes / splits <= 0.05);
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

static void power(bool with_profile)
{
	static const size_t ks[] = { 3, 5 };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < nsit; i++) {
			struct an_replay_count c;
			double lo, hi, ind;

			assert_true(replay(sit[i].idle, sit[i].inject100,
					   ks[k], 5, false, with_profile, &c));
			ind = disjoint(sit[i].idle, ks[k], false);
			cp95((double)c.verdict[AN_REGRESSION] / c.splits * ind,
			     ind, &lo, &hi);
			printf("# inject 100 us %s%s, %zu v %zu: %.1f%% "
			       "REGRESSION (95 %% CP over %.0f: %.0f-%.0f%%), "
			       "%zu passed\n", sit[i].dir, with_profile ?
			       " (tuning profile)" : "", ks[k], ks[k],
			       100.0 * c.verdict[AN_REGRESSION] / c.splits,
			       ind, 100 * lo, 100 * hi,
			       c.verdict[AN_NO_CHANGE] +
			       c.verdict[AN_IMPROVEMENT]);
			/*
			 * A miss is INCONCLUSIVE, never a pass. The issue's
			 * bar, found in 95 % of every validation sitting's
			 * 5 v 5 splits, does not hold on the busy sittings of
			 * 2026-12-02 (docs/statistics.md): printed, not
			 * asserted, and the issue stays open on it.
			 */
			assert_int_equal(c.verdict[AN_NO_CHANGE], 0);
			assert_int_equal(c.verdict[AN_IMPROVEMENT], 0);
		}
}

static void test_power(void **state)
{
	(void)state;
	power(false);
	power(true);
}

/*
 * `run --until-decided` replayed (an_replay_sequential): from 3 and from 5
 * repetitions a side, one more a side at each look up to 10, alpha spent
 * over the looks as the runner spends it and each look judged at its
 * group-sequential boundary. Every order of a sitting's rounds ends on the
 * same 10 v 10 data, so the orders are not independent of each other: the
 * evidence is one sitting each. The spinner is never passed, the A/A
 * orders call a change in at most alpha of them, and in every validation
 * sitting the spinner is found in at least 95 % of the orders (the
 * issue's bar, "or by --until-decided within 10") and at least as often
 * from 5 as by a fixed 5 v 5. The overloaded sitting has no power floor.
 */
static void test_until_decided(void **state)
{
	static const size_t k0s[] = { 3, 5 };
	struct an_gate gate;
	size_t i, k;

	(void)state;
	an_gate_default(&gate);
	for (k = 0; k < 2; k++)
		for (i = 0; i < nsit; i++) {
			struct an_replay_count c, aa;
			double found, wrong, reps;

			if (sit[i].inject100->nruns < 10 ||
			    sit[i].idle->nruns < 10 || sit[i].idle2->nruns < 10)
				continue;
			assert_int_equal(an_replay_sequential(sit[i].idle,
				sit[i].inject100, k0s[k], 10, SPLITS, 9,
				&gate, false, &c), 0);
			assert_int_equal(an_replay_sequential(sit[i].idle,
				sit[i].idle2, k0s[k], 10, SPLITS, 9, &gate,
				true, &aa), 0);
			found = 100.0 * c.verdict[AN_REGRESSION] / c.splits;
			reps = (double)c.reps_used / c.splits;
			wrong = 100.0 * (aa.verdict[AN_REGRESSION] +
					 aa.verdict[AN_IMPROVEMENT]) / aa.splits;
			printf("# until decided %s, from %zu to 10: inject 100 us "
			       "%.1f%% REGRESSION after %.1f repetitions a side "
			       "on average, %zu passed; A/A %.1f%% false "
			       "changes\n", sit[i].dir, k0s[k], found, reps,
			       c.verdict[AN_NO_CHANGE] +
			       c.verdict[AN_IMPROVEMENT], wrong);
			assert_int_equal(c.verdict[AN_NO_CHANGE], 0);
			assert_int_equal(c.verdict[AN_IMPROVEMENT], 0);
			assert_true(wrong <= 100 * gate.alpha);
			if (!sit[i].overload)
				assert_true(found >= 95);
			if (k0s[k] == 5 && !sit[i].overload) {
				struct an_replay_count f;

				assert_true(replay(sit[i].idle,
					sit[i].inject100, 5, 9, false, false,
					&f));
				printf("#   fixed 5 v 5: %.1f%% REGRESSION\n",
				       100.0 * f.verdict[AN_REGRESSION] /
				       f.splits);
				assert_true(found >= 100.0 *
					    f.verdict[AN_REGRESSION] / f.splits);
			}
		}
}

static void test_planted_spike(void **state)
{
	static const size_t ks[] = { 1, 2, 3, 5 };
	struct an_gate gate;
	size_t i, k, p;

	(void)state;
	for (p = 0; p < 2; p++)
		for (i = 0; i < nsit; i++)
			for (k = 0; k < 4; k++) {
				struct an_replay_count c;

				if (sit[i].idle->nruns < 2 * ks[k])
					continue;
				an_gate_default(&gate);
				gate.profile = p ? &tuning : NULL;
				assert_int_equal(an_replay_spike(sit[i].idle,
					ks[k], 50, 5, &gate, 10, &c), 0);
				printf("# 10x spike %s%s, %zu v %zu: %.0f%% "
				       "REGRESSION, %.0f%% INCONCLUSIVE naming "
				       "it\n", sit[i].dir, p ?
				       " (tuning profile)" : "", ks[k], ks[k],
				       100.0 * c.verdict[AN_REGRESSION] /
				       c.splits, 100.0 * c.spikes_named /
				       c.splits);
				assert_int_equal(c.verdict[AN_REGRESSION] +
						 c.spikes_named, c.splits);
			}
}

/* The new shapes against idle: printed, and never an IMPROVEMENT. */
static void test_shapes(void **state)
{
	static const size_t ks[] = { 3, 5 };
	size_t i, j, k;

	(void)state;
	for (i = 0; i < nsit; i++)
		for (j = 0; j < sit[i].nshapes; j++)
			for (k = 0; k < 2; k++) {
				struct an_replay_count c;

				if (!replay(sit[i].idle, sit[i].shape[j],
					    ks[k], 7, false, true, &c)) {
					printf("# %s %s: fewer than %zu valid "
					       "repetitions\n", sit[i].dir,
					       sit[i].shape[j]->name, ks[k]);
					continue;
				}
				printf("# %s %s vs idle (tuning profile), %zu v "
				       "%zu: %.0f%% REGRESSION, %.0f%% "
				       "INCONCLUSIVE, %.0f%% NO CHANGE\n",
				       sit[i].dir, sit[i].shape[j]->name,
				       ks[k], ks[k], 100.0 *
				       c.verdict[AN_REGRESSION] / c.splits,
				       100.0 * c.verdict[AN_INCONCLUSIVE] /
				       c.splits, 100.0 *
				       c.verdict[AN_NO_CHANGE] / c.splits);
				assert_int_equal(c.verdict[AN_IMPROVEMENT], 0);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_no_profile),
		cmocka_unit_test(test_aa_profile),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_until_decided),
		cmocka_unit_test(test_planted_spike),
		cmocka_unit_test(test_shapes),
	};

	return cmocka_run_group_tests(tests, load, unload);
}
