/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel source trees: Debian's linux-source-X.Y tarball extracted once
 * into a cache under out/ (works offline), or a tree the user names. A
 * tree is never written to: builds use O= and patches go to a clone.
 */
#ifndef RTGATE_KERNEL_TREE_H
#define RTGATE_KERNEL_TREE_H

#include <limits.h>

struct kernel_tree {
	char path[PATH_MAX];		/* top of the source tree */
	char version[64];		/* `make kernelversion`: 6.12.117 */
	char origin[16];		/* "debian" or "src" */
	char package[64];		/* Debian: linux-source-6.12 */
	char package_version[64];	/* Debian: 6.12.117-1~deb12u1 */
	char via[16];			/* "installed", "private-apt" */
	char commit[48];		/* a git tree's HEAD, else "" */
};

/*
 * series: "7.3", "6.12". Extracts linux-source-SERIES.tar.xz into
 * cache_dir/src/ if it is not there yet: from /usr/src when the package is
 * installed (it wins), else from the package fetched through rtgate's
 * private apt (common/debapt.h: downloaded, unpacked, never installed).
 */
int kernel_tree_debian(const char *series, const char *cache_dir,
		       struct kernel_tree *t);
int kernel_tree_src(const char *path, struct kernel_tree *t);
/* "--src PATH" or "--debian SERIES" as given on a command line. */
int kernel_tree_open(const char *src, const char *debian,
		     const char *cache_dir,
		     struct kernel_tree *t);

/* A private copy at dest made of hard links (patch(1) breaks them). */
int kernel_tree_clone(const struct kernel_tree *t, const char *dest);

/* Compares "6.12.117" with "6.13": <0, 0 (equal or a prefix), >0. */
int kernel_version_cmp(const char *a, const char *b);

#endif
