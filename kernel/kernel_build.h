/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Named kernels: a tree, a preemption model, config fragments and patch
 * sets -> out/kernels/NAME/ with bzImage, .config and build.json (the
 * build manifest: source, patches and their sha256, fragments, compiler,
 * duration). The tree is cloned (hard links) to NAME/src, patched there,
 * and built out of tree in NAME/obj, through ccache when it is installed.
 */
#ifndef RTGATE_KERNEL_BUILD_H
#define RTGATE_KERNEL_BUILD_H

#include <limits.h>
#include <stdbool.h>

#define KBUILD_MAX_SETS 16
#define KBUILD_MAX_FRAGMENTS 16

struct kernel_build_params {
	const char *src;		/* --src TREE */
	const char *debian;		/* --debian SERIES */
	const char *model;		/* rt | full | lazy | none */
	const char *sets[KBUILD_MAX_SETS];
	int nr_sets;
	const char *fragments[KBUILD_MAX_FRAGMENTS];	/* beside defaults */
	int nr_fragments;
	int last_set_prefix;		/* > 0: only the first N patches of
					 * the last set (bisect's prefixes) */
	const char *name;		/* NULL: MODEL-base or MODEL-SET+SET */
	int jobs;			/* 0: nproc */
	int nice;			/* niceness of make (default 19) */
	bool config_only;		/* stop after the config check */
	const char *out_dir;		/* out/ */
	const char *cache_dir;		/* out/cache: trees, ccache */
	const char *kconfigs_dir;
	const char *patches_dir;
};

/* The fragments every lab kernel gets, before the model's. */
extern const char *const kernel_default_fragments[];

/* Builds; kdir receives out/kernels/NAME. Returns 0 or -errno. */
int kernel_build(const struct kernel_build_params *p, char *kdir,
		 size_t len);

/* Default name: "rt-base", "full-control-latency", ... */
void kernel_build_name(const struct kernel_build_params *p, char *buf,
		       size_t len);

#endif
