// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate run SUITE --until-decided [--budget 10m]` (docs/statistics.md):
 * after the suite's repetitions, rounds of the scenarios whose comparisons
 * are still INCONCLUSIVE (each candidate with its baseline, in random
 * order) until every comparison is decided or the time budget is spent.
 *
 * Every judgement between rounds is a look at the data, and looking until
 * something shows is how false alarms are made: alpha is spent over the
 * looks (a Lan-DeMets spending function of the Pocock type, an_alpha_spent)
 * with the information fraction t = repetitions / the most the budget
 * allows, and each look judges at its group-sequential boundary (the
 * analyzer's an_gs_level() from the looks' ts), so the looks together
 * stay within alpha. A comparison decided at a look keeps that look's
 * level and repetitions (the manifest's "sequential" record), however many
 * more rounds its baseline runs for others.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "log.h"
#include "runner/runner_priv.h"
#include "clocks.h"
#include "stopsig.h"

static int scen_index(const struct runner *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->suite.nr_scenarios; i++)
		if (!strcmp(r->suite.scenarios[i].name, name))
			return i;
	return -1;
}

/*
 * A look appended to the record: its repetitions, its information
 * fraction t and the increment of alpha it spends (the analyzer judges
 * it at its group-sequential boundary, an_gs_level(), from the ts).
 */
static void add_look(cJSON *seq, unsigned int reps, double t, double level)
{
	cJSON *look = cJSON_CreateObject();

	cJSON_AddNumberToObject(look, "repetitions", reps);
	cJSON_AddNumberToObject(look, "t", t);
	cJSON_AddNumberToObject(look, "level", level);
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(seq, "looks"),
			     look);
}

/* Judges the run as it stands; verdicts to free(). */
static int look(struct runner *r, struct an_run_verdict **v, size_t *n)
{
	struct an_params ap;
	int ret;

	ret = runner_manifest_write(&r->run);
	if (ret)
		return ret;
	an_params_init(&ap);
	ap.quiet = true;
	ap.interim = true;
	return an_judge_run(r->run.dir, &ap, v, n) ? -EINVAL : 0;
}

/*
 * Still open: INCONCLUSIVE. Even when the line it rests on cannot reach
 * its floor here (more_reps -1: a VM's maxima), another line may yet show
 * a change, and the figure comes from the scatter of the repetitions so
 * far: replayed, stopping those found the 100 us spinner in 9 % of
 * busy-v2's orders from 3 repetitions a side instead of 100 %
 * (docs/statistics.md, "Repetitions until decided").
 */
bool runner_until_decided_open(const struct an_run_verdict *v)
{
	return v->verdict == AN_INCONCLUSIVE;
}

/* Decided comparisons keep their look and repetitions. */
static void record_stops(cJSON *seq, const struct an_run_verdict *v, size_t n,
			 int at)
{
	cJSON *stopped = cJSON_GetObjectItemCaseSensitive(seq, "stopped");
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *s;

		if (runner_until_decided_open(&v[i]) ||
		    cJSON_GetObjectItemCaseSensitive(stopped, v[i].candidate))
			continue;
		s = cJSON_AddObjectToObject(stopped, v[i].candidate);
		cJSON_AddNumberToObject(s, "look", at);
		cJSON_AddStringToObject(s, "verdict",
					an_verdict_name(v[i].verdict));
		cJSON_AddNumberToObject(s, "baseline_repetitions", v[i].nbase);
		cJSON_AddNumberToObject(s, "candidate_repetitions",
					v[i].ncand);
	}
}

/* One round: every undecided candidate and its baseline, shuffled. */
static int round_of(struct runner *r, const struct an_run_verdict *v,
		    size_t n, unsigned int *max_reps)
{
	bool want[r->suite.nr_scenarios];
	struct runner_step st[r->suite.nr_scenarios];
	size_t i, k = 0;
	int ret = 0;

	memset(want, 0, sizeof(want));
	for (i = 0; i < n; i++) {
		int c = scen_index(r, v[i].candidate);
		int b = scen_index(r, v[i].baseline);

		if (!runner_until_decided_open(&v[i]) || c < 0 || b < 0)
			continue;
		want[c] = want[b] = true;
	}
	for (i = 0; i < r->suite.nr_scenarios; i++)
		if (want[i] && !r->run.scens[i].skipped)
			st[k++] = (struct runner_step){
				i, r->run.scens[i].nr_reps + 1 };
	ret = runner_shuffle_steps(st, k);
	if (ret)
		return ret;
	r->progress.nr_steps += k;
	for (i = 0; i < k && !ret && !stopsig_signal(); i++) {
		ret = runner_run_step(r, st[i]);
		if (st[i].rep > *max_reps)
			*max_reps = st[i].rep;
	}
	return ret;
}

static void say_waiting(struct runner *r, const struct an_run_verdict *v,
			size_t n, int at, double left, double n_max)
{
	char bound[64];
	size_t i;

	if (isfinite(left))
		snprintf(bound, sizeof(bound), "%.0f s of budget left", left);
	else
		snprintf(bound, sizeof(bound), "up to %.0f repetitions", n_max);
	for (i = 0; i < n; i++)
		if (runner_until_decided_open(&v[i]))
			runner_progress_note(&r->progress, "until decided, look %d "
					     "(%s): %s vs %s is "
					     "INCONCLUSIVE: %.200s", at, bound,
					     v[i].candidate, v[i].baseline,
					     v[i].reason);
}

/* The most repetitions a scenario may reach: the budget's, max_reps'. */
static double most_reps(unsigned int reps, double budget, double rep_s,
			size_t active, unsigned int max_reps)
{
	double n = INFINITY;

	if (budget > 0)
		n = reps + floor(budget / (rep_s * active));
	if (max_reps && max_reps < n)
		n = max_reps;
	return n < reps ? reps : n;
}

int runner_until_decided(struct runner *r, uint64_t budget_ns,
			 unsigned int max_reps)
{
	double alpha = r->suite.gate.alpha, t0 = clocks_mono_s(), spent, t, left;
	double budget = budget_ns / 1e9, rep_s, n_max;
	size_t i, n = 0, active = 0;
	struct an_run_verdict *v = NULL;
	unsigned int reps = r->run.repetitions;
	int at = 0, ret;
	cJSON *seq;

	for (i = 0; i < r->suite.nr_scenarios; i++)
		active += !r->run.scens[i].skipped;
	if (!active || !r->run.nr_order)
		return 0;
	/* What a repetition costs here, from the ones run so far. */
	rep_s = (t0 - r->started_mono) / r->run.nr_order;
	n_max = most_reps(reps, budget, rep_s, active, max_reps);
	seq = cJSON_CreateObject();
	if (budget > 0)
		cJSON_AddNumberToObject(seq, "budget_s", budget);
	else
		cJSON_AddNullToObject(seq, "budget_s");
	cJSON_AddNumberToObject(seq, "max_repetitions", n_max);
	cJSON_AddStringToObject(seq, "spending", "pocock");
	cJSON_AddArrayToObject(seq, "looks");
	cJSON_AddObjectToObject(seq, "stopped");
	cJSON_Delete(r->run.sequential);
	r->run.sequential = seq;
	spent = an_alpha_spent(alpha, reps / n_max);
	add_look(seq, reps, reps / n_max, spent);
	ret = look(r, &v, &n);
	while (!ret && !stopsig_signal()) {
		bool any = false;

		record_stops(seq, v, n, at);
		for (i = 0; i < n; i++)
			any |= runner_until_decided_open(&v[i]);
		left = budget > 0 ? budget - (clocks_mono_s() - t0) : INFINITY;
		if (!any)
			break;
		if (reps >= n_max) {
			runner_progress_note(&r->progress, "until decided: %u "
					     "repetitions a scenario, the most "
					     "asked for; what is still "
					     "INCONCLUSIVE stays so", reps);
			break;
		}
		if (left < rep_s * 2) {
			runner_progress_note(&r->progress, "until decided: the %.0f s "
					     "budget is spent; what is still "
					     "INCONCLUSIVE stays so", budget);
			break;
		}
		say_waiting(r, v, n, at + 1, left, n_max);
		ret = round_of(r, v, n, &reps);
		free(v);
		v = NULL;
		if (ret)
			break;
		at++;
		/* The last look the budget allows spends what is left. */
		left = budget > 0 ? budget - (clocks_mono_s() - t0) : INFINITY;
		t = left < 2 * rep_s * active || reps >= n_max ? 1 :
			fmin(1, reps / n_max);
		add_look(seq, reps, t, an_alpha_spent(alpha, t) - spent);
		spent = an_alpha_spent(alpha, t);
		ret = look(r, &v, &n);
	}
	free(v);
	return ret;
}
