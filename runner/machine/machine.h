/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine a run changes and gives back: the state file and its
 * undo entries, tunables, the guardian, the locks, cgroups, mounts,
 * processes, and what the run records of the machine (environment,
 * system facts). The runner's machine/ part.
 */
#ifndef RTGATE_RUNNER_MACHINE_H
#define RTGATE_RUNNER_MACHINE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include <sys/types.h>
#include <sched.h>

#include "jsonio.h"
#include "runner/suite/suite.h"

/* ---- state ---------------------------------------------------- */
/*
 * Crash-safe run state (docs/runner.md, "Crash safety").
 *
 * One run at a time on a machine: the machine lock (STATE_MACHINE_LOCK,
 * flock(2), whatever the state directory) is held by the run and by its
 * guardian until both are gone; it records who holds it (pid, suite, run
 * id, since when) for the message a second run gets. A run owns a state
 * directory (RTGATE_STATE_DIR, default /run/rtgate), root's and writable
 * by nobody else, as its state file must be. Its state.json records, before
 * anything on the machine is changed, how to undo that change: an "undo"
 * list of entries {"kind": K, "key": ..., ...}. Whoever finds the file of
 * a dead run (the guardian, the next start, `rtgate restore`) kills the
 * run's processes (every process whose environment has
 * RTGATE_OWNER=<state dir>) and undoes the entries newest first.
 *
 * Other components add their own kinds of undo: add an entry with
 * runner_state_add_undo() before changing anything, and a line for the kind to
 * the table in runner_undo.c.
 */

#define STATE_DEFAULT_DIR	"/run/rtgate"
#define STATE_FILE		"state.json"
#define STATE_MACHINE_LOCK	"/run/rtgate.lock"
#define STATE_UNDO_TRACEFS	"tracefs-instance"	/* the run's trace instances */

struct runner_state {
	char dir[PATH_MAX];	/* absolute: our children's RTGATE_OWNER */
	char path[PATH_MAX];	/* dir/state.json */
	int machine_fd;		/* the machine lock, held */
	cJSON *holder;		/* what the lock file says about us */
	cJSON *doc;
	bool restored;		/* runner_state_acquire() restored a dead run */
};

struct runner_state_undo_ops {
	const char *kind;
	bool kills;		/* undone first, with the process kill */
	/* Undoes one entry; describes what it did in @done ("" if nothing). */
	int (*undo)(const cJSON *entry, char *done, size_t len);
};

/* The directory from RTGATE_STATE_DIR or the default. */
const char *runner_state_dir_default(void);

#define STATE_LOCK_WAIT_S	15.0

/*
 * Takes the machine lock (waiting up to @wait_s for the clean-up of a run
 * that died; a live run: -EBUSY at once, named on stderr), creates @dir,
 * restores what a dead run left in it or in the previous holder's state
 * directory (saying so on stderr) and starts a new state file owned by
 * this process. @what ("run", "restore") and @label (the suite) go into
 * the lock's record. -EPERM: @dir or a state file is not root's alone.
 */
int runner_state_acquire(struct runner_state *st, const char *dir,
			 double wait_s, const char *what, const char *label);
/* Adds the run id to the lock's record, once the run has one. */
void runner_state_label(struct runner_state *st, const char *run_id);
/* Sets a top-level field (takes @value) and writes the file. */
int runner_state_set(struct runner_state *st, const char *field, cJSON *value);
/*
 * Records how to undo a change, before the change: @data (taken; may be
 * NULL) gets "kind" and "key" added. An entry of the same kind and key is
 * kept as it was: the first original is the one to restore.
 */
int runner_state_add_undo(struct runner_state *st, const char *kind,
			  const char *key, cJSON *data);
/* The run ended cleanly: removes the file and drops the lock. */
void runner_state_release(struct runner_state *st);
/*
 * Keeps the state file for the guardian or the next start (something
 * could not be restored) and drops our hold of the lock.
 */
void runner_state_leave(struct runner_state *st);

/* What a state file may make a restorer write or remove. */
enum runner_state_target {
	RUNNER_STATE_TARGET_KNOB,	/* under /proc/sys, debugfs, tracefs */
	RUNNER_STATE_TARGET_CGROUP,	/* a run's cgroup2 folder, rtgate-PID */
};
/* 0 when @path is such a target; else -errno with @why said. */
int runner_state_check_target(const char *path, enum runner_state_target kind,
			      char *why, size_t len);
/* Unit tests only: a lock of their own and a directory of fake knobs. */
void runner_state_testing_use(const char *machine_lock, const char *knob_root);

/*
 * Restores from the state file in @dir if there is one: kills the run's
 * processes, undoes its entries. @who names the restorer in messages.
 * Returns 1 when there was something to restore, 0 when not, or -errno.
 */
int runner_state_restore(const char *dir, const char *who);

/* Kills every process whose environment has RTGATE_OWNER=@dir. */
int runner_state_kill_owned(const char *dir);

/*
 * Between the state's files: runner_state.c (the file, and what of one on
 * disk is trusted) under runner_undo.c (restoring) under runner_lock.c
 * (the machine lock, runner_state_acquire to runner_state_release).
 */
int runner_state_write(struct runner_state *st);
const char *runner_state_lock_path(void);
/* Ours (root's, when root) and writable by nobody else; else -EPERM. */
int runner_state_check_owned(const char *path, const struct stat *st, bool dir);
int runner_state_check_dir(const char *dir);
/* A state file, through a descriptor that followed no link. */
int runner_state_read_file(const char *path, cJSON **doc, struct json_error *err);

/* ---- tunable -------------------------------------------------- */
/*
 * Kernel tunables a suite changes: sysctls under /proc/sys, sched features,
 * base_slice_ns and other debugfs files. A tunable is resolved once to a
 * file and the value to write back (its original); every change is undone
 * by writing that original again, which is idempotent, so a restore may be
 * repeated by the guardian or the next start without harm.
 */

#define TUNABLE_VALUE_MAX 256

struct runner_tunable {
	enum runner_tunable_kind kind;
	/* The manifest's name: kernel.sched_rr_timeslice_ms,
	 * sched_feature.HRTICK, debugfs.sched/base_slice_ns. */
	char key[160];
	char path[PATH_MAX];
	char feature[64];	/* sched features: the name without NO_ */
	char orig[TUNABLE_VALUE_MAX];	/* what to write back */
	int save_err;		/* 0, or -errno: the original is unknown */
};

/*
 * Resolves a suite tunable. @debugfs is the debugfs mount point (NULL when
 * absent: debugfs tunables then fail with -ENOENT when saved).
 */
int runner_tunable_init(struct runner_tunable *t,
			const struct runner_suite_tunable *st,
			const char *debugfs);
/* The current value, in the form it is written (FEATURE / NO_FEATURE). */
int runner_tunable_read(const struct runner_tunable *t, char *buf, size_t len);
int runner_tunable_write(const struct runner_tunable *t, const char *value);
/*
 * Whether @value can be right for @t, judged from its current value
 * without writing: a knob holding whole numbers takes whole numbers.
 * -EINVAL with @why said when not; 0 when it cannot tell.
 */
int runner_tunable_check_value(const struct runner_tunable *t,
			       const char *value, char *why, size_t len);
/* Reads the original into t->orig; sets and returns t->save_err. */
int runner_tunable_save(struct runner_tunable *t);
int runner_tunable_restore(const struct runner_tunable *t);

/* ---- guard ---------------------------------------------------- */
/*
 * The guardian: a small child forked at the start of a run, in its own
 * process group, deaf to SIGINT/SIGTERM/SIGHUP. It waits for EOF on a pipe
 * whose only writer is rtgate; when rtgate dies (even by SIGKILL) it
 * restores from the state file at once (machine.h) and exits. After a
 * clean end the state file is gone and the guardian exits silently. It
 * shares the machine lock (machine.h), so the next run waits for it.
 */

struct runner_guard {
	pid_t pid;
	int fd;			/* write end; -1 when stopped */
};

int runner_guard_start(struct runner_guard *g, const char *state_dir);
/* Closes the pipe (after runner_state_release) and waits for the guardian. */
void runner_guard_stop(struct runner_guard *g);

/* ---- cgroup --------------------------------------------------- */
/*
 * cgroup v2 leaves for the processes of a run: one cgroup per run under
 * rtgate's own (rtgate-<pid>), one leaf per process started. Killing a
 * leaf (cgroup.kill) takes every descendant with it, even those that left
 * the process group. No controller is enabled: membership costs nothing.
 * Without cgroup v2 (or without permission) the runner uses process
 * groups alone.
 */

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

/* ---- mount ---------------------------------------------------- */
/*
 * debugfs and tracefs: found in /proc/self/mounts, mounted at their usual
 * places when absent. rtgate leaves what it mounted mounted (as trace-cmd
 * does): others on the machine may have started to use it.
 */

/* First mount point of @fstype into @buf; -ENOENT when not mounted. */
int runner_mount_find(const char *fstype, char *buf, size_t len);
/* Finds or mounts @fstype; *@mounted tells whether we mounted it now. */
int runner_mount_ensure(const char *fstype, char *buf, size_t len, bool *mounted);

/* ---- proc ----------------------------------------------------- */
/*
 * The processes of a repetition: workloads and cyclictest.
 *
 * Each one starts in its own process group and, when the run has one, its
 * own cgroup v2 leaf; it dies with rtgate (PR_SET_PDEATHSIG) and carries
 * RTGATE_OWNER=<state dir> in its environment, which is how a restore
 * finds survivors. A workload also gets RTGATE_READY_FD for the ready
 * handshake (workloads/README.md). Its stdout comes back through a pipe.
 */

struct runner_proc_spec {
	const char *name;	/* the results name: alias or "cyclictest" */
	const char *path;	/* the executable */
	char *const *argv;
	const cpu_set_t *cpus;	/* NULL: inherit */
	bool set_policy;
	int policy, prio;
	bool set_nice;
	int nice;
	bool ready;		/* the RTGATE_READY_FD handshake */
	const char *cgroup;	/* leaf to enter, or NULL */
	const char *owner;	/* RTGATE_OWNER */
	const char *scale;	/* RTGATE_SCALE, or NULL */
	const char *const *env;	/* "NAME=VALUE" more, NULL-ended, or NULL */
	int stderr_fd;		/* -1: stderr goes into the stdout pipe */
};

struct runner_proc {
	char name[64];
	pid_t pid;		/* also the process group */
	char cgroup[PATH_MAX];	/* "" without one */
	int out_fd;		/* stdout pipe; -1 at EOF */
	int ready_fd;		/* -1 when unused or answered */
	char *out;		/* captured stdout */
	size_t out_len, out_pos, out_cap;
	bool out_truncated;
	bool ready;		/* said "ready" */
	bool running;
	int status;		/* wait status once !running */
	int sent;		/* last signal the runner sent, 0 if none */
	double t_start, t_ready, t_exit;	/* clocks_mono_s() */
};

/* Starts a process; on failure @err says which step failed and why. */
int runner_proc_spawn(struct runner_proc *p,
		      const struct runner_proc_spec *spec, char *err,
		      size_t len);
/* Signals its process group (and, for SIGKILL, its cgroup). */
void runner_proc_signal(struct runner_proc *p, int sig);
/*
 * Waits up to @timeout_s for output, a ready message, an exit or a signal
 * (signals_fd()); handles what came and returns. Reaps every child that
 * exited: ours are marked, orphans handed to us as subreaper are dropped.
 */
void runner_proc_wait(struct runner_proc **procs, size_t n, double timeout_s);
/* Reads what is left in the pipes (after the exits). */
void runner_proc_drain(struct runner_proc *p);
/*
 * The next complete line of stdout (NUL-terminated, valid until the next
 * call), or the last partial line once the pipe is at EOF; NULL if none.
 */
char *runner_proc_next_line(struct runner_proc *p);
/* "exited with code 1", "killed by SIGSEGV", "still running". */
void runner_proc_describe_exit(const struct runner_proc *p, char *buf,
			       size_t len);
void runner_proc_close(struct runner_proc *p);

/* ---- hostio --------------------------------------------------- */
/*
 * What crossed to the machine's host while a repetition measured
 * (runner_hostio.c): bytes through the serial ports, interrupts of the
 * devices that talk to the host (virtio, ttyS, hvc), and kernel messages
 * loud enough for the console. Begin before the measurement, end after
 * it; -1 where the kernel has no such interface. Read-only.
 */
struct runner_hostio {
	const char *root;	/* "" for this machine, a fake tree in tests */
	bool started;
	long long serial_bytes;
	long long irqs;
	int kmsg_fd;
};

struct runner_hostio_delta {
	bool known;		/* some interface answered */
	bool silent;		/* known, and nothing crossed */
	long long console_bytes;
	long long console_messages;
	long long irqs;
};

void runner_hostio_begin(struct runner_hostio *h, const char *root);
void runner_hostio_end(struct runner_hostio *h, struct runner_hostio_delta *d);
/* The manifest's "host_io" object, or NULL when nothing is known. */
cJSON *runner_hostio_json(const struct runner_hostio_delta *d);

/* ---- sysfacts ------------------------------------------------- */
/*
 * The system facts rteval's report leads with (manifest.json "system",
 * docs/results.md): clocksource, cpuidle states, RT throttling, IRQ
 * affinity, THP, SMT, NUMA, microcode and DMI, each read from its
 * standard kernel interface. Read-only: nothing is ever written there.
 * A fact whose interface is absent (a VM without DMI or cpuidle) is
 * null, never an error; a whole run and the lab guest record the same.
 */

/*
 * The "system" object, every key present (null when absent), read under
 * @root: "" for this machine, a directory holding sys/ and proc/ for a
 * test. NULL only when memory runs out; the caller frees it.
 */
cJSON *runner_sysfacts_record(const char *root);

/* ---- env ------------------------------------------------------ */
/*
 * The environment record of a run (docs/results.md, manifest.json; the
 * runner's place in the flow: docs/design.md):
 * host, kernel identity and preemption model, what could disturb the
 * measurement, and tool versions. Unknown fields are left out.
 */

struct runner_env_opts {
	const char *debugfs;	/* mount points, or NULL */
	const char *tracefs;
	const char *cgroup;	/* the run's cgroup, or NULL */
	bool tools;		/* ask cyclictest, hackbench, stress-ng */
	const char *rtla;	/* the rtla a timerlat suite measures with */
	const char *rtla_aa;	/* and the one that auto-analyses */
};

/*
 * The major and minor version an rtla at @path prints ("rtla version
 * 7.3.4"), or -1 when it prints none within 5 s.
 */
int runner_env_rtla_version(const char *path, unsigned int *major,
			    unsigned int *minor);

/*
 * {"host": {...}, "kernel": {...}, "environment": {...}, "system": {...}
 * (machine.h), "tools": {...}}
 */
cJSON *runner_env_record(const struct runner_env_opts *opts);

#endif
