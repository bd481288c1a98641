/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the kernel/ files; not part of the contract (kernel.h is). */
#ifndef RTGATE_KERNEL_PRIV_H
#define RTGATE_KERNEL_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"

/* ---- Source trees ---- */

/*
 * Kernel source trees: Debian's linux-source-X.Y tarball extracted once
 * into a cache under out/ (works offline), or a tree the user names. A
 * tree is never written to: builds use O= and patches go to a clone.
 */

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
 * private apt (common/cmd/debapt.h: downloaded, unpacked, never installed).
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

/* ---- Configs ---- */

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
 * The preemption flavour a .config builds, read from it: "RT + LAZY +
 * DYNAMIC", "FULL", "NONE" ... ("unknown" when it names none).
 */
int kernel_config_preempt(const char *config, char *buf, size_t len);

/* ---- The tree's own tools ---- */

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

/* ---- Mails ---- */

/* Mail texts (the seeds' thread format) -> patch files. */
struct kernel_mail_patch {
	char subject[256];
	char author[256];
	char attachment[256];		/* "" for a patch inline in the body */
	bool reply;			/* "Re: ..." */
	int index, total;		/* [PATCH n/m]; 0/0 without */
	char *text;
};

/*
 * A flattened mail (its line breaks and indentation lost, a whole mail on
 * one line; quoted-printable decoded here): its inline patch rebuilt
 * against tree, the base tree it was written for (kernel_mail_recover.c
 * says how). *out gets a mail-format patch (free it). A hunk that cannot
 * be placed exactly, nowhere or in more than one way: -EINVAL with the
 * file and hunk named, never a guess.
 */
int kernel_mail_recover(const char *mail, const char *tree, char **out,
			size_t *len);

/* All patches found in a mail text; *n = 0 when there are none. */
int kernel_mail_text_parse(const char *path, struct kernel_mail_patch **out,
			   int *n);
void kernel_mail_text_free(struct kernel_mail_patch *p, int n);

/*
 * A flattened mail (kernel/ only): one whose line breaks and indentation
 * were lost on the way, so the whole mail is one line of words. What is
 * left is split here into its header fields and, after quoted-printable
 * decoding, the words of its body, for kernel_mail_recover.c to rebuild
 * the inline patch against a tree.
 */

/*
 * A space or tab the mail encoded (=20, =09: white space at a line's end,
 * such as the lone space of an empty context line) is kept as a mark, so
 * that it stays a word of its own; kernel_mail_flat_text() turns marks
 * back into white space.
 */
#define MAIL_FLAT_SPACE	'\x01'
#define MAIL_FLAT_TAB	'\x02'

static inline bool kernel_mail_flat_mark(char c)
{
	return c == MAIL_FLAT_SPACE || c == MAIL_FLAT_TAB;
}

struct kernel_mail_flat {
	char from[256], date[128], subject[512], message_id[256];
	char *body;		/* the decoded body, NUL between words */
	char **word;		/* its words, in order */
	int nword;
	int diff;		/* first word of the first "diff --git" */
	bool qp;		/* the body was quoted-printable */
};

/*
 * Reads path: the header fields (the mail's own, never decoded), then the
 * body, quoted-printable decoded when the mail says so (soft breaks, =XX),
 * as words. Errors (not a flattened mail, bad quoted-printable, no
 * "diff --git") name the file and the offset; the caller frees with
 * kernel_mail_flat_free().
 */
int kernel_mail_flat_read(const char *path, struct kernel_mail_flat *m);
void kernel_mail_flat_free(struct kernel_mail_flat *m);

/* A word with its marks turned back into white space (in place). */
char *kernel_mail_flat_text(char *word);

#endif
