// SPDX-License-Identifier: GPL-2.0-only
/*
 * The private apt: every call is the ordinary apt-get / apt-cache with -o
 * options that point its sources, lists and caches into CACHE/apt/. The
 * host's apt.conf.d still applies (a proxy set there is honoured); its
 * dpkg status is only read.
 */
#include <errno.h>
#include <stdbool.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debapt.h"
#include "fsio.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

const char *const debapt_suites[] = { "bookworm", "bookworm-backports",
				      "trixie-backports", "sid",
				      NULL };

#define DEBAPT_MAX_AGE	(24 * 3600)

/* "URIs: a b" of the deb822 stanza whose Suites: name bookworm itself. */
static int mirror_deb822(const char *text, char *buf, size_t len)
{
	const char *st = text;

	while (st && *st) {
		const char *end = strstr(st, "\n\n");
		size_t n = end ? (size_t)(end - st) : strlen(st);
		const char *uri = NULL, *p;
		bool bookworm = false;

		for (p = st; p < st + n; p = strchr(p, '\n') + 1) {
			if (!strncmp(p, "URIs:", 5))
				uri = p + 5;
			if (!strncmp(p, "Suites:", 7)) {
				const char *q = p + 7;

				while (*q && *q != '\n') {
					q += strspn(q, " \t");
					if (!strncmp(q, "bookworm", 8) &&
					    strchr(" \t\n", q[8]))
						bookworm = true;
					q += strcspn(q, " \t\n");
				}
			}
			if (!strchr(p, '\n'))
				break;
		}
		if (uri && bookworm) {
			uri += strspn(uri, " \t");
			return rtpaths_fmt(buf, len, "%.*s",
					   (int)strcspn(uri, " \t\n"), uri);
		}
		st = end ? end + 2 : NULL;
	}
	return -ENOENT;
}

/* "deb [options] URI bookworm main" in a one-line sources.list. */
static int mirror_oneline(const char *text, char *buf, size_t len)
{
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char uri[256], suite[64];
		const char *q = p;

		if (strncmp(q, "deb ", 4))
			continue;
		q += 4;
		q += strspn(q, " \t");
		if (*q == '[')
			q = strchr(q, ']') ? strchr(q, ']') + 1 : q;
		if (sscanf(q, " %255s %63s", uri, suite) == 2 &&
		    !strcmp(suite, "bookworm"))
			return rtpaths_fmt(buf, len, "%s", uri);
	}
	return -ENOENT;
}

static void find_mirror(struct debapt *a)
{
	const char *env = getenv("RTGATE_DEBIAN_MIRROR");
	static const char *const files[] = {
		"/etc/apt/sources.list.d/debian.sources",
		"/etc/apt/sources.list", NULL };
	int i;

	if (env && *env) {
		rtpaths_fmt(a->mirror, sizeof(a->mirror), "%s", env);
		return;
	}
	for (i = 0; files[i]; i++) {
		char *text;
		size_t n;
		int ret;

		if (fsio_read_all(files[i], &text, &n))
			continue;
		ret = i == 0 ? mirror_deb822(text, a->mirror,
					     sizeof(a->mirror)) :
		      mirror_oneline(text, a->mirror, sizeof(a->mirror));
		free(text);
		if (!ret)
			return;
	}
	rtpaths_fmt(a->mirror, sizeof(a->mirror),
		    "http://deb.debian.org/debian");
}

static void set_opts(struct debapt *a)
{
	static const char *const dirs[][2] = {
		{ "Dir::Etc::sourcelist", "etc/sources.list" },
		{ "Dir::Etc::sourceparts", "etc/sources.list.d" },
		{ "Dir::Etc::preferences", "etc/preferences" },
		{ "Dir::Etc::preferencesparts", "etc/preferences.d" },
		{ "Dir::State::Lists", "lists" },
		{ "Dir::Cache", "cache" },
		{ "Dir::State::extended_states", "extended_states" },
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		rtpaths_fmt(a->optbuf[i], sizeof(a->optbuf[i]), "%s=%s/%s",
			    dirs[i][0], a->root, dirs[i][1]);
		a->opts[2 * i] = "-o";
		a->opts[2 * i + 1] = a->optbuf[i];
	}
	a->opts[2 * i] = NULL;
}

/* argv = tool, the private options, then words (NULL-ended). */
static int run(struct debapt *a, const char *tool, const char *const *words,
	       const char *cwd, const char *log, char **capture)
{
	char *argv[DEBAPT_NR_OPTS + 12];
	struct toolrun r = { .argv = argv, .cwd = cwd, .out_path = log,
			     .out_append = true, .capture = capture };
	int i, n = 0, ret, status;

	argv[n++] = (char *)tool;
	for (i = 0; a->opts[i]; i++)
		argv[n++] = a->opts[i];
	for (i = 0; words[i] && n < (int)(sizeof(argv) / sizeof(*argv)) - 1;
	     i++)
		argv[n++] = (char *)words[i];
	argv[n] = NULL;
	ret = toolrun(&r, &status);
	if (ret == -ENOENT) {
		pr_err("%s is not installed (the private apt needs it)", tool);
		return -ENOPKG;
	}
	if (!ret && status)
		ret = -EIO;
	return ret;
}

static int write_sources(struct debapt *a, bool *changed)
{
	char path[PATH_MAX + 32], text[2048], *old = NULL;
	size_t n = 0, len = 0;
	int i, ret;

	len += snprintf(text, sizeof(text), "# Written by rtgate: its private "
			"apt (docs/kernels.md). The host's apt does not read "
			"this file.\n");
	for (i = 0; debapt_suites[i] && len < sizeof(text); i++)
		len += snprintf(text + len, sizeof(text) - len,
				"deb %s %s main\n", a->mirror,
				debapt_suites[i]);
	if (len >= sizeof(text))
		return -ENAMETOOLONG;
	rtpaths_fmt(path, sizeof(path), "%s/etc/sources.list", a->root);
	if (!fsio_read_all(path, &old, &n) && n == len &&
	    !memcmp(old, text, len)) {
		free(old);
		*changed = false;
		return 0;
	}
	free(old);
	*changed = true;
	ret = fsio_write_atomic(path, text, len);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	return ret;
}

static int make_dirs(struct debapt *a)
{
	/* apt makes lists/partial itself, owned by its sandbox user. */
	static const char *const dirs[] = { "etc/sources.list.d",
		"etc/preferences.d", "lists", "cache", NULL };
	char path[PATH_MAX + 32];
	int i, ret;

	for (i = 0; dirs[i]; i++) {
		rtpaths_fmt(path, sizeof(path), "%s/%s", a->root, dirs[i]);
		ret = fsio_mkdir_p(path, 0755);
		if (ret) {
			pr_err("%s: %s", path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int debapt_init(struct debapt *a, const char *cache_dir)
{
	static const char *const update[] = { "-q", "update", NULL };
	char stamp[PATH_MAX + 16], log[PATH_MAX + 16];
	bool changed = false, have;
	struct stat st;
	int ret;

	memset(a, 0, sizeof(*a));
	if (rtpaths_fmt(stamp, sizeof(stamp), "%s/apt", cache_dir))
		return -ENAMETOOLONG;
	ret = fsio_mkdir_p(stamp, 0755);
	if (ret) {
		pr_err("%s: %s", stamp, strerror(-ret));
		return ret;
	}
	/* apt reads a relative Dir:: option below /etc/apt. */
	if (!realpath(stamp, a->root)) {
		pr_err("%s: %s", stamp, strerror(errno));
		return -errno;
	}
	find_mirror(a);
	set_opts(a);
	ret = make_dirs(a);
	if (!ret)
		ret = write_sources(a, &changed);
	if (ret)
		return ret;
	rtpaths_fmt(stamp, sizeof(stamp), "%s/updated", a->root);
	have = !stat(stamp, &st);
	if (have && !changed && time(NULL) - st.st_mtime < DEBAPT_MAX_AGE)
		return 0;
	rtpaths_fmt(log, sizeof(log), "%s/update.log", a->root);
	unlink(log);
	pr_info("apt-get update of rtgate's private lists (%s; %s "
		"bookworm, bookworm-backports, trixie-backports, sid) ...",
		a->root, a->mirror);
	ret = run(a, "apt-get", update, NULL, log, NULL);
	if (ret == -ENOPKG)
		return ret;
	if (ret) {
		if (have) {
			pr_warn("apt-get update failed (log: %s); using the "
				"lists from before", log);
			return 0;
		}
		pr_err("apt-get update of the private lists failed (log: %s)",
		       log);
		return ret;
	}
	ret = fsio_write_atomic(stamp, "", 0);
	if (ret)
		pr_err("%s: %s", stamp, strerror(-ret));
	return ret;
}

int debapt_version(struct debapt *a, const char *pkg, char *buf, size_t len)
{
	const char *words[] = { "policy", pkg, NULL };
	char *out = NULL, *p;
	int ret;

	ret = run(a, "apt-cache", words, NULL, NULL, &out);
	if (ret == -ENOPKG)
		goto out;
	p = out ? strstr(out, "Candidate: ") : NULL;
	if (ret || !p || !strncmp(p + 11, "(none)", 6)) {
		ret = -ENOPKG;
		goto out;
	}
	p += 11;
	ret = rtpaths_fmt(buf, len, "%.*s", (int)strcspn(p, "\n "), p);
out:
	free(out);
	return ret;
}

int debapt_pkgnames(struct debapt *a, const char *prefix, char **out)
{
	const char *words[] = { "pkgnames", prefix, NULL };
	int ret;

	*out = NULL;
	ret = run(a, "apt-cache", words, NULL, NULL, out);
	if (ret && ret != -ENOPKG) {
		/* pkgnames exits 0 with nothing when nothing matches. */
		pr_err("apt-cache pkgnames %s failed on %s", prefix, a->root);
	}
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

int debapt_download(struct debapt *a, const char *pkg, const char *dir,
		    char *deb, size_t len, const char *log)
{
	const char *words[] = { "-q", "download", pkg, NULL };
	char pat[PATH_MAX + 64];
	glob_t g = { 0 };
	int ret;

	ret = fsio_mkdir_p(dir, 0755);
	if (ret) {
		pr_err("%s: %s", dir, strerror(-ret));
		return ret;
	}
	ret = run(a, "apt-get", words, dir, log, NULL);
	if (ret) {
		pr_err("apt-get download %s failed (private apt %s%s%s)", pkg,
		       a->root, log ? "; log: " : "", log ? log : "");
		return ret == -EIO ? -ENOPKG : ret;
	}
	/*
	 * NAME_VERSION_ARCH.deb, the version's ':' quoted as %3a; pkg may
	 * be NAME/RELEASE or NAME=VERSION.
	 */
	rtpaths_fmt(pat, sizeof(pat), "%s/%.*s_*.deb", dir,
		    (int)strcspn(pkg, "/="), pkg);
	if (glob(pat, 0, NULL, &g) || g.gl_pathc != 1) {
		pr_err("apt-get download %s left no single %s", pkg, pat);
		globfree(&g);
		return -EIO;
	}
	ret = rtpaths_fmt(deb, len, "%s", g.gl_pathv[0]);
	globfree(&g);
	return ret;
}

int debapt_unpack(const char *deb, const char *root, const char *log)
{
	char *argv[] = { "dpkg-deb", "-x", (char *)deb, (char *)root, NULL };
	struct toolrun r = { .argv = argv, .out_path = log,
			     .out_append = true };
	int ret, status;

	ret = toolrun(&r, &status);
	if (ret == -ENOENT) {
		pr_err("dpkg-deb is not installed");
		return -ENOPKG;
	}
	if (!ret && status) {
		pr_err("dpkg-deb -x %s failed (exit %d)", deb, status);
		ret = -EIO;
	}
	return ret;
}
