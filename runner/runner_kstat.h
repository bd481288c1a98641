/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel counters beside a repetition: debugfs rseq/stats (Linux 7.x with
 * CONFIG_RSEQ_STATS; the slice-extension lines sgrant, sexpir, srevok,
 * syield, sabort with CONFIG_RSEQ_SLICE_EXTENSION). Read before the
 * workloads start and after they stopped; the repetition keeps the
 * difference (manifest: repetitions[].rseq_stats), and `expect =
 * rseq-stats.KEY OP N` judges it. Read-only: nothing is ever written there.
 */
#ifndef RTGATE_RUNNER_KSTAT_H
#define RTGATE_RUNNER_KSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#define KSTAT_RSEQ_FILE		"rseq/stats"	/* under the debugfs mount */
#define KSTAT_MAX		32
#define KSTAT_NAME		16

struct runner_kstat_snap {
	size_t n;
	char name[KSTAT_MAX][KSTAT_NAME];
	unsigned long long val[KSTAT_MAX];
};

/*
 * Parses "name: number" lines (the file's own format, "sgrant:  ... 42").
 * 0, or -EINVAL when a line is neither (@line, 1-based, says which).
 */
int runner_kstat_parse(const char *text, struct runner_kstat_snap *s,
		       unsigned int *line);

/*
 * Reads @debugfs/rseq/stats: 0, -ENOENT when the kernel has none (or
 * @debugfs is NULL), -EXDEV when the file is not on debugfs (a planted
 * path is never read), other -errno as the read failed.
 */
int runner_kstat_read(const char *debugfs, struct runner_kstat_snap *s);

/*
 * {"sgrant": after - before, ...} for every counter in both, NULL when
 * either is empty. A counter that went down (it wrapped, or the kernel
 * reset it) gives -1, which no expect of "> 0" takes for a grant.
 */
cJSON *runner_kstat_delta(const struct runner_kstat_snap *before,
			  const struct runner_kstat_snap *after);

#endif
