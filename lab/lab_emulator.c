// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which qemu-system-x86_64 the lab boots (docs/kernels.md, "The quiet
 * lab's emulator").
 *
 * Under -icount with several vCPUs, QEMU before 10.0 (bookworm has 7.2)
 * hands each round-robin turn a budget that runs up to the next timer
 * deadline, starting with vCPU 0; when vCPU 0 spends it, the other vCPUs
 * get nothing until the next round, and a wake-up on them waits
 * milliseconds of virtual time (a busy vCPU 0 held a cyclictest on vCPU 1
 * off for 723 ms). QEMU 10 splits the budget between the vCPUs. So the
 * lab runs, in this order:
 *
 *   1. $RTGATE_QEMU, a path to a qemu-system-x86_64 (the user's choice);
 *   2. the host's qemu-system-x86_64 when it is 10.0 or later;
 *   3. bookworm-backports' qemu-system-x86, fetched once through rtgate's
 *      private apt into CACHE/qemu/ and run from there (never installed);
 *   4. the host's older QEMU, with a warning that two-vCPU maxima under
 *      -icount are the emulator's, not the kernel's.
 *
 * Even QEMU 10 lets a busy vCPU's turn run up to half the distance to the
 * next timer deadline while an interrupt for another vCPU waits: hundreds
 * of virtual microseconds. So when the turns matter (-icount and several
 * vCPUs) the lab runs its own QEMU instead of 2-4, one that takes -accel
 * tcg,icount-quantum= (lab/qemu/icount-quantum.patch), built once on first
 * need (lab_emubuild.c). Whatever runs, takes_quantum says whether it
 * takes the quantum, asked of the program itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debapt.h"
#include "fsio.h"
#include "jsonout.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

#define HOST_QEMU	"qemu-system-x86_64"
#define BACKPORTS	"bookworm-backports"

/* "QEMU emulator version 10.0.2 (Debian ...)" of program, or -errno. */
static int qemu_version(const char *program, char *buf, size_t len,
			int *major)
{
	char *argv[] = { (char *)program, "--version", NULL }, *out = NULL;
	struct toolrun t = { .argv = argv, .capture = &out };
	const char *v;
	int ret, status;

	*major = 0;
	ret = toolrun(&t, &status);
	if (!ret && (status || !out))
		ret = -ENOEXEC;
	if (!ret) {
		out[strcspn(out, "\n")] = '\0';
		rtpaths_fmt(buf, len, "%s", out);
		v = strstr(out, "version ");
		if (v)
			*major = atoi(v + 8);
	}
	free(out);
	return ret == -ENOENT ? -ENOPKG : ret;
}

/*
 * Whether program takes -accel tcg,icount-quantum=: given a value that is
 * not a number, one that knows the property says what it expects, one
 * that does not says the property is not found. Nothing boots (-M none).
 */
static bool takes_quantum(const char *program)
{
	char *argv[] = { (char *)program, "-M", "none", "-display", "none",
			 "-accel", "tcg,icount-quantum=none", NULL };
	char *out = NULL;
	struct toolrun t = { .argv = argv, .capture = &out,
			     .timeout_ms = 10000 };
	bool yes;
	int status;

	yes = !toolrun(&t, &status) && status && out &&
	      strstr(out, "icount-quantum") && !strstr(out, "not found");
	free(out);
	return yes;
}

static int use(struct lab_emulator *e, const char *program,
	       const char *origin)
{
	int major, ret;

	ret = qemu_version(program, e->version, sizeof(e->version), &major);
	if (ret)
		return ret;
	rtpaths_fmt(e->program, sizeof(e->program), "%s", program);
	rtpaths_fmt(e->origin, sizeof(e->origin), "%s", origin);
	e->splits_budget = major >= LAB_QEMU_SPLIT_MAJOR;
	e->takes_quantum = takes_quantum(program);
	return 0;
}

/* Unpacks bookworm-backports' QEMU into dir once; 0 when it runs. */
static int fetch_backports(const char *cache, const char *dir)
{
	static const char *const pkgs[] = { "qemu-system-x86",
					    "qemu-system-data" };
	char tmp[PATH_MAX], dl[PATH_MAX + 8], log[PATH_MAX + 16];
	char deb[PATH_MAX], what[64], bin[PATH_MAX + 32];
	struct debapt apt;
	size_t i;
	int ret;

	if (rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", dir, getpid()))
		return -ENAMETOOLONG;
	rtpaths_fmt(dl, sizeof(dl), "%s/dl", tmp);
	rtpaths_fmt(log, sizeof(log), "%s.apt.log", dir);
	pr_info("lab: the host's QEMU splits no -icount budget between vCPUs; "
		"fetching %s's qemu-system-x86 through rtgate's private apt "
		"(once; nothing is installed) ...", BACKPORTS);
	ret = debapt_init(&apt, cache);
	for (i = 0; !ret && i < sizeof(pkgs) / sizeof(pkgs[0]); i++) {
		rtpaths_fmt(what, sizeof(what), "%s/%s", pkgs[i], BACKPORTS);
		ret = debapt_download(&apt, what, dl, deb, sizeof(deb), log);
		if (!ret)
			ret = debapt_unpack(deb, tmp, log);
	}
	if (!ret) {
		int major;
		char v[128];

		rtpaths_fmt(bin, sizeof(bin), "%s/usr/bin/" HOST_QEMU, tmp);
		ret = qemu_version(bin, v, sizeof(v), &major);
		if (ret)
			pr_err("lab: %s does not run on this host (%s; try "
			       "`ldd %s`)", bin, strerror(-ret), bin);
	}
	jsonout_tmpdir_remove(dl);
	if (!ret && rename(tmp, dir))
		ret = -errno;
	if (ret)
		jsonout_tmpdir_remove(tmp);
	return ret;
}

int lab_emulator_pick(struct lab_emulator *e, bool turns)
{
	char cache[PATH_MAX], dir[PATH_MAX + 16], bin[PATH_MAX + 48];
	const char *env = getenv("RTGATE_QEMU");
	int ret, major;

	memset(e, 0, sizeof(*e));
	if (env && *env) {
		if (*env != '/') {
			pr_err("RTGATE_QEMU=%s: an absolute path to a "
			       "qemu-system-x86_64 is wanted", env);
			return -EINVAL;
		}
		ret = use(e, env, "RTGATE_QEMU");
		if (ret)
			pr_err("RTGATE_QEMU=%s does not run: %s", env,
			       strerror(-ret));
		return ret;
	}
	if (turns) {
		ret = lab_emubuild(bin, sizeof(bin));
		if (!ret)
			ret = use(e, bin, "lab");
		if (!ret && !e->takes_quantum) {
			pr_err("lab: %s takes no icount-quantum: not the lab's "
			       "QEMU (remove its folder to build it again)",
			       bin);
			ret = -ENOEXEC;
		}
		if (ret)
			pr_err("lab: the lab's QEMU is wanted for several "
			       "vCPUs under -icount (docs/kernels.md); set "
			       "RTGATE_QEMU to run another");
		return ret;
	}
	ret = qemu_version(HOST_QEMU, e->version, sizeof(e->version),
			   &major);
	if (ret == -ENOPKG) {
		pr_err(HOST_QEMU " is not installed (apt-get install "
		       "qemu-system-x86)");
		return ret;
	}
	if (!ret && major >= LAB_QEMU_SPLIT_MAJOR)
		return use(e, HOST_QEMU, "host");
	ret = rtpaths_cache(cache, sizeof(cache));
	if (!ret)
		ret = rtpaths_fmt(dir, sizeof(dir), "%s/qemu/" BACKPORTS,
				  cache);
	if (!ret) {
		rtpaths_fmt(bin, sizeof(bin), "%s/usr/bin/" HOST_QEMU, dir);
		if (!fsio_exists(bin)) {
			char parent[PATH_MAX + 8];

			rtpaths_fmt(parent, sizeof(parent), "%s/qemu", cache);
			ret = fsio_mkdir_p(parent, 0755);
			if (!ret)
				ret = fetch_backports(cache, dir);
		}
	}
	if (!ret && !use(e, bin, BACKPORTS)) {
		rtpaths_fmt(e->datadir, sizeof(e->datadir), "%s/usr/share/qemu",
			    dir);
		return 0;
	}
	ret = use(e, HOST_QEMU, "host");
	if (!ret)
		pr_warn("lab: %s: under -icount with several vCPUs this QEMU "
			"can starve a vCPU for milliseconds; two-vCPU maxima "
			"are the emulator's (set RTGATE_QEMU to a QEMU >= %d)",
			e->version, LAB_QEMU_SPLIT_MAJOR);
	return ret;
}
