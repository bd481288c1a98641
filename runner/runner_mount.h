/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * debugfs and tracefs: found in /proc/self/mounts, mounted at their usual
 * places when absent. rtgate leaves what it mounted mounted (as trace-cmd
 * does): others on the machine may have started to use it.
 */
#ifndef RTGATE_RUNNER_MOUNT_H
#define RTGATE_RUNNER_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

/* First mount point of @fstype into @buf; -ENOENT when not mounted. */
int runner_mount_find(const char *fstype, char *buf, size_t len);
/* Finds or mounts @fstype; *@mounted tells whether we mounted it now. */
int runner_mount_ensure(const char *fstype, char *buf, size_t len, bool *mounted);

#endif
