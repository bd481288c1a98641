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

#endif
