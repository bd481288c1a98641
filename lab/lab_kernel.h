/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernels the lab boots: one built by `rtgate kernel build`
 * (out/kernels/NAME: bzImage, .config, build.json; lab drivers built in),
 * or one of Debian's prebuilt images, unpacked with dpkg-deb into a cache
 * under out/ (its virtio and 9p drivers are modules the initramfs carries):
 * bookworm's 6.1 (debian:rt, debian:std: linux-image-*-amd64 / -rt-amd64
 * through the host's apt) or a 7.x split image (debian:7.2-rt, 7.3,
 * 7.3-cloud: lab_debimage.h) through rtgate's private apt (debapt.h).
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
/*
 * flavour: "rt" or "std" (6.1), or SERIES[-rt|-cloud] (7.x); downloads
 * the image's packages once (cache). -EINVAL / -ENOENT: no such image.
 */
int lab_kernel_debian(const char *flavour, struct lab_kernel *k);
/* "debian:FLAVOUR", a folder, or a NAME under out/kernels. */
int lab_kernel_resolve(const char *spec, const char *out_dir,
		       struct lab_kernel *k);

#endif
