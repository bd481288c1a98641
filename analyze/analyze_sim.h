/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calibration simulation (docs/statistics.md): sides drawn from
 * heavy-tailed latency models with run-to-run variation and occasional
 * host-noise spikes, judged in pairs to measure the false-positive rate
 * (A/A pairs) and the power against injected shifts.
 */
#ifndef RTGATE_ANALYZE_SIM_H
#define RTGATE_ANALYZE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

#include "analyze.h"

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
