// SPDX-License-Identifier: GPL-2.0-only
/*
 * The noise profile of a machine (docs/statistics.md, rtgate calibrate):
 * per CPU and per evidence line (each supported quantile level and the
 * maximum), the mean and the between-repetition variance of log(1 + us)
 * over repetitions of one unchanged condition. Stored as JSON (schema
 * rtgate-noise-profile/1) in the history database and copied into every
 * manifest of a run that used it, so a report can be rebuilt from disk.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"

/* The same levels as the evidence lines (analyze_lines_rep.c). */
static const double levels[] = {
	0.90, 0.95, 0.97, 0.99, 0.995, 0.999, 0.9999, 0.99999,
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

static int add_line(struct an_profile *pr, int cpu, const char *metric,
		    double mean, double var)
{
	struct an_profile_line *l;

	l = realloc(pr->lines, (pr->nlines + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	pr->lines = l;
	l = &l[pr->nlines++];
	memset(l, 0, sizeof(*l));
	l->cpu = cpu;
	rtpaths_fmt(l->metric, sizeof(l->metric), "%s", metric);
	l->mean = mean;
	l->var = var;
	return 0;
}

/* log(1 + value) of one run's line; NAN when not supported. */
static double run_value(const struct an_cpu *c, double q)
{
	double v;
	bool ge;

	if (q <= 0)
		return log1p(c->max_us);
	if (!an_cpu_has_hist(c) || !an_level_supported(c->cycles, q))
		return NAN;
	v = an_cpu_quantile(c, q, &ge);
	return ge ? NAN : log1p(v);
}

/*
 * Bursts: repetitions whose value lies more than BURST_SD robust standard
 * deviations (1.4826 x the median absolute residual) above their group's
 * median. A host pause delays a run of wake-ups and lifts one
 * repetition's tail tenfold; a variance does not describe that, a count
 * does (one repetition a side cannot tell such a burst from a change).
 */
#define BURST_SD	4.0

static unsigned int count_bursts(struct an_side *const *groups,
				 size_t ngroups, size_t j, double q)
{
	size_t g, r, n = 0, total = 0;
	double *res, *mag, mad;
	unsigned int k = 0;

	for (g = 0; g < ngroups; g++)
		total += groups[g]->nruns;
	res = calloc(2 * (total ? total : 1), sizeof(*res));
	if (!res)
		return 0;
	mag = res + total;
	for (g = 0; g < ngroups; g++) {
		const struct an_side *s = groups[g];
		double y[s->nruns], med;

		for (r = 0; r < s->nruns; r++)
			y[r] = run_value(&s->runs[r].cpus[j], q);
		med = an_median(y, s->nruns);
		for (r = 0; r < s->nruns; r++, n++) {
			res[n] = y[r] - med;
			mag[n] = fabs(res[n]);
		}
	}
	mad = fmax(1.4826 * an_median(mag, n), 0.01);
	for (r = 0; r < n; r++)
		k += res[r] > BURST_SD * mad;
	free(res);
	return k;
}

int an_profile_build(struct an_side *const *groups, size_t ngroups,
		     struct an_profile *out)
{
	size_t g, r, j, k, ncpus, nreps = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!ngroups || !groups[0]->nruns)
		return -EINVAL;
	ncpus = groups[0]->runs[0].ncpus;
	for (g = 0; g < ngroups; g++) {
		nreps += groups[g]->nruns;
		for (r = 0; r < groups[g]->nruns; r++)
			if (groups[g]->runs[r].ncpus != ncpus)
				return -EINVAL;
	}
	out->nreps = nreps;
	out->df = (double)nreps - ngroups;
	if (out->df < 1)
		return -EINVAL;
	for (j = 0; j < ncpus && !ret; j++)
		for (k = 0; k <= NR_LEVELS && !ret; k++) {
			double q = k < NR_LEVELS ? levels[k] : 0, ss = 0;
			double sum = 0, cnt = 0;
			bool ok = true;
			char name[16];

			for (g = 0; g < ngroups && ok; g++) {
				const struct an_side *s = groups[g];
				double y[s->nruns], m;

				for (r = 0; r < s->nruns && ok; r++) {
					y[r] = run_value(&s->runs[r].cpus[j],
							 q);
					ok = !isnan(y[r]);
				}
				if (!ok)
					break;
				m = an_mean(y, s->nruns);
				for (r = 0; r < s->nruns; r++) {
					ss += (y[r] - m) * (y[r] - m);
					sum += y[r];
					cnt++;
				}
			}
			if (!ok)
				continue;
			if (q > 0)
				rtpaths_fmt(name, sizeof(name), "p%g", q * 100);
			else
				rtpaths_fmt(name, sizeof(name), "max");
			ret = add_line(out, j, name, sum / cnt, ss / out->df);
			if (!ret)
				out->lines[out->nlines - 1].bursts =
					count_bursts(groups, ngroups, j, q);
		}
	if (ret)
		an_profile_free(out);
	return ret;
}

void an_profile_free(struct an_profile *pr)
{
	free(pr->lines);
	memset(pr, 0, sizeof(*pr));
}

cJSON *an_profile_json(const struct an_profile *pr)
{
	cJSON *o = cJSON_CreateObject(), *lines = cJSON_CreateArray();
	size_t i;

	cJSON_AddStringToObject(o, "schema", "rtgate-noise-profile/1");
	cJSON_AddStringToObject(o, "origin", pr->origin);
	cJSON_AddStringToObject(o, "key", pr->key);
	cJSON_AddNumberToObject(o, "repetitions", pr->nreps);
	cJSON_AddNumberToObject(o, "df", pr->df);
	for (i = 0; i < pr->nlines; i++) {
		cJSON *l = cJSON_CreateObject();

		cJSON_AddNumberToObject(l, "cpu", pr->lines[i].cpu);
		cJSON_AddStringToObject(l, "metric", pr->lines[i].metric);
		cJSON_AddNumberToObject(l, "mean", pr->lines[i].mean);
		cJSON_AddNumberToObject(l, "var", pr->lines[i].var);
		cJSON_AddNumberToObject(l, "bursts", pr->lines[i].bursts);
		cJSON_AddItemToArray(lines, l);
	}
	cJSON_AddItemToObject(o, "lines", lines);
	return o;
}

int an_profile_from_json(const char *what, const cJSON *o,
			 struct an_profile *pr)
{
	const cJSON *lines, *l;

	memset(pr, 0, sizeof(*pr));
	if (strcmp(json_get_str(o, "schema", ""), "rtgate-noise-profile/1")) {
		pr_err("%s: not a noise profile (schema "
		       "rtgate-noise-profile/1)", what);
		return -EINVAL;
	}
	rtpaths_fmt(pr->origin, sizeof(pr->origin), "%s",
		    json_get_str(o, "origin", ""));
	rtpaths_fmt(pr->key, sizeof(pr->key), "%s", json_get_str(o, "key", ""));
	pr->nreps = json_get_num(o, "repetitions", 0);
	pr->df = json_get_num(o, "df", 0);
	lines = cJSON_GetObjectItemCaseSensitive(o, "lines");
	if (!(pr->df >= 1) || !cJSON_IsArray(lines)) {
		pr_err("%s: a noise profile needs \"df\" >= 1 and \"lines\"",
		       what);
		return -EINVAL;
	}
	cJSON_ArrayForEach(l, lines) {
		double cpu = json_get_num(l, "cpu", -1);
		double var = json_get_num(l, "var", NAN);
		const char *m = json_get_str(l, "metric", "");

		if (!(cpu >= 0) || !(var >= 0) || !*m) {
			pr_err("%s: line %zu of the noise profile is not "
			       "{cpu, metric, mean, var}", what,
			       pr->nlines + 1);
			an_profile_free(pr);
			return -EINVAL;
		}
		if (add_line(pr, (int)cpu, m, json_get_num(l, "mean", NAN),
			     var)) {
			an_profile_free(pr);
			return -ENOMEM;
		}
		pr->lines[pr->nlines - 1].bursts = json_get_num(l, "bursts", 0);
	}
	return 0;
}

static const struct an_profile_line *line_of(const struct an_profile *pr,
					     int cpu, const char *metric)
{
	size_t i;

	for (i = 0; i < pr->nlines; i++)
		if (pr->lines[i].cpu == cpu &&
		    !strcmp(pr->lines[i].metric, metric))
			return &pr->lines[i];
	return NULL;
}

/*
 * The test's critical rise at reps repetitions a side, as the comparison
 * computes it (analyze_lines_rep.c): the repetitions' own df, the
 * profile weighing as much (all of its df, at most 20, with none).
 */
static double see_log(const struct an_profile *pr,
		      const struct an_profile_line *l, size_t reps, double a)
{
	double own = 2.0 * reps - 2, d0 = fmin(pr->df, own > 0 ? own : 20);

	return an_t_isf(a, own + d0) * sqrt(l->var * 2.0 / reps);
}

double an_profile_typical(const struct an_profile *pr, int cpu,
			  const char *metric)
{
	const struct an_profile_line *l = line_of(pr, cpu, metric);

	return l ? expm1(l->mean) : NAN;
}

double an_profile_can_see(const struct an_profile *pr, int cpu,
			  const char *metric, size_t reps, double a)
{
	const struct an_profile_line *l = line_of(pr, cpu, metric);

	if (!l || !reps)
		return NAN;
	return (1 + expm1(l->mean)) * expm1(see_log(pr, l, reps, a));
}

int an_profile_reps_for(const struct an_profile *pr, int cpu,
			const char *metric, double floor_us, double a)
{
	const struct an_profile_line *l = line_of(pr, cpu, metric);
	size_t n;

	if (!l)
		return -1;
	for (n = 2; n <= 1000; n++)
		if ((1 + expm1(l->mean)) * expm1(see_log(pr, l, n, a)) <=
		    floor_us)
			return n;
	return -1;
}

double an_profile_burst_rate(const struct an_profile *pr, int cpu,
			     const char *metric)
{
	const struct an_profile_line *l = line_of(pr, cpu, metric);

	if (!l || !pr->nreps)
		return NAN;
	return (double)l->bursts / pr->nreps;
}
