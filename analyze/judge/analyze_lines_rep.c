// SPDX-License-Identifier: GPL-2.0-only
/*
 * The repetition is the unit of evidence (docs/statistics.md). For every
 * CPU and every level its sample counts support (p90 ... p99.999, each
 * with at least 10 samples above it in every repetition) and for the
 * maximum, each repetition gives one value; the line compares the two
 * sides' means of log(1 + value) with Student's t.
 *
 * The variance is the repetitions' own (df = runs - 2), shrunk toward a
 * prior: the machine's noise profile when the gate has one (rtgate
 * calibrate), else the other CPUs of the same comparison at the same
 * level. It never falls below what sampling alone gives a repetition's
 * quantile (its order statistics' spread), so two repetitions that agree
 * by chance do not make a certainty. With one repetition a side and no
 * profile there is no variance: the CPUs are the replicates when there
 * are at least four of them (pasted T: lines), else the line is not
 * tested and the verdict says so.
 *
 * With three or four repetitions a side, a repetition that a burst moved
 * up on every CPU at once is left out of the quantile lines up
 * to p99 (shared_outliers(); docs/statistics.md, "A burst shared by the
 * CPUs"), and the comparison's notes name it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/judge/judge_priv.h"
#include "analyze/stats/stats.h"
#include "analyze/input/input.h"
#include "rtpaths.h"
#include <gsl/gsl_cdf.h>

/* A level is judged only with this many samples above it in every run. */
/* A profile counts as at most this many degrees of freedom. */
#define PRIOR_DF_MAX		20
/* The comparison's other CPUs count as this share of their df. */
#define CPU_SHARE		0.5
/* CPUs as replicates of one repetition a side: at least this many. */
#define CPU_REPLICATES_MIN	4
/*
 * A prior that scatters less than the comparison beyond this quantile of
 * the F law is scaled up to the comparison's own scatter.
 */
#define PRIOR_CONFLICT_Q	0.99

static const double levels[] = {
	0.90, 0.95, 0.97, 0.99, 0.995, 0.999, 0.9999, 0.99999,
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

/* One line's per-repetition values on both sides. */
struct rep_line {
	int cpu;
	double q;		/* 0: the maximum */
	char metric[16];
	bool deciding, censored;
	double *yb, *yc;	/* log(1 + value) per run */
	int outb, outc;		/* index of a run left out as a shared
				 * burst or lull; -1: none */
	double outfb, outfc;	/* its shared move as a factor (<1: a lull) */
	double vfloor;		/* sampling variance of one value */
	double mb, mc, ss, df_own;
	double hb, hc;		/* repetitions left after trimming */
	double s0, df0;		/* the prior's variance and df */
	const struct an_profile_line *pl;	/* the profile's line */
	const char *prior;	/* "profile", "CPUs", "own" (the profile
				 * set aside: no prior), NULL */
	size_t nabove;		/* fewest samples above the level */
};

static void metric_name(double q, char *buf, size_t len)
{
	if (q <= 0)
		rtpaths_fmt(buf, len, "max");
	else
		rtpaths_fmt(buf, len, "p%g", q * 100);
}

/*
 * Sampling variance of log(1 + quantile) within one run: the values at the
 * ranks 1.96 binomial standard deviations either side of the quantile's.
 * For the maximum: the spread of the top order statistics (a Gumbel law's
 * scale, pi^2 / 6 times its square).
 */
static double sampling_var(const struct an_cpu *c, double q)
{
	double n = c->cycles, h, lo, hi, v, s;
	bool ge;

	if (!an_cpu_has_hist(c) || n < 2)
		return 0;
	if (q <= 0) {
		double top = 0, x11;
		int i;

		for (i = 1; i <= 10; i++)
			top += log1p(an_cpu_kth_largest(c, i, &ge));
		x11 = log1p(an_cpu_kth_largest(c, 11, &ge));
		s = top / 10 - x11;
		return M_PI * M_PI / 6 * s * s;
	}
	h = 1.96 * sqrt(n * q * (1 - q));
	lo = an_cpu_quantile(c, fmax(0, (q * n - h) / n), &ge);
	hi = an_cpu_quantile(c, fmin(1, (q * n + h) / n), &ge);
	v = an_cpu_quantile(c, q, &ge);
	s = (log1p(hi) - log1p(lo)) / 3.92;
	/* 1 us buckets: at least the quantisation's variance. */
	return fmax(s * s, 1.0 / (12 * (1 + v) * (1 + v)));
}

/* Values of one side; false when a run's quantile is beyond the limit. */
static bool side_values(const struct an_prep *p, const struct an_side *s,
			const struct an_side_cpu *x, struct rep_line *rl,
			double *y, double *vsum)
{
	size_t r;
	bool ge;

	for (r = 0; r < s->nruns; r++) {
		const struct an_cpu *c = &s->runs[r].cpus[rl->cpu];
		double v = rl->q > 0 ? an_cpu_quantile(c, rl->q, &ge) :
				       x->mx[r];

		if (rl->q > 0 && ge)
			return false;
		y[r] = log1p(fmax(0, v));
		*vsum += x->hist ? sampling_var(c, rl->q) :
				   1.0 / (12 * (1 + v) * (1 + v));
		if (rl->q > 0) {
			double above = c->cycles * (1 - rl->q);

			if (!rl->nabove || above < rl->nabove)
				rl->nabove = above;
		}
	}
	(void)p;
	return true;
}

static bool supported(const struct an_prep *p, size_t j, double q)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	size_t s, r;

	for (s = 0; s < 2; s++)
		for (r = 0; r < sides[s]->nruns; r++)
			if (!an_level_supported(sides[s]->runs[r].cpus[j].cycles,
						q))
				return false;
	return true;
}

uint64_t an_cmp_fewest_cycles(const struct an_prep *p)
{
	const struct an_side *sides[2] = { p->sb, p->sc };
	uint64_t fewest = UINT64_MAX;
	size_t s, r, j;

	for (s = 0; s < 2; s++)
		for (r = 0; r < sides[s]->nruns; r++)
			for (j = 0; j < p->ncpus; j++)
				if (sides[s]->runs[r].cpus[j].cycles < fewest)
					fewest = sides[s]->runs[r].cpus[j].cycles;
	return fewest == UINT64_MAX ? 0 : fewest;
}

static int rep_line_fill(struct an_prep *p, struct rep_line *rl)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns;
	double vsum = 0;

	rl->yb = calloc(nb, sizeof(double));
	rl->yc = calloc(nc, sizeof(double));
	if (!rl->yb || !rl->yc)
		return -ENOMEM;
	if (!side_values(p, p->sb, &p->b[rl->cpu], rl, rl->yb, &vsum) ||
	    !side_values(p, p->sc, &p->c[rl->cpu], rl, rl->yc, &vsum)) {
		rl->censored = true;
		return 0;
	}
	rl->vfloor = vsum / (nb + nc);
	return 0;
}

/* The side's values without the run left out (out < 0: all). */
static double side_stats(const double *y, size_t n, int out, double *mean,
			 double *h)
{
	double k[n ? n : 1];
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if ((int)i != out)
			k[m++] = y[i];
	return an_trimmed(k, m, mean, h);
}

static void rep_line_stats(struct rep_line *rl, size_t nb, size_t nc)
{
	if (rl->censored)
		return;
	rl->ss = side_stats(rl->yb, nb, rl->outb, &rl->mb, &rl->hb) +
		 side_stats(rl->yc, nc, rl->outc, &rl->mc, &rl->hc);
	rl->df_own = rl->hb + rl->hc - 2;
}

/*
 * With three or four repetitions a side, one repetition that a host
 * pause moved up on every CPU at once outweighs the others, and it is not
 * the change: within one side every repetition ran the same kernel. At
 * each level up to an_shared_q_max, the run whose value is furthest above
 * its side's median on every CPU, by an_shared_log or more, is left out
 * of that level's lines (not of the maxima: the worst case is the worst
 * case). Five repetitions or more are trimmed anyway.
 *
 * Only a burst: a host pause adds latency, and a repetition below the
 * others is no artefact. On a sitting where such pauses hit many
 * repetitions (busy-4: 4 of 10 idle repetitions threefold on both CPUs)
 * leaving out a "lull" removed the majority's level from one side and a
 * burst from the other, and A/A splits at 3 a side disagreed in 10 % of
 * them (0.5 % with bursts only).
 */
static void shared_outlier(struct rep_line **ls, size_t k, bool cand,
			   size_t nruns)
{
	double y[(k ? k : 1) * (nruns ? nruns : 1)], f;
	bool out[nruns ? nruns : 1];
	size_t i, r;

	if (nruns < 3 || nruns > 4)
		return;
	for (i = 0; i < k; i++)
		memcpy(&y[i * nruns], cand ? ls[i]->yc : ls[i]->yb,
		       nruns * sizeof(*y));
	if (!an_shared_outliers(y, k, nruns, 1, out, &f) || !(f > 1))
		return;
	for (r = 0; r < nruns && !out[r]; r++)
		;
	for (i = 0; i < k; i++) {
		if (cand) {
			ls[i]->outc = (int)r;
			ls[i]->outfc = f;
		} else {
			ls[i]->outb = (int)r;
			ls[i]->outfb = f;
		}
	}
}

/*
 * "the candidate's rep 10 moved every CPU at once (a burst, up to x8.1):
 * left out of its p95, p97, p99 lines; its maxima are kept"
 */
static void shared_note(struct an_prep *p, const struct rep_line *rls,
			size_t n, bool cand)
{
	const struct an_side *s = cand ? p->sc : p->sb;
	size_t r, i;

	for (r = 0; r < s->nruns; r++) {
		char lv[96] = "";
		double f = 1;
		size_t len = 0;

		for (i = 0; i < n; i++) {
			int out = cand ? rls[i].outc : rls[i].outb;
			double fi = cand ? rls[i].outfc : rls[i].outfb;

			/* One line per level: CPU 0's (every CPU has it). */
			if (out != (int)r || rls[i].cpu != rls[0].cpu)
				continue;
			if (fabs(log(fi)) > fabs(log(f)))
				f = fi;
			len += snprintf(lv + len, len < sizeof(lv) ?
					sizeof(lv) - len : 0, "%s%s",
					len ? ", " : "", rls[i].metric);
		}
		if (!len)
			continue;
		an_cmp_note(p->res, "the %s's %s moved every CPU at once (a "
			    "%s, %s x%.2g): left out of its %s lines; its "
			    "maxima are kept", cand ? "candidate" : "baseline",
			    s->runs[r].label, f > 1 ? "burst" : "lull",
			    f > 1 ? "up to" : "down to", f, lv);
	}
}

static void shared_outliers(struct an_prep *p, struct rep_line *rls, size_t n)
{
	struct rep_line *ls[p->ncpus ? p->ncpus : 1];
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		rls[i].outb = rls[i].outc = -1;
		rls[i].outfb = rls[i].outfc = 1;
	}
	for (i = 0; i < n; i++) {
		if (!(rls[i].q > 0) || rls[i].q > an_shared_q_max + 1e-9)
			continue;
		/* Each level once, from its first line. */
		for (j = 0; j < i && rls[j].q != rls[i].q; j++)
			;
		if (j < i)
			continue;
		for (j = i, k = 0; j < n && k < p->ncpus; j++)
			if (rls[j].q == rls[i].q && !rls[j].censored)
				ls[k++] = &rls[j];
		/* Every CPU must have the level to call a move shared. */
		if (k < p->ncpus)
			continue;
		shared_outlier(ls, k, false, p->sb->nruns);
		shared_outlier(ls, k, true, p->sc->nruns);
	}
	shared_note(p, rls, n, false);
	shared_note(p, rls, n, true);
}

static const struct an_profile_line *profile_line(const struct an_profile *pr,
						  int cpu, const char *metric)
{
	size_t i;

	for (i = 0; pr && i < pr->nlines; i++)
		if (pr->lines[i].cpu == cpu &&
		    !strcmp(pr->lines[i].metric, metric))
			return &pr->lines[i];
	return NULL;
}

/*
 * The prior of each line: the profile's variance, weighing as much as the
 * repetitions' own degrees of freedom (all of the profile's, at most
 * PRIOR_DF_MAX, when they have none). A line whose repetitions clearly
 * disagree with the profile (an F test at PRIOR_CONFLICT_Q either way)
 * does not take it: scattering more, the profile is scaled up to them;
 * scattering less, the line is judged without it. Lines without a
 * profile take the other CPUs' variance at the same level at half weight.
 */
static void priors(struct an_prep *p, struct rep_line *rls, size_t n)
{
	const struct an_profile *pr = p->gate->profile;
	size_t i, k, used = 0, up = 0, down = 0;

	for (i = 0; pr && i < n; i++) {
		const struct an_profile_line *pl;
		struct rep_line *rl = &rls[i];
		double own, d0;

		if (rl->censored)
			continue;
		pl = profile_line(pr, rl->cpu, rl->metric);
		if (!pl || !(pl->var > 0))
			continue;
		d0 = fmin(pr->df, rl->df_own > 0 ? rl->df_own : PRIOR_DF_MAX);
		if (rl->df_own > 0) {
			own = rl->ss / rl->df_own / pl->var;
			if (own < 1 / an_f_inv(PRIOR_CONFLICT_Q, pr->df,
					       rl->df_own)) {
				down++;
				continue;
			}
			/*
			 * Scaled up to the repetitions' own scatter, the
			 * profile carries nothing of its own: no degrees of
			 * freedom beyond the repetitions'.
			 */
			if (own > an_f_inv(PRIOR_CONFLICT_Q, rl->df_own,
					   pr->df)) {
				rl->s0 = 0;
				rl->df0 = 0;
				rl->prior = "own";
				up++;
				continue;
			}
		}
		rl->s0 = pl->var;
		rl->df0 = d0;
		rl->prior = "profile";
		rl->pl = pl;
		used++;
	}
	if (pr && (up || down))
		an_cmp_note(p->res, "noise profile %s: %zu line%s scatter%s more "
			    "than it says (taken at their own scatter), %zu less "
			    "(judged without it)", pr->origin, up, up == 1 ? "" :
			    "s", up == 1 ? "s" : "", down);
	if (used) {
		p->res->profile_used = true;
		if (!(rls[0].df_own > 0))
			an_cmp_note(p->res, "one repetition a side: judged with "
				    "the scatter of the noise profile (%s); these "
				    "repetitions cannot check that it holds for "
				    "them", pr->origin);
	}
	/* Without a profile: the other CPUs at the same level, half weight. */
	for (i = 0; i < n; i++) {
		double s = 0, d = 0;

		if (rls[i].prior || rls[i].censored || !(rls[i].df_own > 0))
			continue;
		for (k = 0; k < n; k++)
			if (k != i && !rls[k].censored &&
			    rls[k].df_own > 0 && rls[k].q == rls[i].q) {
				s += rls[k].ss;
				d += rls[k].df_own;
			}
		/*
		 * The other CPUs' scatter comes from the same repetitions
		 * (a burst is shared): it never weighs more than the line's.
		 */
		if (d > 0) {
			rls[i].s0 = s / d;
			rls[i].df0 = fmin(CPU_SHARE * d, rls[i].df_own);
			rls[i].prior = "CPUs";
		}
	}
}

static void rep_line_emit(struct an_prep *p, struct rep_line *rl)
{
	size_t nb = p->sb->nruns, nc = p->sc->nruns;
	struct an_line *l;
	struct an_line_test *t;
	double s2 = 0, df = 0, bmin, bmax, cmin, cmax;
	size_t i;

	l = an_cmp_line_new(p, rl->q > 0 ? AN_LINE_TAIL : AN_LINE_MAX,
			    rl->metric, rl->cpu);
	if (!l)
		return;
	t = cmp_test(p, l);
	l->q = rl->q;
	l->deciding = rl->deciding;
	if (rl->censored) {
		bool ge;

		l->base = an_cpu_quantile(&p->b[rl->cpu].pool, rl->q, &ge);
		l->base_ge = ge;
		l->cand = an_cpu_quantile(&p->c[rl->cpu].pool, rl->q, &ge);
		l->cand_ge = ge;
		an_cmp_line_effect_us(p, l);
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "%s is beyond "
			    "the %u us histogram in a repetition", rl->metric,
			    p->b[rl->cpu].pool.limit);
		return;
	}
	l->base = expm1(rl->mb);
	l->cand = expm1(rl->mc);
	an_cmp_line_effect_us(p, l);
	/*
	 * A max line is judged on its typical max (the mean of log(1 + us)
	 * of the repetitions' maxima at equal counts); "max" itself is the
	 * largest wake-up either side measured, and that is what is shown.
	 */
	if (rl->q == 0) {
		l->raw_base = p->b[rl->cpu].pool.max_us;
		l->raw_cand = p->c[rl->cpu].pool.max_us;
	}
	bmin = bmax = rl->yb[0];
	cmin = cmax = rl->yc[0];
	for (i = 1; i < nb; i++) {
		bmin = fmin(bmin, rl->yb[i]);
		bmax = fmax(bmax, rl->yb[i]);
	}
	for (i = 1; i < nc; i++) {
		cmin = fmin(cmin, rl->yc[i]);
		cmax = fmax(cmax, rl->yc[i]);
	}
	l->range_base[0] = expm1(bmin);
	l->range_base[1] = expm1(bmax);
	l->range_cand[0] = expm1(cmin);
	l->range_cand[1] = expm1(cmax);
	if (rl->df_own > 0) {
		s2 = rl->ss;
		df = rl->df_own;
	}
	if (rl->prior) {
		s2 += rl->df0 * rl->s0;
		df += rl->df0;
	}
	if (df > 0) {
		s2 = fmax(s2 / df, rl->vfloor);
		/*
		 * One repetition a side cannot tell a change from a burst:
		 * no p-value below the upper 95 % bound of the profile's
		 * burst rate (Clopper-Pearson).
		 */
		if (!(rl->df_own > 0) && rl->pl) {
			size_t nr = p->gate->profile->nreps;
			unsigned int k = rl->pl->bursts;

			t->bursts = k;
			t->nreps = nr;
			t->p_floor = k >= nr ? 1 :
				     gsl_cdf_beta_Pinv(0.95, k + 1.0, nr - k);
		}
		t->kind = AN_TEST_LOG;
		t->d = rl->mc - rl->mb;
		t->sd = sqrt(s2);
		t->se = t->sd * sqrt(1.0 / rl->hb + 1.0 / rl->hc);
		t->df = df;
	}
	if (!(df > 0)) {
		rtpaths_fmt(l->evidence, sizeof(l->evidence), "%.0f vs %.0f "
			    "us: one repetition a side and no noise profile of "
			    "this machine, so no variance to test with (rtgate "
			    "calibrate makes one)", expm1(bmin), expm1(cmin));
		goto drift;
	}
	rtpaths_fmt(l->evidence, sizeof(l->evidence), "per repetition "
		    "%.0f..%.0f vs %.0f..%.0f us%s%s%s", expm1(bmin),
		    expm1(bmax), expm1(cmin), expm1(cmax), df > 0 ? "; scatter "
		    "from " : "", df > 0 ? (rl->df_own > 0 ? "the repetitions" :
		    "the noise profile") : "", df > 0 && rl->prior && rl->df0 >
		    0 && rl->df_own > 0 ? (!strcmp(rl->prior, "CPUs") ? " and "
		    "the other CPUs" : " and the noise profile") : "");
	if (rl->outb >= 0 || rl->outc >= 0) {
		size_t len = strlen(l->evidence);

		rtpaths_fmt(l->evidence + len, sizeof(l->evidence) - len,
			    "; without %s%s%s%s%s (every CPU moved at once)",
			    rl->outb >= 0 ? "the baseline's " : "",
			    rl->outb >= 0 ? p->sb->runs[rl->outb].label : "",
			    rl->outb >= 0 && rl->outc >= 0 ? " and " : "",
			    rl->outc >= 0 ? "the candidate's " : "",
			    rl->outc >= 0 ? p->sc->runs[rl->outc].label : "");
	}
drift:
	if (p->drift) {
		double e[p->nhalf ? p->nhalf : 1], la[p->nhalf ? p->nhalf : 1];
		size_t ne = 0, nl = 0;

		/* A run left out as a shared burst is no drift either. */
		for (i = 0; i < p->nhalf; i++) {
			if ((int)p->early[i] != rl->outb)
				e[ne++] = rl->yb[p->early[i]];
			if ((int)p->late[i] != rl->outb)
				la[nl++] = rl->yb[p->late[i]];
		}
		if (ne && nl)
			l->drift = expm1(an_mean(la, nl)) -
				   expm1(an_mean(e, ne));
	}
}

/*
 * One repetition a side, no profile, many CPUs: each CPU's log ratio is
 * one replicate of the change (pasted T: lines have no other evidence).
 */
static int cpu_replicate_line(struct an_prep *p, const struct rep_line *rls,
			      size_t n, double q, bool deciding)
{
	double d[p->ncpus], lb = 0, lc = 0;
	size_t i, k = 0, up = 0;
	struct an_line *l;
	struct an_line_test *t;
	char name[16];

	for (i = 0; i < n; i++)
		if (rls[i].q == q && !rls[i].censored) {
			d[k] = rls[i].yc[0] - rls[i].yb[0];
			lb += rls[i].yb[0];
			lc += rls[i].yc[0];
			up += d[k] > 0;
			k++;
		}
	if (k < CPU_REPLICATES_MIN)
		return 0;
	metric_name(q, name, sizeof(name));
	l = an_cmp_line_new(p, q > 0 ? AN_LINE_TAIL : AN_LINE_MAX, name, -1);
	if (!l)
		return -ENOMEM;
	t = cmp_test(p, l);
	l->q = q;
	l->deciding = deciding;
	l->base = expm1(lb / k);
	l->cand = expm1(lc / k);
	an_cmp_line_effect_us(p, l);
	/* Shown: the largest wake-up of any CPU (the T: lines' Max). */
	if (q == 0) {
		l->raw_base = l->raw_cand = 0;
		for (i = 0; i < p->ncpus; i++) {
			l->raw_base = fmax(l->raw_base, p->b[i].pool.max_us);
			l->raw_cand = fmax(l->raw_cand, p->c[i].pool.max_us);
		}
	}
	t->kind = AN_TEST_LOG;
	t->d = an_mean(d, k);
	t->sd = sqrt(fmax(an_var(d, k), 1.0 / (6 * (1 + l->base) *
						(1 + l->base))));
	t->se = t->sd / sqrt(k);
	t->df = k - 1;
	rtpaths_fmt(l->evidence, sizeof(l->evidence), "one repetition a side: "
		    "the %zu CPUs are the replicates, %zu higher, %zu lower or "
		    "equal; geometric means", k, up, k - up);
	return 0;
}

/* Each CPU against the others, from the same values (analyze_lines_rel.c). */
static int rel_lines(struct an_prep *p, const struct rep_line *rls, size_t n)
{
	struct an_rep_values *v = calloc(n ? n : 1, sizeof(*v));
	size_t i;
	int ret;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v[i].cpu = rls[i].cpu;
		v[i].q = rls[i].q;
		v[i].yb = rls[i].censored ? NULL : rls[i].yb;
		v[i].yc = rls[i].censored ? NULL : rls[i].yc;
		v[i].vfloor = rls[i].vfloor;
	}
	ret = an_cmp_rel_lines(p, v, n);
	free(v);
	return ret;
}

static void rep_lines_free(struct rep_line *rls, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rls[i].yb);
		free(rls[i].yc);
	}
	free(rls);
}

int an_cmp_rep_lines(struct an_prep *p)
{
	const char *gm = p->gate->metric;
	bool is_max = !strcmp(gm, "max"), has_q;
	size_t j, k, n = 0, cap = p->ncpus * (NR_LEVELS + 2);
	struct rep_line *rls;
	double gq = 0;
	int ret = 0;

	has_q = an_metric_quantile(gm, &gq);
	rls = calloc(cap, sizeof(*rls));
	if (!rls)
		return -ENOMEM;
	for (j = 0; j < p->ncpus; j++) {
		bool gate_listed = false;

		for (k = 0; k <= NR_LEVELS; k++) {
			/* The gate's own level, when it is not in the list. */
			double q = k < NR_LEVELS ? levels[k] : gq;
			bool gate = has_q && fabs(q - gq) < 1e-12;

			if (k == NR_LEVELS && (!has_q || gate_listed))
				continue;
			gate_listed |= gate;
			if (!p->b[j].hist || !supported(p, j, q))
				continue;
			rls[n].cpu = j;
			rls[n].q = q;
			rls[n].deciding = is_max || gate;
			metric_name(q, rls[n].metric, sizeof(rls[n].metric));
			ret = rep_line_fill(p, &rls[n++]);
			if (ret)
				goto out;
		}
		rls[n].cpu = j;
		rls[n].deciding = is_max;
		metric_name(0, rls[n].metric, sizeof(rls[n].metric));
		ret = rep_line_fill(p, &rls[n++]);
		if (ret)
			goto out;
	}
	shared_outliers(p, rls, n);
	for (k = 0; k < n; k++)
		rep_line_stats(&rls[k], p->sb->nruns, p->sc->nruns);
	priors(p, rls, n);
	for (k = 0; k < n; k++)
		rep_line_emit(p, &rls[k]);
	if (p->res->nlines < n) {
		ret = -ENOMEM;
		goto out;
	}
	ret = rel_lines(p, rls, n);
	if (ret)
		goto out;
	/* One repetition a side without a prior: CPUs as replicates. */
	if (p->sb->nruns == 1 && p->sc->nruns == 1 && !p->res->profile_used) {
		size_t first = p->res->nlines;

		for (k = 0; k < NR_LEVELS && !ret; k++)
			if (p->b[0].hist && supported(p, 0, levels[k]))
				ret = cpu_replicate_line(p, rls, n, levels[k],
					is_max || (has_q &&
						   fabs(levels[k] - gq) < 1e-12));
		if (!ret)
			ret = cpu_replicate_line(p, rls, n, 0, is_max);
		/* The replicates decide; each CPU's own line is shown. */
		for (k = 0; !ret && p->res->nlines > first && k < first; k++)
			if (p->res->lines[k].kind == AN_LINE_TAIL ||
			    p->res->lines[k].kind == AN_LINE_MAX)
				p->res->lines[k].deciding = false;
	}
out:
	rep_lines_free(rls, n);
	return ret;
}
