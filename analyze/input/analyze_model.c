// SPDX-License-Identifier: GPL-2.0-only
/* The analyzer's in-memory data: sides, runs, threads, metrics; gates. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "exitcode.h"
#include "log.h"
#include "rtpaths.h"

struct an_side *an_side_new(const char *name)
{
	struct an_side *s = calloc(1, sizeof(*s));

	if (s)
		snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

static void reference_free(struct an_reference *ref)
{
	size_t i;

	if (!ref)
		return;
	for (i = 0; i < ref->ncpus; i++)
		an_cpu_release(&ref->cpus[i]);
	free(ref->cpus);
	free(ref->value_names);
	free(ref->values);
	free(ref);
}

static void run_release(struct an_run *run)
{
	size_t i;

	for (i = 0; i < run->ncpus; i++)
		an_cpu_release(&run->cpus[i]);
	free(run->cpus);
	for (i = 0; i < run->nmetrics; i++)
		free(run->metrics[i].v);
	free(run->metrics);
	free(run->wls);
	free(run->series_us);
}

int an_run_add_workload(struct an_run *run, const struct an_workload *wl)
{
	struct an_workload *wls;

	wls = realloc(run->wls, (run->nwls + 1) * sizeof(*wls));
	if (!wls)
		return -ENOMEM;
	run->wls = wls;
	wls[run->nwls++] = *wl;
	return 0;
}

void an_side_drop_last(struct an_side *side)
{
	if (side->nruns)
		run_release(&side->runs[--side->nruns]);
}

void an_side_free(struct an_side *side)
{
	size_t r;

	if (!side)
		return;
	for (r = 0; r < side->nruns; r++)
		run_release(&side->runs[r]);
	free(side->runs);
	reference_free(side->ref);
	free(side);
}

struct an_run *an_side_add_run(struct an_side *side, const char *label,
			       size_t ncpus)
{
	struct an_run *runs, *run;
	size_t i;

	runs = realloc(side->runs, (side->nruns + 1) * sizeof(*runs));
	if (!runs)
		return NULL;
	side->runs = runs;
	run = &runs[side->nruns];
	memset(run, 0, sizeof(*run));
	for (i = 0; i < AN_RSEQ_NR; i++)
		run->rseq[i] = NAN;	/* set by the results reader, if any */
	if (ncpus) {
		run->cpus = calloc(ncpus, sizeof(*run->cpus));
		if (!run->cpus)
			return NULL;
	}
	run->ncpus = ncpus;
	for (i = 0; i < ncpus; i++) {
		run->cpus[i].thread = i;
		run->cpus[i].cpu = -1;
		run->cpus[i].prio = -1;
		run->cpus[i].act_us = -1;
	}
	snprintf(run->label, sizeof(run->label), "%s", label);
	side->nruns++;
	run->rep = side->nruns;
	run->order = -1;
	return run;
}

static int bucket_cmp(const void *a, const void *b)
{
	const struct an_bucket *x = a, *y = b;

	return (x->us > y->us) - (x->us < y->us);
}

int an_cpu_set_buckets(struct an_cpu *c, const struct an_bucket *b, size_t n,
		       uint32_t limit)
{
	struct an_bucket *s;
	uint64_t sum = 0, over = 0;
	size_t i, k = 0;

	s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, b, n * sizeof(*s));
	qsort(s, n, sizeof(*s), bucket_cmp);
	for (i = 0; i < n; i++) {
		if (sum + s[i].n < sum) {
			free(s);
			return -EOVERFLOW;
		}
		sum += s[i].n;
		if (!s[i].n)
			continue;
		if (s[i].us >= limit)
			over += s[i].n;
		else if (k && s[k - 1].us == s[i].us)
			s[k - 1].n += s[i].n;
		else
			s[k++] = s[i];
	}
	/* Never NULL: an all-overflow histogram is still a histogram. */
	free(c->b);
	c->b = s;
	c->nbuckets = k;
	c->limit = limit;
	if (sum > c->cycles)
		c->cycles = sum;
	c->overflows = c->cycles - (sum - over);
	return 0;
}

int an_cpu_set_hist(struct an_cpu *c, const uint64_t *buckets, size_t n,
		    uint32_t limit)
{
	struct an_bucket *b;
	size_t i, k = 0;
	int ret;

	if (n > limit)
		n = limit;
	b = malloc((n ? n : 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (buckets[i])
			b[k++] = (struct an_bucket){ .us = i, .n = buckets[i] };
	ret = an_cpu_set_buckets(c, b, k, limit);
	free(b);
	return ret;
}

int an_run_add_metric(struct an_run *run, const char *name, const char *unit,
		      bool higher_better, const double *v, size_t n)
{
	struct an_values *m;

	m = realloc(run->metrics, (run->nmetrics + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	run->metrics = m;
	m = &m[run->nmetrics];
	memset(m, 0, sizeof(*m));
	m->v = malloc((n ? n : 1) * sizeof(*m->v));
	if (!m->v)
		return -ENOMEM;
	memcpy(m->v, v, n * sizeof(*v));
	m->n = n;
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit ? unit : "");
	m->higher_better = higher_better;
	run->nmetrics++;
	return 0;
}

void an_gate_default(struct an_gate *gate)
{
	memset(gate, 0, sizeof(*gate));
	snprintf(gate->metric, sizeof(gate->metric), "max");
	gate->alpha = 0.05;
	gate->min_increase_us = 5;
	gate->min_increase_pct = 10;
}

/* pN: one or two digits, then at most three after a point; 0 < N < 100. */
static bool quantile_name(const char *metric, double *q)
{
	const char *s = metric + 1;
	size_t whole, frac = 0;
	double v;

	if (metric[0] != 'p')
		return false;
	whole = strspn(s, "0123456789");
	if (whole < 1 || whole > 2)
		return false;
	if (s[whole] == '.') {
		frac = strspn(s + whole + 1, "0123456789");
		if (frac < 1 || frac > 3)
			return false;
		frac++;
	}
	if (s[whole + frac])
		return false;
	v = strtod(s, NULL);
	if (!(v > 0) || !(v < 100))
		return false;
	*q = v / 100.0;
	return true;
}

/* WORKLOAD.METRIC: both start with a letter, so p99.9999 is neither. */
static bool workload_name(const char *metric)
{
	const char *dot = strchr(metric, '.');

	if (!dot || !isalpha((unsigned char)metric[0]) ||
	    !isalpha((unsigned char)dot[1]))
		return false;
	return strspn(metric, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789-_.") == strlen(metric);
}

enum an_metric_kind an_metric_kind(const char *metric)
{
	double q;

	if (!strcmp(metric, "max"))
		return AN_METRIC_MAX;
	if (!strcmp(metric, "avg"))
		return AN_METRIC_AVG;
	if (quantile_name(metric, &q))
		return AN_METRIC_QUANTILE;
	if (workload_name(metric))
		return AN_METRIC_WORKLOAD;
	return AN_METRIC_UNKNOWN;
}

bool an_metric_quantile(const char *metric, double *q)
{
	return quantile_name(metric, q);
}

int an_gate_check(const struct an_gate *gate)
{
	if (an_metric_kind(gate->metric) == AN_METRIC_UNKNOWN) {
		pr_err("unknown gate metric '%s' (" AN_METRIC_NAMES ")",
		       gate->metric);
		return -EINVAL;
	}
	if (!(gate->alpha > 0 && gate->alpha < 0.5)) {
		pr_err("alpha %g is outside (0, 0.5)", gate->alpha);
		return -EINVAL;
	}
	if (!(gate->min_increase_us >= 0) || !(gate->min_increase_pct >= 0)) {
		pr_err("the practical floor (min_increase_us %g, "
		       "min_increase_pct %g) must be >= 0",
		       gate->min_increase_us, gate->min_increase_pct);
		return -EINVAL;
	}
	return 0;
}

const char *an_verdict_name(enum an_verdict v)
{
	static const char *const names[] = {
		[AN_NO_CHANGE] = "NO CHANGE",
		[AN_IMPROVEMENT] = "IMPROVEMENT",
		[AN_SKIPPED] = "SKIPPED",
		[AN_INCONCLUSIVE] = "INCONCLUSIVE",
		[AN_INVALID] = "INVALID",
		[AN_REGRESSION] = "REGRESSION",
	};

	return v <= AN_REGRESSION ? names[v] : "?";
}

const char *an_line_name(const struct an_line *l)
{
	switch (l->kind) {
	case AN_LINE_MAX:
		return "max";
	case AN_LINE_EXCEED:
		return "max/law";
	default:
		return l->metric;
	}
}

const char *an_line_judged(char *buf, size_t len, const struct an_line *l)
{
	switch (l->kind) {
	case AN_LINE_MAX:
		rtpaths_fmt(buf, len, "typical max");
		break;
	case AN_LINE_EXCEED:
		rtpaths_fmt(buf, len, "max against the baseline's tail law");
		break;
	case AN_LINE_SPIKE:
		rtpaths_fmt(buf, len, "largest wake-up against the baseline's "
			    "law and this machine's pauses");
		break;
	case AN_LINE_REL:
		/* "p95/others": "p95 against the other CPUs" */
		rtpaths_fmt(buf, len, "%.*s against the other CPUs",
			    (int)strcspn(l->metric, "/"), l->metric);
		break;
	default:
		rtpaths_fmt(buf, len, "%s", l->metric);
	}
	return buf;
}

void an_line_interval_ends(const struct an_line *l, double *lo, double *hi)
{
	double top = fmax(fmax(fabs(l->base), fabs(l->cand)), l->floor);

	/* A max line: the largest wake-up either side measured. */
	if (!isnan(l->raw_base))
		top = fmax(top, fmax(l->raw_base, l->raw_cand));
	top *= AN_BOUND_FACTOR;
	*lo = l->lo;
	*hi = l->hi;
	if (isnan(*lo) || isnan(*hi))
		return;
	/*
	 * A maximum against a tail law: its delta is the candidate's maximum
	 * minus the law's maximum x, so an end stands for x = cand - end,
	 * which is at least 0 and bounded like any latency.
	 */
	if (l->kind == AN_LINE_EXCEED) {
		if (l->cand - *hi < 0)
			*hi = l->cand;
		if (l->cand - *lo < 0)
			*lo = l->cand;
		if (l->cand - *lo > top)
			*lo = NAN;
		if (l->cand - *hi > top)
			*hi = NAN;
		return;
	}
	/* Nothing measured here is below 0: the interval stops there. */
	if (l->base + *lo < 0)
		*lo = -l->base;
	if (l->base + *hi < 0)
		*hi = -l->base;
	/* Far beyond both sides' values is no bound this data can give. */
	if (l->base + *hi > top)
		*hi = NAN;
	if (l->base + *lo > top)
		*lo = NAN;
}

static void fmt_end(char *buf, size_t len, double v)
{
	if (isnan(v))
		rtpaths_fmt(buf, len, "unbounded");
	else if (fabs(v) >= 100 || v == floor(v))
		rtpaths_fmt(buf, len, "%.0f", v);
	else
		rtpaths_fmt(buf, len, "%.3g", v);
}

const char *an_line_interval(char *buf, size_t len, const struct an_line *l)
{
	char a[32], b[32];
	double lo, hi;

	if (isnan(l->lo) || isnan(l->hi)) {
		rtpaths_fmt(buf, len, "-");
		return buf;
	}
	an_line_interval_ends(l, &lo, &hi);
	fmt_end(a, sizeof(a), lo);
	fmt_end(b, sizeof(b), hi);
	if (isnan(lo) && isnan(hi))
		rtpaths_fmt(buf, len, "unbounded");
	else if (isnan(lo))
		rtpaths_fmt(buf, len, "unbounded..%s%s%s", b, *l->unit ? " " :
			    "", l->unit);
	else if (isnan(hi))
		rtpaths_fmt(buf, len, "%s%s%s..unbounded", a, *l->unit ? " " :
			    "", l->unit);
	else
		rtpaths_fmt(buf, len, "%s..%s%s%s", a, b, *l->unit ? " " : "",
			    l->unit);
	return buf;
}

int an_verdict_exit(enum an_verdict worst)
{
	switch (worst) {
	case AN_REGRESSION:
		return EXITCODE_REGRESSION;
	case AN_INCONCLUSIVE:
	case AN_INVALID:
		return EXITCODE_INCONCLUSIVE;
	default:
		return EXITCODE_PASS;
	}
}

void an_params_init(struct an_params *p)
{
	memset(p, 0, sizeof(*p));
	p->alpha = -1;
	p->min_increase_us = -1;
	p->min_increase_pct = -1;
}

/* ---- checks of what the inputs gave ---- */

int an_run_empty_thread(const struct an_run *run)
{
	size_t i;

	for (i = 0; i < run->ncpus; i++)
		if (!run->cpus[i].cycles)
			return i;
	return -1;
}

int an_side_check(const struct an_side *side)
{
	size_t r;
	int t;

	for (r = 0; r < side->nruns; r++) {
		t = an_run_empty_thread(&side->runs[r]);
		if (t >= 0 && side->runs[r].ncpus) {
			pr_err("%s%s%s: thread %d has no samples (cycles 0): "
			       "that measurement did not run", side->origin,
			       side->nruns > 1 ? "/" : "", side->nruns > 1 ?
			       side->runs[r].label : "", t);
			return -EINVAL;
		}
	}

	for (r = 1; r < side->nruns; r++) {
		const struct an_run *a = &side->runs[0], *b = &side->runs[r];

		for (t = 0; (size_t)t < a->ncpus && (size_t)t < b->ncpus; t++)
			if (a->cpus[t].cpu >= 0 && b->cpus[t].cpu >= 0 &&
			    a->cpus[t].cpu != b->cpus[t].cpu) {
				pr_err("%s: thread %d ran on CPU %d in %s but on "
				       "CPU %d in %s: repetitions must measure "
				       "the same CPUs", side->origin, t,
				       a->cpus[t].cpu, a->label,
				       b->cpus[t].cpu, b->label);
				return -EINVAL;
			}
	}
	for (r = 1; r < side->nruns; r++)
		if (side->runs[r].ncpus != side->runs[0].ncpus) {
			pr_err("%s: %s has %zu threads but %s has %zu: "
			       "repetitions must measure the same CPUs",
			       side->origin, side->runs[r].label,
			       side->runs[r].ncpus, side->runs[0].label,
			       side->runs[0].ncpus);
			return -EINVAL;
		}
	return 0;
}

/* 1e6 - q in parts per million: the share beyond the level. */
static uint64_t beyond_ppm(double q)
{
	double ppm = round(q * 1e6);

	return ppm >= 1e6 ? 0 : ppm <= 0 ? 1000000 : 1000000 - (uint64_t)ppm;
}

bool an_level_supported(uint64_t cycles, double q)
{
	uint64_t b = beyond_ppm(q);

	/* cycles * b / 1e6 >= AN_LEVEL_MIN_EXCEED, without overflow. */
	return b && cycles >= (AN_LEVEL_MIN_EXCEED * 1000000ULL + b - 1) / b;
}

uint64_t an_level_needs(double q)
{
	uint64_t b = beyond_ppm(q);

	return b ? (AN_LEVEL_MIN_EXCEED * 1000000ULL + b - 1) / b : UINT64_MAX;
}

const char *const an_rseq_names[AN_RSEQ_NR] = {
	"sgrant", "sexpir", "srevok", "syield", "sabort",
};
