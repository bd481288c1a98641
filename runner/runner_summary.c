// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end-of-run table until the analyzer reports: per scenario and CPU,
 * min / avg / max over its valid repetitions, from cyclictest's final T:
 * lines (avg weighted by cycles). No verdict: comparing is the analyzer's.
 */
#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "runner/runner_priv.h"
#include "textfmt.h"

#define SUMMARY_CPUS 256

struct cpu_sum {
	long min, max;
	double avg_x_cycles;
	long cycles;
	bool seen;
};

/* "SKIPPED: why", the why wrapped to the terminal under the row. */
static void wrap_reason(const char *what, const char *why, int col)
{
	char buf[1280];

	snprintf(buf, sizeof(buf), "%s: %s", what, why);
	text_wrap_hanging(stdout, buf, col, col + 2,
			  text_columns(STDOUT_FILENO, 100));
}

static void scenario_rows(const struct runner_scen_result *sr, int width)
{
	struct cpu_sum cpus[SUMMARY_CPUS] = { { 0 } };
	size_t i, j, valid = 0;
	const char *vs = sr->sc->compare ? sr->sc->compare : "-";
	char reps[32];
	bool first = true;
	int cpu;

	for (i = 0; i < sr->nr_reps; i++) {
		const struct runner_rep_result *rr = &sr->reps[i];

		if (rr->status != RUNNER_REP_OK)
			continue;
		valid++;
		for (j = 0; j < rr->nr_finals; j++) {
			const struct ctline *t = &rr->finals[j];
			struct cpu_sum *c;

			if (t->thread >= SUMMARY_CPUS)
				continue;
			c = &cpus[t->thread];
			if (!c->seen || t->min_us < c->min)
				c->min = t->min_us;
			if (!c->seen || t->max_us > c->max)
				c->max = t->max_us;
			c->avg_x_cycles += (double)t->avg_us * t->cycles;
			c->cycles += t->cycles;
			c->seen = true;
		}
	}
	snprintf(reps, sizeof(reps), "%zu/%zu", valid, sr->nr_reps);
	if (sr->skipped) {
		printf("%-*s %-*s ", width, sr->sc->name, width, vs);
		wrap_reason("SKIPPED", sr->reason, 2 * width + 2);
		return;
	}
	if (!valid) {
		const struct runner_rep_result *bad = NULL;

		for (i = 0; i < sr->nr_reps && !bad; i++)
			if (sr->reps[i].status == RUNNER_REP_INVALID)
				bad = &sr->reps[i];
		if (bad) {
			char why[1024];

			printf("%-*s %-*s %-6s ", width, sr->sc->name, width,
			       vs, reps);
			snprintf(why, sizeof(why), "rep %u: %s", bad->rep,
				 bad->reason ? bad->reason : "");
			wrap_reason("INVALID", why, 2 * width + 9);
		}
		else
			printf("%-*s %-*s %-6s not run\n", width, sr->sc->name,
			       width, vs, reps);
		return;
	}
	for (cpu = 0; cpu < SUMMARY_CPUS; cpu++) {
		const struct cpu_sum *c = &cpus[cpu];

		if (!c->seen)
			continue;
		printf("%-*s %-*s %-6s %3d %6ld %6.0f %6ld\n", width,
		       first ? sr->sc->name : "", width, first ? vs : "",
		       first ? reps : "", cpu, c->min,
		       c->cycles ? c->avg_x_cycles / c->cycles : 0, c->max);
		first = false;
	}
	if (first && sr->sc->tool && sr->sc->tool->program &&
	    strcmp(sr->sc->tool->name, "cyclictest"))
		printf("%-*s %-*s %-6s (measured by %s: see the reports)\n",
		       width, sr->sc->name, width, vs, reps,
		       sr->sc->tool->title);
	else if (first)
		printf("%-*s %-*s %-6s (no cyclictest: see the workload "
		       "summaries)\n", width, sr->sc->name, width, vs, reps);
	for (i = 0; i < sr->nr_reps; i++)
		if (sr->reps[i].status == RUNNER_REP_INVALID)
			printf("%-*s   rep %u INVALID: %s\n", width, "",
			       sr->reps[i].rep, sr->reps[i].reason ?
			       sr->reps[i].reason : "");
}

void runner_summary_print(const struct runner_run *run, const char *results)
{
	size_t i;
	int width = 8;

	for (i = 0; i < run->suite->nr_scenarios; i++) {
		int n = (int)strlen(run->suite->scenarios[i].name);

		if (n > width)
			width = n;
	}
	printf("\n%-*s %-*s %-6s %3s %6s %6s %6s   (us, over valid "
	       "repetitions)\n", width, "scenario", width, "vs", "reps",
	       "CPU", "min", "avg", "max");
	for (i = 0; i < run->suite->nr_scenarios; i++)
		scenario_rows(&run->scens[i], width);
	if (run->status == RUNNER_RUN_COMPLETE)
		printf("\nrun %s: complete\n", run->id);
	else
		printf("\nrun %s: %s (%s)\n", run->id,
		       runner_run_status_name(run->status), run->reason);
	printf("results: %s\n", results);
	fflush(stdout);
}
