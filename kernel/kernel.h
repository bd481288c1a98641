/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel/: named kernels from a tree, patch sets, configs (docs/kernels.md).
 * Its one public header: the commands of bin/rtgate
 *   rtgate kernel build|matrix|config ...   named kernels from a tree
 *   rtgate patches fetch|check|list ...     patch sets
 * and what other folders build kernels with (bisect's prefixes, a seed's
 * kernels): kernel_build() and the patch sets. The rest is kernel_priv.h.
 */
#ifndef RTGATE_KERNEL_H
#define RTGATE_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "filehash.h"

/**
 * kernel_cmd_kernel() - `rtgate kernel build|matrix|config|tools`
 * @argc: the number of arguments
 * @argv: "kernel", a subcommand and its arguments (docs/kernels.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int kernel_cmd_kernel(int argc, char **argv);
/**
 * kernel_cmd_patches() - `rtgate patches fetch|recover|check|list`
 * @argc: the number of arguments
 * @argv: "patches", a subcommand and its arguments (docs/kernels.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int kernel_cmd_patches(int argc, char **argv);

/* ---- Builds ---- */

/*
 * Named kernels: a tree, a preemption model, config fragments and patch
 * sets -> out/kernels/NAME/ with bzImage, .config and build.json (the
 * build manifest: source, patches and their sha256, fragments, compiler,
 * duration). The tree is cloned (hard links) to NAME/src, patched there,
 * and built out of tree in NAME/obj, through ccache when it is installed.
 */

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

/**
 * kernel_build() - builds a named kernel
 * @p: the tree, model, fragments, patch sets and where things go
 * @kdir: gets out/kernels/NAME (also when the build fails: its
 *        build.json says so)
 * @len: its size
 *
 * Two builds of one name never run at once.
 *
 * Return: 0; -EINVAL (said) for a name that is no kernel name, a set or
 * fragment that is wrong; -EBUSY when another build of that name runs;
 * -errno of the build's steps, each said.
 */
int kernel_build(const struct kernel_build_params *p, char *kdir,
		 size_t len);

/**
 * kernel_build_name() - a build's name
 * @p: its parameters: the name given, else made of the model and sets
 * @buf: gets "rt-base", "full-control-latency", "full-seeds-7.3.2" (the
 *       first 2 patches of set seeds-7.3: last_set_prefix)
 * @len: its size
 */
void kernel_build_name(const struct kernel_build_params *p, char *buf,
		       size_t len);

/**
 * kernel_config_model_fragment() - the fragments of a preemption model
 * @model: "rt", "full", "lazy", "none"
 *
 * Return: its fragment list ("rt" -> "preempt-rt"); NULL for an unknown
 * model.
 */
const char *kernel_config_model_fragment(const char *model);

/* ---- Patch sets ---- */

/*
 * Patch sets: patches/NAME/manifest.ini names a series on lore (message-id,
 * base, the `b4 am` command) and pins each patch's sha256. Third-party
 * patches are fetched into out/patches/NAME/ (b4, or a local mbox or mail
 * text), never committed; the project's own sets (`own = yes`) carry their
 * patch files in patches/NAME/. Applying uses patch(1) on a clone of the
 * tree, dry-run first, and names the patch, file and hunk that fail.
 *
 *   kernel_patches.c        the manifest: kernel_patchset_load()
 *   kernel_patches_fetch.c  the files: kernel_patchset_fetch(), _locate(),
 *                           the sha256 pins
 *   kernel_patches_apply.c  kernel_patchset_apply()
 *   kernel_patches_compose.c  a list of sets (`sets =`) as one series:
 *                           kernel_patchset_open()
 *   kernel_mail.c           mail texts -> patches (kernel_mail_text_*)
 *   kernel_mail_flat.c      flattened mails: header fields, decoded words
 *   kernel_mail_recover.c   their inline patch rebuilt against a tree
 */

#define PATCHSET_MAX 64
#define PATCHSET_MAX_SETS 16

/*
 * A set may be a list of other sets (`sets = A B ...` in [set], no
 * [patch N] of its own): their patches, in that order, are its series, so
 * that a kernel build or a bisection takes several sets as one
 * (docs/kernels.md, "A series of sets").
 */

struct kernel_patch_item {
	char subject[256];
	char file[PATH_MAX];		/* the patch file at hand */
	char sha256[FILEHASH_HEX_LEN + 1];	/* pinned in the manifest */
	char actual[FILEHASH_HEX_LEN + 1];	/* of file */
	char set[64];			/* in a list of sets: its set, else "" */
	int fuzz;			/* in a list of sets: its set's fuzz */
};

struct kernel_patch_set {
	char name[64];
	char dir[PATH_MAX];		/* patches/NAME */
	char manifest[PATH_MAX];	/* patches/NAME/manifest.ini */
	char description[256];
	char message_id[256];
	char base[256];
	char b4[512];			/* "b4 am [OPTIONS] MSGID" */
	char mail[256];			/* offline mail text (file name) */
	/* series | inline | attachment NAME | recover (a flattened mail) */
	char pick[256];
	char debian[16];		/* the base tree's Debian series */
	char tree[PATH_MAX];		/* pick = recover: the base tree,
					   set by the caller before a fetch */
	char pinned[8];			/* the pins' source: b4 | mail */
	int fuzz;			/* patch(1) --fuzz; default 0 */
	bool own;			/* our own: files are in dir */
	char sets[PATCHSET_MAX_SETS][64];	/* a list of sets: its sets */
	int nr_sets;
	int nr;
	struct kernel_patch_item items[PATCHSET_MAX];
};

/**
 * kernel_patchset_load() - reads a patch set's manifest
 * @patches_dir: patches/
 * @name: the set: patches_dir/NAME/manifest.ini
 * @s: filled; its patch files are not looked for
 *
 * Return: 0, or -EINVAL after a message naming the file and the line (a
 * list of sets: the line of a set that is unknown, invalid, repeated or
 * itself a list).
 */
int kernel_patchset_load(const char *patches_dir, const char *name,
			 struct kernel_patch_set *s);

/**
 * kernel_patchset_open() - loads and locates a set in one
 * @patches_dir: patches/
 * @name: the set
 * @fetch_dir: where fetched sets are (out/patches)
 * @s: filled: a plain set as kernel_patchset_locate() finds it; a list of
 *     sets as the patches of its sets, each set located and checked
 *     against its own pins, in the list's order (items[].set names each
 *     patch's set)
 *
 * What a build, a check or a bisection applies.
 *
 * Return: 0, or the errors of kernel_patchset_load() and
 * kernel_patchset_locate().
 */
int kernel_patchset_open(const char *patches_dir, const char *name,
			 const char *fetch_dir, struct kernel_patch_set *s);

/**
 * kernel_patchset_fetch() - fetches a set's patches
 * @s: the set, loaded; not a list of sets
 * @mbox: NULL: with b4 from lore; else an mbox file (through `b4 am
 *        -m`), or a mail text as the project's seeds hold, extracted by
 *        rtgate
 * @fetch_dir: the patches go to fetch_dir/NAME/
 * @pin: write each patch's sha256 into the manifest instead of checking
 *       the pins
 *
 * Return: 0; -EINVAL for a list of sets or a patch whose sha256 is not
 * its pin; -ENOENT for no @mbox; -errno of b4 or the files (each said).
 */
int kernel_patchset_fetch(struct kernel_patch_set *s, const char *mbox,
			  const char *fetch_dir, bool pin);

/**
 * kernel_patchset_locate() - finds a set's patch files and checks them
 * @s: the set, loaded; its items get their files and subjects
 * @fetch_dir: where fetched sets are; an own set's files are in its dir
 *
 * Not for a list of sets (kernel_patchset_open()).
 *
 * Return: 0; -ENOENT (said) when the set is not fetched; -EINVAL for a
 * list of sets, a count or a sha256 that is not the pinned one.
 */
int kernel_patchset_locate(struct kernel_patch_set *s, const char *fetch_dir);

/**
 * kernel_patchset_apply() - applies a set to a tree, in order
 * @s: the set, located
 * @tree: a writable clone; each patch is tried (dry run) first
 * @log: gets patch(1)'s output
 *
 * Return: 0; -EINVAL when a patch does not apply, with every failing file
 * and hunk named on stderr (the tree is then partly patched); -errno.
 */
int kernel_patchset_apply(const struct kernel_patch_set *s, const char *tree,
			  const char *log);

#endif
