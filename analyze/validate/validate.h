/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/validate: the analyzer judged on recordings and simulations
 * (bench/, the validation tests).
 */
#ifndef RTGATE_ANALYZE_VALIDATE_H
#define RTGATE_ANALYZE_VALIDATE_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/analyze.h"

/* ---- Replays of recorded sittings ---- */

/*
 * Recorded repetitions replayed through an_compare() in many splits: how
 * often the gate calls two sides of one condition different (false
 * alarms) and how often it finds a known injected latency (power). The
 * real-data tables of docs/statistics.md and the fixture test of
 * tests/unit/analyze/test_analyze_validate_tuning.c are made with it.
 */

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

/* ---- Simulation ---- */

/*
 * The calibration simulation (docs/statistics.md): sides drawn from
 * heavy-tailed latency models with run-to-run variation and occasional
 * host-noise spikes, judged in pairs to measure the false-positive rate
 * (A/A pairs) and the power against injected shifts.
 */

enum an_sim_model {
	AN_SIM_RT,		/* bare-metal PREEMPT_RT: 3-4 us, tail ~15 */
	AN_SIM_VM,		/* a busy VM: ~18 us, long tail, ms spikes */
};

enum an_sim_shift {
	AN_SHIFT_ALL,		/* every candidate sample + shift */
	AN_SHIFT_TAIL,		/* only the tail (0.1-2% of samples) + shift */
};

struct an_sim_params {
	enum an_sim_model model;
	enum an_sim_shift how;
	size_t reps;		/* per side */
	size_t cpus;
	uint64_t cycles;	/* of thread 0 per run; thread j: / (1 + j/2) */
	double shift_us;	/* candidate minus baseline; 0: an A/A pair */
	bool summary_only;	/* drop histograms: pasted T: lines */
};

/*
 * One side drawn from the model with GSL's variates from @rng; NULL on
 * allocation failure.
 */
struct an_side *an_sim_side(const struct an_sim_params *p, bool candidate,
			    gsl_rng *rng);

/*
 * Judges pairs pairs; count[v] = how many got verdict v. The sides come
 * from GSL's MT19937 (gsl_rng_mt19937) set to @seed: the same seed, the
 * same pairs and counts. 0, or -1 when memory ran out.
 */
int an_sim_run(const struct an_sim_params *p, const struct an_gate *gate,
	       size_t pairs, uint64_t seed, size_t count[AN_REGRESSION + 1]);

#endif
