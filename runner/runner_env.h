/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The environment record of a run (docs/results.md, manifest.json; the
 * runner's place in the flow: docs/design.md):
 * host, kernel identity and preemption model, what could disturb the
 * measurement, and tool versions. Unknown fields are left out.
 */
#ifndef RTGATE_RUNNER_ENV_H
#define RTGATE_RUNNER_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

struct runner_env_opts {
	const char *debugfs;	/* mount points, or NULL */
	const char *tracefs;
	const char *cgroup;	/* the run's cgroup, or NULL */
	bool tools;		/* ask cyclictest, hackbench, stress-ng */
	const char *rtla;	/* the rtla a timerlat suite measures with */
	const char *rtla_aa;	/* and the one that auto-analyses */
};

/*
 * The major and minor version an rtla at @path prints ("rtla version
 * 7.3.4"), or -1 when it prints none within 5 s.
 */
int runner_env_rtla_version(const char *path, unsigned int *major,
			    unsigned int *minor);

/*
 * {"host": {...}, "kernel": {...}, "environment": {...}, "system": {...}
 * (runner_sysfacts.h), "tools": {...}}
 */
cJSON *runner_env_record(const struct runner_env_opts *opts);


#endif
