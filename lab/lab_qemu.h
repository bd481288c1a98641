/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One boot of qemu-system-x86_64: a kernel, the lab's initramfs, the 9p
 * results share, the serial console logged to a file (and "rtgate..."
 * lines shown), a timeout after which QEMU is killed. KVM when the probe
 * says a guest boots with it, else TCG (latency numbers meaningless, the
 * pipeline real) -- or, in the quiet lab's clock (lab_clock.h),
 * single-threaded TCG with -icount.
 */
#ifndef RTGATE_LAB_QEMU_H
#define RTGATE_LAB_QEMU_H

#include <stdbool.h>
#include <stddef.h>

#include "lab_clock.h"

struct qemu_params {
	const char *image;		/* bzImage / vmlinuz */
	const char *initrd;
	const char *share;		/* host folder, tag LAB_SHARE_TAG */
	const char *append;		/* more kernel command line */
	const char *accel;		/* "kvm" or "tcg" */
	bool tcg_single;		/* -accel tcg,thread=single */
	struct lab_clock clock;		/* icount: single-threaded TCG too */
	int cpus;
	int mem_mb;
	unsigned int timeout_s;
	const char *console_log;
	bool verbose;			/* every console line to stderr */
	bool quiet;			/* no console line to stderr */
};

struct qemu_result {
	int status;			/* QEMU's exit status; -1: none */
	bool timed_out;
	bool panic;			/* the console said "Kernel panic" */
	char panic_line[256];
	double wall_s;
};

/* Boots once. Returns 0 (see r), -ENOPKG without QEMU, -EINTR. */
int lab_qemu_boot(const struct qemu_params *p, struct qemu_result *r);

/* The kernel command line lab_qemu_boot() passes. */
void lab_qemu_kernel_cmdline(const struct qemu_params *p, char *buf, size_t len);

/* "QEMU emulator version 7.2.x ..." */
int lab_qemu_version(char *buf, size_t len);

/* Whether /dev/kvm can be opened at all (the probe boots a guest). */
bool lab_qemu_kvm_device(void);

#endif
