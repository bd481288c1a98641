/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals of the suite parser shared by its files (not a contract). */
#ifndef RTGATE_RUNNER_SUITE_PRIV_H
#define RTGATE_RUNNER_SUITE_PRIV_H

#include <stddef.h>

#include "runner_suite.h"

/* Parses a workload line into @wl (options, program, alias). */
int suite_workload_parse(struct suite_workload *wl, const char *text,
			 char *err, size_t len);

#endif
