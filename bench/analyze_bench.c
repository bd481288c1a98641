// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a large comparison costs: two sides of 50 repetitions x 8 CPUs of
 * `cyclictest -h 100000 --json`, read from files as `rtgate compare DIR
 * DIR` reads them and judged with the default gate; the time and the peak
 * memory (RSS) are printed. Real histograms hold a few hundred non-empty
 * buckets, some far out; the files here have 400 per thread, spread to
 * near the limit. A second measurement fills every one of the 100,000
 * buckets in memory (the worst case, no files). Not a test:
 *
 *   make bench && build/obj/bench/analyze_bench [REPS [CPUS [BUCKETS]]]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"

#define SPARSE_BUCKETS	400

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/* One run's --json, as rt-tests 2.x writes it (stray colons included). */
static int write_json(const char *path, size_t cpus, size_t limit,
		      unsigned int seed, int shift)
{
	FILE *f = fopen(path, "w");
	size_t j, i;

	if (!f)
		return -errno;
	fprintf(f, "{\n  \"file_version\": 1,\n  \"cmdline:\": \"cyclictest "
		"--smp -p95 -m -i 1000 -D 60 -h %zu --json=x\",\n  "
		"\"rt_test_version:\": \"2.40\",\n  \"start_time\": "
		"\"Tue Dec 01 10:%02u:00 2026\",\n  \"num_threads\": %zu,\n"
		"  \"thread\": {\n", limit, seed % 60, cpus);
	for (j = 0; j < cpus; j++) {
		unsigned long long cycles = 0, top = 0;

		fprintf(f, "    \"%zu\": {\n      \"histogram\": {", j);
		for (i = 0; i < SPARSE_BUCKETS; i++) {
			/* A body near 20 us, then a tail out to the limit. */
			size_t us = i < 60 ? 10 + i + shift :
				    (size_t)(70 + shift + pow((double)(i - 60) /
						(SPARSE_BUCKETS - 60), 3) *
					     (limit - 200));
			unsigned long long n = i < 60 ?
				2000 + 50 * ((seed + i + j) % 7) :
				1 + (seed + i) % 3;

			if (us >= limit)
				us = limit - 1;
			if (us <= top && i)
				us = top + 1;
			top = us;
			cycles += n;
			fprintf(f, "%s\"%zu\": %llu", i ? ", " : "", us, n);
		}
		fprintf(f, "},\n      \"cycles\": %llu,\n      \"min\": 10,\n"
			"      \"max\": %llu,\n      \"avg\": 40.0,\n      "
			"\"cpu\": %zu,\n      \"node\": 0\n    }%s\n", cycles,
			top, j, j + 1 < cpus ? "," : "");
	}
	fprintf(f, "  }\n}\n");
	return fclose(f) ? -errno : 0;
}

static int write_side(const char *dir, size_t reps, size_t cpus, size_t limit,
		      int shift)
{
	char path[4096];
	size_t r;
	int ret;

	if (mkdir(dir, 0700))
		return -errno;
	for (r = 0; r < reps; r++) {
		snprintf(path, sizeof(path), "%s/%zu.json", dir, r + 1);
		ret = write_json(path, cpus, limit, r * 7, shift);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every bucket filled, in memory: the analyzer's worst case. */
static struct an_side *dense_side(const char *name, size_t reps, size_t cpus,
				  size_t n, double shift)
{
	struct an_side *s = an_side_new(name);
	uint64_t *h = malloc(n * sizeof(*h));
	size_t r, j, i;

	for (r = 0; s && h && r < reps; r++) {
		struct an_run *run = an_side_add_run(s, "rep", cpus);

		for (j = 0; run && j < cpus; j++) {
			struct an_cpu *c = &run->cpus[j];

			for (i = 0; i < n; i++) {
				double x = (double)i - shift;

				h[i] = (uint64_t)(x > 0 ? 1e7 *
					exp(-fabs(x - 20) / 3) : 0) +
				       (uint64_t)(1e5 / (1 + x * x / 100)) +
				       1 + (r + j + i) % 3;
			}
			c->min_us = 0;
			c->max_us = n - 1;
			c->avg_us = 25;
			if (an_cpu_set_hist(c, h, n, n))
				return NULL;
		}
	}
	free(h);
	return s;
}

int main(int argc, char **argv)
{
	size_t reps = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;
	size_t cpus = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;
	size_t n = argc > 3 ? strtoul(argv[3], NULL, 10) : 100000;
	char tmp[] = "/tmp/rtgate-bench.XXXXXX", a[4096], b[4096], cmd[4200];
	struct an_side *sb, *sc;
	struct an_result res;
	struct an_gate gate;
	double t0, t1, c0, c1;

	if (!mkdtemp(tmp))
		return 1;
	snprintf(a, sizeof(a), "%s/base", tmp);
	snprintf(b, sizeof(b), "%s/cand", tmp);
	if (write_side(a, reps, cpus, n, 0) || write_side(b, reps, cpus, n, 3))
		return 1;
	an_gate_default(&gate);
	printf("%zu repetitions x %zu CPUs a side, -h %zu, %d non-empty "
	       "buckets a thread (--json files)\n", reps, cpus, n,
	       SPARSE_BUCKETS);
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	if (an_input_read(a, &sb) || an_input_read(b, &sc) ||
	    an_compare(sb, sc, &gate, &res))
		return 1;
	t1 = now(CLOCK_MONOTONIC);
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	printf("  read + compare: %.3f s CPU, %.3f s wall, peak RSS %ld MB; "
	       "%zu lines, %s\n", c1 - c0, t1 - t0, rss_mb(), res.nlines,
	       an_verdict_name(res.verdict));
	an_result_release(&res);
	an_side_free(sb);
	an_side_free(sc);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		return 1;

	printf("every one of %zu buckets filled, in memory\n", n);
	t0 = now(CLOCK_MONOTONIC);
	sb = dense_side("baseline", reps, cpus, n, 0);
	sc = dense_side("candidate", reps, cpus, n, 3);
	if (!sb || !sc)
		return 1;
	t1 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	if (an_compare(sb, sc, &gate, &res))
		return 1;
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	printf("  building: %.3f s; compare: %.3f s CPU; peak RSS %ld MB; "
	       "%s\n", t1 - t0, c1 - c0, rss_mb(),
	       an_verdict_name(res.verdict));
	an_result_release(&res);
	an_side_free(sb);
	an_side_free(sc);
	return 0;
}
