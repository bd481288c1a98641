/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel tree's own user-space tools, built into rtgate's out/ so that
 * no host package changes: today rtla (tools/tracing/rtla), whose
 * timerlat auto-analysis Debian bookworm's rtla 6.1 lacks. Built out of
 * tree (O=out/tools/build/rtla-VERSION, the tree stays untouched), without
 * BPF skeletons (rtla then samples through tracefs), against the host's
 * libtracefs and libtraceevent; the binary lands in out/tools/rtla with
 * out/tools/rtla.json (version, tree, libraries), where the runner and the
 * lab's initramfs look first (rtpaths_tool()).
 */
#ifndef RTGATE_KERNEL_TOOLS_H
#define RTGATE_KERNEL_TOOLS_H

struct kernel_tools_params {
	const char *src;		/* --src TREE */
	const char *debian;		/* --debian SERIES */
	int jobs;			/* 0: 2 */
	int nice;			/* niceness of make */
	const char *out_dir;		/* out/: the binary goes to out/tools */
	const char *cache_dir;		/* out/cache: Debian's trees */
};

/* Builds rtla; path receives out/tools/rtla. 0 or -errno (logged). */
int kernel_tools_build(const struct kernel_tools_params *p, char *path,
		       size_t len);

#endif
