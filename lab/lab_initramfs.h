/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lab's initramfs: rtgate and the workloads (bin/), the suites, the
 * measurement tools (cyclictest, hackbench, stress-ng: Debian's dynamic
 * binaries) with every library ldd lists, busybox for debugging, the
 * kernel's config in /boot and, for Debian kernels, the modules the 9p
 * share needs. /init is rtgate itself (`rtgate lab-init`). Built with
 * `busybox cpio -o -H newc` and cached by content: the same files give
 * the same out/cache/initramfs/SHA256.cpio without rebuilding it.
 */
#ifndef RTGATE_LAB_INITRAMFS_H
#define RTGATE_LAB_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#include "filehash.h"
#include "lab_kernel.h"

#define INITRAMFS_MAX_TOOLS 16

/* Where things are in the guest. */
#define LAB_GUEST_BIN		"/opt/rtgate/bin"
#define LAB_GUEST_TOOLS		"/opt/rtgate/tools"	/* rtpaths_tool() */
#define LAB_GUEST_SUITES	"/opt/rtgate/suites"
#define LAB_GUEST_MODULES	"/etc/rtgate/modules"
#define LAB_GUEST_SHARE		"/lab"

struct initramfs_params {
	const struct lab_kernel *k;
	const char *bin_dir;		/* rtgate's bin/ */
	const char *suites_dir;		/* NULL: none */
	const char *suite;		/* one more suite file, or NULL */
	const char *tools[INITRAMFS_MAX_TOOLS];	/* programs in PATH */
	int nr_tools;
	const char *cache_dir;		/* out/cache/initramfs */
};

/*
 * The tools every image carries when they are installed (cyclictest must
 * be); stress-ng is added for suites that name it.
 */
extern const char *const lab_initramfs_default_tools[];
/* Whether the image can carry @name: rtgate built it or it is in PATH. */
bool lab_initramfs_have_tool(const char *name);

/*
 * Builds (or finds in the cache) the image; path receives it, hash its
 * content key. Returns 0 or -errno (a missing tool: -ENOPKG).
 */
int lab_initramfs_build(const struct initramfs_params *p, char *path,
			size_t len, char hash[FILEHASH_HEX_LEN + 1]);

#endif
