/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A private apt configuration in rtgate's cache (CACHE/apt/): its own
 * sources.list (bookworm, bookworm-backports, trixie-backports and sid on
 * the host's Debian mirror), its own package lists and archive cache. It reaches Debian's
 * 7.x packages (linux-source-7.3, the 7.x images) from a bookworm host
 * without touching the host: nothing is installed, /etc/apt is only read,
 * and what the host's own packages resolve to does not change.
 *
 *	struct debapt a;
 *
 *	debapt_init(&a, cache_dir);	 config written, lists refreshed daily
 *	debapt_version(&a, "linux-source-7.3", ver, sizeof(ver));
 *	debapt_download(&a, "linux-source-7.3", dir, deb, sizeof(deb));
 *	debapt_unpack(deb, root, log);	 dpkg-deb -x: files, never installed
 *
 * Every function returns 0 or -errno and prints one message on error;
 * -ENOPKG means apt does not know the package (or apt is missing).
 */
#ifndef RTGATE_DEBAPT_H
#define RTGATE_DEBAPT_H

#include <limits.h>
#include <stddef.h>

#define DEBAPT_NR_OPTS 14

struct debapt {
	char root[PATH_MAX];		/* CACHE/apt */
	char mirror[256];		/* http://deb.debian.org/debian */
	/* "-o", "Dir::...=ROOT/..." pairs every apt call carries */
	char *opts[DEBAPT_NR_OPTS + 1];
	char optbuf[DEBAPT_NR_OPTS / 2][PATH_MAX + 48];
};

/*
 * The suites the private sources.list names, in order; the mirror is
 * RTGATE_DEBIAN_MIRROR, else the first URI of the host's sources for
 * bookworm (/etc/apt/sources.list.d/debian.sources, /etc/apt/sources.list),
 * else http://deb.debian.org/debian.
 */
extern const char *const debapt_suites[];

/*
 * Writes CACHE/apt/etc/sources.list (when it changed) and runs
 * `apt-get update` on the private lists when they are missing or older
 * than a day. An update that fails with lists already there is a warning
 * (offline: the lists are used as they are).
 */
int debapt_init(struct debapt *a, const char *cache_dir);

/* The version apt would download for pkg (its candidate). */
int debapt_version(struct debapt *a, const char *pkg, char *buf,
		   size_t len);

/*
 * Every package name that starts with prefix (`apt-cache pkgnames`), one
 * a line, malloc'd into *out.
 */
int debapt_pkgnames(struct debapt *a, const char *prefix, char **out);

/*
 * `apt-get download pkg` into dir (created); deb receives the .deb's path.
 * pkg may name a release (qemu-system-x86/bookworm-backports).
 * log (may be NULL) gets apt's output.
 */
int debapt_download(struct debapt *a, const char *pkg, const char *dir,
		    char *deb, size_t len, const char *log);

/* `dpkg-deb -x deb root`: the package's files under root, not installed. */
int debapt_unpack(const char *deb, const char *root, const char *log);

#endif
