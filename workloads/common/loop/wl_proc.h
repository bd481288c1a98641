/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Children of a workload (hackbench, stress-ng, make): started in the
 * workload's own process group, and never left behind. wl_proc_init()
 * makes the workload a child subreaper, so that a grandchild whose parent
 * dies is re-parented to us and not to init: "no descendant left" is then
 * simply "waitpid(-1) says ECHILD".
 */
#ifndef RTGATE_WL_PROC_H
#define RTGATE_WL_PROC_H

#include <stdint.h>
#include <sys/types.h>

int wl_proc_init(void);

/* The child's stderr goes into the *out_fd pipe too (else: our stderr). */
#define WL_SPAWN_MERGE_STDERR	0x1

/*
 * fork + execvp(argv). The child's stdout goes to a new pipe whose read end
 * is returned in *out_fd (close-on-exec), or to our stderr when out_fd is
 * NULL (stdout is the summary's). Its stdin is /dev/null. A failed exec is
 * reported here (-ENOENT, -EACCES …), not as an exit status later.
 */
int wl_proc_spawn(char *const argv[], pid_t *pid, int *out_fd, int flags);

/* Sends sig to pid and every process descending from it (from /proc). */
int wl_proc_signal_tree(pid_t pid, int sig);

/*
 * Stops a child and everything under it: SIGTERM to the tree, up to
 * grace_ns for it to exit, then SIGKILL; reaps it (its wait status in
 * *status when not NULL) and any re-parented descendants.
 */
int wl_proc_stop(pid_t pid, uint64_t grace_ns, int *status);

/* Waits for a child that ends by itself (EINTR retried); *status its status. */
void wl_proc_wait(pid_t pid, int *status);

/* Reaps descendants re-parented to us without blocking; returns how many. */
int wl_proc_reap_orphans(void);

/* Kills and reaps every remaining descendant: the last call before exit. */
void wl_proc_kill_all(void);

#endif
