// SPDX-License-Identifier: GPL-2.0-only
/*
 * How long one comparison takes at scale: two sides of 50 repetitions x
 * 8 CPUs with 100,000-bucket histograms (cyclictest -h 100000), every
 * bucket filled (the worst case for the analyzer), judged with the
 * default gate. Not a test: `make bench && build/obj/bench/analyze_bench`.
 *
 *   analyze_bench [REPS [CPUS [BUCKETS]]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analyze/analyze.h"

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A heavy-tailed histogram: every bucket non-empty, a tail to the end. */
static int fill(struct an_cpu *c, uint64_t *h, size_t n, unsigned int seed,
		double shift)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double x = (double)i - shift;
		double body = x > 0 ? 1e7 * exp(-fabs(x - 20) / 3) : 0;

		h[i] = (uint64_t)(body + 1e5 / (1 + x * x / 100)) + 1 +
		       (seed + i) % 3;
	}
	c->cycles = 0;
	c->min_us = 0;
	c->max_us = n - 1;
	c->avg_us = 25;
	return an_cpu_set_hist(c, h, n, n);
}

static struct an_side *side(const char *name, size_t reps, size_t cpus,
			    size_t n, double shift, uint64_t *h)
{
	struct an_side *s = an_side_new(name);
	size_t r, j;

	for (r = 0; s && r < reps; r++) {
		struct an_run *run = an_side_add_run(s, "rep", cpus);

		for (j = 0; run && j < cpus; j++)
			if (fill(&run->cpus[j], h, n, r * 7 + j, shift))
				return NULL;
	}
	return s;
}

int main(int argc, char **argv)
{
	size_t reps = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;
	size_t cpus = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;
	size_t n = argc > 3 ? strtoul(argv[3], NULL, 10) : 100000;
	uint64_t *h = malloc(n * sizeof(*h));
	struct an_side *b, *c;
	struct an_result res;
	struct an_gate gate;
	double t0, t1, t2, c1, c2;

	if (!h)
		return 1;
	t0 = now(CLOCK_MONOTONIC);
	b = side("baseline", reps, cpus, n, 0, h);
	c = side("candidate", reps, cpus, n, 3, h);
	if (!b || !c)
		return 1;
	t1 = now(CLOCK_MONOTONIC);
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	an_gate_default(&gate);
	if (an_compare(b, c, &gate, &res))
		return 1;
	t2 = now(CLOCK_MONOTONIC);
	c2 = now(CLOCK_PROCESS_CPUTIME_ID);
	printf("%zu repetitions x %zu CPUs x %zu buckets per side\n", reps,
	       cpus, n);
	printf("building the sides: %.3f s\n", t1 - t0);
	/* CPU time too: on a shared machine the wall clock waits. */
	printf("an_compare: %.3f s CPU, %.3f s wall; %zu evidence lines, "
	       "verdict %s\n", c2 - c1, t2 - t1, res.nlines,
	       an_verdict_name(res.verdict));
	an_result_release(&res);
	an_side_free(b);
	an_side_free(c);
	free(h);
	return 0;
}
