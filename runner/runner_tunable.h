/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel tunables a suite changes: sysctls under /proc/sys, sched features,
 * base_slice_ns and other debugfs files. A tunable is resolved once to a
 * file and the value to write back (its original); every change is undone
 * by writing that original again, which is idempotent, so a restore may be
 * repeated by the guardian or the next start without harm.
 */
#ifndef RTGATE_RUNNER_TUNABLE_H
#define RTGATE_RUNNER_TUNABLE_H

#include <limits.h>
#include <stddef.h>

#include "runner_suite.h"

#define TUNABLE_VALUE_MAX 256

struct runner_tunable {
	enum runner_tunable_kind kind;
	/* The manifest's name: kernel.sched_rr_timeslice_ms,
	 * sched_feature.HRTICK, debugfs.sched/base_slice_ns. */
	char key[160];
	char path[PATH_MAX];
	char feature[64];	/* sched features: the name without NO_ */
	char orig[TUNABLE_VALUE_MAX];	/* what to write back */
	int save_err;		/* 0, or -errno: the original is unknown */
};

/*
 * Resolves a suite tunable. @debugfs is the debugfs mount point (NULL when
 * absent: debugfs tunables then fail with -ENOENT when saved).
 */
int runner_tunable_init(struct runner_tunable *t,
			const struct runner_suite_tunable *st,
			const char *debugfs);
/* The current value, in the form it is written (FEATURE / NO_FEATURE). */
int runner_tunable_read(const struct runner_tunable *t, char *buf, size_t len);
int runner_tunable_write(const struct runner_tunable *t, const char *value);
/*
 * Whether @value can be right for @t, judged from its current value
 * without writing: a knob holding whole numbers takes whole numbers.
 * -EINVAL with @why said when not; 0 when it cannot tell.
 */
int runner_tunable_check_value(const struct runner_tunable *t,
			       const char *value, char *why, size_t len);
/* Reads the original into t->orig; sets and returns t->save_err. */
int runner_tunable_save(struct runner_tunable *t);
int runner_tunable_restore(const struct runner_tunable *t);

#endif
