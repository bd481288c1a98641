/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lab (docs/kernels.md): boot a kernel in QEMU with an initramfs that
 * carries rtgate, run a suite inside, bring the results back.
 *   rtgate lab run --kernel DIR|--debian-kernel rt|std --suite S ...
 *   rtgate lab gate KERNEL_A KERNEL_B --suite S ...
 *   rtgate lab-init   (the guest's /init; PID 1 only)
 */
#ifndef RTGATE_LAB_H
#define RTGATE_LAB_H

/* The 9p mount tag of the results share. */
#define LAB_SHARE_TAG "rtgate"

int lab_cmd_lab(int argc, char **argv);
int lab_cmd_init(int argc, char **argv);

#endif
