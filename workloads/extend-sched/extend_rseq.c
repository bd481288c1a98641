// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our own rseq registration, for when glibc's is too short (extend_rseq.h).
 *
 * What the kernel accepts (Linux 7.3, kernel/rseq.c rseq_length_valid()
 * and include/uapi/linux/rseq.h): a length of exactly 32 bytes aligned on
 * 32 (the original ABI, "v1"), or a length of at least the feature size
 * (offsetof(struct rseq, end), AT_RSEQ_FEATURE_SIZE: 33 on 7.3) aligned on
 * AT_RSEQ_ALIGN (that size rounded up to a power of two: 64). Only a
 * length above 32 gets the v2 ABI, and only v2 gets the slice extension.
 * We register max(feature size, 32) rounded up to the alignment, which is
 * also what we allocate: 64 bytes on 7.3, v2; on a kernel whose feature
 * size is 32 or less (before 7.0), or that reports none, the original 32.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/extend-sched/extend_rseq.h"

#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE		27
#endif
#ifndef AT_RSEQ_ALIGN
#define AT_RSEQ_ALIGN			28
#endif
#define EXT_RSEQ_FLAG_UNREGISTER	1
/* The kernel-internal ENOTSUPP the prctl returns; no libc names it. */
#define EXT_ENOTSUPP			524
#define EXT_PR_RSEQ_SLICE_EXTENSION	79
#define EXT_PR_SLICE_SET		2
#define EXT_PR_SLICE_ENABLE		1
/* Sanity bounds on what the auxiliary vector says. */
#define EXT_RSEQ_MAX			4096

static enum ext_rseq_owner proc_owner = EXT_RSEQ_NONE;
static unsigned int proc_len, proc_align;
static bool proc_reexec;
static char reexec_error[96];

static __thread char *tls_area;
static __thread bool tls_own;

const char *ext_rseq_owner_name(enum ext_rseq_owner owner)
{
	switch (owner) {
	case EXT_RSEQ_GLIBC:
		return "glibc";
	case EXT_RSEQ_OWN:
		return "extend-sched";
	default:
		return "none";
	}
}

int ext_rseq_len(unsigned long feature_size, unsigned long align,
		 unsigned int *len, unsigned int *alloc_align)
{
	unsigned long a, l;

	if (feature_size <= EXT_RSEQ_ORIG_SIZE) {
		/* Before 7.0 (or no auxv entry): the original ABI. */
		*len = *alloc_align = EXT_RSEQ_ORIG_SIZE;
		return 0;
	}
	a = align > EXT_RSEQ_ORIG_SIZE ? align : EXT_RSEQ_ORIG_SIZE;
	if (a & (a - 1) || a > EXT_RSEQ_MAX || feature_size > EXT_RSEQ_MAX)
		return -EINVAL;
	l = (feature_size + a - 1) & ~(a - 1);
	*len = (unsigned int)l;
	*alloc_align = (unsigned int)a;
	return 0;
}

/* glibc registered, but no more than the original 32 bytes. */
static bool glibc_too_short(void)
{
	unsigned long feature = getauxval(AT_RSEQ_FEATURE_SIZE);

	if (!__rseq_size || __rseq_size > EXT_RSEQ_ORIG_SIZE ||
	    feature <= EXT_RSEQ_ORIG_SIZE)
		return false;
	/* A kernel that extends a v1 registration needs no re-exec. */
	if (!prctl(EXT_PR_RSEQ_SLICE_EXTENSION, EXT_PR_SLICE_SET,
		   EXT_PR_SLICE_ENABLE, 0, 0))
		return false;
	return errno == EXT_ENOTSUPP;
}

static int tunables_with_rseq_off(char *buf, size_t len)
{
	const char *old = getenv("GLIBC_TUNABLES");

	if (!old || !*old)
		return snprintf(buf, len, "%s", EXT_RSEQ_TUNABLE) >= (int)len;
	return snprintf(buf, len, "%s:%s", old, EXT_RSEQ_TUNABLE) >= (int)len;
}

void ext_rseq_reexec_if_needed(char **argv)
{
	char *old = getenv("GLIBC_TUNABLES"), *saved = NULL, tun[1024];

	if (getenv(EXT_RSEQ_REEXEC_ENV)) {
		/* The re-executed process: never again. */
		unsetenv(EXT_RSEQ_REEXEC_ENV);
		proc_reexec = true;
		return;
	}
	if (!glibc_too_short())
		return;
	if (tunables_with_rseq_off(tun, sizeof(tun))) {
		snprintf(reexec_error, sizeof(reexec_error),
			 "GLIBC_TUNABLES too long to add %s", EXT_RSEQ_TUNABLE);
		return;
	}
	if (old)
		saved = strdup(old);
	if (setenv("GLIBC_TUNABLES", tun, 1) ||
	    setenv(EXT_RSEQ_REEXEC_ENV, "1", 1)) {
		snprintf(reexec_error, sizeof(reexec_error), "setenv: %s",
			 strerror(errno));
	} else {
		fflush(NULL);
		execv("/proc/self/exe", argv);
		snprintf(reexec_error, sizeof(reexec_error),
			 "exec /proc/self/exe: %s", strerror(errno));
	}
	/* Still here: the environment as it was. */
	unsetenv(EXT_RSEQ_REEXEC_ENV);
	if (saved)
		setenv("GLIBC_TUNABLES", saved, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	free(saved);
}

static void setup_note(struct ext_rseq_info *info)
{
	char *n = info->note;
	size_t len = sizeof(info->note);

	if (info->owner == EXT_RSEQ_GLIBC && reexec_error[0])
		snprintf(n, len, "glibc's %u-byte registration kept: re-exec "
			 "without it failed (%s)", info->len, reexec_error);
	else if (info->owner == EXT_RSEQ_GLIBC && info->reexec)
		snprintf(n, len, "glibc still registered after the re-exec "
			 "with GLIBC_TUNABLES=%s", EXT_RSEQ_TUNABLE);
	else if (info->owner == EXT_RSEQ_GLIBC)
		snprintf(n, len, "glibc's registration");
	else if (info->owner == EXT_RSEQ_OWN && info->reexec)
		snprintf(n, len, "own %u-byte registration: glibc's 32 "
			 "bytes get no slice extension; re-executed with "
			 "GLIBC_TUNABLES=%s", info->len, EXT_RSEQ_TUNABLE);
	else if (info->owner == EXT_RSEQ_OWN)
		snprintf(n, len, "own %u-byte registration (glibc's rseq is "
			 "off)", info->len);
}

void ext_rseq_setup(struct ext_rseq_info *info)
{
	unsigned int len, align;
	int ret;

	memset(info, 0, sizeof(*info));
	info->glibc_size = __rseq_size;
	info->feature_size = getauxval(AT_RSEQ_FEATURE_SIZE);
	info->align = getauxval(AT_RSEQ_ALIGN);
	info->reexec = proc_reexec;
	if (__rseq_size) {
		/* glibc registers at least the original 32 bytes. */
		proc_owner = info->owner = EXT_RSEQ_GLIBC;
		info->len = __rseq_size > EXT_RSEQ_ORIG_SIZE ? __rseq_size :
			    EXT_RSEQ_ORIG_SIZE;
		setup_note(info);
		return;
	}
	if (ext_rseq_len(info->feature_size, info->align, &len, &align)) {
		snprintf(info->note, sizeof(info->note), "the kernel's "
			 "AT_RSEQ_FEATURE_SIZE %lu / AT_RSEQ_ALIGN %lu make no "
			 "registration we can build", info->feature_size,
			 info->align);
		return;
	}
	proc_len = len;
	proc_align = align;
	proc_owner = EXT_RSEQ_OWN;
	ret = ext_rseq_thread_register();
	if (ret) {
		proc_owner = EXT_RSEQ_NONE;
		snprintf(info->note, sizeof(info->note), "glibc's rseq is off "
			 "and rseq(%u bytes) failed: %s", len, strerror(-ret));
		return;
	}
	info->owner = EXT_RSEQ_OWN;
	info->len = len;
	setup_note(info);
}

int ext_rseq_thread_register(void)
{
	char *area;

	if (proc_owner != EXT_RSEQ_OWN || tls_own)
		return 0;
	area = aligned_alloc(proc_align, proc_len);
	if (!area)
		return -ENOMEM;
	memset(area, 0, proc_len);
	if (syscall(__NR_rseq, area, proc_len, 0, RSEQ_SIG)) {
		int err = errno;

		free(area);
		return -err;
	}
	tls_area = area;
	tls_own = true;
	return 0;
}

void ext_rseq_thread_unregister(void)
{
	if (!tls_own)
		return;
	/* Unregistered first: the kernel must not write a freed area. */
	if (syscall(__NR_rseq, tls_area, proc_len, EXT_RSEQ_FLAG_UNREGISTER,
		    RSEQ_SIG))
		return;	/* left registered, so never freed */
	free(tls_area);
	tls_area = NULL;
	tls_own = false;
}

char *ext_rseq_area(void)
{
	if (tls_area)
		return tls_area;
	if (__rseq_size)
		return (char *)__builtin_thread_pointer() + __rseq_offset;
	return NULL;
}
