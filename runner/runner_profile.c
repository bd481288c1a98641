// SPDX-License-Identifier: GPL-2.0-only
/* The run's noise profile: key, lookup, what the suite can see here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history/history.h"
#include "runner/measure/measure.h"
#include "runner/runner_priv.h"
#include "sha256.h"

void runner_measure_key(const struct runner_suite *s, double scale, char *buf,
			size_t len)
{
	const struct runner_suite_measure *m = &s->measure;
	char **args = runner_suite_opts(m, an_tool_find("cyclictest"))->argv;
	char text[4096], hex[65];
	size_t n = 0, i;

	n += snprintf(text + n, sizeof(text) - n, "cyclictest");
	for (i = 0; args && args[i] && n < sizeof(text); i++)
		n += snprintf(text + n, sizeof(text) - n, " %s", args[i]);
	if (n < sizeof(text))
		n += snprintf(text + n, sizeof(text) - n, " D=%u L=%llu H=%u "
			      "cpus=%ld", runner_ct_duration_s(m, scale),
			      runner_ct_loops(m, scale), m->histogram_us,
			      sysconf(_SC_NPROCESSORS_ONLN));
	sha256_buf(text, n < sizeof(text) ? n : sizeof(text) - 1, hex);
	/* 16 hex digits name a measurement well enough to look it up. */
	snprintf(buf, len, "%.16s", hex);
}

void runner_history_db(const char *results, char *buf, size_t len)
{
	const char *env = getenv("RTGATE_DB");

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	if (!results)
		results = getenv("RTGATE_RESULTS_DIR");
	if (!results || !*results)
		results = "results";
	snprintf(buf, len, "%s/rtgate.db", results);
}

int runner_profile_find(const char *db, const char *key,
			struct an_profile *out)
{
	struct history h;
	char host[256] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	/* Only read: a lookup never creates a database. */
	if (access(db, R_OK))
		return 1;
	gethostname(host, sizeof(host) - 1);
	ret = history_open(&h, db);
	if (ret)
		return ret;
	ret = history_profile_load(&h, host, key, out);
	history_close(&h);
	return ret;
}

/*
 * p99 when the profile has it; a short repetition has too few wake-ups
 * beyond p99 for a line there, and then the highest quantile it has.
 */
static const char *seen_quantile(const struct an_profile *pr, int cpu,
				 unsigned int reps, double a, double *rise)
{
	static const char *const q[] = { "p99", "p95", "p90" };
	size_t i;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		*rise = an_profile_can_see(pr, cpu, q[i], reps, a);
		if (!isnan(*rise))
			return q[i];
	}
	return NULL;
}

/*
 * A figure beyond this many times the line's typical value says only that
 * the line scatters too much (the analyzer's reasons say it so too).
 */
#define SEE_BLIND	100
/* Bursts this likely in a run's repetitions are worth a second figure. */
#define BURST_SAY	0.05

/*
 * "a typical max rise of 120 us or more", or, beyond SEE_BLIND times the
 * typical max, that it cannot see one.
 */
static void print_max(const struct an_profile *pr, int cpu,
		      unsigned int reps, double a)
{
	double mx = an_profile_can_see(pr, cpu, "max", reps, a);
	double typ = an_profile_typical(pr, cpu, "max");

	if (isnan(mx))
		return;
	if (mx > SEE_BLIND * fmax(typ, 1))
		printf(", no typical max rise below %d times its %.0f us (the "
		       "maxima scatter too much here)", SEE_BLIND, typ);
	else
		printf(", a typical max rise of %.0f us or more", mx);
}

/*
 * This machine's bursts (a host pause that delays a run of wake-ups on
 * every CPU) land in some repetitions: with one of them in a run of
 * 2 * reps, the analyzer leaves it out or its scatter grows, and the run
 * sees what one repetition a side fewer sees.
 */
static void print_bursts(const struct an_profile *pr, int cpu, const char *q,
			 unsigned int reps, double a)
{
	double b = an_profile_burst_rate(pr, cpu, q), any, rise;

	if (isnan(b) || b <= 0)
		return;
	any = -expm1(2.0 * reps * log1p(-fmin(b, 1 - 1e-9)));
	if (any < BURST_SAY)
		return;
	if (reps < 2) {
		printf("  CPU %d: bursts (in %.0f %% of this machine's "
		       "repetitions at %s) cannot be told from a change with "
		       "one repetition a side\n", cpu, 100 * b, q);
		return;
	}
	rise = an_profile_can_see(pr, cpu, q, reps - 1, a);
	printf("  CPU %d: in %.0f %% of runs of %u repetitions a burst lands "
	       "in one (%u of the profile's %zu repetitions had one at %s); "
	       "then a %s rise of %.0f us or more\n", cpu, 100 * any,
	       2 * reps, (unsigned int)lround(b * pr->nreps), pr->nreps, q,
	       q, rise);
}

static void print_line(const struct an_profile *pr,
		       const struct runner_suite *s, unsigned int reps,
		       double a, int cpu)
{
	const struct runner_suite_gate *g = &s->gate;
	double rise, base, floor;
	const char *q = seen_quantile(pr, cpu, reps, a, &rise);
	int need;

	if (!q)
		return;
	base = an_profile_typical(pr, cpu, q);
	floor = fmax(g->min_increase_us, g->min_increase_pct / 100 * base);
	need = an_profile_reps_for(pr, cpu, q, floor, a);
	printf("  CPU %d: a %s rise of %.0f us or more (%s is about %.0f "
	       "us here)", cpu, q, rise, q, base);
	print_max(pr, cpu, reps, a);
	printf("; ");
	if (need < 0)
		printf("no practical number of repetitions sees the %.0f us "
		       "floor at %s\n", floor, q);
	else if ((unsigned int)need <= reps)
		printf("it sees the %.0f us floor at %s\n", floor, q);
	else
		printf("%d repetitions a side would see the %.0f us floor at "
		       "%s\n", need, floor, q);
	print_bursts(pr, cpu, q, reps, a);
}

void runner_profile_print(const struct an_profile *pr,
			  const struct runner_suite *s, unsigned int reps)
{
	size_t family = runner_suite_family(s), lines = pr->nlines, cpus = 0, i;
	double a;

	for (i = 0; i < pr->nlines; i++)
		if (pr->lines[i].cpu + 1 > (int)cpus)
			cpus = pr->lines[i].cpu + 1;
	/*
	 * The deciding lines of a comparison: every profile line, a max
	 * law, each CPU against the others (half a line each), and the
	 * spike; the judge says what each is judged at.
	 */
	a = an_line_level(an_alpha_share(s->gate.alpha, family),
			  lines + cpus + an_rel_family(cpus, reps) + 1);
	printf("noise profile: %s\n", pr->origin);
	printf("on this machine, %u repetition%s a side of this suite can "
	       "see:\n", reps, reps == 1 ? "" : "s");
	for (i = 0; i < cpus; i++)
		print_line(pr, s, reps, a, i);
	fflush(stdout);
}
