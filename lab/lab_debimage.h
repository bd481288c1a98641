/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Debian's split 7.x kernel images, by name alone: which release R a
 * "7.2-rt" means. In 7.x, linux-image-R is a meta package over
 * linux-binary-R (the kernel, /usr/lib/modules/R/vmlinuz), linux-base-R
 * (its config, System.map, modules.builtin) and linux-modules-R; R is
 * UPSTREAM+TAG-FLAVOUR, e.g. 7.2.13+deb14-rt-amd64. Pure functions over a
 * list of package names (`apt-cache pkgnames linux-binary-`), so tests
 * replay a recorded list.
 */
#ifndef RTGATE_LAB_DEBIMAGE_H
#define RTGATE_LAB_DEBIMAGE_H

#include <stddef.h>

struct lab_debimage_spec {
	char series[16];		/* "7.2" */
	char flavour[32];		/* "rt-amd64", "amd64", "cloud-amd64" */
};

/*
 * "7.2-rt", "7.3", "7.3-cloud" -> spec. -EINVAL (message printed) for
 * anything else; "rt" and "std" (bookworm's 6.1) are not this module's.
 */
int lab_debimage_parse(const char *text, struct lab_debimage_spec *s);

/*
 * The newest R among names ("linux-binary-R" lines; others ignored) of
 * the spec's series and flavour: newest upstream version, then newest tag.
 * -ENOENT (message naming the series on offer) when there is none.
 */
int lab_debimage_pick(const char *names, const struct lab_debimage_spec *s,
		      char *release, size_t len);

/*
 * For each series and flavour in names, its newest R: one line each,
 * "debian:SERIES[-FLAVOUR] R", into buf. Returns the number of lines.
 */
int lab_debimage_list(const char *names, char *buf, size_t len);

#endif
