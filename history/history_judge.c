// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run against its history. The baseline of a scenario is the last K
 * complete runs of the same suite, host and scenario (on a reference
 * kernel), every repetition of each: for an extreme statistic that is far
 * more evidence than one run. The statistics are the analyzer's: this file
 * only turns stored repetitions into an_side objects and calls an_compare.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "history.h"
#include "exitcode.h"
#include "history_priv.h"
#include "jsonio.h"
#include "log.h"

/* {"8": 1, "9": 2, …} -> buckets[0..n), n <= limit. */
int history_hist_parse(const char *text, unsigned int limit, uint64_t **out,
		       size_t *n)
{
	const cJSON *b;
	uint64_t *v;
	size_t len = 0;
	cJSON *j;
	long us;

	j = cJSON_Parse(text);
	if (!j)
		return -EINVAL;
	cJSON_ArrayForEach(b, j) {
		us = strtol(b->string, NULL, 10);
		if (us >= 0 && (size_t)us + 1 > len)
			len = us + 1;
	}
	if (limit && len > limit)
		len = limit;
	v = calloc(len ? len : 1, sizeof(*v));
	if (!v) {
		cJSON_Delete(j);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(b, j) {
		us = strtol(b->string, NULL, 10);
		if (us >= 0 && (size_t)us < len && b->valuedouble > 0)
			v[us] += (uint64_t)b->valuedouble;
	}
	cJSON_Delete(j);
	*out = v;
	*n = len;
	return 0;
}

static int fill_cpu(struct an_cpu *c, const struct history_cpu *src,
		    uint32_t limit)
{
	uint64_t *buckets;
	size_t n;
	int ret;

	c->thread = src->cpu;
	c->cpu = src->cpu;
	c->prio = -1;
	c->act_us = -1;
	c->cycles = src->cycles;
	c->min_us = lround(src->min_us);
	c->avg_us = src->avg_us;
	c->max_us = lround(src->max_us);
	c->overflows = src->overflows;
	if (!src->histogram || !limit)
		return 0;
	ret = history_hist_parse(src->histogram, limit, &buckets, &n);
	if (ret)
		return ret;
	ret = an_cpu_set_hist(c, buckets, n, limit);
	free(buckets);
	/* an_cpu_set_hist derives overflows from cycles; keep ours if larger */
	if (src->overflows > (long long)c->overflows)
		c->overflows = src->overflows;
	return ret;
}

/* Repetition @rep of stored run @run_id joins @side, labelled RUN_ID/REP. */
static struct an_run *side_add_rep(struct an_side *side, const char *run_id,
				   int rep, size_t ncpus)
{
	struct an_run *r;
	char label[64];

	snprintf(label, sizeof(label), "%.48s/%d", run_id, rep);
	r = an_side_add_run(side, label, ncpus);
	if (r)
		r->rep = rep;
	return r;
}

/* The workload metrics of each repetition join its an_run (or make one:
 * a scenario without cyclictest has only them). */
static int side_add_metrics(struct an_side *side, size_t first,
			    struct history *h, long long run,
			    const char *run_id, const char *scenario)
{
	struct history_rep_metric *m;
	struct an_run *r;
	size_t n, i, k;
	int ret;

	ret = history_load_metrics(h, run, scenario, &m, &n);
	if (ret)
		return ret;
	for (i = 0; !ret && i < n; i++) {
		for (k = first, r = NULL; k < side->nruns && !r; k++)
			if (side->runs[k].rep == m[i].rep)
				r = &side->runs[k];
		if (!r)
			r = side_add_rep(side, run_id, m[i].rep, 0);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		ret = an_run_add_metric(r, m[i].name, m[i].unit,
					m[i].higher_better, m[i].v, m[i].n);
	}
	history_free_metrics(m, n);
	return ret;
}

/* Every ok repetition of @scenario in stored run @run becomes an an_run. */
int history_side_add(struct an_side *side, struct history *h, long long run,
		     const char *run_id, const char *scenario,
		     unsigned int limit)
{
	struct history_rep *reps;
	size_t first = side->nruns;
	struct an_run *r;
	size_t n, i, j;
	int ret;

	ret = history_load_reps(h, run, scenario, &reps, &n);
	if (ret)
		return ret;
	for (i = 0; !ret && i < n; i++) {
		r = side_add_rep(side, run_id, reps[i].rep, reps[i].nr_cpus);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		for (j = 0; !ret && j < reps[i].nr_cpus; j++)
			ret = fill_cpu(&r->cpus[j], &reps[i].cpus[j], limit);
	}
	history_free_reps(reps, n);
	if (!ret)
		ret = side_add_metrics(side, first, h, run, run_id, scenario);
	return ret;
}

/*
 * One night, one unit (issue 23 item 5): every ok repetition of a stored
 * run pooled into one an_run of side, labelled with the run's id. The
 * nights of a history scatter more than the repetitions of one night (a
 * new boot, another temperature, the host's other guests), so a night's
 * repetitions are not independent draws of the baseline: judged as
 * units, the variance a test uses is the nights' own. Workload metrics
 * join as the night's values, all repetitions' rounds together.
 */
/* A repetition's values of a metric join the night's of the same name. */
static int night_add_values(struct an_run *night, const struct an_values *v)
{
	struct an_values *m = NULL;
	double *all;
	size_t i;

	for (i = 0; i < night->nmetrics && !m; i++)
		if (!strcmp(night->metrics[i].name, v->name))
			m = &night->metrics[i];
	if (!m)
		return an_run_add_metric(night, v->name, v->unit,
					 v->higher_better, v->v, v->n);
	all = realloc(m->v, (m->n + v->n + 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all + m->n, v->v, v->n * sizeof(*all));
	m->v = all;
	m->n += v->n;
	return 0;
}

static int side_add_night(struct an_side *side, struct history *h,
			  long long run, const char *run_id,
			  const char *scenario, unsigned int limit)
{
	struct an_side *reps = an_side_new(run_id);
	struct an_run *night = NULL;
	size_t r, j, k, ncpus = 0;
	int ret;

	if (!reps)
		return -ENOMEM;
	ret = history_side_add(reps, h, run, run_id, scenario, limit);
	for (r = 0; !ret && r < reps->nruns; r++)
		if (reps->runs[r].ncpus > ncpus)
			ncpus = reps->runs[r].ncpus;
	if (!ret && reps->nruns) {
		night = an_side_add_run(side, run_id, ncpus);
		if (!night)
			ret = -ENOMEM;
		else
			night->rep = (int)side->nruns;
	}
	for (r = 0; !ret && night && r < reps->nruns; r++) {
		const struct an_run *x = &reps->runs[r];

		for (j = 0; !ret && j < x->ncpus; j++) {
			ret = an_cpu_pool(&night->cpus[j], &x->cpus[j]);
			night->cpus[j].thread = x->cpus[j].thread;
		}
		for (k = 0; !ret && k < x->nmetrics; k++)
			ret = night_add_values(night, &x->metrics[k]);
	}
	an_side_free(reps);
	return ret;
}

/*
 * The gate of one scenario: the suite's [gate], the scenario's own
 * `metric` (ns per call ...) over the suite's, --metric over both.
 */
static void gate_from_manifest(const cJSON *m, const char *scenario,
			       const char *metric, struct an_gate *g)
{
	const cJSON *gate = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "suite"),
						"gate");
	const char *own = NULL;
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), scenario))
			own = json_get_str(s, "metric", NULL);
	an_gate_default(g);
	snprintf(g->metric, sizeof(g->metric), "%s", metric ? metric :
		 own ? own : json_get_str(gate, "metric", g->metric));
	g->alpha = json_get_num(gate, "alpha", g->alpha);
	g->min_increase_us = json_get_num(gate, "min_increase_us",
					  g->min_increase_us);
	g->min_increase_pct = json_get_num(gate, "min_increase_pct",
					   g->min_increase_pct);
}

unsigned int history_manifest_limit(const cJSON *m)
{
	const cJSON *meas = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "suite"),
						"measure");

	return (uint32_t)json_get_num(meas, "histogram_us", 0);
}

/* What changed in the kernel identity between two manifests. */
static void identity_diff(const cJSON *prev, const cJSON *cur, char *buf,
			  size_t len)
{
	static const char *const keys[] = { "release", "version",
		"config_sha256", "cmdline", "preempt_model" };
	const cJSON *kp = cJSON_GetObjectItem(prev, "kernel");
	const cJSON *kc = cJSON_GetObjectItem(cur, "kernel");
	const char *a, *b;
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		a = json_get_str(kp, keys[i], "");
		b = json_get_str(kc, keys[i], "");
		if (!strcmp(a, b) || off >= len)
			continue;
		off += snprintf(buf + off, len - off, "%skernel.%s: '%.80s' -> "
				"'%.80s'", off ? "; " : "", keys[i], a, b);
	}
	a = json_get_str(cJSON_GetObjectItem(prev, "tools"), "cyclictest", "");
	b = json_get_str(cJSON_GetObjectItem(cur, "tools"), "cyclictest", "");
	if (strcmp(a, b) && off < len)
		snprintf(buf + off, len - off, "%stools.cyclictest: '%s' -> "
			 "'%s'", off ? "; " : "", a, b);
}

/* The line the verdict rests on (an_result.decisive). */
static const struct an_line *deciding_line(const struct an_result *res)
{
	if (res->decisive < 0 || (size_t)res->decisive >= res->nlines)
		return NULL;
	return &res->lines[res->decisive];
}

/* How far back a step that stays is looked for: nights before tonight. */
#define STEP_NIGHTS	3

/* Nights whose settings were read (like with like), by stored id. */
#define LIKE_CACHE	32

struct judge_ctx {
	struct history *h;
	const struct history_judge_params *p;
	struct history_run run;
	cJSON *manifest;
	size_t family;		/* scenarios judged, positive controls aside */
	unsigned int p_k;	/* K: nights a baseline holds */
	char clock[32];		/* baselines only of the run's own clock */
	char kernel[160];	/* tonight's release */
	struct an_like tonight;
	struct {
		long long id;
		struct an_like *like;
	} likes[LIKE_CACHE];
	size_t nlikes;
};

/* The settings of stored night @id (cached), NULL when not readable. */
static const struct an_like *night_like(struct judge_ctx *c, long long id)
{
	struct an_like *l;
	char *text;
	cJSON *m;
	size_t i;

	for (i = 0; i < c->nlikes; i++)
		if (c->likes[i].id == id)
			return c->likes[i].like;
	if (history_run_manifest(c->h, id, &text))
		return NULL;
	m = cJSON_Parse(text);
	free(text);
	l = m ? malloc(sizeof(*l)) : NULL;
	if (l)
		an_like_from_manifest(m, l);
	cJSON_Delete(m);
	if (!l)
		return NULL;
	i = c->nlikes < LIKE_CACHE ? c->nlikes++ : (size_t)(id % LIKE_CACHE);
	if (i < c->nlikes && c->likes[i].like && c->likes[i].id != id)
		free(c->likes[i].like);
	c->likes[i].id = id;
	c->likes[i].like = l;
	return l;
}

/*
 * Like with like (issue 36): how many of the nights @runs[0..n) (newest
 * first) are alike to tonight in every setting not intended; at the
 * first that is not, @why names the night and what differs.
 */
static size_t alike_nights(struct judge_ctx *c, const struct history_run *runs,
			   size_t n, char *why, size_t len)
{
	const struct an_like *l;
	char diff[1024];
	size_t i;

	why[0] = '\0';
	for (i = 0; i < n; i++) {
		l = night_like(c, runs[i].id);
		if (!l || an_like_diff(l, &c->tonight, c->p->intended, diff,
				       sizeof(diff)) == 0)
			continue;
		snprintf(why, len, "night %.60s and tonight differ in %.500s",
			 runs[i].run_id, diff);
		break;
	}
	return i;
}

/*
 * A night judges each of its scenarios against its own history: like the
 * comparisons of a suite (rtgate run), they share alpha, so that a
 * night of six unchanged scenarios is not called a regression six times
 * as often as one. Who counts is the judge's rule (an_family(): controls
 * are judged at the same share and do not count); each scenario judged
 * is one comparison. 0 or -ENOMEM.
 */
static int night_family(const cJSON *m, const struct history_scenario *sc,
			size_t ns, size_t *family)
{
	struct an_family_member *fm = calloc(ns ? ns : 1, sizeof(*fm));
	const cJSON *s;
	size_t i, n = 0;

	if (!fm)
		return -ENOMEM;
	for (i = 0; i < ns; i++) {
		if (strcmp(sc[i].status, "ok") && strcmp(sc[i].status, "partial"))
			continue;
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
			if (!strcmp(json_get_str(s, "name", ""), sc[i].name))
				fm[n].control = *json_get_str(s, "control", "");
		n++;
	}
	*family = an_family(fm, n);
	free(fm);
	return 0;
}

int history_night_family(struct history *h, long long run, size_t *family)
{
	struct history_scenario *sc = NULL;
	cJSON *m = NULL;
	char *text;
	size_t ns = 0;
	int ret;

	ret = history_run_manifest(h, run, &text);
	if (ret)
		return ret;
	m = cJSON_Parse(text);
	free(text);
	ret = history_scenarios(h, run, &sc, &ns);
	if (!ret)
		ret = night_family(m, sc, ns, family);
	free(sc);
	cJSON_Delete(m);
	return ret;
}

static int base_side(struct judge_ctx *c, const char *scenario,
		     struct history_run *base, size_t nb, struct an_side **out,
		     struct history_judgement *j)
{
	struct an_side *side = an_side_new("history");
	uint32_t limit;
	char *text;
	cJSON *m;
	size_t i, off = 0;
	int ret = 0;

	if (!side)
		return -ENOMEM;
	for (i = 0; !ret && i < nb; i++) {
		ret = history_run_manifest(c->h, base[i].id, &text);
		if (ret)
			break;
		m = cJSON_Parse(text);
		free(text);
		limit = history_manifest_limit(m);
		if (!i)
			identity_diff(m, c->manifest, j->changed,
				      sizeof(j->changed));
		cJSON_Delete(m);
		ret = side_add_night(side, c->h, base[i].id, base[i].run_id,
				     scenario, limit);
		if (off < sizeof(j->baseline_ids))
			off += snprintf(j->baseline_ids + off,
					sizeof(j->baseline_ids) - off, "%s%s",
					i ? "," : "", base[i].run_id);
	}
	if (ret) {
		an_side_free(side);
		return ret;
	}
	*out = side;
	return 0;
}

static void store(struct judge_ctx *c, const struct history_judgement *j)
{
	struct history_verdict v = {
		.run = c->run.id,
		.run_id = c->run.run_id, .scenario = j->scenario,
		.metric = j->metric, .verdict = j->verdict,
		.reason = j->reason, .baseline_runs = j->baseline_runs,
		.baseline_ids = j->baseline_ids, .candidate = j->cand,
		.baseline = j->base, .p_value = isnan(j->p_value) ? -1 :
		j->p_value, .prev_run_id = j->prev_run_id,
		.changed = j->changed,
		.since_run_id = *j->since_run_id ? j->since_run_id : NULL,
	};

	if (history_store_verdict(c->h, &v))
		pr_warn("%s: the verdict of %s/%s was not stored", c->h->path,
			c->run.run_id, j->scenario);
}

static double q_scale(const struct judge_ctx *c)
{
	return c->run.duration_scale > 0 ? c->run.duration_scale : 1;
}

/*
 * The analyzer's units are repetitions; here each is a night: its
 * reasons say so ("one night a side", "3 more nights a side would …",
 * a spike "tonight": the candidate is tonight's one night), in place.
 */
static void says_nights(char *s, size_t len)
{
	static const char *const from[] = { "repetitions a side",
		"repetition a side", "in repetition 1;", "in repetition ",
		"its repetitions scatter", "number of repetitions" };
	static const char *const to[] = { "nights a side", "night a side",
		"tonight;", "on night ", "its nights scatter",
		"number of nights" };
	size_t i;

	for (i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		char *at;

		while ((at = strstr(s, from[i]))) {
			size_t nf = strlen(from[i]), nt = strlen(to[i]);
			size_t tail = strlen(at + nf) + 1;

			if (at - s + nt + tail > len)
				break;
			memmove(at + nt, at + nf, tail);
			memcpy(at, to[i], nt);
		}
	}
}

/*
 * A line that one night can decide alone: a spike is judged against the
 * machine's own pause law (issue 23 item 2) and a budget is absolute.
 * Every other line compares tonight's distribution with the nights
 * before it, and one night of this machine can carry a host's burst.
 */
static bool night_alone_decides(const struct an_result *res)
{
	const struct an_line *line = deciding_line(res);

	if (res->verdict != AN_REGRESSION && res->verdict != AN_IMPROVEMENT)
		return true;
	return line && (line->kind == AN_LINE_SPIKE ||
			line->kind == AN_LINE_BUDGET);
}

/* Stored night @run of @scenario joins @side, at its histogram's size. */
static int side_add_stored(struct judge_ctx *c, struct an_side *side,
			   const struct history_run *run, const char *scenario)
{
	char *text;
	cJSON *m;
	int ret = history_run_manifest(c->h, run->id, &text);

	if (ret)
		return ret;
	m = cJSON_Parse(text);
	free(text);
	ret = side_add_night(side, c->h, run->id, run->run_id, scenario,
			     history_manifest_limit(m));
	cJSON_Delete(m);
	return ret;
}

/* Tonight's run of @scenario joins @side. */
static int side_add_tonight(struct judge_ctx *c, struct an_side *side,
			    const char *scenario)
{
	return side_add_night(side, c->h, c->run.id, c->run.run_id, scenario,
			      history_manifest_limit(c->manifest));
}

/* @n nights of @runs, newest first, as one side of the analyzer. */
static int nights_side(struct judge_ctx *c, const char *scenario,
		       const struct history_run *runs, size_t n,
		       struct an_side **out)
{
	struct an_side *side = an_side_new("nights");
	size_t i;
	int ret = side ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++)
		ret = side_add_stored(c, side, &runs[i], scenario);
	if (ret) {
		an_side_free(side);
		return ret;
	}
	*out = side;
	return 0;
}

/*
 * The night model (issue 36 item 2, history_nights.c) over @runs[0..nb)
 * (newest first) and tonight: a step of two nights or more since a split
 * among the last STEP_NIGHTS + 1 nights, or tonight alone. 0 with @ns
 * filled, or an error.
 */
static int night_model(struct judge_ctx *c, const char *scenario,
		       const struct history_run *runs, size_t nb,
		       const struct an_gate *gate,
		       struct history_night_step *ns)
{
	struct an_side *side = an_side_new("series");
	size_t i, n = nb > c->p_k + STEP_NIGHTS ? c->p_k + STEP_NIGHTS : nb;
	int ret = side ? 0 : -ENOMEM;

	memset(ns, 0, sizeof(*ns));
	for (i = n; !ret && i-- > 0;)
		ret = side_add_stored(c, side, &runs[i], scenario);
	if (!ret)
		ret = side_add_tonight(c, side, scenario);
	/* A night with no ok repetition of the scenario adds no unit. */
	if (!ret && side->nruns == n + 1)
		ret = history_nights_judge(side, gate, c->p_k,
					   STEP_NIGHTS + 1, ns);
	an_side_free(side);
	return ret;
}

/*
 * A step is a change that stays (issue 23 item 5). The nights of a real
 * machine scatter with bursts: a host pause moves one night's p99
 * several-fold on every CPU, and a night is one unit, so no rule inside
 * the analyzer can tell tonight's burst from tonight's step. What tells
 * them apart is the next night. So a night that rises alone on a
 * distributional line (a quantile, the typical max, the tail law, a
 * workload metric) is INCONCLUSIVE, the rise named, and the nights after
 * it decide: when a night of the last STEP_NIGHTS rose alone against the
 * K nights before it, that night, the nights since and tonight together
 * are judged against those K nights, and a REGRESSION (IMPROVEMENT) there
 * is a step dated to that night (the earliest such night). Both tests
 * are at the scenario's level, so a false step needs a night that stands
 * out and nights after it that keep it (docs/nightly.md, measured).
 *
 * @runs: the K + 1 nights before tonight, newest first (nb of them).
 * On a step, @j's changepoint view moves to the step's night: what
 * changed in the kernel identity from the night before it to it.
 * Returns 1 when last night and tonight are a step (@res holds that
 * judgement, @since last night's id), 0 when not, or an error.
 */

/* The step began on runs[0]: what changed from the night before it. */
static int step_identity(struct judge_ctx *c, const struct history_run *runs,
			 struct history_judgement *j)
{
	cJSON *m[2] = { NULL, NULL };
	char *text;
	int i, ret = 0;

	for (i = 0; i < 2 && !ret; i++) {
		ret = history_run_manifest(c->h, runs[i].id, &text);
		if (!ret) {
			m[i] = cJSON_Parse(text);
			free(text);
		}
	}
	if (!ret) {
		identity_diff(m[1], m[0], j->changed, sizeof(j->changed));
		snprintf(j->prev_run_id, sizeof(j->prev_run_id), "%s",
			 runs[1].run_id);
	}
	cJSON_Delete(m[0]);
	cJSON_Delete(m[1]);
	return ret;
}

/*
 * Did runs[j] alone, against @base, rise (fall) as @v says, on a line one
 * night cannot decide? 1 yes, 0 no, or an error.
 */
static int night_rose(struct judge_ctx *c, const char *scenario,
		      const struct history_run *runs, size_t j,
		      const struct an_side *base, const struct an_gate *gate,
		      enum an_verdict v)
{
	struct an_side *one = NULL;
	struct an_result alone;
	int ret;

	ret = nights_side(c, scenario, runs + j, 1, &one);
	if (!ret)
		ret = an_compare(base, one, gate, &alone);
	an_side_free(one);
	if (ret)
		return ret;
	ret = !night_alone_decides(&alone) && alone.verdict == v;
	an_result_release(&alone);
	return ret;
}

/* @res's line that is @l's (the same kind, metric and CPU), or NULL. */
static const struct an_line *same_line(const struct an_result *res,
				       const struct an_line *l)
{
	size_t i;

	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].kind == l->kind &&
		    res->lines[i].cpu == l->cpu &&
		    !strcmp(res->lines[i].metric, l->metric) &&
		    !isnan(res->lines[i].cand))
			return &res->lines[i];
	return NULL;
}

/*
 * Does the step's first night runs[i] stand at the level of the nights
 * after it? @step judged runs[i], the nights since and tonight together
 * against @base (the K nights before runs[i]); @alone judged runs[i] by
 * itself against @base. On the line @step rests on, runs[i] must be
 * nearer the level of the nights after it (runs[0..i) and tonight,
 * against @base) than @base's: a step-free night that stood out a little
 * (a rare slow path, a p95 of 57 us against 35) just before a step of
 * 100 would otherwise date the step a night early (silent-lab nights,
 * the tuning half, issue 36). 0 with @in set, or an error.
 */
static int first_in_step(struct judge_ctx *c, const char *scenario,
			 const struct history_run *runs, size_t i,
			 const struct an_side *base, const struct an_gate *gate,
			 const struct an_result *step,
			 const struct an_result *alone, bool *in)
{
	const struct an_line *l = deciding_line(step), *first, *later;
	struct an_side *rest = NULL;
	struct an_result r;
	int ret;

	*in = true;
	if (!l || !(first = same_line(alone, l)))
		return 0;
	ret = nights_side(c, scenario, runs, i, &rest);
	if (!ret)
		ret = side_add_tonight(c, rest, scenario);
	if (!ret)
		ret = an_compare(base, rest, gate, &r);
	an_side_free(rest);
	if (ret)
		return ret;
	later = same_line(&r, l);
	if (later && !isnan(later->base))
		*in = fabs(first->cand - later->cand) <=
		      fabs(first->cand - later->base);
	an_result_release(&r);
	return 0;
}

/*
 * Do the nights themselves show a rise since runs[i]? The night model
 * (history_nights.c: a night is the unit, with the between-night scatter
 * of the K nights before) over those K nights, runs[i] .. runs[0] and
 * tonight, the split looked for among the nights since. The analyzer
 * pools repetitions, and a kernel's rare slow path lands in one of three
 * repetitions of about a night in three on 7.2 non-RT: two such nights
 * in a row were a "step" of the pooled repetitions, never of the nights
 * (silent-lab nights, the tuning half, issue 36). 0 with @shown set, or
 * an error.
 */
static int nights_show_rise(struct judge_ctx *c, const char *scenario,
			    const struct history_run *runs, size_t nb,
			    size_t i, const struct an_gate *gate, bool *shown)
{
	struct an_side *side = an_side_new("series");
	struct history_night_step ns;
	size_t k = nb - i - 1, j;
	int ret = side ? 0 : -ENOMEM;

	if (k > c->p_k)
		k = c->p_k;
	*shown = true;
	for (j = i + k + 1; !ret && j-- > 0;)
		ret = side_add_stored(c, side, &runs[j], scenario);
	if (!ret)
		ret = side_add_tonight(c, side, scenario);
	/* A night with no ok repetition adds no unit: not judged here. */
	if (!ret && side->nruns == i + k + 2) {
		ret = history_nights_judge(side, gate, k, i + 2, &ns);
		if (!ret)
			*shown = ns.found != HISTORY_NIGHTS_NONE && ns.dir > 0;
	}
	an_side_free(side);
	return ret;
}

/*
 * Did a step begin @i + 1 nights ago (runs[i]) and stay until tonight?
 * runs[i] and each night after it before tonight rose (fell) alone
 * against the K nights before runs[i], on a line one night cannot decide,
 * and runs[i], the nights after it and tonight together against the same
 * K nights say the same. Every night of it, not only the first: a night
 * that stood out two nights before a step, with a step-free night
 * between, would otherwise date the step (silent-lab nights, issue 36).
 * 1: @res holds that judgement; 0: no.
 */
static int step_since(struct judge_ctx *c, const char *scenario,
		      const struct history_run *runs, size_t nb, size_t i,
		      const struct an_gate *gate, struct an_result *res)
{
	struct an_side *base = NULL, *first = NULL, *since = NULL;
	struct an_result alone;
	size_t k = nb - i - 1, j;
	int ret, step = 0;
	bool stays, filled;

	if (k > c->p_k)
		k = c->p_k;
	ret = nights_side(c, scenario, runs + i + 1, k, &base);
	if (!ret)
		ret = nights_side(c, scenario, runs + i, 1, &first);
	if (!ret)
		ret = an_compare(base, first, gate, &alone);
	if (ret)
		goto out;
	stays = !night_alone_decides(&alone);
	for (j = i; stays && !ret && j-- > 0;) {
		ret = night_rose(c, scenario, runs, j, base, gate,
				 alone.verdict);
		stays = ret == 1;
		ret = ret < 0 ? ret : 0;
	}
	if (stays && !ret) {
		ret = nights_side(c, scenario, runs, i + 1, &since);
		if (!ret)
			ret = side_add_tonight(c, since, scenario);
		if (!ret)
			ret = an_compare(base, since, gate, res);
		filled = !ret;
		if (!ret && res->verdict == alone.verdict) {
			bool in;

			ret = first_in_step(c, scenario, runs, i, base, gate,
					    res, &alone, &in);
			if (!ret && in && res->verdict == AN_REGRESSION)
				ret = nights_show_rise(c, scenario, runs, nb,
						       i, gate, &in);
			step = !ret && in;
		}
		if (filled && !step)
			an_result_release(res);
	}
	an_result_release(&alone);
out:
	an_side_free(base);
	an_side_free(first);
	an_side_free(since);
	return ret ? ret : step;
}

/*
 * The earliest of the last STEP_NIGHTS nights a step that stays began
 * on (a step of several nights keeps its first night's date), or none.
 */
static int judge_step(struct judge_ctx *c, const char *scenario,
		      const struct history_run *runs, size_t nb,
		      const struct an_gate *gate, struct an_result *res,
		      char *since, size_t len, struct history_judgement *j)
{
	size_t i;
	int ret;

	if (nb < 2)
		return 0;
	for (i = nb - 2 < STEP_NIGHTS - 1 ? nb - 2 : STEP_NIGHTS - 1;
	     i != (size_t)-1; i--) {
		ret = step_since(c, scenario, runs, nb, i, gate, res);
		if (ret == 1) {
			snprintf(since, len, "%s", runs[i].run_id);
			ret = step_identity(c, runs + i, j);
			if (ret)
				an_result_release(res);
			return ret ? ret : 1;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The night is INVALID: not like with like (@why names what differs). */
static void night_unlike(struct history_judgement *j, const char *why)
{
	snprintf(j->verdict, sizeof(j->verdict), "%s",
		 an_verdict_name(AN_INVALID));
	j->exit_code = an_verdict_exit(AN_INVALID);
	snprintf(j->reason, sizeof(j->reason), "not like with like: %.400s; "
		 "a difference that is not the one under test makes the "
		 "night INVALID (--intended SETTING, intended = in the "
		 "nightly's configuration, if it is; docs/nightly.md, "
		 "\"Like with like\")", why);
}

static int judge_scenario(struct judge_ctx *c, const char *scenario,
			  struct history_judgement *j)
{
	struct history_baseline_query q = {
		.suite = c->run.suite, .host = c->run.host,
		.scenario = scenario, .reference = c->p->reference,
		.before = c->run.start_time, .exclude_run_id = c->run.run_id,
		.limit = c->p_k + STEP_NIGHTS,
		.scale = c->run.duration_scale > 0 ? c->run.duration_scale : 1,
		.clock = c->clock,
	};
	struct an_side *base = NULL, *cand = NULL;
	const struct an_line *line;
	struct history_run *runs;
	struct an_result res;
	struct an_gate gate;
	char since[128] = "", held[640] = "";
	size_t nb;
	int ret;

	memset(j, 0, sizeof(*j));
	snprintf(j->scenario, sizeof(j->scenario), "%s", scenario);
	j->cand = j->base = j->p_value = NAN;
	gate_from_manifest(c->manifest, scenario, c->p->metric, &gate);
	if (c->family > 1) {
		char among[64];

		snprintf(among, sizeof(among), "the run's %zu scenarios",
			 c->family);
		an_share_alpha_among(&gate, c->family, among);
		snprintf(j->level_note, sizeof(j->level_note), "judged at "
			 "%.2g of alpha: %s", gate.level, gate.level_why);
	}
	snprintf(j->metric, sizeof(j->metric), "%s", gate.metric);
	ret = history_baseline(c->h, &q, &runs, &nb);
	if (ret)
		return ret;
	if (!nb) {
		size_t other = 0;

		free(runs);
		/* Runs at another --duration-scale: not comparable. */
		q.scale = 0;
		q.limit = 1000;
		if (history_baseline(c->h, &q, &runs, &other))
			other = 0;
		else
			free(runs);
		snprintf(j->verdict, sizeof(j->verdict), "%s",
			 an_verdict_name(AN_SKIPPED));
		j->exit_code = an_verdict_exit(AN_SKIPPED);
		if (other)
			snprintf(j->reason, sizeof(j->reason), "a run at "
				 "--duration-scale %g is not judged against "
				 "the history: its %zu earlier run%s of this "
				 "suite, host and scenario ran at another "
				 "scale (shorter runs see fewer and smaller "
				 "maxima)", q_scale(c), other,
				 other == 1 ? "" : "s");
		else
			snprintf(j->reason, sizeof(j->reason), "no earlier "
				 "complete run of this suite, host and "
				 "scenario%s%s yet",
				 c->p->reference ? " on a kernel matching " :
				 "", c->p->reference ? c->p->reference : "");
		return 0;
	}
	snprintf(j->prev_run_id, sizeof(j->prev_run_id), "%s", runs[0].run_id);
	{
		size_t k = nb > c->p_k ? c->p_k : nb, alike;
		char why[600];

		/* The step look-back uses only nights alike to tonight. */
		alike = alike_nights(c, runs, nb, why, sizeof(why));
		if (alike < k) {
			j->baseline_runs = k;
			night_unlike(j, why);
			free(runs);
			return 0;
		}
		nb = alike;
	}
	ret = base_side(c, scenario, runs, nb > c->p_k ? c->p_k : nb, &base,
			j);
	j->baseline_runs = nb > c->p_k ? c->p_k : nb;
	cand = ret ? NULL : an_side_new(c->run.run_id);
	if (!ret && !cand)
		ret = -ENOMEM;
	if (!ret)
		ret = side_add_tonight(c, cand, scenario);
	/* CPUs are paired by thread: the nights' and tonight's, alike. */
	if (!ret && an_like_cpus_diff(base, cand, c->p->intended, held,
				      sizeof(held))) {
		night_unlike(j, held);
		free(runs);
		an_side_free(base);
		an_side_free(cand);
		return 0;
	}
	if (!ret)
		ret = an_compare(base, cand, &gate, &res);
	if (!ret) {
		struct an_result step;

		/* Last night rose alone: is it a step, with tonight? */
		ret = judge_step(c, scenario, runs, nb, &gate, &step, since,
				 sizeof(since), j);
		if (ret == 1) {
			an_result_release(&res);
			res = step;
			ret = 0;
		} else if (!ret && !night_alone_decides(&res)) {
			/* Tonight rose alone: held, the next night decides. */
			says_nights(res.reason, sizeof(res.reason));
			snprintf(held, sizeof(held), "%s", res.reason);
			res.verdict = AN_INCONCLUSIVE;
			j->held = true;
		}
	}
	if (!ret && !*since && night_alone_decides(&res) &&
	    res.verdict != AN_REGRESSION && res.verdict != AN_IMPROVEMENT) {
		struct history_night_step ns;

		/* The nights as a series: a step the analyzer's own did not
		 * see, or tonight alone beyond the nights' scatter. */
		ret = night_model(c, scenario, runs, nb, &gate, &ns);
		if (!ret && ns.found == HISTORY_NIGHTS_STEP) {
			/* The series is runs[n - 1] .. runs[0], tonight. */
			size_t n = nb > c->p_k + STEP_NIGHTS ?
				   c->p_k + STEP_NIGHTS : nb;
			size_t first = n - 1 - ns.tau;	/* runs[] index */

			snprintf(since, sizeof(since), "%s",
				 runs[first].run_id);
			if (first + 1 < nb)
				ret = step_identity(c, runs + first, j);
			res.verdict = ns.dir > 0 ? AN_REGRESSION :
				      AN_IMPROVEMENT;
			res.decisive = -1;
			j->held = false;
			snprintf(res.reason, sizeof(res.reason), "%s; "
				 "tonight's kernel %.100s", ns.words,
				 c->kernel);
		} else if (!ret && ns.found == HISTORY_NIGHTS_HELD &&
			   !j->held) {
			snprintf(held, sizeof(held), "%s", ns.words);
			res.verdict = AN_INCONCLUSIVE;
			j->held = true;
		}
	}
	free(runs);
	if (!ret) {
		says_nights(res.reason, sizeof(res.reason));
		snprintf(j->verdict, sizeof(j->verdict), "%s",
			 an_verdict_name(res.verdict));
		j->exit_code = an_verdict_exit(res.verdict);
		snprintf(j->since_run_id, sizeof(j->since_run_id), "%s",
			 *since ? since : "");
		if (*since)
			snprintf(j->reason, sizeof(j->reason), "a step since "
				 "%.90s (that night and tonight against the "
				 "nights before it): %.440s", since,
				 res.reason);
		else if (*held)
			snprintf(j->reason, sizeof(j->reason), "tonight "
				 "alone: %.440s; one night is not a step (%s "
				 "moves one night): the next night decides",
				 held, an_system_clock_virtual(c->manifest) ?
				 "in virtual time no host pause reaches it, "
				 "but the kernel's own rare path" :
				 "a burst of the host");
		else
			snprintf(j->reason, sizeof(j->reason), "%s",
				 res.reason);
		if (q_scale(c) != 1) {
			size_t l = strlen(j->reason);

			snprintf(j->reason + l, sizeof(j->reason) - l, " (a "
				 "scaled run, judged against runs at "
				 "--duration-scale %g only)", q_scale(c));
		}
		line = deciding_line(&res);
		/* As measured (a max line: its maxima), as the reason says. */
		if (line) {
			j->cand = isnan(line->raw_cand) ? line->cand :
				  line->raw_cand;
			j->base = isnan(line->raw_base) ? line->base :
				  line->raw_base;
			j->p_value = line->p_adj;
		}
		an_result_release(&res);
	}
	an_side_free(base);
	an_side_free(cand);
	return ret;
}

int history_judge_run(struct history *h, const char *run_id,
		      const struct history_judge_params *p,
		      struct history_judgement **out, size_t *n)
{
	return history_judge_run_host(h, run_id, NULL, p, out, n);
}

int history_judge_run_host(struct history *h, const char *run_id,
			   const char *host,
			   const struct history_judge_params *p,
			   struct history_judgement **out, size_t *n)
{
	struct judge_ctx c = { .h = h, .p = p };
	struct history_judgement *v = NULL;
	struct history_scenario *sc = NULL;
	size_t ns = 0, i, cnt = 0;
	char *text = NULL;
	int ret;

	ret = history_find_run_host(h, run_id, host, &c.run);
	if (ret) {
		if (ret == -ENOENT)
			pr_err("%s: no run '%s'%s%s in the history", h->path,
			       run_id, host ? " of " : "", host ? host : "");
		return ret;
	}
	ret = history_run_manifest(h, c.run.id, &text);
	if (ret)
		return ret;
	c.manifest = cJSON_Parse(text);
	free(text);
	{
		char statement[320];

		an_system_clock(c.manifest, c.clock, sizeof(c.clock),
				statement, sizeof(statement));
	}
	an_like_from_manifest(c.manifest, &c.tonight);
	snprintf(c.kernel, sizeof(c.kernel), "%s", json_get_str(
			 cJSON_GetObjectItem(c.manifest, "kernel"), "release",
			 "?"));
	ret = history_scenarios(h, c.run.id, &sc, &ns);
	if (ret)
		goto out;
	v = calloc(ns ? ns : 1, sizeof(*v));
	if (!v) {
		ret = -ENOMEM;
		goto out;
	}
	ret = night_family(c.manifest, sc, ns, &c.family);
	if (ret)
		goto out;
	c.p_k = p->history ? p->history : 7;
	for (i = 0; i < ns; i++) {
		if (strcmp(sc[i].status, "ok") && strcmp(sc[i].status, "partial"))
			continue;
		ret = judge_scenario(&c, sc[i].name, &v[cnt]);
		if (ret)
			goto out;
		if (p->store)
			store(&c, &v[cnt]);
		cnt++;
	}
	*out = v;
	*n = cnt;
	v = NULL;
out:
	free(v);
	free(sc);
	cJSON_Delete(c.manifest);
	for (i = 0; i < c.nlikes; i++)
		free(c.likes[i].like);
	return ret;
}

int history_judgements_exit(const struct history_judgement *j, size_t n)
{
	int code = EXITCODE_PASS;
	size_t i, judged = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(j[i].verdict, an_verdict_name(AN_SKIPPED)))
			judged++;
		code = exitcode_worse(code, j[i].exit_code);
	}
	return judged ? code : exitcode_worse(code, EXITCODE_INCONCLUSIVE);
}
