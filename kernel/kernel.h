/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel commands of bin/rtgate (docs/kernels.md):
 *   rtgate kernel build|matrix|config ...   named kernels from a tree
 *   rtgate patches fetch|check|list ...     patch sets
 */
#ifndef RTGATE_KERNEL_H
#define RTGATE_KERNEL_H

int kernel_cmd_kernel(int argc, char **argv);
int kernel_cmd_patches(int argc, char **argv);

#endif
