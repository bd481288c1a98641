// SPDX-License-Identifier: GPL-2.0-only
/*
 * extend-sched's ABI state machines (workloads/extend-sched/extend_abi.c).
 * This machine's kernel has neither slice-extension ABI, so the kernel's
 * side is played by the test: it writes the rseq fields the way each ABI
 * documents (the grant clears the request), and ext_end() must count what
 * the kernel said. The rseq area is glibc's own registration. The length
 * extend_rseq.c registers when it owns the area is checked against the
 * rules of Linux 7.3's rseq_length_valid().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/rseq.h>
#include <cmocka.h>

#include <string.h>

#include "workloads/extend-sched/extend_abi.h"
#include "workloads/extend-sched/extend_rseq.h"

/*
 * The layout as the ABIs define it, written out here independently of
 * extend_abi.c: struct rseq flags at 16 (V5 bits 3 and 4), slice_ctrl at
 * 28 (u8 request, u8 granted).
 */
#define V5_CS_DELAY_RESCHED	(1U << 3)
#define V5_CS_RESCHEDULED	(1U << 4)

static char *area(void)
{
	return (char *)__builtin_thread_pointer() + __rseq_offset;
}

static uint32_t *rseq_flags(void)
{
	return (uint32_t *)(area() + 16);
}

static uint8_t *slice_request(void)
{
	return (uint8_t *)(area() + 28);
}

static uint8_t *slice_granted(void)
{
	return (uint8_t *)(area() + 29);
}

static void test_detect_none_here(void **state)
{
	struct ext_rseq_info rseq;
	struct ext_abi_info info;

	(void)state;
	ext_rseq_setup(&rseq);
	ext_abi_detect(&info, &rseq);
	assert_int_equal(info.abi, EXT_ABI_NONE);
	if (!__rseq_size) {
		/* glibc.pthread.rseq=0: our own 32-byte area on 6.x */
		assert_int_equal(info.rseq.owner, EXT_RSEQ_OWN);
		assert_int_equal(info.rseq.len, 32);
		return;
	}
	assert_int_equal(info.rseq.owner, EXT_RSEQ_GLIBC);
	assert_string_equal(ext_rseq_owner_name(info.rseq.owner), "glibc");
	/* 6.18 has neither ABI: "none", with both probes' reasons. */
	assert_string_equal(ext_abi_name(info.abi), "none");
	assert_non_null(strstr(info.reason, "PR_RSEQ_SLICE_EXTENSION"));
	assert_non_null(strstr(info.reason, "QUERY_CS_FLAGS"));
	assert_int_equal(info.rseq.glibc_size, __rseq_size);
	/* glibc registers at least the original 32 bytes. */
	assert_true(info.rseq.len >= 32 && info.rseq.len >= __rseq_size);
	assert_int_equal(ext_thread_enable(EXT_ABI_NONE), 0);
}

static void test_linux70_not_granted(void **state)
{
	struct ext_result res;

	(void)state;
	if (!__rseq_size) {
		/* glibc.pthread.rseq=0: no area; detect says why */
		print_message("# no rseq area: nothing to play\n");
		return;
	}
	ext_request(EXT_ABI_LINUX70);
	assert_int_equal(*slice_request(), 1);
	ext_end(EXT_ABI_LINUX70, &res);
	assert_false(res.granted);
	assert_false(res.yielded);
	assert_int_equal(*slice_request(), 0);
}

static void test_linux70_granted(void **state)
{
	struct ext_result res;

	(void)state;
	if (!__rseq_size) {
		/* glibc.pthread.rseq=0: no area; detect says why */
		print_message("# no rseq area: nothing to play\n");
		return;
	}
	ext_request(EXT_ABI_LINUX70);
	/* The kernel grants: request cleared, granted set. */
	*slice_request() = 0;
	*slice_granted() = 1;
	ext_end(EXT_ABI_LINUX70, &res);	/* rseq_slice_yield: ENOSYS here */
	assert_true(res.granted);
	assert_false(res.dropped);
	assert_true(res.yielded);
	assert_false(res.yield_in_grant);	/* ENOSYS is not 1 */
	*slice_granted() = 0;

	/*
	 * Rescheduled (or a grant revoked): the kernel cleared all of
	 * slice_ctrl. No grant seen: dropped, not granted, no yield.
	 */
	ext_request(EXT_ABI_LINUX70);
	*slice_request() = 0;
	ext_end(EXT_ABI_LINUX70, &res);
	assert_false(res.granted);
	assert_true(res.dropped);
	assert_false(res.yielded);
}

/* Linux 7.3's rseq_length_valid() and rseq_alloc_align(), as numbers. */
static void test_rseq_len(void **state)
{
	unsigned int len, align;

	(void)state;
	/* 7.3: feature size 33, alignment 64: 64 bytes, above 32 (v2) */
	assert_int_equal(ext_rseq_len(33, 64, &len, &align), 0);
	assert_int_equal(len, 64);
	assert_int_equal(align, 64);
	/* a feature size past the alignment rounds up to it */
	assert_int_equal(ext_rseq_len(72, 128, &len, &align), 0);
	assert_int_equal(len, 128);
	/* an alignment below 32 is raised to the original 32 */
	assert_int_equal(ext_rseq_len(40, 16, &len, &align), 0);
	assert_int_equal(len, 64);
	assert_int_equal(align, 32);
	/* before 7.0 (28 on 6.18, 20 before mm_cid) and no auxv: v1 */
	assert_int_equal(ext_rseq_len(28, 32, &len, &align), 0);
	assert_int_equal(len, 32);
	assert_int_equal(ext_rseq_len(0, 0, &len, &align), 0);
	assert_int_equal(len, 32);
	assert_int_equal(align, 32);
	/* nonsense from the auxv is refused, not registered */
	assert_int_equal(ext_rseq_len(33, 48, &len, &align), -EINVAL);
	assert_int_equal(ext_rseq_len(8192, 64, &len, &align), -EINVAL);
}

static void test_v5(void **state)
{
	uint32_t before = *rseq_flags();
	struct ext_result res;

	(void)state;
	if (!__rseq_size) {
		/* glibc.pthread.rseq=0: no area; detect says why */
		print_message("# no rseq area: nothing to play\n");
		return;
	}
	ext_request(EXT_ABI_V5);
	assert_true(*rseq_flags() & V5_CS_DELAY_RESCHED);
	ext_end(EXT_ABI_V5, &res);
	assert_false(res.granted);
	assert_false(res.yielded);
	assert_int_equal(*rseq_flags(), before);

	/* Granted (request cleared by the kernel), not rescheduled: yield. */
	ext_request(EXT_ABI_V5);
	*rseq_flags() &= ~V5_CS_DELAY_RESCHED;
	ext_end(EXT_ABI_V5, &res);
	assert_true(res.granted);
	assert_true(res.yielded);

	/* Granted and already rescheduled (bit 4): no yield needed. */
	ext_request(EXT_ABI_V5);
	*rseq_flags() = (*rseq_flags() & ~V5_CS_DELAY_RESCHED) |
			V5_CS_RESCHEDULED;
	ext_end(EXT_ABI_V5, &res);
	assert_true(res.granted);
	assert_false(res.yielded);
	assert_int_equal(*rseq_flags(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_none_here),
		cmocka_unit_test(test_linux70_not_granted),
		cmocka_unit_test(test_linux70_granted),
		cmocka_unit_test(test_rseq_len),
		cmocka_unit_test(test_v5),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
