/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel configs from fragments (kconfigs/NAME.config): defconfig, then the
 * kernel's own scripts/kconfig/merge_config.sh, then olddefconfig; then every
 * symbol a fragment asked for is checked in the resulting .config, and one
 * that did not stick (a missing dependency such as EXPERT for PREEMPT_RT, a
 * symbol this tree does not have) is an error naming it.
 *
 * Directives in fragments (comments to kconfig):
 *   # rtgate: include NAME.config   the tree's kernel/configs/ or
 *                                   arch/x86/configs/ fragment, merged first
 *                                   (its symbols are not checked)
 *   # rtgate: since X.Y             the next symbol only on trees >= X.Y
 */
#ifndef RTGATE_KERNEL_CONFIG_H
#define RTGATE_KERNEL_CONFIG_H

#include <stdbool.h>

#include "kernel_tree.h"

#define KCONFIG_MAX_FRAGMENTS 32

struct kernel_config_params {
	const struct kernel_tree *tree;
	const char *src;		/* tree to configure (NULL: tree->path) */
	const char *obj;		/* the O= build folder */
	const char *kconfigs_dir;	/* where NAME.config fragments are */
	const char *defconfig;		/* NULL: x86_64_defconfig */
	const char *fragments[KCONFIG_MAX_FRAGMENTS];	/* names or paths */
	int nr_fragments;
	const char *log;		/* tool output; NULL: OBJ/config.log */
};

/* The fragment list of a preemption model: "rt" -> "preempt-rt". */
const char *kernel_config_model_fragment(const char *model);

/*
 * Writes OBJ/.config. A preemption model whose kernel/Kconfig.preempt
 * entry depends on an ARCH_* property x86 does not have (PREEMPT_NONE on
 * x86 7.x) is refused first, with the tree's reason. Returns 0; -EINVAL
 * when a fragment is malformed, a model is refused or a requested symbol
 * did not stick (each named on stderr); -ENOENT for a
 * missing fragment; -EIO when a kconfig tool failed.
 */
int kernel_config_make(const struct kernel_config_params *p);

/*
 * Checks that every symbol the fragments request has its value in the
 * config file; used by kernel_config_make() and by itself on any .config.
 */
int kernel_config_check(const struct kernel_config_params *p,
			const char *config_path);

/*
 * The preemption flavour a .config builds, read from it: "RT + LAZY +
 * DYNAMIC", "FULL", "NONE" ... ("unknown" when it names none).
 */
int kernel_config_preempt(const char *config, char *buf, size_t len);

#endif
