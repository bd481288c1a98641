/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the lab/ files; not part of the contract (lab.h is). */
#ifndef RTGATE_LAB_PRIV_H
#define RTGATE_LAB_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "filehash.h"
#include "lab.h"

/* ---- Kernels to boot ---- */

/*
 * The kernels the lab boots: one built by `rtgate kernel build`
 * (out/kernels/NAME: bzImage, .config, build.json; lab drivers built in),
 * or one of Debian's prebuilt images, unpacked with dpkg-deb into a cache
 * under out/ (its virtio and 9p drivers are modules the initramfs carries):
 * bookworm's 6.1 (debian:rt, debian:std: linux-image-*-amd64 / -rt-amd64
 * through the host's apt) or a 7.x split image (debian:7.2-rt, 7.3,
 * 7.3-cloud: lab_debimage.c) through rtgate's private apt (debapt.h).
 */

#define LAB_MAX_MODULES 32

struct lab_kernel {
	char name[96];			/* rt-base, debian-6.1.0-57-rt-amd64 */
	char origin[16];		/* "build" or "debian" */
	char dir[PATH_MAX];		/* out/kernels/NAME or the deb root */
	char image[PATH_MAX];		/* bzImage / vmlinuz */
	char config[PATH_MAX];		/* the kernel's .config */
	char release[128];		/* what `uname -r` will say */
	char package[128];		/* Debian: the image package */
	char package_version[64];
	bool preempt_rt;
	/* Modules to load before the 9p share mounts, in order. */
	char modules[LAB_MAX_MODULES][PATH_MAX];
	int nr_modules;
};

/* out/kernels/NAME (or a NAME under out/kernels). */
int lab_kernel_from_build(const char *dir_or_name, const char *out_dir,
			  struct lab_kernel *k);
/*
 * flavour: "rt" or "std" (6.1), or SERIES[-rt|-cloud] (7.x); downloads
 * the image's packages once (cache). -EINVAL / -ENOENT: no such image.
 */
int lab_kernel_debian(const char *flavour, struct lab_kernel *k);
/* "debian:FLAVOUR", a folder, or a NAME under out/kernels. */
int lab_kernel_resolve(const char *spec, const char *out_dir,
		       struct lab_kernel *k);

/* ---- The initramfs ---- */

/*
 * The lab's initramfs: rtgate and the workloads (bin/), the suites, the
 * measurement tools (cyclictest, hackbench, stress-ng: Debian's dynamic
 * binaries) with every library ldd lists, busybox for debugging, the
 * kernel's config in /boot and, for Debian kernels, the modules the 9p
 * share needs. /init is rtgate itself (`rtgate lab-init`). Built with
 * `busybox cpio -o -H newc` and cached by content: the same files give
 * the same out/cache/initramfs/SHA256.cpio without rebuilding it.
 */

#define INITRAMFS_MAX_TOOLS 16

/* Where things are in the guest. */
#define LAB_GUEST_BIN		"/opt/rtgate/bin"
#define LAB_GUEST_TOOLS		"/opt/rtgate/tools"	/* rtpaths_tool() */
#define LAB_GUEST_SUITES	"/opt/rtgate/suites"
#define LAB_GUEST_MODULES	"/etc/rtgate/modules"
#define LAB_GUEST_SHARE		"/lab"
/* The guest's kernel messages, in the share after the run. */
#define LAB_GUEST_KMSG		"kmsg.log"

struct lab_initramfs_params {
	const struct lab_kernel *k;
	const char *bin_dir;		/* rtgate's bin/ */
	const char *suites_dir;		/* NULL: none */
	const char *suite;		/* one more suite file, or NULL */
	const char *tools[INITRAMFS_MAX_TOOLS];	/* programs in PATH */
	int nr_tools;
	const char *cache_dir;		/* out/cache/initramfs */
};

/*
 * The tools every image carries when they are installed (cyclictest must
 * be); stress-ng is added for suites that name it.
 */
extern const char *const lab_initramfs_default_tools[];
/* Whether the image can carry @name: rtgate built it or it is in PATH. */
bool lab_initramfs_have_tool(const char *name);

/*
 * Builds (or finds in the cache) the image; path receives it, hash its
 * content key. Returns 0 or -errno (a missing tool: -ENOPKG).
 */
int lab_initramfs_build(const struct lab_initramfs_params *p, char *path,
			size_t len, char hash[FILEHASH_HEX_LEN + 1]);

/* ---- Debian's images ---- */

/*
 * Debian's split 7.x kernel images, by name alone: which release R a
 * "7.2-rt" means. In 7.x, linux-image-R is a meta package over
 * linux-binary-R (the kernel, /usr/lib/modules/R/vmlinuz), linux-base-R
 * (its config, System.map, modules.builtin) and linux-modules-R; R is
 * UPSTREAM+TAG-FLAVOUR, e.g. 7.2.13+deb14-rt-amd64. Pure functions over a
 * list of package names (`apt-cache pkgnames linux-binary-`), so tests
 * replay a recorded list.
 */

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

/* ---- QEMU ---- */

/*
 * One boot of qemu-system-x86_64: a kernel, the lab's initramfs, the 9p
 * results share, the serial console logged to a file (and "rtgate..."
 * lines shown), a timeout after which QEMU is killed. KVM when the probe
 * says a guest boots with it, else TCG (latency numbers meaningless, the
 * pipeline real) -- or, in the quiet lab's clock (lab.h),
 * single-threaded TCG with -icount.
 */

struct lab_qemu_params {
	const char *program;		/* qemu-system-x86_64 (lab_emulator) */
	const char *datadir;		/* -L: its firmware, or NULL */
	const char *image;		/* bzImage / vmlinuz */
	const char *initrd;
	const char *share;		/* host folder, tag LAB_SHARE_TAG */
	const char *append;		/* more kernel command line */
	const char *accel;		/* "kvm" or "tcg" */
	bool tcg_single;		/* -accel tcg,thread=single */
	unsigned int quantum_ns;	/* -accel tcg,icount-quantum=; 0: none
					   (set only for several vCPUs under
					   icount on a QEMU that takes it) */
	struct lab_clock clock;		/* icount: single-threaded TCG too */
	int cpus;
	int mem_mb;
	unsigned int timeout_s;
	const char *console_log;
	bool verbose;			/* every console line to stderr */
	bool quiet;			/* no console line to stderr */
};

struct lab_qemu_result {
	int status;			/* QEMU's exit status; -1: none */
	bool timed_out;
	bool panic;			/* the console said "Kernel panic" */
	char panic_line[256];
	double wall_s;
};

/* Boots once. Returns 0 (see r), -ENOPKG without QEMU, -EINTR. */
int lab_qemu_boot(const struct lab_qemu_params *p, struct lab_qemu_result *r);

/* The kernel command line lab_qemu_boot() passes. */
void lab_qemu_kernel_cmdline(const struct lab_qemu_params *p, char *buf,
			     size_t len);

/* ---- The emulator (lab_emulator.c) ---- */

/* The first QEMU that splits the -icount budget between vCPUs. */
#define LAB_QEMU_SPLIT_MAJOR	10

/*
 * The longest round-robin turn of a vCPU the lab asks of a QEMU that
 * takes -accel tcg,icount-quantum= (lab/qemu/icount-quantum.patch), in
 * virtual ns: with several vCPUs under -icount, an interrupt for one
 * waits at most this long for another busy one (docs/kernels.md).
 */
#define LAB_QEMU_QUANTUM_NS	20000u

struct lab_emulator {
	char program[PATH_MAX];		/* what lab_qemu_boot() runs */
	char datadir[PATH_MAX];		/* its firmware (-L), or "" */
	char version[128];		/* "QEMU emulator version 10.0.2 ..." */
	char origin[32];		/* host, RTGATE_QEMU, bookworm-backports,
					   lab (the lab's own build) */
	bool splits_budget;		/* >= LAB_QEMU_SPLIT_MAJOR */
	bool takes_quantum;		/* -accel tcg,icount-quantum= */
};

/*
 * $RTGATE_QEMU; else, when @turns matter (-icount with several vCPUs),
 * the lab's own QEMU with the turn quantum (built once, lab_emubuild());
 * else the host's QEMU when it is new enough, else bookworm-backports'
 * (fetched once into CACHE/qemu/), else the host's with a warning.
 * -ENOPKG without any QEMU; the build's error when the lab's QEMU was
 * wanted and could not be built.
 */
int lab_emulator_pick(struct lab_emulator *e, bool turns);

/* ---- The lab's own QEMU (lab_emubuild.c) ---- */

/*
 * Builds the lab's QEMU unless it is there (minutes, with progress) into
 * CACHE/qemu/icount-quantum-VERSION-SHA (SHA: the patch's);
 * @program receives the path of its qemu-system-x86_64.
 */
int lab_emubuild(char *program, size_t len);

/* Whether /dev/kvm can be opened at all (the probe boots a guest). */
bool lab_qemu_kvm_device(void);

/* ---- Crashes ---- */

/*
 * A guest that crashed is a result (docs/kernels.md, "A guest crash"):
 * what the console says (the oops or panic, quoted), what the runner was
 * doing (the scenario and repetition its last progress line started, the
 * tunables that scenario sets), written as crash.json and crash.txt, a
 * "guest crash" section in report.txt/md and an <error> testcase in
 * junit.xml, so that CI shows the crash by name and not only "exit 5".
 */

struct lab_crash {
	char kind[16];		/* "panic", "oops", "timeout" */
	char headline[256];	/* the first line of the oops, or the panic */
	char *oops;		/* the quoted console lines, or NULL */
	char step[160];		/* "[7/10] hrtick rep 4/5", or "" */
	char scenario[128];
	unsigned int rep, reps;
	bool step_ended;	/* the runner said how that step ended */
	cJSON *tunables;	/* the scenario's (from the manifest), or NULL */
};

/*
 * Reads the console log; returns true when it shows a crash (an oops,
 * BUG or panic), or @hung (QEMU timed out) is set, with @c filled.
 */
bool lab_crash_read(const char *console, bool hung, struct lab_crash *c);

/*
 * A timeout's headline gains how long the guest had been silent when QEMU
 * was killed (@silent_s; < 0: not known): seconds mean a guest still
 * working, minutes one that hung.
 */
void lab_crash_last_sign(struct lab_crash *c, long silent_s);

/* The scenario's tunables from a results directory's manifest. */
void lab_crash_tunables(struct lab_crash *c, const char *run_dir);

/* crash.json and the report lines as a JSON object (caller frees). */
cJSON *lab_crash_json(const struct lab_crash *c);

/*
 * Writes crash.json and crash.txt into @dir, appends the crash to
 * report.txt/report.md and adds a testcase to junit.xml there (creating
 * a junit.xml of its own when there is none). 0 or -errno.
 */
int lab_crash_write(const struct lab_crash *c, const char *dir,
		    const char *kernel);

/*
 * lab_crash_junit.c: the crash as an error testcase in @dir/junit.xml,
 * the analyzer's (its suite's counts raised) or one of its own; valid
 * against Ant's JUnit schema as the analyzer's is. @text: crash.txt's;
 * @where: "during scenario S, repetition R of N" or the like.
 */
int lab_crash_junit(const struct lab_crash *c, const char *dir,
		    const char *kernel, const char *text, const char *where);

void lab_crash_free(struct lab_crash *c);

/* ---- The gate ---- */

/*
 * Like with like in a lab gate: the parameters --append-a and --append-b
 * set differently, as cmdline.PARAM, joined with @given (--intended, as
 * an_like_intended_add() took them) into @out.
 */
void lab_gate_append_intended(const char *a, const char *b,
			      const char *given, char *out, size_t len);

#endif
