// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/extend-sched/extend_abi.h"

/*
 * struct rseq offsets, written out because the installed uapi header may
 * predate the fields: flags at 16, mm_cid at 24, slice_ctrl at 28 (a u32:
 * u8 request, u8 granted, u16 reserved).
 */
#define RSEQ_OFF_FLAGS		16
#define RSEQ_OFF_SLICE_CTRL	28
#define RSEQ_SLICE_END		32
/* Every kernel refuses an rseq registration shorter than this. */
#define RSEQ_MIN_REGISTERED	32

/* V5/V6 series */
#define V5_FLAG_QUERY_CS_FLAGS	(1U << 1)
#define V5_CS_DELAY_RESCHED	(1U << 3)
#define V5_CS_RESCHEDULED	(1U << 4)

/* Linux 7.0 */
#define PR_RSEQ_SLICE_EXTENSION		79
#define PR_RSEQ_SLICE_EXTENSION_SET	2
#define PR_RSEQ_SLICE_EXT_ENABLE	1
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE		27
#endif
#if defined(__NR_rseq_slice_yield)
#define NR_RSEQ_SLICE_YIELD	__NR_rseq_slice_yield
#elif defined(__x86_64__)
#define NR_RSEQ_SLICE_YIELD	471
#else
#define NR_RSEQ_SLICE_YIELD	-1	/* unknown here: the ABI is unusable */
#endif

static inline char *rseq_area(void)
{
	return (char *)__builtin_thread_pointer() + __rseq_offset;
}

static inline uint32_t *rseq_flags(void)
{
	return (uint32_t *)(rseq_area() + RSEQ_OFF_FLAGS);
}

static inline uint8_t *slice_request(void)
{
	return (uint8_t *)(rseq_area() + RSEQ_OFF_SLICE_CTRL);
}

static inline uint8_t *slice_granted(void)
{
	return (uint8_t *)(rseq_area() + RSEQ_OFF_SLICE_CTRL + 1);
}

const char *ext_abi_name(enum ext_abi abi)
{
	switch (abi) {
	case EXT_ABI_V5:
		return "v5";
	case EXT_ABI_LINUX70:
		return "linux-7.0";
	default:
		return "none";
	}
}

static int probe_linux70(struct ext_abi_info *info, char *why, size_t len)
{
	/* glibc may report a smaller feature size than it registered. */
	unsigned int area = info->rseq_size > RSEQ_MIN_REGISTERED ?
			    info->rseq_size : RSEQ_MIN_REGISTERED;

	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0)) {
		snprintf(why, len, "prctl(PR_RSEQ_SLICE_EXTENSION): %s",
			 strerror(errno));
		return 0;
	}
	if (area < RSEQ_SLICE_END ||
	    (info->feature_size && info->feature_size < RSEQ_SLICE_END)) {
		snprintf(why, len,
			 "linux-7.0 ABI present but rseq area %u bytes, kernel feature size %lu: slice_ctrl needs %d",
			 area, info->feature_size, RSEQ_SLICE_END);
		return 0;
	}
	if (NR_RSEQ_SLICE_YIELD < 0) {
		snprintf(why, len,
			 "linux-7.0 ABI present but rseq_slice_yield's number is unknown on this architecture");
		return 0;
	}
	return 1;
}

static int probe_v5(char *why, size_t len)
{
	/* A scratch area: the query writes the supported cs flags into it. */
	static __thread struct {
		uint32_t w[8];
	} __attribute__((aligned(32))) scratch;

	if (syscall(__NR_rseq, &scratch, sizeof(scratch),
		    V5_FLAG_QUERY_CS_FLAGS, RSEQ_SIG)) {
		snprintf(why, len, "rseq(RSEQ_FLAG_QUERY_CS_FLAGS): %s",
			 strerror(errno));
		return 0;
	}
	if (!(scratch.w[RSEQ_OFF_FLAGS / 4] & V5_CS_DELAY_RESCHED)) {
		snprintf(why, len, "rseq query: no DELAY_RESCHED flag (0x%x)",
			 scratch.w[RSEQ_OFF_FLAGS / 4]);
		return 0;
	}
	return 1;
}

void ext_abi_detect(struct ext_abi_info *info)
{
	char why70[128] = "", why5[128] = "";

	memset(info, 0, sizeof(*info));
	info->rseq_size = __rseq_size;
	info->feature_size = getauxval(AT_RSEQ_FEATURE_SIZE);
	if (!__rseq_size) {
		/*
		 * glibc did not register (glibc.pthread.rseq=0). Probing now
		 * could register our scratch area on a newer kernel.
		 */
		snprintf(info->reason, sizeof(info->reason),
			 "glibc did not register rseq (__rseq_size is 0; GLIBC_TUNABLES=glibc.pthread.rseq=0?)");
		return;
	}
	if (probe_linux70(info, why70, sizeof(why70))) {
		info->abi = EXT_ABI_LINUX70;
		snprintf(info->reason, sizeof(info->reason),
			 "prctl(PR_RSEQ_SLICE_EXTENSION) enabled");
		return;
	}
	/* Safe now: this thread has an rseq, so no kernel registers ours. */
	if (probe_v5(why5, sizeof(why5))) {
		info->abi = EXT_ABI_V5;
		snprintf(info->reason, sizeof(info->reason),
			 "rseq(RSEQ_FLAG_QUERY_CS_FLAGS) reports DELAY_RESCHED");
		return;
	}
	snprintf(info->reason, sizeof(info->reason), "%s; %s", why70, why5);
}

int ext_thread_enable(enum ext_abi abi)
{
	if (abi != EXT_ABI_LINUX70)
		return 0;
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0))
		return -errno;
	return 0;
}

/*
 * The kernel writes these fields when it returns to user space on this
 * CPU, i.e. between any two of our instructions: single loads and stores,
 * and an atomic RMW where we change bits of a word it also writes.
 */
void ext_request(enum ext_abi abi)
{
	if (abi == EXT_ABI_V5)
		__atomic_fetch_or(rseq_flags(), V5_CS_DELAY_RESCHED,
				  __ATOMIC_RELAXED);
	else if (abi == EXT_ABI_LINUX70)
		__atomic_store_n(slice_request(), 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void ext_end(enum ext_abi abi, struct ext_result *res)
{
	uint32_t flags;

	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	res->granted = res->yielded = false;
	if (abi == EXT_ABI_V5) {
		flags = __atomic_fetch_and(rseq_flags(),
					   ~(V5_CS_DELAY_RESCHED |
					     V5_CS_RESCHEDULED),
					   __ATOMIC_RELAXED);
		/* The kernel cleared our request: it granted the delay. */
		res->granted = !(flags & V5_CS_DELAY_RESCHED);
		if (res->granted && !(flags & V5_CS_RESCHEDULED)) {
			sched_yield();
			res->yielded = true;
		}
	} else if (abi == EXT_ABI_LINUX70) {
		uint8_t req = __atomic_exchange_n(slice_request(), 0,
						  __ATOMIC_RELAXED);

		res->granted = !req;
		if (__atomic_load_n(slice_granted(), __ATOMIC_RELAXED)) {
			syscall(NR_RSEQ_SLICE_YIELD);
			res->yielded = true;
		}
	}
}
