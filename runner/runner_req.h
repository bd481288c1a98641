/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Requirements (suites/README.md, "Requirements"): what a scenario needs
 * from the running kernel. An unmet one makes the scenario SKIPPED with
 * the reason, never a silent pass.
 */
#ifndef RTGATE_RUNNER_REQ_H
#define RTGATE_RUNNER_REQ_H

#include <stdbool.h>
#include <stddef.h>

struct runner_req_env {
	const char *debugfs;	/* mount point, or NULL when absent */
	const char *tracefs;
};

/* Syntax only (for the suite parser): a known requirement, well formed. */
bool runner_req_valid(const char *req);
/* True when checking @req needs debugfs or tracefs mounted. */
bool runner_req_needs_debugfs(const char *req);
bool runner_req_needs_tracefs(const char *req);
/* Returns 1 when met, 0 when not, with @reason saying why not. */
int runner_req_check(const char *req, const struct runner_req_env *env,
		     char *reason, size_t len);

#endif
