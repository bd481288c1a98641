/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup v2 leaves for the processes of a run: one cgroup per run under
 * rtgate's own (rtgate-<pid>), one leaf per process started. Killing a
 * leaf (cgroup.kill) takes every descendant with it, even those that left
 * the process group. No controller is enabled: membership costs nothing.
 * Without cgroup v2 (or without permission) the runner uses process
 * groups alone.
 */
#ifndef RTGATE_RUNNER_CGROUP_H
#define RTGATE_RUNNER_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

/* Where the run's cgroup goes; -ENOENT when cgroup v2 is not mounted. */
int runner_cgroup_run_path(char *path, size_t len);
int runner_cgroup_create(const char *path);
int runner_cgroup_leaf_create(const char *run, const char *name, char *path,
			      size_t len);
/* Moves the calling process into @path (for a child before exec). */
int runner_cgroup_enter(const char *path);
/* SIGKILL to everything in @path and below. */
int runner_cgroup_kill(const char *path);
/* Kills, waits for the cgroup to empty (10 s at most), removes it. */
int runner_cgroup_destroy(const char *path);

#endif
