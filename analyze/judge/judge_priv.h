/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of analyze/judge/ share and nobody else sees: the
 * prepared sides, the evidence lines under construction, their tests.
 */
#ifndef RTGATE_ANALYZE_JUDGE_PRIV_H
#define RTGATE_ANALYZE_JUDGE_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "analyze/judge/judge.h"
#include "analyze/stats/stats.h"

/*
 * The comparison's private contract between its files (docs/statistics.md
 * explains the method in words):
 *
 *   analyze_compare.c     the entry: both sides prepared per CPU (equal
 *                         sample counts, pools, drift halves), the order
 *                         of work, the notes
 *   analyze_lines_rep.c   quantiles and maxima of each repetition: the
 *                         repetition is the unit of evidence
 *   analyze_lines_rel.c   each CPU against the other CPUs of the same
 *                         repetitions: a burst shared by the CPUs cancels
 *   analyze_extreme.c     the baseline's tail law: a maximum beyond it,
 *                         the latency exceeded once per million wake-ups
 *   analyze_lines_metrics.c averages, workload metrics, budgets
 *   analyze_verdict.c     the family of deciding lines, each line's
 *                         interval and verdict, the comparison's verdict
 *                         and its reason
 *   analyze_lines.c       what every line shares: made, its effect and
 *                         floor, notes (the others call down into it)
 *
 * A line is first built with the ingredients of its test (struct
 * line_test, kept beside it); the verdict file turns them into p-values
 * and intervals once the family's size is known, so the p-value and the
 * interval of a line always come from one test at one level.
 */

/* Resolution of cyclictest's numbers: 1 us. */
#define AN_RES_US	1.0

/* One side's data for one CPU. */
struct an_side_cpu {
	double *mx;		/* maxima at equal counts, per run */
	double *avg;		/* per run */
	struct an_cpu pool;	/* all runs pooled */
	bool hist;		/* every run of both sides has a histogram */
	double nref;		/* the equal sample count of this CPU */
};

enum an_test_kind {
	AN_TEST_NONE,		/* shown, never tested */
	AN_TEST_LOG,		/* a t statistic on log(1 + us) */
	AN_TEST_LINEAR,		/* a t statistic in the line's unit */
	AN_TEST_EXCEED,		/* a maximum against a tail law */
	AN_TEST_BUDGET,		/* a limit: no statistics */
	AN_TEST_SPIKE,		/* one wake-up against two laws */
};

/* What a line's test needs once the family is known. */
struct an_line_test {
	enum an_test_kind kind;
	double d;		/* LOG: log ratio; LINEAR: difference */
	double se;		/* its standard error */
	double df;		/* Student's t degrees of freedom */
	double sd;		/* per repetition, for repetitions needed */
	double sign;		/* +1: higher is worse; -1: lower is worse */
	/*
	 * LOG with one repetition a side: the upper bound of the profile's
	 * burst rate; no p-value is below it (0: none).
	 */
	double p_floor;
	unsigned int bursts;	/* ... seen in nreps profile repetitions */
	size_t nreps;
	/*
	 * EXCEED, Pareto form: threshold u and x = 1 + the candidate's
	 * maximum (as 1 + us), rate = k / n of the baseline above u, shape
	 * = the Gamma shape of xi_hat / xi, xi = xi_hat, n = candidate
	 * samples. Gumbel form: u and rate = mean and sd of the baseline's
	 * log maxima, shape = their number, n = the candidate's maxima,
	 * x = its largest, standardised.
	 */
	bool gumbel;
	double u, rate, shape, xi, n, x;
	double min_us;		/* a maximum below this is never beyond */
	size_t rank;		/* Gumbel: the rank-th largest is judged */
	/*
	 * LOG, a CPU against the others (analyze_lines_rel.c): only a rise
	 * is tested (one tail, half a line of the family), and a rise that
	 * the CPU's own line (rel_own, an index of lines) does not show
	 * alone, or that another CPU's fall makes, is no regression (rel_why
	 * says which).
	 */
	bool rel;
	int rel_own;
	char rel_why[96];
	/* BUDGET: the limit */
	double limit;
	/*
	 * SPIKE (analyze_extreme.c): the candidate's largest wake-up, its
	 * p under the baseline's law (over the CPUs looked at), under the
	 * noise profile's law of a repetition's maximum (NAN: no profile;
	 * in virtual time, virtual set: the repetitions' exchangeability,
	 * the same kernel's rare path), and whether it is beyond
	 * SPIKE_FACTOR times the baseline's worst.
	 */
	double p_base, p_prof;
	bool far;
	bool virtual;		/* a silent repetition in virtual time */
	size_t nspike;		/* the CPUs looked at (p_base's factor) */
	double p_base_min;	/* the least p_base its null can give */
};

struct an_prep {
	const struct an_side *sb, *sc;
	const struct an_gate *gate;
	struct an_result *res;
	struct an_line_test *tests;	/* parallel to res->lines */
	size_t ncpus, cap;
	struct an_side_cpu *b, *c;
	double sigma;		/* Gumbel scale for summary-only maxima */
	bool drift;		/* A/B/A: the baseline ran before and after */
	size_t *early, *late, nhalf;
};

/* analyze_lines_rep.c: the fewest wake-ups a CPU took in a repetition */
uint64_t an_cmp_fewest_cycles(const struct an_prep *p);

/* analyze_lines.c */
/* A new line (lines may move: hold indices, not pointers, across calls). */
struct an_line *an_cmp_line_new(struct an_prep *p, enum an_line_kind kind,
				const char *metric, int cpu);
static inline struct an_line_test *cmp_test(struct an_prep *p,
					 const struct an_line *l)
{
	return &p->tests[l - p->res->lines];
}
/*
 * The gate's floor for a line at a level: min_increase_pct of it, and at
 * least min_increase_us unless the line is a workload metric (not us).
 */
double an_cmp_floor_at(const struct an_prep *p, const struct an_line *l,
		       double level);
/* Effect, percentage and floor of a latency line (lower is better). */
void an_cmp_line_effect_us(const struct an_prep *p, struct an_line *l);
double an_cmp_subset_median(const double *v, const size_t *idx, size_t n);
/*
 * A/B/A, for a line of per-repetition values (b: the baseline's, by run;
 * cand_median: the candidate's): sets l->drift (late half's median minus
 * the early half's) and l->beyond_halves: against each half's median the
 * candidate's moves in the effect's direction by the line's floor at that
 * level (an_cmp_floor_at) or more. Call it with l->delta set.
 */
void an_cmp_line_drift(const struct an_prep *p, struct an_line *l,
		       const double *b, double cand_median);

int an_cmp_rep_lines(struct an_prep *p); /* analyze_lines_rep.c */
/*
 * One CPU's values of one quantile level, per repetition, as the
 * repetition lines judged them (log(1 + us); yb/yc NULL: the level is not
 * there or beyond the histogram), and the sampling variance of one value.
 */
struct an_rep_values {
	int cpu;
	double q;
	const double *yb, *yc;
	double vfloor;
};
/*
 * Called by an_cmp_rep_lines() once the CPUs' own lines are made
 * (analyze_lines_rel.c).
 */
int an_cmp_rel_lines(struct an_prep *p, const struct an_rep_values *v,
		     size_t n);
int an_cmp_exceed_lines(struct an_prep *p);	/* analyze_extreme.c */
int an_cmp_exceedances(struct an_prep *p);
int an_cmp_spike_line(struct an_prep *p);
/* analyze_tail_check.c: false when a check failed or could not be made. */
bool an_tail_check(const struct an_side *s, size_t cpu,
		   const struct an_cpu *pool, double u, double xi,
		   struct an_tail_check *tc);
int an_cmp_avg_lines(struct an_prep *p, bool deciding); /* _lines_misc.c */
int an_cmp_metric_lines(struct an_prep *p);
int an_cmp_budget_lines(struct an_prep *p);
void an_cmp_decide(struct an_prep *p);		/* analyze_verdict.c */
/*
 * An EXCEED test's p-value, and the maximum it exceeds with prob. p, for
 * a line judged at level (a simulated null's floor lies below it; 0: the
 * default number of draws). A SPIKE's test is the same, x NAN: no law.
 */
double an_cmp_exceed_p(const struct an_line_test *t, double level);
/* The least p an_cmp_exceed_p() can give at level (0: none). */
double an_cmp_exceed_p_min(const struct an_line_test *t, double level);
double an_cmp_exceed_x(const struct an_line_test *t, double p, double level);

#endif
