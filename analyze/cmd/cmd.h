/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze/cmd's header for its own folder: what the command lines
 * (analyze_cmd.c) hand to the judging they drive (analyze_judging.c), and
 * judging two or three whole runs of a suite (A/B/A) with the runs table.
 */
#ifndef RTGATE_ANALYZE_CMD_H
#define RTGATE_ANALYZE_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/analyze.h"
#include "analyze/report/report.h"

/*
 * `rtgate compare`'s judging once its command line is read
 * (analyze_judging.c): BASELINE CANDIDATE as one comparison, or RUN_A
 * RUN_B [RUN_A2] scenario by scenario (an_compare_runs()); the reports
 * written as @p says, the verdict table printed. Returns the exit code.
 */
int an_compare_inputs(char **inputs, int n, const struct an_params *p);

/*
 * Two or three runs of one suite (kernel A, kernel B, kernel A again)
 * compared scenario by scenario: `rtgate compare RUN_A RUN_B [RUN_A2]`.
 */

/*
 * Judges every scenario of dirs[0]'s manifest: baseline dirs[0] (plus
 * dirs[2] when n == 3, the A/B/A drift check), candidate dirs[1]. Prints
 * the threads' table on stdout unless p->quiet. On success *out is the
 * report (write it, print its verdict table, then an_compare_runs_free).
 * Returns 0, -EINVAL (bad input, said) or -ENOMEM.
 */
int an_compare_runs(char **dirs, size_t n, const struct an_params *p,
		    struct an_report **out);
/* The threads' table of a report made by an_compare_runs(). */
int an_compare_runs_table(const struct an_report *r, FILE *f);
void an_compare_runs_free(struct an_report *r);

#endif
