/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where rtgate's own files are: the project top (kconfigs/, patches/,
 * suites/ beside bin/), out/ for builds and caches, results/ for runs.
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
/* buf = TOP/rel (for kconfigs/, suites/); RTGATE_PATCHES_DIR overrides
 * TOP/patches; an installed rtgate's BIN/../rel when TOP has none. */
int rtpaths_in_top(char *buf, size_t len, const char *rel);

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
