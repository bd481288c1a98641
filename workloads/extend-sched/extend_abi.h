/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two time-slice-extension ABIs, through the thread's one rseq area:
 * glibc's registration, or our own where glibc's is too short for the
 * kernel (extend_rseq.h).
 *
 *   v5        Prakash Sangappa's V5/V6 series (June 2025, not merged):
 *             rseq->flags bit 3 "delay resched" request, cleared by the
 *             kernel when it grants; bit 4 "you were rescheduled"; yield
 *             with sched_yield(). Detected with rseq(RSEQ_FLAG_QUERY_CS_FLAGS).
 *   linux-7.0 Thomas Gleixner's rewrite merged for Linux 7.0:
 *             prctl(PR_RSEQ_SLICE_EXTENSION, SET, ENABLE) per thread (a
 *             registration longer than 32 bytes), then
 *             rseq->slice_ctrl.request = 1; the kernel grants by clearing
 *             request and setting granted, and clears both whenever it
 *             reschedules the thread; yield with rseq_slice_yield().
 *   none      neither: said so, so that the runner can SKIP.
 */
#ifndef RTGATE_EXTEND_ABI_H
#define RTGATE_EXTEND_ABI_H

#include <stdbool.h>

#include "workloads/extend-sched/extend_rseq.h"

enum ext_abi {
	EXT_ABI_NONE,
	EXT_ABI_V5,
	EXT_ABI_LINUX70,
};

struct ext_abi_info {
	enum ext_abi abi;
	struct ext_rseq_info rseq;	/* the area, whose and how long */
	char reason[768];		/* why "none", or how it was detected */
};

/*
 * Probes the running kernel from the calling (main) thread, after
 * ext_rseq_setup() filled @rseq (copied in). Never fails.
 */
void ext_abi_detect(struct ext_abi_info *info,
		    const struct ext_rseq_info *rseq);
const char *ext_abi_name(enum ext_abi abi);

/* Per thread, before the first request: 0 or -errno. */
int ext_thread_enable(enum ext_abi abi);

/* Sets the request bit around a critical section. */
void ext_request(enum ext_abi abi);

struct ext_result {
	bool granted;	/* the kernel said it extended us */
	bool dropped;	/* linux-7.0: request cleared, no grant seen (the
			 * kernel rescheduled us, or revoked a grant) */
	bool yielded;	/* granted: we yielded (a system call made) */
	bool yield_in_grant;	/* linux-7.0: rseq_slice_yield() said 1 */
};

/* Clears the request; yields the CPU when the kernel says we were extended. */
void ext_end(enum ext_abi abi, struct ext_result *res);

#endif
