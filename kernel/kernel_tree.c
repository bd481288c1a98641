// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel trees (kernel_priv.h): a source folder or Debian's linux-source
 * package, its version, and a clone to build in.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "debapt.h"
#include "fsio.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "parse.h"
#include "toolrun.h"

int kernel_version_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		char *ea, *eb;
		long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);

		if (ea == a || eb == b)
			break;
		if (x != y)
			return x < y ? -1 : 1;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
		if (*ea != '.' || *eb != '.')
			break;
	}
	return 0;
}

/* Runs argv and returns its first output line in buf. */
static int first_line(char *const *argv, const char *cwd, char *buf,
		      size_t len)
{
	char *out = NULL;
	struct toolrun r = { .argv = argv, .cwd = cwd, .capture = &out };
	int ret, status;

	ret = toolrun(&r, &status);
	if (!ret && status)
		ret = -EIO;
	if (!ret) {
		out[strcspn(out, "\n")] = '\0';
		if (snprintf(buf, len, "%s", out) >= (int)len)
			ret = -ENAMETOOLONG;
	}
	free(out);
	return ret;
}

static int tree_version(struct kernel_tree *t)
{
	char *argv[] = { "make", "-s", "--no-print-directory", "kernelversion",
			 NULL };
	int ret = first_line(argv, t->path, t->version, sizeof(t->version));

	if (ret || !t->version[0]) {
		pr_err("%s: `make kernelversion` failed: not a kernel tree?",
		       t->path);
		return -EINVAL;
	}
	return 0;
}

int kernel_tree_src(const char *path, struct kernel_tree *t)
{
	char probe[PATH_MAX + 32];

	memset(t, 0, sizeof(*t));
	if (!realpath(path, t->path)) {
		pr_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	rtpaths_fmt(probe, sizeof(probe), "%s/scripts/kconfig/merge_config.sh",
		 t->path);
	if (!fsio_exists(probe)) {
		pr_err("%s: not a kernel source tree (no %s)", path,
		       "scripts/kconfig/merge_config.sh");
		return -EINVAL;
	}
	rtpaths_fmt(t->origin, sizeof(t->origin), "src");
	rtpaths_fmt(probe, sizeof(probe), "%s/.git", t->path);
	if (fsio_exists(probe)) {
		char *argv[] = { "git", "rev-parse", "HEAD", NULL };

		if (first_line(argv, t->path, t->commit, sizeof(t->commit)))
			t->commit[0] = '\0';
	}
	return tree_version(t);
}

static int debian_package_version(const char *pkg, char *buf, size_t len)
{
	char *argv[] = { "dpkg-query", "-W", "-f=${Status}|${Version}",
			 (char *)pkg, NULL };
	char line[256], *bar;

	if (first_line(argv, NULL, line, sizeof(line)))
		return -ENOENT;
	bar = strchr(line, '|');
	if (!bar || !strstr(line, "install ok installed"))
		return -ENOENT;
	if (snprintf(buf, len, "%s", bar + 1) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Extracts tarball into dest through a temporary sibling and a rename. */
static int extract_tarball(const char *tarball, const char *dest)
{
	char tmp[PATH_MAX + 32], log[PATH_MAX + 32];
	char *argv[] = { "tar", "-xf", (char *)tarball, "-C", tmp,
			 "--strip-components=1", NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	time_t start = time(NULL);
	int ret, status;

	rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", dest, getpid());
	rtpaths_fmt(log, sizeof(log), "%s.log", dest);
	ret = fsio_mkdir_p(tmp, 0755);
	if (ret)
		return ret;
	pr_info("extracting %s (once; cached in %s) ...", tarball, dest);
	ret = toolrun_simple(argv, NULL, log, &status);
	if (!ret && status) {
		pr_err("tar failed extracting %s (log: %s)", tarball, log);
		ret = -EIO;
	}
	if (!ret && rename(tmp, dest))
		ret = -errno;
	if (ret) {
		toolrun_simple(rm, NULL, NULL, &status);
		return ret;
	}
	pr_info("extracted in %lds", (long)(time(NULL) - start));
	return 0;
}

/* "7.3", "6.12": what a linux-source-SERIES package can be named. */
static bool series_valid(const char *series)
{
	unsigned int major, minor;
	char end;

	return sscanf(series, "%u.%u%c", &major, &minor, &end) == 2 &&
	       strspn(series, "0123456789.") == strlen(series);
}

/*
 * The package through rtgate's private apt (common/cmd/debapt.h): downloaded
 * and unpacked under cache_dir/src/, never installed. The package's
 * tarball goes to tarball; dl is the folder to remove afterwards.
 */
static int fetch_source(struct kernel_tree *t, struct debapt *apt,
			const char *cache_dir, char *tarball, size_t tlen,
			char *dl, size_t dlen)
{
	char deb[PATH_MAX], log[PATH_MAX + 16];
	int ret;

	rtpaths_fmt(dl, dlen, "%s/src/.dl.%s.%d", cache_dir, t->package,
		    getpid());
	rtpaths_fmt(log, sizeof(log), "%s/download.log", dl);
	pr_info("%s %s is not installed: downloading it through rtgate's "
		"private apt (once; nothing is installed) ...", t->package,
		t->package_version);
	ret = debapt_download(apt, t->package, dl, deb, sizeof(deb), log);
	if (!ret)
		ret = debapt_unpack(deb, dl, log);
	if (!ret)
		unlink(deb);
	rtpaths_fmt(tarball, tlen, "%s/usr/src/%s.tar.xz", dl, t->package);
	if (!ret && !fsio_exists(tarball)) {
		pr_err("%s: not in %s", tarball + strlen(dl), deb);
		ret = -EIO;
	}
	return ret;
}

/* The installed package's version, else the private apt's candidate. */
static int source_version(struct kernel_tree *t, struct debapt *apt,
			  const char *cache_dir, bool *installed)
{
	int ret;

	*installed = !debian_package_version(t->package, t->package_version,
					     sizeof(t->package_version));
	if (*installed) {
		rtpaths_fmt(t->via, sizeof(t->via), "installed");
		return 0;
	}
	ret = debapt_init(apt, cache_dir);
	if (ret)
		return ret;
	ret = debapt_version(apt, t->package, t->package_version,
			     sizeof(t->package_version));
	if (ret) {
		pr_err("%s is not installed and rtgate's private apt (%s, "
		       "%s) knows no such package; give a tree with --src",
		       t->package, apt->root, apt->mirror);
		return ret;
	}
	rtpaths_fmt(t->via, sizeof(t->via), "private-apt");
	return 0;
}

int kernel_tree_debian(const char *series, const char *cache_dir,
		       struct kernel_tree *t)
{
	char tarball[PATH_MAX], cache[PATH_MAX], lockpath[PATH_MAX + 16];
	char dl[PATH_MAX] = "";
	struct debapt apt;
	bool installed;
	int lock, ret;

	memset(t, 0, sizeof(*t));
	if (!series_valid(series)) {
		pr_err("--debian %s: expected a series such as 7.3 or 6.12",
		       series);
		return -EINVAL;
	}
	rtpaths_fmt(t->origin, sizeof(t->origin), "debian");
	rtpaths_fmt(t->package, sizeof(t->package), "linux-source-%s", series);
	ret = source_version(t, &apt, cache_dir, &installed);
	if (ret)
		return ret;
	rtpaths_fmt(tarball, sizeof(tarball), "/usr/src/%s.tar.xz", t->package);
	if (installed && !fsio_exists(tarball)) {
		pr_err("%s: missing although %s is installed", tarball,
		       t->package);
		return -ENOENT;
	}
	if (snprintf(cache, sizeof(cache), "%s/src/%s_%s", cache_dir,
		     t->package, t->package_version) >= (int)sizeof(cache))
		return -ENAMETOOLONG;
	/* The cache folder itself is the marker: it appears by rename. */
	rtpaths_fmt(lockpath, sizeof(lockpath), "%s/src", cache_dir);
	ret = fsio_mkdir_p(lockpath, 0755);
	if (ret) {
		pr_err("%s: %s", lockpath, strerror(-ret));
		return ret;
	}
	rtpaths_fmt(lockpath, sizeof(lockpath), "%s.lock", cache);
	lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0) {
		pr_err("%s: %s", lockpath, strerror(errno));
		return -errno;
	}
	/* Another rtgate may be extracting the same tree: wait for it. */
	if (flock(lock, LOCK_EX)) {
		ret = -errno;
		goto out;
	}
	if (!fsio_exists(cache) && !installed)
		ret = fetch_source(t, &apt, cache_dir, tarball,
				   sizeof(tarball), dl, sizeof(dl));
	if (!ret && !fsio_exists(cache))
		ret = extract_tarball(tarball, cache);
	if (!ret && !realpath(cache, t->path))
		ret = -errno;
	if (!ret)
		ret = tree_version(t);
out:
	if (dl[0]) {
		char *rm[] = { "rm", "-rf", dl, NULL };
		int status;

		toolrun_simple(rm, NULL, NULL, &status);
	}
	close(lock);
	return ret;
}

int kernel_tree_open(const char *src, const char *debian,
		     const char *cache_dir, struct kernel_tree *t)
{
	if (src && debian) {
		pr_err("--src and --debian exclude each other");
		return -EINVAL;
	}
	if (src)
		return kernel_tree_src(src, t);
	return kernel_tree_debian(debian ? debian : "6.12", cache_dir, t);
}

int kernel_tree_clone(const struct kernel_tree *t, const char *dest)
{
	char *rm[] = { "rm", "-rf", (char *)dest, NULL };
	char *cp[] = { "cp", "-al", (char *)t->path, (char *)dest, NULL };
	int ret, status;

	ret = toolrun_simple(rm, NULL, NULL, &status);
	if (!ret)
		ret = toolrun_simple(cp, NULL, NULL, &status);
	if (!ret && status) {
		pr_err("cp -al %s %s failed (another file system? hard links "
		       "need the same one)", t->path, dest);
		ret = -EIO;
	}
	return ret;
}
