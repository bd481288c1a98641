// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every evidence line of a comparison shares (judge_priv.h): a
 * line made with its test beside it, the effect and floor of a latency
 * line, the notes, the median of a subset of repetitions. The files that
 * build lines call down into this one; it calls none of them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"

struct an_line *an_cmp_line_new(struct an_prep *p, enum an_line_kind kind,
				const char *metric, int cpu)
{
	struct an_result *res = p->res;
	struct an_line *l;

	if (res->nlines == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct an_line_test *t;

		l = realloc(res->lines, cap * sizeof(*l));
		if (!l)
			return NULL;
		res->lines = l;
		t = realloc(p->tests, cap * sizeof(*t));
		if (!t)
			return NULL;
		p->tests = t;
		p->cap = cap;
	}
	memset(&p->tests[res->nlines], 0, sizeof(p->tests[0]));
	p->tests[res->nlines].sign = 1;
	l = &res->lines[res->nlines++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->cpu = cpu;
	snprintf(l->metric, sizeof(l->metric), "%s", metric);
	snprintf(l->unit, sizeof(l->unit), "us");
	l->lo = l->hi = l->p_worse = l->p_better = l->p_adj = NAN;
	l->pass_hi = NAN;
	l->raw_base = l->raw_cand = NAN;
	l->range_base[0] = l->range_base[1] = NAN;
	l->range_cand[0] = l->range_cand[1] = NAN;
	l->drift = NAN;
	l->see = NAN;
	l->verdict = AN_INCONCLUSIVE;
	return l;
}

double an_cmp_floor_at(const struct an_prep *p, const struct an_line *l,
		       double level)
{
	double pct = p->gate->min_increase_pct / 100.0 * fabs(level);

	/* Workload units are not us: only the relative floor applies. */
	if (l->kind == AN_LINE_METRIC)
		return fmax(1e-12, pct);
	pct = fmax(p->gate->min_increase_us, pct);
	return pct > 0 ? pct : 1e-9;
}

void an_cmp_line_effect_us(const struct an_prep *p, struct an_line *l)
{
	l->delta = l->cand - l->base;
	l->worse = l->delta;
	l->delta_pct = l->base > 0 ? 100.0 * l->delta / l->base : NAN;
	l->floor = an_cmp_floor_at(p, l, l->base);
}

void an_cmp_note(struct an_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nnotes >= sizeof(res->notes) / sizeof(res->notes[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nnotes++], sizeof(res->notes[0]), fmt, ap);
	va_end(ap);
}

double an_cmp_subset_median(const double *v, const size_t *idx, size_t n)
{
	double buf[n ? n : 1];
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = v[idx[i]];
	return an_median(buf, n);
}

void an_cmp_line_drift(const struct an_prep *p, struct an_line *l,
		       const double *b, double cand_median)
{
	double early, late, dir;

	if (!p->drift)
		return;
	early = an_cmp_subset_median(b, p->early, p->nhalf);
	late = an_cmp_subset_median(b, p->late, p->nhalf);
	l->drift = late - early;
	dir = l->delta > 0 ? 1 : -1;
	l->beyond_halves = l->delta != 0 &&
			   dir * (cand_median - early) >=
				   an_cmp_floor_at(p, l, early) &&
			   dir * (cand_median - late) >=
				   an_cmp_floor_at(p, l, late);
}
