/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two time-slice-extension ABIs, through glibc's own rseq registration
 * (__rseq_offset/__rseq_size): one struct rseq per thread is allowed, so we
 * never register a second one.
 *
 *   v5        Prakash Sangappa's V5/V6 series (June 2025, not merged):
 *             rseq->flags bit 3 "delay resched" request, cleared by the
 *             kernel when it grants; bit 4 "you were rescheduled"; yield
 *             with sched_yield(). Detected with rseq(RSEQ_FLAG_QUERY_CS_FLAGS).
 *   linux-7.0 Thomas Gleixner's rewrite merged for Linux 7.0:
 *             prctl(PR_RSEQ_SLICE_EXTENSION, SET, ENABLE) per thread, then
 *             rseq->slice_ctrl.request = 1; the kernel clears request and
 *             sets granted; yield with rseq_slice_yield().
 *   none      neither: said so, so that the runner can SKIP.
 */
#ifndef RTGATE_EXTEND_ABI_H
#define RTGATE_EXTEND_ABI_H

#include <stdbool.h>

enum ext_abi {
	EXT_ABI_NONE,
	EXT_ABI_V5,
	EXT_ABI_LINUX70,
};

struct ext_abi_info {
	enum ext_abi abi;
	unsigned int rseq_size;		/* glibc's __rseq_size; 0: not registered */
	unsigned long feature_size;	/* AT_RSEQ_FEATURE_SIZE, 0 if absent */
	char reason[320];		/* why "none", or how it was detected */
};

/* Probes the running kernel from the calling thread. Never fails. */
void ext_abi_detect(struct ext_abi_info *info);
const char *ext_abi_name(enum ext_abi abi);

/* Per thread, before the first request: 0 or -errno. */
int ext_thread_enable(enum ext_abi abi);

/* Sets the request bit around a critical section. */
void ext_request(enum ext_abi abi);

struct ext_result {
	bool granted;	/* the kernel took the request: it extended us */
	bool yielded;	/* granted and not yet rescheduled: we yielded */
};

/* Clears the request; yields the CPU when the kernel says we were extended. */
void ext_end(enum ext_abi abi, struct ext_result *res);

#endif
