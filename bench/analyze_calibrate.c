// SPDX-License-Identifier: GPL-2.0-only
/*
 * The calibration table of docs/statistics.md: false-positive rate of A/A
 * pairs and power against injected shifts, for each latency model and
 * input shape. `make bench && build/obj/bench/analyze_calibrate [PAIRS]`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analyze/validate/validate.h"

struct shape {
	const char *name;
	size_t reps, cpus;
	uint64_t cycles;
	bool summary_only;
};

static const struct shape shapes[] = {
	{ "3+3 runs x 2 CPUs, histograms", 3, 2, 20000, false },
	{ "5+5 runs x 4 CPUs, histograms", 5, 4, 20000, false },
	{ "1+1 run x 2 CPUs, histograms", 1, 2, 60000, false },
	{ "1+1 run x 7 CPUs, T: lines only", 1, 7, 5000, true },
	{ "3+3 runs x 7 CPUs, T: lines only", 3, 7, 5000, true },
};

static const double shifts[] = { 0, 2, 5, 10, 30 };

int main(int argc, char **argv)
{
	size_t pairs = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	size_t count[AN_REGRESSION + 1], s, k, m, h;
	struct an_gate gate;
	struct an_sim_params p;
	clock_t t0 = clock();

	an_gate_default(&gate);
	printf("%zu pairs per cell; gate %s, alpha %g, floor %g us / %g%%\n",
	       pairs, gate.metric, gate.alpha, gate.min_increase_us,
	       gate.min_increase_pct);
	for (m = 0; m < 2; m++)
		for (h = 0; h < 2; h++)
			for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]);
			     s++) {
				printf("\n%s model, shift of %s, %s\n",
				       m ? "VM" : "RT", h ? "the tail" :
				       "every sample", shapes[s].name);
				printf("  shift  REGRESSION  IMPROVEMENT  "
				       "NO-CHANGE  INCONCLUSIVE\n");
				for (k = 0; k < sizeof(shifts) /
				     sizeof(shifts[0]); k++) {
					p = (struct an_sim_params){
						.model = m, .how = h,
						.reps = shapes[s].reps,
						.cpus = shapes[s].cpus,
						.cycles = shapes[s].cycles,
						.shift_us = shifts[k],
						.summary_only =
							shapes[s].summary_only,
					};
					if (an_sim_run(&p, &gate, pairs,
						       1000 + k, count))
						return 1;
					printf("  %5.0f  %9.1f%%  %10.1f%%  "
					       "%8.1f%%  %11.1f%%\n", shifts[k],
					       100.0 * count[AN_REGRESSION] /
					       pairs, 100.0 *
					       count[AN_IMPROVEMENT] / pairs,
					       100.0 * count[AN_NO_CHANGE] /
					       pairs, 100.0 *
					       count[AN_INCONCLUSIVE] / pairs);
				}
			}
	printf("\n%.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	return 0;
}
