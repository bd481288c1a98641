/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/judge: one comparison's lines, their tests and the verdict
 * (an_compare() in analyze.h); judge_priv.h is the parts' shared state.
 * What the other parts of the analyzer take from it:
 */
#ifndef RTGATE_ANALYZE_JUDGE_H
#define RTGATE_ANALYZE_JUDGE_H

#include "analyze/analyze.h"

/* Appends a sentence to a result's notes (the reports print them). */
void an_cmp_note(struct an_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Sharing alpha (analyze_family.c): @gate's level for candidate side
 * @cand of a results directory, one of @family comparisons, with the
 * looks --until-decided took; level_why says how it was shared.
 */
void an_share_alpha(const struct an_results *res, const char *cand,
		    size_t family, struct an_gate *gate);
/*
 * `compare`'s: alpha / @given (its --family), else / @suite (the suite of
 * a DIR:SCENARIO baseline), so that `compare A:S B:S` and `lab gate`
 * judge a suite's comparison at the level `rtgate run` does.
 */
void an_share_alpha_given(struct an_gate *gate, size_t suite,
			  unsigned int given);

#endif
