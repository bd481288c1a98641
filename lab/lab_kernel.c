// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which kernel a lab run boots (lab_priv.h): a folder of `rtgate kernel
 * build`, a name under out/kernels, or a Debian image, as a bzImage with
 * its modules and identity.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "debapt.h"
#include "fsio.h"
#include "jsonio.h"
#include "kconfig.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

/* What the lab needs from a kernel: virtio PCI, 9p over virtio. */
static const char *const lab_modules[] = { "virtio_pci", "9pnet_virtio",
					   "9p", NULL };
static const char *const lab_symbols[] = { "VIRTIO_PCI", "NET_9P_VIRTIO",
					   "9P_FS", NULL };

static int read_config(struct lab_kernel *k, bool need_builtin)
{
	struct kconfig kc;
	int ret, i;

	ret = kconfig_load_file(&kc, k->config);
	if (ret) {
		pr_err("%s: %s", k->config, strerror(-ret));
		return ret;
	}
	k->preempt_rt = kconfig_is_y(&kc, "PREEMPT_RT");
	for (i = 0; need_builtin && lab_symbols[i]; i++) {
		if (!kconfig_is_y(&kc, lab_symbols[i])) {
			pr_err("%s: CONFIG_%s is not built in; the lab needs "
			       "it (build with the qemu-guest fragment)",
			       k->config, lab_symbols[i]);
			ret = -EINVAL;
			break;
		}
	}
	kconfig_free(&kc);
	return ret;
}

int lab_kernel_from_build(const char *dir_or_name, const char *out_dir,
			  struct lab_kernel *k)
{
	char path[PATH_MAX + 16];
	struct json_error jerr;
	cJSON *json;
	int ret;

	memset(k, 0, sizeof(*k));
	rtpaths_fmt(k->origin, sizeof(k->origin), "build");
	if (strchr(dir_or_name, '/'))
		rtpaths_fmt(path, sizeof(path), "%s", dir_or_name);
	else
		rtpaths_fmt(path, sizeof(path), "%s/kernels/%s", out_dir,
			    dir_or_name);
	if (!realpath(path, k->dir)) {
		pr_err("kernel %s: %s (build it: ./run.sh kernel build)",
		       dir_or_name, strerror(errno));
		return -ENOENT;
	}
	rtpaths_fmt(k->image, sizeof(k->image), "%s/bzImage", k->dir);
	rtpaths_fmt(k->config, sizeof(k->config), "%s/.config", k->dir);
	rtpaths_fmt(path, sizeof(path), "%s/build.json", k->dir);
	if (!fsio_exists(k->image) || !fsio_exists(path)) {
		pr_err("%s: no bzImage or build.json: not a built kernel "
		       "(./run.sh kernel build)", k->dir);
		return -ENOENT;
	}
	ret = json_read_file(path, &json, &jerr);
	if (ret) {
		pr_err("%s", jerr.msg);
		return ret;
	}
	rtpaths_fmt(k->name, sizeof(k->name), "%s",
		    json_get_str(json, "name", ""));
	rtpaths_fmt(k->release, sizeof(k->release), "%s",
		    json_get_str(json, "release", ""));
	if (strcmp(json_get_str(json, "status", ""), "built")) {
		pr_err("%s: status is '%s', not built", path,
		       json_get_str(json, "status", "?"));
		ret = -EINVAL;
	}
	cJSON_Delete(json);
	return ret ? ret : read_config(k, true);
}

/* Runs argv and returns its whole output (malloc'd) in *out. */
static int capture(char *const *argv, const char *cwd, char **out)
{
	struct toolrun r = { .argv = argv, .cwd = cwd, .capture = out };
	int ret, status;

	*out = NULL;
	ret = toolrun(&r, &status);
	if (!ret && status)
		ret = -EIO;
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

/* linux-image-rt-amd64 -> linux-image-6.1.0-57-rt-amd64, and its version. */
static int debian_resolve(const char *meta, char *pkg, size_t plen,
			  char *ver, size_t vlen)
{
	char *dep[] = { "apt-cache", "depends", (char *)meta, NULL };
	char *show[] = { "apt-cache", "show", "--no-all-versions", pkg, NULL };
	char *out, *p;
	int ret;

	ret = capture(dep, NULL, &out);
	if (ret)
		return ret;
	p = strstr(out, "Depends: linux-image-");
	if (p)
		rtpaths_fmt(pkg, plen, "%.*s", (int)strcspn(p + 9, "\n "),
			    p + 9);
	free(out);
	if (!p)
		return -ENOENT;
	ret = capture(show, NULL, &out);
	if (ret)
		return ret;
	p = strstr(out, "\nVersion: ");
	if (!p && !strncmp(out, "Version: ", 9))
		p = out - 1;
	if (p)
		rtpaths_fmt(ver, vlen, "%.*s", (int)strcspn(p + 10, "\n"),
			    p + 10);
	free(out);
	return p ? 0 : -ENOENT;
}

static int run_logged(char *const *argv, const char *cwd, const char *log,
		      const char *what)
{
	struct toolrun r = { .argv = argv, .cwd = cwd, .out_path = log,
			     .out_append = true };
	int ret, status;

	ret = toolrun(&r, &status);
	if (ret == -ENOENT) {
		pr_err("%s: %s is not installed", what, argv[0]);
		return -ENOPKG;
	}
	if (!ret && status) {
		pr_err("%s failed (exit %d; log: %s)", what, status, log);
		ret = -EIO;
	}
	return ret;
}

/* apt-get download + dpkg-deb -x + depmod, into dest via a rename. */
static int debian_unpack(const char *pkg, const char *release,
			 const char *dest)
{
	char tmp[PATH_MAX + 32], root[PATH_MAX + 40], log[PATH_MAX + 48];
	char *dl[] = { "apt-get", "download", "-q", (char *)pkg, NULL };
	char *depmod[] = { "depmod", "-b", root, (char *)release, NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	glob_t g = { 0 };
	char pat[PATH_MAX + 48];
	int ret, status;

	rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", dest, getpid());
	rtpaths_fmt(root, sizeof(root), "%s/root", tmp);
	rtpaths_fmt(log, sizeof(log), "%s.log", dest);
	unlink(log);
	ret = fsio_mkdir_p(tmp, 0755);
	if (ret)
		return ret;
	pr_info("downloading %s (once; cached in %s) ...", pkg, dest);
	ret = run_logged(dl, tmp, log, "apt-get download");
	rtpaths_fmt(pat, sizeof(pat), "%s/*.deb", tmp);
	if (!ret && (glob(pat, 0, NULL, &g) || g.gl_pathc != 1)) {
		pr_err("apt-get download %s left no .deb (log: %s)", pkg, log);
		ret = -EIO;
	}
	if (!ret) {
		char *x[] = { "dpkg-deb", "-x", g.gl_pathv[0], root, NULL };

		ret = run_logged(x, NULL, log, "dpkg-deb -x");
	}
	if (!ret)
		ret = run_logged(depmod, NULL, log, "depmod");
	if (!ret && rename(root, dest))
		ret = -errno;
	globfree(&g);
	toolrun_simple(rm, NULL, NULL, &status);
	return ret;
}

/* The .ko files (with their dependencies, in load order) the lab needs. */
static int debian_modules(struct lab_kernel *k)
{
	char *out, *line, *save;
	int i, j, ret = 0;

	/* modprobe says "builtin NAME" for what needs no loading. */
	for (i = 0; lab_modules[i] && !ret; i++) {
		char *argv[] = { "modprobe", "-d", k->dir, "-S", k->release,
				 "--show-depends", (char *)lab_modules[i],
				 NULL };

		ret = capture(argv, NULL, &out);
		if (ret) {
			pr_err("modprobe --show-depends %s failed for %s "
			       "(kmod installed? the lab needs virtio_pci, "
			       "9pnet_virtio and 9p in the image)",
			       lab_modules[i], k->dir);
			ret = ret == -ENOENT ? -ENOPKG : ret;
			break;
		}
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char path[PATH_MAX];
			bool dup = false;

			if (sscanf(line, "insmod %4095s", path) != 1)
				continue;
			for (j = 0; j < k->nr_modules; j++)
				dup |= !strcmp(k->modules[j], path);
			if (dup)
				continue;
			if (k->nr_modules == LAB_MAX_MODULES) {
				ret = -E2BIG;
				break;
			}
			rtpaths_fmt(k->modules[k->nr_modules++], PATH_MAX, "%s",
				    path);
		}
		free(out);
	}
	return ret;
}

/*
 * finit_module() takes a compressed module only with a flag and the
 * kernel's MODULE_DECOMPRESS: the lab's modules go into the initramfs
 * uncompressed, made once beside the compressed ones in the cache.
 */
static int decompress_modules(struct lab_kernel *k)
{
	static const struct {
		const char *ext, *tool;
	} comp[] = { { ".xz", "xz" }, { ".zst", "zstd" }, { ".gz", "gzip" } };
	int i, ret = 0;
	size_t c;

	for (i = 0; i < k->nr_modules && !ret; i++) {
		char *m = k->modules[i], plain[PATH_MAX], tmp[PATH_MAX + 24];
		size_t n = strlen(m);

		for (c = 0; c < sizeof(comp) / sizeof(comp[0]); c++)
			if (n > strlen(comp[c].ext) &&
			    !strcmp(m + n - strlen(comp[c].ext), comp[c].ext))
				break;
		if (c == sizeof(comp) / sizeof(comp[0]))
			continue;
		rtpaths_fmt(plain, sizeof(plain), "%.*s",
			    (int)(n - strlen(comp[c].ext)), m);
		if (!fsio_exists(plain)) {
			char *argv[] = { (char *)comp[c].tool, "-dc", m, NULL };
			struct toolrun r = { .argv = argv, .stdout_path = tmp };
			int status;

			/* Two lab runs may decompress the same module. */
			rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", plain,
				    getpid());
			ret = toolrun(&r, &status);
			if (!ret && status)
				ret = -EIO;
			if (!ret && rename(tmp, plain))
				ret = -errno;
			if (ret) {
				pr_err("%s -dc %s failed", comp[c].tool, m);
				unlink(tmp);
				break;
			}
		}
		memcpy(m, plain, strlen(plain) + 1);
	}
	return ret;
}

/* Takes the cache lock of cache and fills it with unpack() if missing. */
static int cache_fill(const char *cache, int (*unpack)(struct lab_kernel *k,
						   void *arg, const char *dest),
		      struct lab_kernel *k, void *arg)
{
	char lockpath[PATH_MAX + 16], parent[PATH_MAX];
	int ret, lock;

	rtpaths_fmt(parent, sizeof(parent), "%s", cache);
	*strrchr(parent, '/') = '\0';
	ret = fsio_mkdir_p(parent, 0755);
	if (ret)
		return ret;
	rtpaths_fmt(lockpath, sizeof(lockpath), "%s.lock", cache);
	lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		ret = -errno;
		pr_err("%s: %s", lockpath, strerror(errno));
		if (lock >= 0)
			close(lock);
		return ret;
	}
	if (!fsio_exists(cache))
		ret = unpack(k, arg, cache);
	close(lock);
	return ret;
}

/*
 * A 7.x image from rtgate's private apt: linux-binary-R, linux-base-R and
 * linux-modules-R unpacked into one root (their files under usr/lib/
 * modules/R; lib -> usr/lib as on a merged-/usr system, for depmod and
 * modprobe), then depmod.
 */
static int split_unpack(struct lab_kernel *k, void *arg, const char *dest)
{
	static const char *const parts[] = { "binary", "base", "modules",
					     NULL };
	struct debapt *apt = arg;
	char tmp[PATH_MAX + 32], root[PATH_MAX + 40], log[PATH_MAX + 48];
	char dl[PATH_MAX + 40], lib[PATH_MAX + 48], deb[PATH_MAX];
	char *depmod[] = { "depmod", "-b", root, k->release, NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	int i, ret = 0, status;

	rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", dest, getpid());
	rtpaths_fmt(root, sizeof(root), "%s/root", tmp);
	rtpaths_fmt(dl, sizeof(dl), "%s/dl", tmp);
	rtpaths_fmt(log, sizeof(log), "%s.log", dest);
	unlink(log);
	pr_info("downloading linux-{binary,base,modules}-%s through rtgate's "
		"private apt (once; cached in %s) ...", k->release, dest);
	for (i = 0; parts[i] && !ret; i++) {
		char pkg[192];

		rtpaths_fmt(pkg, sizeof(pkg), "linux-%s-%s", parts[i],
			    k->release);
		ret = debapt_download(apt, pkg, dl, deb, sizeof(deb), log);
		if (!ret)
			ret = debapt_unpack(deb, root, log);
		if (!ret)
			unlink(deb);
	}
	rtpaths_fmt(lib, sizeof(lib), "%s/lib", root);
	if (!ret && !fsio_exists(lib) && symlink("usr/lib", lib))
		ret = -errno;
	if (!ret)
		ret = run_logged(depmod, NULL, log, "depmod");
	if (!ret && rename(root, dest))
		ret = -errno;
	toolrun_simple(rm, NULL, NULL, &status);
	return ret;
}

/* debian:7.2-rt: the newest 7.2.x rt-amd64 image the private apt knows. */
static int debian_split(const char *text, struct lab_kernel *k)
{
	struct lab_debimage_spec spec;
	char cache[PATH_MAX], dir[PATH_MAX], *names;
	struct debapt apt;
	int ret;

	ret = lab_debimage_parse(text, &spec);
	if (ret)
		return ret;
	ret = rtpaths_cache(dir, sizeof(dir));
	if (!ret)
		ret = debapt_init(&apt, dir);
	if (!ret)
		ret = debapt_pkgnames(&apt, "linux-binary-", &names);
	if (ret)
		return ret;
	ret = lab_debimage_pick(names, &spec, k->release, sizeof(k->release));
	free(names);
	if (ret)
		return ret;
	rtpaths_fmt(k->package, sizeof(k->package), "linux-binary-%s",
		    k->release);
	ret = debapt_version(&apt, k->package, k->package_version,
			     sizeof(k->package_version));
	if (ret) {
		pr_err("%s: no version in the private apt (%s)", k->package,
		       apt.root);
		return ret;
	}
	rtpaths_fmt(k->name, sizeof(k->name), "debian-%s", k->release);
	rtpaths_fmt(cache, sizeof(cache), "%s/debian/%s_%s", dir, k->package,
		    k->package_version);
	ret = cache_fill(cache, split_unpack, k, &apt);
	if (ret)
		return ret;
	rtpaths_fmt(k->dir, sizeof(k->dir), "%s", cache);
	rtpaths_fmt(k->image, sizeof(k->image), "%s/usr/lib/modules/%s/vmlinuz",
		    cache, k->release);
	rtpaths_fmt(k->config, sizeof(k->config), "%s/usr/lib/modules/%s/config",
		    cache, k->release);
	if (!fsio_exists(k->image)) {
		pr_err("%s: missing: linux-binary-%s has no kernel there",
		       k->image, k->release);
		return -EIO;
	}
	ret = read_config(k, false);
	if (!ret)
		ret = debian_modules(k);
	if (!ret)
		ret = decompress_modules(k);
	return ret;
}

/* cache_fill()'s unpack of a bookworm image: one linux-image package. */
static int unpack_image(struct lab_kernel *k, void *arg, const char *dest)
{
	(void)arg;
	return debian_unpack(k->package, k->release, dest);
}

int lab_kernel_debian(const char *flavour, struct lab_kernel *k)
{
	char cache[PATH_MAX], top[PATH_MAX];
	const char *meta;
	int ret;

	memset(k, 0, sizeof(*k));
	rtpaths_fmt(k->origin, sizeof(k->origin), "debian");
	if (!strcmp(flavour, "rt"))
		meta = "linux-image-rt-amd64";
	else if (!strcmp(flavour, "std"))
		meta = "linux-image-amd64";
	else
		return debian_split(flavour, k);
	ret = debian_resolve(meta, k->package, sizeof(k->package),
			     k->package_version, sizeof(k->package_version));
	if (ret) {
		pr_err("apt-cache knows no %s (not Debian? apt-get update?)",
		       meta);
		return ret == -ENOENT ? -ENOPKG : ret;
	}
	/* linux-image-6.1.0-57-rt-amd64 -> 6.1.0-57-rt-amd64 */
	rtpaths_fmt(k->release, sizeof(k->release), "%s", k->package + 12);
	rtpaths_fmt(k->name, sizeof(k->name), "debian-%s", k->release);
	ret = rtpaths_cache(top, sizeof(top));
	if (ret)
		return ret;
	rtpaths_fmt(cache, sizeof(cache), "%s/debian/%s_%s", top,
		    k->package, k->package_version);
	ret = cache_fill(cache, unpack_image, k, NULL);
	if (ret)
		return ret;
	rtpaths_fmt(k->dir, sizeof(k->dir), "%s", cache);
	rtpaths_fmt(k->image, sizeof(k->image), "%s/boot/vmlinuz-%s", cache,
		    k->release);
	rtpaths_fmt(k->config, sizeof(k->config), "%s/boot/config-%s", cache,
		    k->release);
	ret = read_config(k, false);
	return ret ? ret : debian_modules(k);
}

int lab_kernel_resolve(const char *spec, const char *out_dir,
		       struct lab_kernel *k)
{
	if (!strncmp(spec, "debian:", 7))
		return lab_kernel_debian(spec + 7, k);
	return lab_kernel_from_build(spec, out_dir, k);
}
