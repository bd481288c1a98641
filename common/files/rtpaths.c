// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where rtgate's files are (rtpaths.h): the project top, out/, results/,
 * found from the running binary; and the bounded formatter rtpaths_fmt().
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "rtpaths.h"

static int copy_path(char *buf, size_t len, const char *a, const char *b)
{
	if (snprintf(buf, len, "%s%s%s", a, b ? "/" : "", b ? b : "") >=
	    (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* The running binary's directory when it is a bin/: the part before it. */
static int self_above_bin(char *buf, size_t len)
{
	char self[PATH_MAX];
	size_t n;

	if (fsio_self_dir(self, sizeof(self)))
		return -ENOENT;
	n = strlen(self);
	if (n <= 4 || strcmp(self + n - 4, "/bin"))
		return -ENOENT;
	self[n - 4] = '\0';
	return copy_path(buf, len, self, NULL);
}

int rtpaths_top(char *buf, size_t len)
{
	const char *env = getenv("RTGATE_TOP");
	char above[PATH_MAX], mk[PATH_MAX + 16];

	if (env && *env)
		return copy_path(buf, len, env, NULL);
	if (!self_above_bin(above, sizeof(above))) {
		snprintf(mk, sizeof(mk), "%s/Makefile", above);
		if (fsio_exists(mk))
			return copy_path(buf, len, above, NULL);
	}
	if (!getcwd(buf, len))
		return -errno;
	return 0;
}

static int env_or_top(char *buf, size_t len, const char *var,
		      const char *rel)
{
	const char *env = getenv(var);
	char top[PATH_MAX];
	int ret;

	if (env && *env)
		return copy_path(buf, len, env, NULL);
	ret = rtpaths_top(top, sizeof(top));
	if (ret)
		return ret;
	return copy_path(buf, len, top, rel);
}

int rtpaths_out(char *buf, size_t len)
{
	return env_or_top(buf, len, "RTGATE_OUT_DIR", "out");
}

int rtpaths_cache(char *buf, size_t len)
{
	const char *env = getenv("RTGATE_CACHE_DIR");
	char out[PATH_MAX];
	int ret;

	if (env && *env)
		return copy_path(buf, len, env, NULL);
	ret = rtpaths_out(out, sizeof(out));
	return ret ? ret : copy_path(buf, len, out, "cache");
}

int rtpaths_results(char *buf, size_t len)
{
	return env_or_top(buf, len, "RTGATE_RESULTS_DIR", "results");
}

int rtpaths_tool(char *buf, size_t len, const char *name)
{
	const char *env = getenv("RTGATE_TOOLS_DIR");
	char out[PATH_MAX], above[PATH_MAX];
	int ret;

	if (env && *env) {
		ret = rtpaths_fmt(buf, len, "%s/%s", env, name);
		return ret ? ret : access(buf, X_OK) ? -ENOENT : 0;
	}
	ret = rtpaths_out(out, sizeof(out));
	if (!ret && !rtpaths_fmt(buf, len, "%s/tools/%s", out, name) &&
	    !access(buf, X_OK))
		return 0;
	if (!rtpaths_prefix(above, sizeof(above)))
		ret = rtpaths_fmt(buf, len, "%s/libexec/rtgate/tools/%s",
				  above, name);
	else if (!self_above_bin(above, sizeof(above)))
		ret = rtpaths_fmt(buf, len, "%s/tools/%s", above, name);
	else
		return -ENOENT;
	return ret ? ret : access(buf, X_OK) ? -ENOENT : 0;
}

int rtpaths_prefix(char *buf, size_t len)
{
	char above[PATH_MAX], path[PATH_MAX + 32];

	if (self_above_bin(above, sizeof(above)))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/Makefile", above);
	if (fsio_exists(path))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/share/rtgate", above);
	if (!fsio_exists(path))
		return -ENOENT;
	return copy_path(buf, len, above, NULL);
}

int rtpaths_libexec(char *buf, size_t len)
{
	const char *env = getenv("RTGATE_LIBEXEC_DIR");
	char prefix[PATH_MAX];

	if (env && *env)
		return copy_path(buf, len, env, NULL);
	if (!rtpaths_prefix(prefix, sizeof(prefix)))
		return rtpaths_fmt(buf, len, "%s/libexec/rtgate", prefix);
	return fsio_self_dir(buf, len);
}

int rtpaths_in_top(char *buf, size_t len, const char *rel)
{
	const char *env = getenv("RTGATE_PATCHES_DIR");
	char top[PATH_MAX], base[PATH_MAX], inst[PATH_MAX + 32];
	int ret;

	if (!strcmp(rel, "patches") && env && *env)
		return copy_path(buf, len, env, NULL);
	ret = rtpaths_top(top, sizeof(top));
	if (ret)
		return ret;
	ret = copy_path(buf, len, top, rel);
	env = getenv("RTGATE_TOP");
	if (ret || fsio_exists(buf) || (env && *env))
		return ret;
	/* Installed: the workloads in libexec, the data in share. */
	if (!rtpaths_prefix(base, sizeof(base))) {
		if (!strcmp(rel, "bin"))
			return rtpaths_libexec(buf, len);
		snprintf(inst, sizeof(inst), "%s/share/rtgate/%s", base, rel);
		if (fsio_exists(inst))
			return copy_path(buf, len, inst, NULL);
	}
	/* The lab guest keeps suites/ beside its bin/. */
	if (!self_above_bin(base, sizeof(base))) {
		snprintf(inst, sizeof(inst), "%s/%s", base, rel);
		if (fsio_exists(inst))
			return copy_path(buf, len, inst, NULL);
	}
	return ret;
}

int rtpaths_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool rtpaths_below(const char *rel)
{
	const char *p = rel;
	size_t n;

	if (!rel || !*rel || *rel == '/')
		return false;
	while (*p) {
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return false;
		p += n;
		p += strspn(p, "/");
	}
	return true;
}
