// SPDX-License-Identifier: GPL-2.0-only
/*
 * From lines to a verdict (docs/statistics.md).
 *
 * The family is every deciding line that could be tested (a line of a CPU
 * against the others, tested for a rise only, counts half). Each is judged
 * one-sided in each direction at level = (alpha's share) / 2 / family
 * (Bonferroni: valid however the lines depend on each other, and the
 * p-value and the interval of a line are the same test at the same
 * level, so an interval that excludes zero is exactly a p-value below
 * the level and every estimate lies inside its interval).
 *
 * A line is a REGRESSION when it is significant and its effect reaches
 * the practical floor; NO CHANGE when its pass bound (one-sided at
 * alpha's share / 2, not divided over the family: an intersection-union
 * test, see pass_level) rules out a rise of the floor's size; otherwise
 * it is undecided, and says the smallest rise
 * it could have called a regression and how many more repetitions a side
 * would bring that to the floor. The comparison is NO CHANGE only when
 * every deciding line is: a pass is a claim that the measurement could
 * have seen a change that matters.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"

_Static_assert(AN_MAX_LOOKS <= AN_GS_MAX_LOOKS,
	       "a gate's looks must fit an_gs_level()");

/*
 * The level of the pass rule: a NO CHANGE claims that no deciding line
 * rose by its floor, and the claim is false only if one did; by the
 * intersection-union principle each line's one-sided bound at alpha's
 * share / 2 keeps a false pass within that, however many lines there are.
 */
static double pass_level(const struct an_prep *p)
{
	return an_line_level(an_gate_share(p->gate), 1);
}

/* More repetitions than this per side are "none would". */
#define REPS_PRACTICAL	1000
/* A change it could only see beyond this many times the baseline: blind. */
#define SEE_BLIND	100

static bool tested(const struct an_prep *p, size_t i)
{
	enum an_test_kind k = p->tests[i].kind;
	double share = an_gate_share(p->gate);

	/* A burst-rate floor above any share of alpha tests nothing. */
	if (p->tests[i].p_floor >= an_line_level(share, 1))
		return false;
	return k == AN_TEST_LOG || k == AN_TEST_LINEAR || k == AN_TEST_EXCEED ||
	       k == AN_TEST_SPIKE;
}

/*
 * Repetitions to add to each side that bring c * sd * sqrt(1 / nb + 1 / nc)
 * down to target. The sides may differ (an A/B/A pools A and A2 against
 * B: 28 against 14), so the smaller side is what limits it; with equal
 * sides n this is 2 * (c * sd / target)^2 - n. -1: more than
 * REPS_PRACTICAL a side.
 */
static int reps_needed(const struct an_prep *p, double c, double sd,
		       double target)
{
	double nb = p->sb->nruns, nc = p->sc->nruns, q;
	int k;

	if (!(target > 0) || !(sd > 0))
		return -1;
	q = (target / (c * sd)) * (target / (c * sd));
	for (k = 0; fmin(nb, nc) + k <= REPS_PRACTICAL; k++)
		if (1 / (nb + k) + 1 / (nc + k) <= q)
			return k;
	return -1;
}

static void judge_log(struct an_prep *p, struct an_line *l,
		      const struct an_line_test *t, double a)
{
	double c = an_t_isf(a, t->df), base1 = 1 + l->base;
	double z = t->d / t->se;

	l->df = t->df;
	if (t->p_floor >= a) {
		/* Nothing this line could show is below the burst rate. */
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "one repetition "
			    "a side cannot tell a change from a burst: the "
			    "noise profile saw bursts here in %u of %zu "
			    "repetitions (up to %.2g of them)", t->bursts,
			    t->nreps, t->p_floor);
		return;
	}
	l->p_worse = fmax(t->p_floor, an_t_sf(z, t->df));
	/* Against the other CPUs only a rise is tested. */
	l->p_better = t->rel ? NAN : fmax(t->p_floor, an_t_sf(-z, t->df));
	l->lo = base1 * expm1(t->d - c * t->se);
	l->hi = base1 * expm1(t->d + c * t->se);
	l->pass_hi = base1 * expm1(t->d + an_t_isf(pass_level(p), t->df) *
				   t->se);
	l->see = base1 * expm1(c * t->se);
	l->more_reps = reps_needed(p, c, t->sd, log1p(l->floor / base1));
	/* Trimmed repetitions count less than their number: one more. */
	if (l->more_reps == 0 && l->see >= l->floor)
		l->more_reps = 1;
}

static void judge_linear(struct an_prep *p, struct an_line *l,
			 const struct an_line_test *t, double a)
{
	double c = an_t_isf(a, t->df), z = t->sign * t->d / t->se;
	size_t nb = p->sb->nruns, nc = p->sc->nruns;
	double sd = t->se / sqrt(1.0 / nb + 1.0 / nc);

	l->df = t->df;
	l->p_worse = an_t_sf(z, t->df);
	l->p_better = an_t_sf(-z, t->df);
	l->lo = t->d - c * t->se;
	l->hi = t->d + c * t->se;
	/* Oriented as worse: for a lower-is-worse metric, a fall. */
	l->pass_hi = t->sign * t->d + an_t_isf(pass_level(p), t->df) * t->se;
	l->see = c * t->se;
	l->more_reps = reps_needed(p, c, sd, l->floor);
}

static void judge_exceed(struct an_prep *p, struct an_line *l,
			 const struct an_line_test *t, double a)
{
	double xhi = an_cmp_exceed_x(t, a, a);
	double xlo = an_cmp_exceed_x(t, 1 - a, a);

	(void)p;
	l->p_worse = an_cmp_exceed_p(t, a);
	l->lo = l->cand - xhi;
	l->hi = l->cand - xlo;
	l->see = xhi - l->base;
	l->more_reps = 0;
}

/*
 * The spike's p under the baseline's law again; beyond both laws, or
 * without a profile the baseline's alone. The CPU's p is multiplied by
 * the CPUs looked at (Bonferroni), so its simulated null is sized for
 * the level split as far: a null sized for a alone has its floor near
 * a / 4, which times 4 CPUs or more never lies below a (issue 23: on 8
 * CPUs a 50 ms wake-up against a worst of 39 us could not decide). The
 * draws are capped (a floor of 1e-6 a CPU): where that times the CPUs
 * is above a, p_base_min says so and the reason names it.
 */
static void judge_spike(struct an_line *l, struct an_line_test *t, double a)
{
	double n = t->nspike ? (double)t->nspike : 1;

	t->p_base_min = 0;
	if (!isnan(t->x)) {
		t->p_base = fmin(1, n * an_cmp_exceed_p(t, a / n));
		t->p_base_min = fmin(1, n * an_cmp_exceed_p_min(t, a / n));
	}
	l->p_worse = isnan(t->p_prof) ? t->p_base : fmax(t->p_base, t->p_prof);
}

/* p-values, intervals, and the smallest rise each line could see. */
static void judge_lines(struct an_prep *p)
{
	struct an_result *res = p->res;
	double share = an_gate_share(p->gate);
	size_t i, m = 0, rel = 0;

	/* A line tested for a rise only spends half a line's alpha. */
	for (i = 0; i < res->nlines; i++) {
		if (!res->lines[i].deciding || !tested(p, i))
			continue;
		if (p->tests[i].rel)
			rel++;
		else
			m++;
	}
	m += (rel + 1) / 2;
	res->family = m;
	res->level = an_line_level(share, m);
	/*
	 * A look of --until-decided: each line's own group-sequential
	 * boundary for the share the looks spend together, where it is less
	 * strict than this look's increment (it always is after the first).
	 */
	if (p->gate->nlooks) {
		double gs = an_gs_level(an_line_level(p->gate->look_share, m),
					p->gate->look_t, p->gate->nlooks);

		if (gs > res->level)
			res->level = gs;
	}
	for (i = 0; i < res->nlines; i++) {
		struct an_line *l = &res->lines[i];
		const struct an_line_test *t = &p->tests[i];

		switch (t->kind) {
		case AN_TEST_LOG:
			judge_log(p, l, t, res->level);
			break;
		case AN_TEST_LINEAR:
			judge_linear(p, l, t, res->level);
			break;
		case AN_TEST_EXCEED:
			judge_exceed(p, l, t, res->level);
			break;
		case AN_TEST_SPIKE:
			judge_spike(l, &p->tests[i], res->level);
			break;
		default:
			break;
		}
		if (t->kind == AN_TEST_LINEAR && t->sign < 0) {
			/* Lower is worse: the worse side of the interval. */
			double lo = l->lo;

			l->lo = -l->hi;
			l->hi = -lo;
		}
	}
}

/*
 * A rise of a CPU against the others is the CPU's own only when its own
 * line shows it alone (one-sided p below alpha's share / 2, unadjusted):
 * otherwise a fall of the others (a spinner taken off another CPU, with
 * a burst in one repetition hiding that fall in its own line) would read
 * as this CPU's regression.
 */
static void rel_own_shows(struct an_prep *p, size_t i)
{
	struct an_line_test *t = &p->tests[i];
	struct an_line *l = &p->res->lines[i];
	double alone = an_line_level(an_gate_share(p->gate), 1);
	const struct an_line *own;

	if (t->rel_why[0])
		return;
	own = t->rel_own >= 0 ? &p->res->lines[t->rel_own] : NULL;
	if (!own || isnan(own->p_worse))
		rtpaths_fmt(t->rel_why, sizeof(t->rel_why), "CPU %d's own line "
			    "was not tested", l->cpu);
	else if (!(own->p_worse < alone))
		rtpaths_fmt(t->rel_why, sizeof(t->rel_why), "CPU %d's own %s "
			    "alone has p=%.2g (a regression of its own needs "
			    "p<%.2g)", own->cpu, own->metric, own->p_worse,
			    alone);
	if (t->rel_why[0] && l->worse >= l->floor) {
		/* The evidence's last clause gives way to the reason. */
		char *cut = strstr(l->evidence, " (a burst");
		size_t n;

		if (cut)
			*cut = '\0';
		n = strlen(l->evidence);
		rtpaths_fmt(l->evidence + n, sizeof(l->evidence) - n, "; no "
			    "regression of its own: %s", t->rel_why);
	}
}

/*
 * A spike is a REGRESSION beyond the baseline's law and the machine's
 * pauses at the family's level; beyond the baseline's law alone (at the
 * comparison's share, unadjusted), or SPIKE_FACTOR times the baseline's
 * worst, it is named and passes nothing (INCONCLUSIVE); else it says
 * nothing against a pass.
 */
static void classify_spike(const struct an_prep *p, struct an_line *l,
			   const struct an_line_test *t, double a)
{
	double alone = an_line_level(an_gate_share(p->gate), 1);

	if (!isnan(t->p_prof) && l->p_worse < a && l->worse >= l->floor)
		l->verdict = AN_REGRESSION;
	else if (l->worse >= l->floor && (t->p_base < alone || t->far))
		l->verdict = AN_INCONCLUSIVE;
	else
		l->verdict = AN_NO_CHANGE;
}

/* Each line alone. */
static void classify(struct an_prep *p)
{
	struct an_result *res = p->res;
	double a = res->level;
	size_t i, m = res->family ? res->family : 1;

	for (i = 0; i < res->nlines; i++) {
		struct an_line *l = &res->lines[i];
		const struct an_line_test *t = &p->tests[i];
		double pw = l->p_worse, pb = l->p_better;

		l->hint = false;
		l->p_adj = l->worse >= 0 || t->rel ? pw : pb;
		if (l->deciding && !isnan(l->p_adj))
			l->p_adj = fmin(1, m * l->p_adj);
		if (t->kind == AN_TEST_BUDGET) {
			l->verdict = l->cand > t->limit ? AN_REGRESSION :
							  AN_NO_CHANGE;
			continue;
		}
		if (!tested(p, i)) {
			l->verdict = AN_INCONCLUSIVE;
			continue;
		}
		if (t->kind == AN_TEST_SPIKE) {
			classify_spike(p, l, t, a);
			continue;
		}
		if (t->rel)
			rel_own_shows(p, i);
		if (pw < a && l->worse >= l->floor && !t->rel_why[0]) {
			l->verdict = AN_REGRESSION;
		} else if (pb < a && -l->worse >= l->floor && !l->base_ge) {
			l->verdict = AN_IMPROVEMENT;
		} else if (t->kind == AN_TEST_EXCEED ||
			   (!isnan(l->pass_hi) && l->pass_hi < l->floor)) {
			/*
			 * A maximum within the baseline's tail law, or a
			 * bound that rules out a rise of the floor's size.
			 */
			l->verdict = AN_NO_CHANGE;
		} else {
			l->verdict = AN_INCONCLUSIVE;
			l->hint = (pw < 2 * a && l->worse >= l->floor &&
				   !t->rel_why[0]) ||
				  (pb < 2 * a && -l->worse >= l->floor);
		}
	}
}

/*
 * Does drift explain the line? Then its verdict cannot stand. Not when
 * the candidate lies beyond both halves of the baseline by the floor:
 * measured between them, a drift would have put it between them (a count
 * that scatters from boot to boot, 13-99 against 45-119 runs, around a
 * candidate's 0-4).
 */
static bool drift_explains(const struct an_line *l)
{
	return !isnan(l->drift) && fabs(l->drift) >= fabs(l->delta) &&
	       !l->beyond_halves;
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "+");
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/*
 * "CPU 1 p99 rose from 43 to 273 us (+230 us, +535%; p=6e-05)"; a max
 * line names its maxima first, then what was judged: "CPU 1 max 486 ->
 * 3407 us; its typical max (geometric mean over repetitions) rose from
 * 1133 to 2092 us (...)".
 */
static void describe(const struct an_line *l, char *buf, size_t len)
{
	char where[24] = "", pv[32], b[32], c[32], d[32], iv[96] = "";
	char metric[112], mx[96] = "", ivs[80], move[96];

	if (l->cpu >= 0)
		rtpaths_fmt(where, sizeof(where), "CPU %d ", l->cpu);
	an_line_judged(metric, sizeof(metric), l);
	if (!isnan(l->raw_base)) {
		fmt_num(b, sizeof(b), l->raw_base);
		fmt_num(c, sizeof(c), l->raw_cand);
		rtpaths_fmt(mx, sizeof(mx), "%s%s %s -> %s %s; its ", where,
			    an_line_name(l), b, c, l->unit);
		where[0] = '\0';
		rtpaths_fmt(metric + strlen(metric), sizeof(metric) -
			    strlen(metric), " (geometric mean over %s)",
			    l->cpu < 0 ? "CPUs" : "repetitions");
	}
	fmt_num(b, sizeof(b), l->base);
	fmt_num(c, sizeof(c), l->cand);
	fmt_num(d, sizeof(d), fabs(l->cand - l->base));
	if (!isnan(l->lo))
		rtpaths_fmt(iv, sizeof(iv), "; interval %s",
			    an_line_interval(ivs, sizeof(ivs), l));
	if (isnan(l->p_adj))
		rtpaths_fmt(pv, sizeof(pv), "no test");
	else if (l->p_adj < 1e-12)
		rtpaths_fmt(pv, sizeof(pv), "p<1e-12");
	else
		rtpaths_fmt(pv, sizeof(pv), "p=%.2g", l->p_adj);
	/* "rose from 43 to 273", "stayed at 39" */
	if (l->cand == l->base && l->base_ge == l->cand_ge)
		rtpaths_fmt(move, sizeof(move), "stayed at %s%s", l->base_ge ?
			    ">=" : "", b);
	else
		rtpaths_fmt(move, sizeof(move), "%s from %s%s to %s%s",
			    l->cand > l->base ? "rose" : l->cand < l->base ?
			    "fell" : "moved", l->base_ge ? ">=" : "", b,
			    l->cand_ge ? ">=" : "", c);
	rtpaths_fmt(buf, len, "%s%s%s %s %s (%s%s %s, %+.0f%%; %s)%s", mx,
		    where, metric, move, l->unit, l->cand >= l->base ? "+" :
		    "-", d, l->unit, l->base ? 100 * (l->cand - l->base) /
		    fabs(l->base) : 0.0, pv, iv);
}

/* The line that best stands for a verdict: strongest, then largest. */
static const struct an_line *strongest(const struct an_result *res,
				       enum an_verdict v, bool hint,
				       bool need_no_drift)
{
	const struct an_line *best = NULL;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!l->deciding || l->verdict != v || (hint && !l->hint))
			continue;
		if (need_no_drift && drift_explains(l))
			continue;
		if (!best || l->p_adj < best->p_adj ||
		    (l->p_adj == best->p_adj &&
		     fabs(l->worse) / l->floor >
		     fabs(best->worse) / best->floor))
			best = l;
	}
	return best;
}

/* Names the line the verdict rests on (an_result.decisive). */
static void rest_on(struct an_result *res, const struct an_line *l)
{
	res->decisive = l ? (int)(l - res->lines) : -1;
}

static void set_reason(struct an_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_reason(struct an_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

static bool over_budget(struct an_prep *p)
{
	struct an_result *res = p->res;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (p->tests[i].kind != AN_TEST_BUDGET ||
		    l->verdict != AN_REGRESSION)
			continue;
		rest_on(res, l);
		res->verdict = AN_REGRESSION;
		set_reason(res, "over budget: %s", l->evidence);
		return true;
	}
	return false;
}

static void decide_change(struct an_prep *p, enum an_verdict v)
{
	struct an_result *res = p->res;
	const struct an_line *l = strongest(res, v, false, true), *other;
	char d[400], o[400], fl[32];

	if (!l) {
		l = strongest(res, v, false, false);
		rest_on(res, l);
		describe(l, d, sizeof(d));
		fmt_num(fl, sizeof(fl), l->drift);
		res->verdict = AN_INCONCLUSIVE;
		set_reason(res, "%s, but the baseline drifted by %s%s %s "
			   "between its early and late repetitions, as much "
			   "as the effect", d, l->drift > 0 ? "+" : "", fl,
			   l->unit);
		return;
	}
	rest_on(res, l);
	res->verdict = v;
	if (p->tests[l - res->lines].kind == AN_TEST_SPIKE) {
		set_reason(res, "a spike: %s; beyond the baseline's law and "
			   "this machine's pauses (p=%.2g)", l->evidence,
			   l->p_adj);
		return;
	}
	describe(l, d, sizeof(d));
	fmt_num(fl, sizeof(fl), l->floor);
	other = v == AN_REGRESSION ?
		strongest(res, AN_IMPROVEMENT, false, false) : NULL;
	if (other) {
		describe(other, o, sizeof(o));
		set_reason(res, "%s, beyond the %s %s floor; worse somewhere "
			   "is worse, although %s", d, fl, l->unit, o);
	} else {
		set_reason(res, "%s, beyond the %s %s floor", d, fl, l->unit);
	}
}

/*
 * The deciding line furthest from settling: the largest smallest-visible
 * rise for its floor. Untested deciding lines come first: nothing was
 * seen there at all.
 */
static const struct an_line *bottleneck(const struct an_prep *p)
{
	const struct an_result *res = p->res;
	const struct an_line *best = NULL;
	double worst = -1;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];
		double r;

		/* A CPU against the others never holds up a pass. */
		if (!l->deciding || l->verdict == AN_NO_CHANGE ||
		    p->tests[i].rel || p->tests[i].kind == AN_TEST_EXCEED ||
		    p->tests[i].kind == AN_TEST_BUDGET ||
		    p->tests[i].kind == AN_TEST_SPIKE)
			continue;
		r = isnan(l->see) ? INFINITY : l->see / l->floor;
		if (r > worst) {
			worst = r;
			best = l;
		}
	}
	return best;
}

/* "N more repetitions a side would <goal>", or why none would. */
static void more_text(char *buf, size_t len, int more, const char *goal)
{
	if (more < 0)
		rtpaths_fmt(buf, len, "no practical number of repetitions "
			    "would %s on this machine", goal);
	else
		rtpaths_fmt(buf, len, "%d more repetition%s a side would %s",
			    more, more == 1 ? "" : "s", goal);
}

/*
 * A sign of a rise: beyond the floor, and either a p-value that alone
 * (not over the family) would have been significant, or every candidate
 * repetition above every baseline one (two or more a side).
 */
static bool sign_of_rise(const struct an_prep *p, const struct an_line *l,
			 double alone)
{
	bool apart = l->range_cand[0] > l->range_base[1] &&
		     p->sb->nruns >= 2 && p->sc->nruns >= 2;

	return l->worse >= l->floor &&
	       (l->p_adj < p->res->family * alone || apart);
}

/*
 * How an unsettled reason starts: "no change seen", unless a deciding
 * line showed a sign of a rise; then that rise is named with its
 * repetitions' ranges ("CPU 1 p97 47..54 -> 90..201 us per repetition,
 * has p=0.27"), so that a reader never takes a doubled p97 for nothing.
 */
static void unsettled_lead(const struct an_prep *p, char *buf, size_t len,
			   bool beyond_floor)
{
	const struct an_result *res = p->res;
	const struct an_line *best = NULL;
	char where[24] = "", b[32], c[32], name[112];
	double alone = an_line_level(an_gate_share(p->gate), 1);
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		if (!l->deciding || !tested(p, i) || isnan(l->p_adj) ||
		    p->tests[i].kind == AN_TEST_BUDGET ||
		    p->tests[i].kind == AN_TEST_SPIKE ||
		    p->tests[i].rel_why[0] || !sign_of_rise(p, l, alone))
			continue;
		if (!best || l->p_adj < best->p_adj ||
		    (l->p_adj == best->p_adj &&
		     l->worse / l->floor > best->worse / best->floor))
			best = l;
	}
	if (!best) {
		rtpaths_fmt(buf, len, "no change seen%s", beyond_floor ?
			    " beyond the floor" : "");
		return;
	}
	if (best->cpu >= 0)
		rtpaths_fmt(where, sizeof(where), "CPU %d ", best->cpu);
	if (!isnan(best->range_base[0]) && p->sb->nruns >= 2 &&
	    p->sc->nruns >= 2) {
		char b2[32], c2[32];

		fmt_num(b, sizeof(b), best->range_base[0]);
		fmt_num(b2, sizeof(b2), best->range_base[1]);
		fmt_num(c, sizeof(c), best->range_cand[0]);
		fmt_num(c2, sizeof(c2), best->range_cand[1]);
		rtpaths_fmt(buf, len, "nothing significant (the strongest "
			    "rise, %s%s %s..%s -> %s..%s %s per repetition, "
			    "has p=%.2g; a change needs p<%.2g)", where,
			    an_line_name(best), b, b2, c, c2, best->unit,
			    best->p_adj, alone);
		return;
	}
	fmt_num(b, sizeof(b), best->base);
	fmt_num(c, sizeof(c), best->cand);
	rtpaths_fmt(buf, len, "nothing significant (the strongest rise, %s%s "
		    "%s -> %s %s, has p=%.2g; a change needs p<%.2g)", where,
		    an_line_judged(name, sizeof(name), best), b, c, best->unit,
		    best->p_adj, alone);
}

static void decide_unsettled(struct an_prep *p, const struct an_line *l)
{
	struct an_result *res = p->res;
	const struct an_line_test *t = &p->tests[l - res->lines];
	char where[24] = "", see[32], fl[32], hi[32], d[32], more[160];
	char lead[200], name[112];
	int n;

	rest_on(res, l);
	an_line_judged(name, sizeof(name), l);
	res->verdict = AN_INCONCLUSIVE;
	if (l->cpu >= 0)
		rtpaths_fmt(where, sizeof(where), "CPU %d ", l->cpu);
	unsettled_lead(p, lead, sizeof(lead), false);
	if (!res->family || isnan(l->see)) {
		set_reason(res, "%s, but %s%s could not be tested: %s", lead,
			   where, name, l->evidence);
		return;
	}
	fmt_num(see, sizeof(see), l->see);
	fmt_num(fl, sizeof(fl), l->floor);
	fmt_num(hi, sizeof(hi), l->pass_hi);
	fmt_num(d, sizeof(d), l->worse);
	if (l->see > SEE_BLIND * fmax(l->base, l->floor)) {
		/* 9e13 us says nothing a reader can use: say what it means. */
		char base[32];

		fmt_num(base, sizeof(base), l->base);
		more_text(more, sizeof(more), l->more_reps, "reach the floor");
		set_reason(res, "%s, but this measurement could not have "
			   "seen a %s%s rise even of %d times its %s %s: its "
			   "repetitions scatter too much (the floor is %s %s); "
			   "%s", lead, where, name, SEE_BLIND, base,
			   l->unit, fl, l->unit, more);
		return;
	}
	if (l->see >= l->floor) {
		more_text(more, sizeof(more), l->more_reps, "reach the floor");
		set_reason(res, "%s, but this measurement could only have "
			   "seen a %s%s rise of %s %s or more (the floor is %s "
			   "%s); %s", lead, where, name, see, l->unit, fl,
			   l->unit, more);
		return;
	}
	/*
	 * It could see the floor, but its estimate leaves it open: at least
	 * one more repetition a side, since trimmed repetitions count less
	 * than their number (judge_log()) and the estimate may say none.
	 */
	n = t->kind == AN_TEST_LOG || t->kind == AN_TEST_LINEAR ?
	    reps_needed(p, an_t_isf(pass_level(p), t->df),
			t->kind == AN_TEST_LOG ? t->sd :
			t->se / sqrt(1.0 / p->sb->nruns + 1.0 / p->sc->nruns),
			t->kind == AN_TEST_LOG ?
			log1p((l->floor - fmax(0, l->worse)) / (1 + l->base)) :
			l->floor - fmax(0, l->worse)) : -1;
	more_text(more, sizeof(more), n == 0 ? 1 : n, "rule it out");
	unsettled_lead(p, lead, sizeof(lead), true);
	set_reason(res, "%s, but a %s%s rise of up to %s %s is not ruled out "
		   "(it moved %s%s %s; the floor is %s %s); %s", lead, where,
		   name, hi, l->unit, l->worse >= 0 ? "+" : "", d,
		   l->unit, fl, l->unit, more);
}

/*
 * An IMPROVEMENT passes the gate (exit 0), so it claims what a pass
 * claims about every other deciding line: that none rose by its floor.
 * A line still undecided (its pass bound above its floor: a rise it
 * could hide) keeps it INCONCLUSIVE, naming both ("CPU 0 p95 fell …,
 * but CPU 1 p97 could have risen …"): on a busy sitting the 100 us
 * spinner on CPU 1, drowned there, read as CPU 0's improvement.
 */
static bool improvement_open(struct an_prep *p)
{
	struct an_result *res = p->res;
	const struct an_line *imp = strongest(res, AN_IMPROVEMENT, false,
					      false), *open = NULL;
	char d[400], hi[32], fl[32], name[112], where[24] = "";
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];
		const struct an_line_test *t = &p->tests[i];

		if (!l->deciding || l->verdict != AN_INCONCLUSIVE || t->rel ||
		    t->kind == AN_TEST_SPIKE || t->kind == AN_TEST_BUDGET)
			continue;
		if (!open || (isnan(open->pass_hi) && !isnan(l->pass_hi)) ||
		    l->pass_hi / l->floor > open->pass_hi / open->floor)
			open = l;
	}
	if (!open)
		return false;
	rest_on(res, imp);
	describe(imp, d, sizeof(d));
	if (open->cpu >= 0)
		rtpaths_fmt(where, sizeof(where), "CPU %d ", open->cpu);
	an_line_judged(name, sizeof(name), open);
	fmt_num(fl, sizeof(fl), open->floor);
	res->verdict = AN_INCONCLUSIVE;
	if (isnan(open->pass_hi)) {
		set_reason(res, "%s, but %s%s could not be tested, so a rise "
			   "there is not ruled out: not a pass", d, where,
			   name);
		return true;
	}
	fmt_num(hi, sizeof(hi), open->pass_hi);
	set_reason(res, "%s, but a %s%s rise of up to %s %s is not ruled out "
		   "(the floor is %s %s): an improvement passes only where "
		   "nothing else could have got worse", d, where, name, hi,
		   open->unit, fl, open->unit);
	return true;
}

/*
 * The reason of a spike that the machine's pauses rule out but the
 * baseline's law, over the CPUs looked at, does not at the line's level
 * (a spread baseline, or more CPUs than the simulated null can reach):
 * what held it back, never the pauses.
 */
static void spike_base_short(struct an_prep *p, const struct an_line *l,
			     const struct an_line_test *t)
{
	struct an_result *res = p->res;
	char named[96], pauses[128];

	if (t->far)
		rtpaths_fmt(named, sizeof(named), "5 times the baseline's "
			    "worst or more");
	else
		rtpaths_fmt(named, sizeof(named), "beyond the baseline's law "
			    "at the comparison's share (p=%.2g)", t->p_base);
	/* In virtual time no host pause reaches it (analyze_extreme.c). */
	if (t->virtual)
		rtpaths_fmt(pauses, sizeof(pauses), "no host pause reaches "
			    "it and its repetitions rule out the baseline's "
			    "own rare path (p=%.2g)", t->p_prof);
	else
		rtpaths_fmt(pauses, sizeof(pauses), "this machine's pauses "
			    "rule it out (p=%.2g)", t->p_prof);
	set_reason(res, "a spike: %s; %s, and %s, but the baseline's law "
		   "does not at the line's level: over the %zu CPUs looked at "
		   "its p=%.3g%s, the level %.3g: not a pass", l->evidence,
		   named, pauses, t->nspike, t->p_base, t->p_base > 0 &&
		   t->p_base <= t->p_base_min ? " (the least its simulated "
		   "null can give)" : "", res->level);
}

/*
 * A spike beyond the baseline's law that is no REGRESSION: named, and no
 * pass, no improvement. The reason says which rule named it (beyond the
 * baseline's law, 5 times its worst, or both) and what held it back: the
 * machine's pauses only where they make it plausible at the line's level;
 * else the baseline's law over the CPUs looked at. Without a profile the
 * evidence says so already.
 */
static bool spike_unexplained(struct an_prep *p)
{
	struct an_result *res = p->res;
	double alone = an_line_level(an_gate_share(p->gate), 1);
	const struct an_line_test *t;
	const struct an_line *l;
	char why[192], held[96];
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		l = &res->lines[i];
		t = &p->tests[i];
		if (t->kind != AN_TEST_SPIKE || !l->deciding ||
		    l->verdict != AN_INCONCLUSIVE)
			continue;
		rest_on(res, l);
		res->verdict = AN_INCONCLUSIVE;
		if (!isnan(t->p_prof) && t->p_prof < res->level) {
			spike_base_short(p, l, t);
			return true;
		}
		why[0] = '\0';
		if (t->virtual)
			rtpaths_fmt(why, sizeof(why), ", but the same "
				    "kernel's rare path, which the baseline's "
				    "repetitions did not reach, makes it "
				    "plausible (p=%.2g): more repetitions "
				    "would tell", t->p_prof);
		else if (!isnan(t->p_prof))
			rtpaths_fmt(why, sizeof(why), ", but this machine's "
				    "pauses make it plausible (p=%.2g)",
				    t->p_prof);
		/* What held of classify_spike()'s two rules, and only that. */
		if (t->p_base < alone)
			rtpaths_fmt(held, sizeof(held), "beyond the baseline's "
				    "law (p=%.2g)%s", t->p_base, t->far ?
				    " and 5 times its worst or more" : "");
		else
			rtpaths_fmt(held, sizeof(held), "5 times the "
				    "baseline's worst or more");
		set_reason(res, "a spike: %s; %s%s: not a pass", l->evidence,
			   held, why);
		return true;
	}
	return false;
}

static void decide_no_change(struct an_prep *p)
{
	struct an_result *res = p->res;
	const struct an_line *big = NULL, *l;
	char d[400], fl[32], b[32];
	size_t i;

	res->verdict = AN_NO_CHANGE;
	res->settled = true;
	for (i = 0; i < res->nlines; i++) {
		l = &res->lines[i];
		if (l->deciding && !p->tests[i].rel &&
		    (p->tests[i].kind == AN_TEST_LOG ||
		     p->tests[i].kind == AN_TEST_LINEAR) &&
		    (!big || l->pass_hi / l->floor >
			     big->pass_hi / big->floor))
			big = l;
	}
	if (!big) {
		for (i = 0; i < res->nlines && !big; i++)
			if (res->lines[i].deciding)
				big = &res->lines[i];
	}
	rest_on(res, big);
	fmt_num(fl, sizeof(fl), big->floor);
	if (!isnan(big->pass_hi)) {
		/* The bound that passes it, not the family's interval. */
		struct an_line shown = *big;

		shown.lo = shown.hi = NAN;
		describe(&shown, d, sizeof(d));
	} else {
		describe(big, d, sizeof(d));
	}
	if (isnan(big->pass_hi)) {
		set_reason(res, "%s: every line rules out a rise of its floor "
			   "(this one %s %s)", d, fl, big->unit);
		return;
	}
	fmt_num(b, sizeof(b), fmax(0, big->pass_hi));
	set_reason(res, "%s: every line rules out a rise of its floor (this "
		   "one: at most %s %s at %.3g, its floor %s %s)", d, b,
		   big->unit, pass_level(p), fl, big->unit);
}

/*
 * No line decides. Where the gate metric is a quantile the repetitions
 * were too short to support, say so with the counts; else no data.
 */
static void too_few_for_quantile(struct an_prep *p)
{
	struct an_result *res = p->res;
	uint64_t fewest = an_cmp_fewest_cycles(p);
	double q;

	if (an_metric_quantile(p->gate->metric, &q) && fewest &&
	    !an_level_supported(fewest, q)) {
		set_reason(res, "too few wake-ups for the gate metric %s: a "
			   "repetition took %llu on a CPU, and %s needs %llu "
			   "(%d beyond it); run longer (the suite's duration, "
			   "or a larger --duration-scale)", p->gate->metric,
			   (unsigned long long)fewest, p->gate->metric,
			   (unsigned long long)an_level_needs(q),
			   AN_LEVEL_MIN_EXCEED);
		return;
	}
	set_reason(res, "no data for the gate metric %s on both sides",
		   p->gate->metric);
}

void an_cmp_decide(struct an_prep *p)
{
	struct an_result *res = p->res;
	const struct an_line *l;
	bool any = false;
	char d[400];
	size_t i;

	judge_lines(p);
	classify(p);
	/* A spike can fail or hold a comparison, never make its verdict. */
	for (i = 0; i < res->nlines; i++)
		any |= res->lines[i].deciding &&
		       p->tests[i].kind != AN_TEST_SPIKE;
	if (!any) {
		res->verdict = AN_INVALID;
		too_few_for_quantile(p);
		return;
	}
	if (over_budget(p))
		return;
	if (strongest(res, AN_REGRESSION, false, false)) {
		decide_change(p, AN_REGRESSION);
		return;
	}
	if (spike_unexplained(p))
		return;
	if (strongest(res, AN_IMPROVEMENT, false, false)) {
		if (improvement_open(p))
			return;
		decide_change(p, AN_IMPROVEMENT);
		return;
	}
	l = strongest(res, AN_INCONCLUSIVE, true, false);
	if (l) {
		rest_on(res, l);
		describe(l, d, sizeof(d));
		res->verdict = AN_INCONCLUSIVE;
		set_reason(res, "%s: a sign of a change that is not enough "
			   "for the gate (a change needs p<%.2g and the "
			   "floor); more repetitions would tell", d,
			   an_line_level(an_gate_share(p->gate), 1));
		return;
	}
	l = bottleneck(p);
	if (!l && res->family) {
		decide_no_change(p);
		return;
	}
	decide_unsettled(p, l ? l : &res->lines[0]);
}
