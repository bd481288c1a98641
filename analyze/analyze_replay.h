/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Recorded repetitions replayed through an_compare() in many splits: how
 * often the gate calls two sides of one condition different (false
 * alarms) and how often it finds a known injected latency (power). The
 * real-data tables of docs/statistics.md and the fixture test of
 * tests/unit/test_analyze_real.c are made with it.
 */
#ifndef RTGATE_ANALYZE_REPLAY_H
#define RTGATE_ANALYZE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze.h"

struct an_replay_count {
	size_t splits;
	size_t verdict[AN_REGRESSION + 1];
	size_t rel_regressions;	/* REGRESSIONs resting on a line of a CPU
				 * against the others (AN_LINE_REL) */
	size_t spikes_named;	/* INCONCLUSIVEs whose reason names the
				 * planted spike (an_replay_spike) */
	size_t reps_used;	/* repetitions a side, summed over the
				 * orders (an_replay_sequential) */
};

/*
 * k repetitions of a against k of b, nsplits times. Repetitions are paired
 * by their number (rep r of every scenario of a run ran in round r, side
 * by side in time), so each split draws k rounds and takes a's and b's
 * repetitions of those rounds, as a suite run of k repetitions would.
 * When a == b the split draws 2k rounds and compares their halves (A/A
 * within one scenario). same_condition (two identical scenarios, A/A)
 * swaps baseline and candidate every other split, so a false alarm in
 * either direction counts. seed makes the draws repeat. Returns 0,
 * -EINVAL (fewer rounds than the split needs) or -ENOMEM.
 */
int an_replay(const struct an_side *a, const struct an_side *b, size_t k,
	      size_t nsplits, uint64_t seed, const struct an_gate *gate,
	      bool same_condition, struct an_replay_count *out);

/*
 * A/A splits of one side (2k rounds, halves compared, as an_replay with
 * a == b) with a spike planted in each: one wake-up of factor times the
 * baseline half's worst on that CPU, in one candidate repetition (the
 * split's first; CPU split % ncpus), in place of its smallest wake-up.
 * Counts verdicts and the INCONCLUSIVEs that name the spike ("one
 * wake-up of").
 */
int an_replay_spike(const struct an_side *a, size_t k, size_t nsplits,
		    uint64_t seed, const struct an_gate *gate, double factor,
		    struct an_replay_count *out);

/*
 * `run --until-decided` replayed: norders random orders of the rounds a
 * and b share (at least kmax), each judged at k0, k0 + 1, ... kmax
 * repetitions a side until a look is not INCONCLUSIVE, every look at what
 * it adds to the alpha spent (an_alpha_spent, the runner's Pocock-type
 * spending, with the gate's share of alpha and t = k / kmax). Counts the
 * verdict each order stops with, and the repetitions it took. a and b
 * are two scenarios (same_condition: an A/A pair, baseline and candidate
 * swapped every other order). Returns 0, -EINVAL or -ENOMEM.
 */
int an_replay_sequential(const struct an_side *a, const struct an_side *b,
			 size_t k0, size_t kmax, size_t norders, uint64_t seed,
			 const struct an_gate *gate, bool same_condition,
			 struct an_replay_count *out);

#endif
