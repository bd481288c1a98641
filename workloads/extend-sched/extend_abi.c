// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rseq slice extension's two ABIs (extend_abi.h): the V5 patch set's
 * and Linux 7.0's, detected at run time, and one request and its end.
 */
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/extend-sched/extend_abi.h"
#include "workloads/extend-sched/extend_rseq.h"

/*
 * struct rseq offsets, written out because the installed uapi header may
 * predate the fields: flags at 16, mm_cid at 24, slice_ctrl at 28 (a u32:
 * u8 request, u8 granted, u16 reserved).
 */
#define RSEQ_OFF_FLAGS		16
#define RSEQ_OFF_SLICE_CTRL	28
#define RSEQ_SLICE_END		32

/* V5/V6 series */
#define V5_FLAG_QUERY_CS_FLAGS	(1U << 1)
#define V5_CS_DELAY_RESCHED	(1U << 3)
#define V5_CS_RESCHEDULED	(1U << 4)

/* Linux 7.0 */
#define PR_RSEQ_SLICE_EXTENSION		79
#define PR_RSEQ_SLICE_EXTENSION_SET	2
#define PR_RSEQ_SLICE_EXT_ENABLE	1
#define L70_FLAG_SLICE_EXT_AVAILABLE	(1U << 4)	/* in rseq->flags */
#define L70_ENOTSUPP			524	/* kernel-internal errno */
#if defined(__NR_rseq_slice_yield)
#define NR_RSEQ_SLICE_YIELD	__NR_rseq_slice_yield
#elif defined(__x86_64__)
#define NR_RSEQ_SLICE_YIELD	471
#else
#define NR_RSEQ_SLICE_YIELD	-1	/* unknown here: the ABI is unusable */
#endif

static inline uint32_t *rseq_flags(void)
{
	return (uint32_t *)(ext_rseq_area() + RSEQ_OFF_FLAGS);
}

static inline uint8_t *slice_request(void)
{
	return (uint8_t *)(ext_rseq_area() + RSEQ_OFF_SLICE_CTRL);
}

static inline uint8_t *slice_granted(void)
{
	return (uint8_t *)(ext_rseq_area() + RSEQ_OFF_SLICE_CTRL + 1);
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

static const char *errno_name(int err, char *buf, size_t len)
{
	if (err == L70_ENOTSUPP)
		return "ENOTSUPP (524)";
	snprintf(buf, len, "%s", strerror(err));
	return buf;
}

/* Why the prctl said ENOTSUPP, from what the registration tells. */
static void why_not_supported(const struct ext_abi_info *info, char *why,
			      size_t len)
{
	const struct ext_rseq_info *r = &info->rseq;

	if (r->len <= RSEQ_SLICE_END && r->feature_size > RSEQ_SLICE_END) {
		snprintf(why, len, "prctl(PR_RSEQ_SLICE_EXTENSION): ENOTSUPP "
			 "(524): the rseq area is registered with %u bytes "
			 "(%s) and this kernel extends only a registration "
			 "longer than 32 (%s)", r->len,
			 ext_rseq_owner_name(r->owner), r->note);
		return;
	}
	if (r->len > RSEQ_SLICE_END &&
	    !(*rseq_flags() & L70_FLAG_SLICE_EXT_AVAILABLE)) {
		snprintf(why, len, "prctl(PR_RSEQ_SLICE_EXTENSION): ENOTSUPP "
			 "(524): the kernel offers no slice extension to a "
			 "%u-byte registration (rseq flags 0x%x lack "
			 "SLICE_EXT_AVAILABLE: CONFIG_RSEQ_SLICE_EXTENSION "
			 "off, or rseq_slice_ext=0 on its command line)",
			 r->len, *rseq_flags());
		return;
	}
	snprintf(why, len, "prctl(PR_RSEQ_SLICE_EXTENSION): ENOTSUPP (524) "
		 "with a %u-byte registration (%s)", r->len, r->note);
}

static int probe_linux70(struct ext_abi_info *info, char *why, size_t len)
{
	char buf[64];

	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0)) {
		if (errno == L70_ENOTSUPP)
			why_not_supported(info, why, len);
		else
			snprintf(why, len, "prctl(PR_RSEQ_SLICE_EXTENSION): %s",
				 errno_name(errno, buf, sizeof(buf)));
		return 0;
	}
	/* A registered area is never shorter than 32: it holds slice_ctrl. */
	if (info->rseq.len < RSEQ_SLICE_END) {
		snprintf(why, len,
			 "linux-7.0 ABI present but the rseq area is %u bytes: "
			 "slice_ctrl needs %d", info->rseq.len, RSEQ_SLICE_END);
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

void ext_abi_detect(struct ext_abi_info *info,
		    const struct ext_rseq_info *rseq)
{
	char why70[512] = "", why5[128] = "";

	memset(info, 0, sizeof(*info));
	info->rseq = *rseq;
	if (rseq->owner == EXT_RSEQ_NONE) {
		/*
		 * No area on this thread. Probing now could register the
		 * V5 query's scratch area on a newer kernel.
		 */
		snprintf(info->reason, sizeof(info->reason),
			 "no rseq area: %s", rseq->note[0] ? rseq->note :
			 "glibc did not register one");
		return;
	}
	if (probe_linux70(info, why70, sizeof(why70))) {
		info->abi = EXT_ABI_LINUX70;
		snprintf(info->reason, sizeof(info->reason),
			 "prctl(PR_RSEQ_SLICE_EXTENSION) enabled; %s",
			 rseq->note);
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
	memset(res, 0, sizeof(*res));
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
		/*
		 * Request withdrawn first: from here on the kernel cannot
		 * grant, so a granted it set before is still there to see
		 * (until a reschedule, which clears both: then the grant is
		 * lost to us and counted as dropped).
		 */
		uint8_t req = __atomic_exchange_n(slice_request(), 0,
						  __ATOMIC_RELAXED);

		res->granted = __atomic_load_n(slice_granted(),
					       __ATOMIC_RELAXED);
		res->dropped = !req && !res->granted;
		if (res->granted) {
			res->yield_in_grant = syscall(NR_RSEQ_SLICE_YIELD) == 1;
			res->yielded = true;
		}
	}
}
