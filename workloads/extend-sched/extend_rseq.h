/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rseq area the slice extension works through, one per thread.
 *
 * glibc (2.35+) registers one for every thread. Bookworm's 2.36 registers
 * the original 32 bytes, and Linux 7.x offers the slice extension only to
 * a registration longer than that: in kernel/rseq.c a length above
 * ORIG_RSEQ_SIZE (32) selects the v2 ABI, and PR_RSEQ_SLICE_EXTENSION
 * answers ENOTSUPP for a v1 registration. One registration per thread is
 * allowed, so glibc's must go: extend-sched then re-executes itself once
 * with GLIBC_TUNABLES=glibc.pthread.rseq=0 and every thread that asks for
 * extensions registers its own area (getauxval(AT_RSEQ_FEATURE_SIZE)
 * bytes or more, aligned on getauxval(AT_RSEQ_ALIGN)).
 *
 * The re-exec cannot loop: it sets EXT_RSEQ_REEXEC_ENV, and a process that
 * finds it set removes it and never re-executes.
 */
#ifndef RTGATE_EXTEND_RSEQ_H
#define RTGATE_EXTEND_RSEQ_H

#include <stdbool.h>

#define EXT_RSEQ_REEXEC_ENV	"RTGATE_EXTEND_SCHED_REEXEC"
#define EXT_RSEQ_TUNABLE	"glibc.pthread.rseq=0"
/* The original struct rseq: size and alignment of a v1 registration. */
#define EXT_RSEQ_ORIG_SIZE	32

enum ext_rseq_owner {
	EXT_RSEQ_NONE,		/* no area: nothing to extend through */
	EXT_RSEQ_GLIBC,		/* glibc's registration */
	EXT_RSEQ_OWN,		/* ours, registered per thread */
};

struct ext_rseq_info {
	enum ext_rseq_owner owner;
	unsigned int len;		/* bytes registered per thread */
	unsigned int glibc_size;	/* glibc's __rseq_size (0: it is off) */
	unsigned long feature_size;	/* AT_RSEQ_FEATURE_SIZE, 0 if absent */
	unsigned long align;		/* AT_RSEQ_ALIGN, 0 if absent */
	bool reexec;			/* this process is the re-executed one */
	char note[200];			/* how the area came to be, or why none */
};

/*
 * First thing in main, before anything reads the environment or opens a
 * file: when glibc's registration is too short for what the kernel offers
 * (it registered <= 32 bytes, AT_RSEQ_FEATURE_SIZE > 32, and the prctl
 * answers ENOTSUPP), execs /proc/self/exe with glibc's rseq off. Returns
 * when no re-exec was needed, when this is the re-executed process, or
 * when the exec failed (ext_rseq_setup() then says why).
 */
void ext_rseq_reexec_if_needed(char **argv);

/*
 * Decides whose area this process uses and registers the calling (main)
 * thread's own when it is ours. Never fails: @info->owner is NONE, with
 * the note saying why, when there is no area.
 */
void ext_rseq_setup(struct ext_rseq_info *info);

/*
 * Per thread that requests extensions, before its first request: registers
 * our area when the process owns it (0 or -errno); no-op for glibc's.
 * The unregister frees it; a thread calls it before it returns.
 */
int ext_rseq_thread_register(void);
void ext_rseq_thread_unregister(void);

/* The calling thread's struct rseq, NULL when it has none. */
char *ext_rseq_area(void);

const char *ext_rseq_owner_name(enum ext_rseq_owner owner);

/* The registration length for a kernel's auxv values (see extend_rseq.c). */
int ext_rseq_len(unsigned long feature_size, unsigned long align,
		 unsigned int *len, unsigned int *alloc_align);

#endif
