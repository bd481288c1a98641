/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One lab run: a kernel, the initramfs, a suite (or a command), a boot,
 * the results brought back. The run's work folder is out/lab/ID/ (share/,
 * console.log, lab.json); the suite's results directory moves to the
 * results folder with lab.json and lab-console.log beside its manifest,
 * whose "lab" object names the kernel that ran it.
 */
#ifndef RTGATE_LAB_RUN_H
#define RTGATE_LAB_RUN_H

#include <limits.h>
#include <stddef.h>
#include <stdbool.h>

#include "lab_clock.h"

#define LAB_MAX_ARGS 32

struct lab_run_params {
	const char *kernel;		/* a build folder, NAME, debian:rt|std */
	const char *suite;		/* FILE, or NAME in suites/ */
	const char *args[LAB_MAX_ARGS];	/* more `rtgate run` arguments */
	int nr_args;
	const char *exec[LAB_MAX_ARGS];	/* --exec: a command instead */
	int nr_exec;
	const char *append;		/* more kernel command line */
	const char *accel;		/* auto | kvm | tcg */
	int cpus;
	int mem_mb;
	unsigned int timeout_s;
	const char *tools[16];		/* --with PROG */
	int nr_tools;
	bool verbose;
	const char *out_dir;		/* out/ */
	const char *results_dir;	/* where results/<run-id> go */
	const char *label;		/* a word in the work folder's name */
	bool tcg_single;		/* -accel tcg,thread=single */
	struct lab_clock clock;		/* --clock: host or icount:N */
	bool rerun_on_crash;		/* a crash under multi-threaded TCG is
					 * booted again single-threaded */
};

struct lab_run_result {
	int exit_code;			/* the documented exit code */
	char run_dir[PATH_MAX];		/* the results directory, or "" */
	char lab_dir[PATH_MAX];		/* out/lab/ID */
	bool crashed;			/* the guest crashed (lab_crash.h) */
	char crash[320];		/* what and where, one line */
	char crash_dir[PATH_MAX];	/* where crash.json went */
	bool rerun;			/* booted again after a crash */
	bool rerun_crashed;		/* and crashed again */
};

/*
 * Returns 0 with res filled in (even for a failed boot), or -errno. A
 * guest crash is exit 5 with the crash written beside the results; with
 * rerun_on_crash, the result is the single-threaded re-run's, and res
 * says what the first boot did.
 */
int lab_run(const struct lab_run_params *p, struct lab_run_result *res);

/*
 * Only the initramfs lab_run() would boot p->kernel with; a p->suite from
 * outside suites/ is carried in it too (LAB_GUEST_SUITES), for a LAVA job
 * that runs it inside.
 */
int lab_initramfs(const struct lab_run_params *p, char *path, size_t len);

#endif
