// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild's kernel tree (kbuild.h): where it is, and its version.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "workloads/common/loop/wl_proc.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/kbuild/kbuild.h"

/* Written into a tree before it is published: "complete, from this tarball". */
#define STAMP	".rtgate-extracted"

/* "a" "b" "c" into buf; -ENAMETOOLONG rather than a cut path. */
static int join(char *buf, size_t len, const char *a, const char *b,
		const char *c)
{
	int n = snprintf(buf, len, "%s%s%s", a, b, c);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int is_kernel_tree(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/Kconfig", dir);
	if (!fsio_exists(path))
		return 0;
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	return fsio_exists(path);
}

/* linux-source-6.12.tar.xz -> linux-source-6.12 */
static void tarball_stem(const char *tarball, char *stem, size_t len)
{
	char copy[PATH_MAX], *dot;

	snprintf(copy, sizeof(copy), "%s", tarball);
	snprintf(stem, len, "%s", basename(copy));
	dot = strstr(stem, ".tar");
	if (dot)
		*dot = '\0';
}

/* Identity of the tarball: a changed tarball is not mistaken for ours. */
static void tarball_id(const char *tarball, char *buf, size_t len)
{
	struct stat st;

	if (stat(tarball, &st))
		snprintf(buf, len, "%s\n", tarball);
	else
		snprintf(buf, len, "%s %lld %lld\n", tarball,
			 (long long)st.st_size, (long long)st.st_mtime);
}

static int stamp_matches(const char *tree, const char *id)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len;
	int ok;

	snprintf(path, sizeof(path), "%s/" STAMP, tree);
	if (fsio_read_all(path, &buf, &len))
		return 0;
	ok = !strcmp(buf, id);
	free(buf);
	return ok;
}

/* Runs a short command to its end; 0 when it exited 0. */
static int run_cmd(char *const argv[])
{
	char buf[512];
	int status = 0, fd, ret;
	pid_t pid;
	ssize_t n;

	ret = wl_proc_spawn(argv, &pid, &fd, WL_SPAWN_MERGE_STDERR);
	if (ret)
		return ret;
	while ((n = read(fd, buf, sizeof(buf) - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		buf[n] = '\0';
		fputs(buf, stderr);
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_err("%s %s failed (status %d)", argv[0], argv[1],
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -EIO;
	}
	return 0;
}

/* The tarball's single top directory inside dir, or dir itself. */
static void top_dir(const char *dir, char *out, size_t len)
{
	struct dirent *d;
	int n = 0;
	DIR *dh;

	snprintf(out, len, "%s", dir);
	dh = opendir(dir);
	if (!dh)
		return;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.')
			continue;
		if (++n == 1 && d->d_type == DT_DIR &&
		    join(out, len, dir, "/", d->d_name))
			n = 2;	/* too long: use dir itself */
	}
	closedir(dh);
	if (n != 1)
		snprintf(out, len, "%s", dir);
}

/*
 * Extracts into a private temporary directory, stamps the tree, then
 * renames it into place: a reader sees a complete tree or none, and two
 * extractions at once cannot mix.
 */
static int extract(const char *tarball, const char *cache, const char *final,
		   const char *id)
{
	char tmp[PATH_MAX], top[PATH_MAX], stamp[PATH_MAX];
	char *tar[] = { "nice", "-n", "19", "tar", "-xf", (char *)tarball,
			"-C", tmp, NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	int ret;

	ret = fsio_mkdir_p(cache, 0755);
	if (ret) {
		pr_err("%s: %s", cache, strerror(-ret));
		return ret;
	}
	if (join(tmp, sizeof(tmp), cache, "/.extract.XXXXXX", "") ||
	    !mkdtemp(tmp)) {
		pr_err("mkdtemp in %s: %s", cache, strerror(errno));
		return -errno;
	}
	pr_info("extracting %s into %s (once; later runs reuse it)", tarball,
		final);
	ret = run_cmd(tar);
	if (!ret && wl_stopping())
		ret = -EINTR;
	if (!ret) {
		top_dir(tmp, top, sizeof(top));
		ret = join(stamp, sizeof(stamp), top, "/" STAMP, "");
		if (!ret)
			ret = fsio_write_atomic(stamp, id, strlen(id));
	}
	if (!ret && rename(top, final)) {
		ret = -errno;
		if (ret == -EEXIST || ret == -ENOTEMPTY)
			ret = 0;	/* someone else published one first */
		else
			pr_err("rename to %s: %s", final, strerror(-ret));
	}
	run_cmd(rm);
	return ret;
}

int kb_tree_find(const struct kb_params *p, char *tree)
{
	char stem[256], id[PATH_MAX + 64];
	int ret;

	if (p->tree) {
		if (!is_kernel_tree(p->tree)) {
			pr_err("--tree: %s is not a kernel source tree (no Kconfig and Makefile)",
			       p->tree);
			return -ENOENT;
		}
		snprintf(tree, PATH_MAX, "%s", p->tree);
		return 0;
	}
	if (!fsio_exists(p->tarball))
		return -ENOENT;
	tarball_stem(p->tarball, stem, sizeof(stem));
	tarball_id(p->tarball, id, sizeof(id));
	if (join(tree, PATH_MAX, p->cache, "/", stem))
		return -ENAMETOOLONG;
	if (fsio_exists(tree) && !stamp_matches(tree, id)) {
		pr_err("%s exists but is not a complete extraction of %s: remove it or pass another --cache",
		       tree, p->tarball);
		return -EEXIST;
	}
	if (!fsio_exists(tree)) {
		ret = extract(p->tarball, p->cache, tree, id);
		if (ret)
			return ret;
	}
	if (!stamp_matches(tree, id) || !is_kernel_tree(tree)) {
		pr_err("%s: not a kernel tree after extracting %s", tree,
		       p->tarball);
		return -EIO;
	}
	return 0;
}

void kb_tree_version(const char *tree, char *buf, size_t len)
{
	char path[PATH_MAX], line[256];
	long v = -1, pl = -1, sl = -1;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && (v < 0 || pl < 0 || sl < 0)) {
		sscanf(line, "VERSION = %ld", &v);
		sscanf(line, "PATCHLEVEL = %ld", &pl);
		sscanf(line, "SUBLEVEL = %ld", &sl);
	}
	fclose(f);
	if (v >= 0 && pl >= 0)
		snprintf(buf, len, "%ld.%ld.%ld", v, pl, sl < 0 ? 0 : sl);
}
