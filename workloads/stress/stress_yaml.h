/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress-ng's own report of the work done: the `metrics:` sequence of its
 * --yaml file (one mapping per stressor: stressor, bogo-ops,
 * bogo-ops-per-second-real-time, wall-clock-time …), read with libyaml.
 * stress-ng's exit status is not trusted for this; its report is.
 */
#ifndef RTGATE_STRESS_YAML_H
#define RTGATE_STRESS_YAML_H

#include <stddef.h>
#include <stdint.h>

struct stress_metric {
	char stressor[64];
	uint64_t bogo_ops;
	double ops_per_s;	/* bogo-ops-per-second-real-time */
	double wall_s;		/* wall-clock-time */
};

#define STRESS_MAX_METRICS 64

struct stress_report {
	size_t n;
	struct stress_metric m[STRESS_MAX_METRICS];
};

/*
 * Reads the report. Returns 0, or -errno/-EINVAL with a message naming the
 * file and line in err (no metrics section is -ENODATA).
 */
int stress_yaml_read(const char *path, struct stress_report *rep,
		     char *err, size_t err_len);

#endif
