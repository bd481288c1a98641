/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbuild: a kernel-build load, `make -jN` on a real Linux tree in a loop
 * (clean between rounds), or a self-contained compile load when no tree
 * exists. The modules: kbuild_tree.c finds or extracts the tree,
 * kbuild_synth.c writes the fallback, kbuild_make.c runs make and counts
 * what it compiled.
 */
#ifndef RTGATE_KBUILD_H
#define RTGATE_KBUILD_H

#include <limits.h>
#include <stdint.h>

#include "workloads/common/core/wl_opt.h"

#define KB_DEFAULT_TARBALL	"/usr/src/linux-source-6.12.tar.xz"

enum kb_source { KB_AUTO, KB_TREE, KB_SYNTHETIC };

struct kb_params {
	enum kb_source source;
	const char *tree;	/* --tree: an extracted source tree */
	const char *tarball;	/* --tarball, or KB_DEFAULT_TARBALL */
	int tarball_given;
	char cache[PATH_MAX];	/* where tarballs are extracted */
	const char *out;	/* --out: O= directory (else a scratch one) */
	int keep_out;
	unsigned int jobs;
	const char *target;	/* NULL: make's default */
	const char *config;	/* defconfig, tinyconfig … */
	int nice;
	uint64_t max_rounds;
	int prepare_only;	/* --prepare: extract and exit */
	int verbose;
	struct wl_common co;	/* --duration */
};

/* What make compiled, from its quiet-mode lines ("  CC      init/main.o"). */
struct kb_counts {
	uint64_t objects;	/* CC, CC [M], AS */
	uint64_t host_objects;	/* HOSTCC, HOSTCXX */
	uint64_t lines;
};

/*
 * The source tree to build: --tree as given, or the tarball extracted into
 * the cache (once; a stamp file marks a complete extraction). Fills tree
 * (PATH_MAX). Returns 0, -ENOENT when there is none, or -errno.
 */
int kb_tree_find(const struct kb_params *p, char *tree);
/* "6.12.57" from the tree's top Makefile, or "" */
void kb_tree_version(const char *tree, char *buf, size_t len);

/* Writes the fallback sources and their Makefile into dir. */
int kb_synth_write(const char *dir, unsigned int files);

/*
 * Runs make with argv (stdout and stderr read by us) until it ends or a
 * stop is requested; counts compiled objects into *c. *status is make's
 * wait status; returns 1 when stopped by us, 0 when make ended, -errno
 * when it could not start. ready: called after the first compile line.
 */
int kb_make_run(char *const argv[], const struct kb_params *p,
		struct kb_counts *c, int *status);

#endif
