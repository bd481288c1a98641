/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where rtgate's own files are: the project top (kconfigs/, patches/,
 * suites/ beside bin/), out/ for builds and caches, results/ for runs.
 *
 * Three layouts are found from the running binary alone (docs/install.md):
 *   a clone      TOP/bin/rtgate beside TOP/Makefile: everything in TOP;
 *   installed    PREFIX/bin/rtgate (make install, the Debian package):
 *                workloads in PREFIX/libexec/rtgate, suites/, kconfigs/
 *                and patches/ in PREFIX/share/rtgate;
 *   the lab guest /opt/rtgate/bin/rtgate, its suites/ beside its bin/.
 */
#ifndef RTGATE_RTPATHS_H
#define RTGATE_RTPATHS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The project top: RTGATE_TOP, else the folder above the running binary's
 * bin/ when it holds a Makefile, else the current directory.
 */
int rtpaths_top(char *buf, size_t len);
/* RTGATE_OUT_DIR, else TOP/out. Not created. */
int rtpaths_out(char *buf, size_t len);
/* RTGATE_CACHE_DIR, else OUT/cache: caches shared by every run. */
int rtpaths_cache(char *buf, size_t len);
/* RTGATE_RESULTS_DIR, else TOP/results. Not created. */
int rtpaths_results(char *buf, size_t len);
/*
 * A measurement tool rtgate built itself (`rtgate kernel tools`):
 * RTGATE_TOOLS_DIR/NAME, else OUT/tools/NAME, else (an installed rtgate,
 * the lab's guest) tools/NAME beside the running binary's bin/, the first
 * that is executable; -ENOENT otherwise (the caller then looks in PATH).
 */
int rtpaths_tool(char *buf, size_t len, const char *name);
/*
 * buf = TOP/rel (for kconfigs/, suites/); RTGATE_PATCHES_DIR overrides
 * TOP/patches. When TOP has no @rel: an installed rtgate's
 * PREFIX/share/rtgate/rel ("bin": its workload directory), else
 * BIN/../rel (the lab guest).
 */
int rtpaths_in_top(char *buf, size_t len, const char *rel);
/*
 * PREFIX of an installed rtgate: the running binary is PREFIX/bin/rtgate,
 * no Makefile beside that bin/, and PREFIX/share/rtgate exists. -ENOENT
 * for a clone or the lab guest.
 */
int rtpaths_prefix(char *buf, size_t len);
/*
 * Where the workload programs are: RTGATE_LIBEXEC_DIR, else an installed
 * rtgate's PREFIX/libexec/rtgate, else the running binary's directory.
 */
int rtpaths_libexec(char *buf, size_t len);

/*
 * Whether @rel, read from a file (a manifest's "dir"), stays inside the
 * directory it is relative to: not empty, not absolute, no ".." part.
 */
bool rtpaths_below(const char *rel);

/*
 * snprintf for paths and other bounded strings: returns 0, or
 * -ENAMETOOLONG when the result was cut (buf then holds the cut text).
 */
int rtpaths_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
