/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernels the lab boots: one built by `rtgate kernel build`
 * (out/kernels/NAME: bzImage, .config, build.json; lab drivers built in),
 * or one of Debian's prebuilt images (linux-image-*-amd64 / -rt-amd64,
 * fetched with apt-get download and unpacked with dpkg-deb into a cache
 * under out/; its virtio and 9p drivers are modules the initramfs carries).
 */
#ifndef RTGATE_LAB_KERNEL_H
#define RTGATE_LAB_KERNEL_H

#include <limits.h>
#include <stdbool.h>

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
/* flavour: "rt" or "std"; downloads the image package once (cache). */
int lab_kernel_debian(const char *flavour, struct lab_kernel *k);
/* "debian:rt", "debian:std", a folder, or a NAME under out/kernels. */
int lab_kernel_resolve(const char *spec, const char *out_dir,
		       struct lab_kernel *k);

#endif
