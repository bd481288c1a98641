// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtgate's exit codes (exitcode.h, docs/exit-codes.md): from an errno, and
 * the worse of two.
 */
#include <errno.h>

#include "exitcode.h"

int exitcode_of_errno(int err)
{
	switch (err) {
	case 0:
		return EXITCODE_PASS;
	case -EINVAL:
	case -ENOENT:
	case -E2BIG:
	case -ENAMETOOLONG:
		return EXITCODE_BAD_INPUT;
	case -EINTR:
		return EXITCODE_INCOMPLETE;
	default:
		return EXITCODE_ENVIRONMENT;
	}
}

int exitcode_worse(int a, int b)
{
	/* The rank of each code 0..5: the higher, the worse. */
	static const int rank[] = { 0, 3, 2, 6, 5, 4 };

	if (a < 0 || a > 5)
		a = EXITCODE_ENVIRONMENT;
	if (b < 0 || b > 5)
		b = EXITCODE_ENVIRONMENT;
	return rank[a] >= rank[b] ? a : b;
}
