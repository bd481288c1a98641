/* SPDX-License-Identifier: GPL-2.0-only */
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
#ifndef RTGATE_RUNNER_STATE_H
#define RTGATE_RUNNER_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

#include "jsonio.h"

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
int runner_state_drop_undo(struct runner_state *st, const char *kind,
			   const char *key);
/* The run ended cleanly: removes the file and drops the lock. */
void runner_state_release(struct runner_state *st);
/*
 * Keeps the state file for the guardian or the next start (something
 * could not be restored) and drops our hold of the lock.
 */
void runner_state_leave(struct runner_state *st);

/* What a state file may make a restorer write or remove. */
enum runner_state_target {
	STATE_TARGET_KNOB,	/* a file under /proc/sys, debugfs or tracefs */
	STATE_TARGET_CGROUP,	/* a run's cgroup2 directory, rtgate-PID */
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

#endif
