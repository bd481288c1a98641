// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lab's own QEMU (docs/kernels.md, "The lab's emulator"): QEMU 10.0.2
 * with lab/qemu/icount-quantum.patch, which adds -accel
 * tcg,icount-quantum=NS. Under -icount with several vCPUs, QEMU runs them
 * in turn on one thread and an interrupt for one vCPU waits for the turn
 * of another busy one to end: up to half the distance to the next timer
 * deadline, hundreds of virtual microseconds. The quantum caps a turn.
 *
 * Built once, on first need, into CACHE/qemu/icount-quantum-VERSION-SHA/
 * (SHA: the patch's first 8 hex digits, so a changed patch builds anew):
 *
 *   1. the upstream tarball Debian ships (qemu_10.0.2+ds.orig.tar.xz) from
 *      the Debian mirror rtgate's private apt uses, checked against the
 *      SHA-256 of bookworm-backports' (signed) Sources index;
 *   2. meson >= 1.5 and pycotap, which configure wants and bookworm lacks,
 *      from bookworm-backports through the private apt, unpacked beside
 *      the tree (nothing is installed);
 *   3. the patch, with patch(1);
 *   4. configure for x86_64-softmmu with TCG and virtfs and without what
 *      the lab never uses; ninja builds qemu-system-x86_64. Its firmware
 *      is the host's (qemu-system-x86's seabios), by --firmwarepath.
 *
 * The build tree is removed; the folder keeps the binary, the patch it
 * carries and the build's log.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debapt.h"
#include "filehash.h"
#include "fsio.h"
#include "jsonout.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

#define QEMU_VERSION	"10.0.2"
#define QEMU_TARBALL	"qemu_" QEMU_VERSION "+ds.orig.tar.xz"
#define QEMU_TARBALL_SHA256 \
	"0901da33844a331bf8b3602b9c1fbd178e60b737c8e3ade678255bd090c9b9f1"
#define QEMU_POOL	"/pool/main/q/qemu/"
#define PATCH_REL	"lab/qemu"
#define PATCH_NAME	"icount-quantum.patch"

/*
 * The firmware images Debian's "+ds" tarball leaves out and QEMU's
 * pc-bios/meson.build still names: empty stand-ins (an empty bzip2
 * stream), never installed or booted; the lab boots seabios.
 */
static const char *const edk2_blobs[] = {
	"edk2-aarch64-code.fd", "edk2-arm-code.fd", "edk2-arm-vars.fd",
	"edk2-riscv-code.fd", "edk2-riscv-vars.fd", "edk2-i386-code.fd",
	"edk2-i386-secure-code.fd", "edk2-i386-vars.fd",
	"edk2-x86_64-code.fd", "edk2-x86_64-secure-code.fd",
	"edk2-loongarch64-code.fd", "edk2-loongarch64-vars.fd",
};
static const unsigned char empty_bz2[] = {
	'B', 'Z', 'h', '9', 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0,
};

static const char *const configure_args[] = {
	"--target-list=x86_64-softmmu", "--disable-download",
	"--disable-install-blobs", "--disable-docs", "--disable-werror",
	"--enable-tcg", "--enable-virtfs", "--disable-kvm", "--disable-xen",
	"--disable-gtk", "--disable-sdl", "--disable-vnc", "--disable-opengl",
	"--disable-spice", "--disable-curses", "--disable-slirp",
	"--disable-rust", "--disable-plugins", "--disable-tools",
	"--disable-guest-agent",
	"--firmwarepath=/usr/share/qemu:/usr/share/seabios:"
	"/usr/lib/ipxe/qemu",
};

struct emubuild {
	char patch[PATH_MAX];		/* lab/qemu/icount-quantum.patch */
	char patch_sha[FILEHASH_HEX_LEN + 1];
	char dir[PATH_MAX];		/* CACHE/qemu/icount-quantum-... */
	char tmp[PATH_MAX + 32];	/* dir.tmp.PID: the build */
	char src[PATH_MAX + 64];	/* tmp/qemu-10.0.2 */
	char py[PATH_MAX + 64];		/* tmp/py: meson, pycotap */
	char log[PATH_MAX + 16];	/* dir.log, then dir/build.log */
	time_t start, last_report;
	long steps, total;
};

/* CACHE/qemu/icount-quantum-VERSION-SHA, SHA from the patch (@patch). */
static int emubuild_dir(char *dir, size_t len, char *patch, size_t plen)
{
	char cache[PATH_MAX], top[PATH_MAX], sha[FILEHASH_HEX_LEN + 1];
	int ret;

	ret = rtpaths_in_top(top, sizeof(top), PATCH_REL);
	if (!ret)
		ret = rtpaths_fmt(patch, plen, "%s/" PATCH_NAME, top);
	if (!ret)
		ret = filehash_sha256(patch, sha);
	if (ret) {
		pr_err("lab: the QEMU patch %s: %s", patch, strerror(-ret));
		return ret;
	}
	ret = rtpaths_cache(cache, sizeof(cache));
	if (!ret)
		ret = rtpaths_fmt(dir, len, "%s/qemu/icount-quantum-"
				  QEMU_VERSION "-%.8s", cache, sha);
	return ret;
}

/* Runs argv with its output appended to the build's log; 0 when it ran. */
static int run_logged(struct emubuild *b, char *const *argv, const char *cwd,
		      char *const *env, const char *what,
		      void (*on_line)(const char *line, void *arg))
{
	struct toolrun t = {
		.argv = argv, .cwd = cwd, .env = env, .out_path = b->log,
		.out_append = true, .on_line = on_line, .arg = b,
	};
	int ret, status;

	ret = toolrun(&t, &status);
	if (ret == -ENOENT) {
		pr_err("lab: building QEMU needs %s (apt-get install %s)",
		       argv[0], !strcmp(argv[0], "ninja") ? "ninja-build" :
		       argv[0]);
		return -ENOPKG;
	}
	if (!ret && status) {
		pr_err("lab: building QEMU: %s failed (exit %d); its output: %s",
		       what, status, b->log);
		ret = -EIO;
	}
	return ret;
}

static int fetch_tarball(struct emubuild *b, const struct debapt *apt)
{
	char url[512], out[PATH_MAX + 64], sha[FILEHASH_HEX_LEN + 1];
	char *argv[] = { "curl", "-fsSL", "--retry", "2", "-o", out, url,
			 NULL };
	int ret;

	rtpaths_fmt(url, sizeof(url), "%s" QEMU_POOL QEMU_TARBALL, apt->mirror);
	rtpaths_fmt(out, sizeof(out), "%s/" QEMU_TARBALL, b->tmp);
	pr_info("lab: building the lab's QEMU " QEMU_VERSION " with %s "
		"(once; docs/kernels.md): fetching %s ...", PATCH_NAME, url);
	ret = run_logged(b, argv, NULL, NULL, "curl", NULL);
	if (!ret)
		ret = filehash_sha256(out, sha);
	if (!ret && strcmp(sha, QEMU_TARBALL_SHA256)) {
		pr_err("lab: %s has SHA-256 %s, not Debian's %s: refused",
		       url, sha, QEMU_TARBALL_SHA256);
		ret = -EBADMSG;
	}
	if (!ret) {
		char *tar[] = { "tar", "--no-same-owner",
				"--no-same-permissions", "-xf", out, "-C",
				b->tmp, NULL };

		ret = run_logged(b, tar, NULL, NULL, "tar", NULL);
	}
	if (!ret)
		unlink(out);
	return ret;
}

/* meson and pycotap from bookworm-backports, into b->py. */
static int fetch_python(struct emubuild *b, struct debapt *apt)
{
	static const char *const pkgs[] = {
		"meson/bookworm-backports",
		"python3-pycotap/bookworm-backports",
	};
	char dl[PATH_MAX + 64], deb[PATH_MAX];
	size_t i;
	int ret = 0;

	rtpaths_fmt(dl, sizeof(dl), "%s/dl", b->tmp);
	for (i = 0; !ret && i < sizeof(pkgs) / sizeof(pkgs[0]); i++) {
		ret = debapt_download(apt, pkgs[i], dl, deb, sizeof(deb),
				      b->log);
		if (!ret)
			ret = debapt_unpack(deb, b->py, b->log);
	}
	return ret;
}

static int prepare_tree(struct emubuild *b)
{
	char *argv[] = { "patch", "-p1", "-N", "-i", b->patch, NULL };
	char path[PATH_MAX + 128];
	size_t i;
	int ret;

	ret = run_logged(b, argv, b->src, NULL, "patch", NULL);
	for (i = 0; !ret && i < sizeof(edk2_blobs) / sizeof(edk2_blobs[0]);
	     i++) {
		rtpaths_fmt(path, sizeof(path), "%s/pc-bios/%s.bz2", b->src,
			    edk2_blobs[i]);
		if (!fsio_exists(path))
			ret = fsio_write_atomic(path, empty_bz2,
						sizeof(empty_bz2));
	}
	return ret;
}

static void on_ninja_line(const char *line, void *arg)
{
	struct emubuild *b = arg;
	time_t now = time(NULL);

	if (sscanf(line, "[%ld/%ld]", &b->steps, &b->total) != 2)
		return;
	if (now - b->last_report < 30)
		return;
	b->last_report = now;
	pr_info("lab: building QEMU: %ld of %ld steps, %ldm%02lds", b->steps,
		b->total, (long)(now - b->start) / 60,
		(long)(now - b->start) % 60);
}

static int build_tree(struct emubuild *b)
{
	size_t nr = sizeof(configure_args) / sizeof(configure_args[0]);
	char *argv[sizeof(configure_args) / sizeof(configure_args[0]) + 3];
	char build[PATH_MAX + 80], pypath[PATH_MAX + 128];
	char path[PATH_MAX + 256], jobs[16];
	char *env[] = { pypath, path, NULL };
	char *ninja[] = { "ninja", "-j", jobs, "qemu-system-x86_64", NULL };
	const char *host_path = getenv("PATH");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;
	int ret;

	rtpaths_fmt(pypath, sizeof(pypath),
		    "PYTHONPATH=%s/usr/lib/python3/dist-packages", b->py);
	rtpaths_fmt(path, sizeof(path), "PATH=%s/usr/bin:%s", b->py,
		    host_path ? host_path : "/usr/bin:/bin");
	rtpaths_fmt(build, sizeof(build), "%s/build", b->src);
	rtpaths_fmt(jobs, sizeof(jobs), "%ld", cpus > 0 ? cpus : 1);
	ret = fsio_mkdir_p(build, 0755);
	if (ret)
		return ret;
	/* bookworm's python3, not a user's pyenv: meson is unpacked for it */
	argv[0] = "../configure";
	argv[1] = "--python=/usr/bin/python3";
	for (i = 0; i < nr; i++)
		argv[i + 2] = (char *)configure_args[i];
	argv[nr + 2] = NULL;
	pr_info("lab: building QEMU: configure (x86_64-softmmu, TCG) ...");
	ret = run_logged(b, argv, build, env, "configure", NULL);
	if (ret)
		return ret;
	b->start = b->last_report = time(NULL);
	return run_logged(b, ninja, build, env, "ninja", on_ninja_line);
}

/* The binary, the patch and the log into tmp/out, then out becomes dir. */
static int keep(struct emubuild *b)
{
	char from[PATH_MAX + 128], out[PATH_MAX + 48], to[PATH_MAX + 96];
	int ret;

	rtpaths_fmt(out, sizeof(out), "%s/out", b->tmp);
	ret = fsio_mkdir_p(out, 0755);
	rtpaths_fmt(from, sizeof(from), "%s/build/qemu-system-x86_64",
		    b->src);
	rtpaths_fmt(to, sizeof(to), "%s/qemu-system-x86_64", out);
	if (!ret)
		ret = fsio_copy(from, to);
	if (!ret && chmod(to, 0755))
		ret = -errno;
	rtpaths_fmt(to, sizeof(to), "%s/" PATCH_NAME, out);
	if (!ret)
		ret = fsio_copy(b->patch, to);
	rtpaths_fmt(to, sizeof(to), "%s/build.log", out);
	if (!ret)
		ret = fsio_copy(b->log, to);
	/* a build beside this one may have finished first: its is as good */
	if (!ret && rename(out, b->dir)) {
		ret = -errno;
		if (fsio_exists(b->dir))
			ret = 0;
	}
	if (!ret)
		unlink(b->log);
	return ret;
}

int lab_emubuild(char *program, size_t len)
{
	struct emubuild *b = calloc(1, sizeof(*b));
	char parent[PATH_MAX + 8], cache[PATH_MAX];
	struct debapt apt;
	time_t t0 = time(NULL);
	int ret;

	if (!b)
		return -ENOMEM;
	ret = emubuild_dir(b->dir, sizeof(b->dir), b->patch, sizeof(b->patch));
	if (!ret)
		ret = rtpaths_fmt(program, len, "%s/qemu-system-x86_64",
				  b->dir);
	if (ret || fsio_exists(program))
		goto out;
	rtpaths_fmt(parent, sizeof(parent), "%s", b->dir);
	*strrchr(parent, '/') = '\0';
	rtpaths_fmt(b->tmp, sizeof(b->tmp), "%s.tmp.%d", b->dir, getpid());
	rtpaths_fmt(b->src, sizeof(b->src), "%s/qemu-" QEMU_VERSION, b->tmp);
	rtpaths_fmt(b->py, sizeof(b->py), "%s/py", b->tmp);
	rtpaths_fmt(b->log, sizeof(b->log), "%s.log", b->dir);
	ret = fsio_mkdir_p(parent, 0755);
	if (!ret)
		ret = fsio_mkdir_p(b->tmp, 0755);
	if (!ret)
		ret = rtpaths_cache(cache, sizeof(cache));
	if (!ret) {
		unlink(b->log);
		ret = debapt_init(&apt, cache);
	}
	if (!ret)
		ret = fetch_tarball(b, &apt);
	if (!ret)
		ret = fetch_python(b, &apt);
	if (!ret)
		ret = prepare_tree(b);
	if (!ret)
		ret = build_tree(b);
	if (!ret)
		ret = keep(b);
	jsonout_tmpdir_remove(b->tmp);
	if (!ret)
		pr_info("lab: built %s in %ldm%02lds", program,
			(long)(time(NULL) - t0) / 60,
			(long)(time(NULL) - t0) % 60);
out:
	free(b);
	return ret;
}
