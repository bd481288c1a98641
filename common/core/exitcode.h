/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtgate's exit codes: the contract with CI gates (docs/exit-codes.md).
 * Workload binaries use 0, 1 (runtime failure), 2 (usage) and 4. The
 * module's prefix keeps them apart from <stdlib.h>'s EXIT_SUCCESS and
 * EXIT_FAILURE.
 */
#ifndef RTGATE_EXITCODE_H
#define RTGATE_EXITCODE_H

enum exitcode_status {
	/* no regression (NO CHANGE / IMPROVEMENT / SKIPPED) */
	EXITCODE_PASS = 0,
	/* at least one comparison is a REGRESSION */
	EXITCODE_REGRESSION = 1,
	/* INCONCLUSIVE or INVALID, no REGRESSION */
	EXITCODE_INCONCLUSIVE = 2,
	/* usage error, malformed suite or input file */
	EXITCODE_BAD_INPUT = 3,
	/* missing tool, privilege, kernel interface */
	EXITCODE_ENVIRONMENT = 4,
	/* the run did not complete (signal, timeout) */
	EXITCODE_INCOMPLETE = 5,
};

/*
 * A library call's result as a command's exit code: 0 is EXITCODE_PASS; bad
 * input (-EINVAL, -ENOENT, -E2BIG, -ENAMETOOLONG) is 3; a stop signal
 * (-EINTR) is 5; anything else the environment's, 4.
 */
int exitcode_of_errno(int err);
/*
 * The worse of two exit codes in the documented order 3, 4, 5, 1, 2, 0
 * (a code outside 0..5 counts as 4): what a command that ran several
 * judgements (a nightly, a lab gate) exits with.
 */
int exitcode_worse(int a, int b);

/* Workload binaries: a usage error is exit 2, as for most Unix tools. */
#define WL_EXIT_OK		0
#define WL_EXIT_FAILURE		1
#define WL_EXIT_USAGE		2
#define WL_EXIT_ENVIRONMENT	4

#endif
