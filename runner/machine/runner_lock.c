// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run on the machine at a time (machine.h): the machine lock, who
 * holds it, and a run's state from its start (restoring what a dead run
 * left, runner_undo.c) to its clean end or its hand-over to the guardian.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "procstat.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"
#include "clocks.h"
#include "timefmt.h"

#define STATE_SCHEMA		"rtgate-state/1"

/* ---- the machine lock ---------------------------------------------------- */

/* The holder's record: {"pid", "pid_start", "state_dir", "since", ...}. */
static cJSON *machine_record(int fd)
{
	char buf[4096];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	cJSON *rec;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	rec = cJSON_Parse(buf);
	if (!cJSON_IsObject(rec)) {
		cJSON_Delete(rec);
		return NULL;
	}
	return rec;
}

static int machine_write(struct runner_state *st)
{
	char *text = cJSON_PrintUnformatted(st->holder);
	size_t len;
	int ret = 0;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	if (ftruncate(st->machine_fd, 0) ||
	    pwrite(st->machine_fd, text, len, 0) != (ssize_t)len)
		ret = -errno;
	free(text);
	if (ret)
		pr_warn("%s: cannot record who holds it: %s",
			runner_state_lock_path(), strerror(-ret));
	return 0;
}

static bool holder_alive(const cJSON *rec)
{
	long pid = (long)json_get_num(rec, "pid", 0);

	return pid > 0 && procstat_alive((int)pid,
		(unsigned long long)json_get_num(rec, "pid_start", 0));
}

static void describe_holder(const cJSON *rec, char *buf, size_t len)
{
	const char *run = json_get_str(rec, "run_id", NULL);

	if (!rec) {
		snprintf(buf, len, "holder unknown");
		return;
	}
	snprintf(buf, len, "pid %ld, %s %s%s%s, state %s, since %s",
		 (long)json_get_num(rec, "pid", 0),
		 strcmp(json_get_str(rec, "what", "run"), "restore") ?
		 "suite" : "command", json_get_str(rec, "suite", "?"),
		 run ? ", run " : "", run ? run : "",
		 json_get_str(rec, "state_dir", "?"),
		 json_get_str(rec, "since", "?"));
}

/*
 * One run on the machine at a time, whatever its state directory: two
 * would record each other's changes as originals. A live holder: -EBUSY at
 * once, naming it. A dead one (its guardian or a restorer is cleaning up):
 * wait for that, up to @wait_s.
 */
static int machine_lock(struct runner_state *st, double wait_s)
{
	double deadline = clocks_mono_s() + wait_s;
	char who[PATH_MAX + 256];
	struct stat sb;
	bool said = false;
	cJSON *rec;

	st->machine_fd = open(runner_state_lock_path(), O_RDWR | O_CREAT | O_NOFOLLOW |
			      O_CLOEXEC, 0644);
	if (st->machine_fd < 0) {
		pr_err("%s: %s", runner_state_lock_path(), strerror(errno));
		return -errno;
	}
	if (fstat(st->machine_fd, &sb) ||
	    runner_state_check_owned(runner_state_lock_path(), &sb, false))
		goto fail_perm;
	while (flock(st->machine_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			pr_err("%s: flock: %s", runner_state_lock_path(),
			       strerror(errno));
			goto fail;
		}
		rec = machine_record(st->machine_fd);
		describe_holder(rec, who, sizeof(who));
		if (rec && holder_alive(rec)) {
			pr_err("another rtgate run is using this machine (%s); "
			       "not starting a second one: each would record "
			       "the other's tunables as originals, and the "
			       "measurements would disturb each other. Wait "
			       "for it to end, or stop it (kill -TERM %ld)",
			       who, (long)json_get_num(rec, "pid", 0));
			cJSON_Delete(rec);
			errno = EBUSY;
			goto fail;
		}
		cJSON_Delete(rec);
		if (clocks_mono_s() > deadline) {
			pr_err("the clean-up of an rtgate run that ended (%s) "
			       "still holds %s after %.0f s; see `ps -C "
			       "rtgate-guard`", who, runner_state_lock_path(), wait_s);
			errno = EBUSY;
			goto fail;
		}
		if (!said)
			pr_info("waiting for the clean-up of an rtgate run "
				"that ended (%s)", who);
		said = true;
		usleep(100 * 1000);
	}
	return 0;
fail_perm:
	errno = EPERM;
fail:
	close(st->machine_fd);
	st->machine_fd = -1;
	return -errno;
}

/*
 * The previous holder's state directory, if it is not ours and a dead run
 * left its state file there (it and its guardian were killed).
 */
static int restore_previous(struct runner_state *st)
{
	cJSON *rec = machine_record(st->machine_fd);
	const char *dir = json_get_str(rec, "state_dir", NULL);
	char path[PATH_MAX];
	int ret = 0;

	if (dir && strcmp(dir, st->dir)) {
		rtpaths_fmt(path, sizeof(path), "%s/" STATE_FILE, dir);
		if (fsio_exists(path))
			ret = runner_state_restore(dir, "start");
	}
	cJSON_Delete(rec);
	return ret;
}

static int machine_claim(struct runner_state *st, const char *what,
			 const char *label)
{
	unsigned long long start = 0;
	char stamp[32];

	procstat_start_time(getpid(), &start);
	timefmt_iso8601_now(stamp, sizeof(stamp));
	st->holder = cJSON_CreateObject();
	if (!st->holder ||
	    !cJSON_AddNumberToObject(st->holder, "pid", getpid()) ||
	    !cJSON_AddNumberToObject(st->holder, "pid_start", (double)start) ||
	    !cJSON_AddStringToObject(st->holder, "what", what) ||
	    !cJSON_AddStringToObject(st->holder, "suite", label) ||
	    !cJSON_AddStringToObject(st->holder, "state_dir", st->dir) ||
	    !cJSON_AddStringToObject(st->holder, "since", stamp))
		return -ENOMEM;
	return machine_write(st);
}

void runner_state_label(struct runner_state *st, const char *run_id)
{
	if (!st->holder || st->machine_fd < 0)
		return;
	cJSON_DeleteItemFromObjectCaseSensitive(st->holder, "run_id");
	cJSON_AddStringToObject(st->holder, "run_id", run_id);
	machine_write(st);
}

static void machine_unlock(struct runner_state *st)
{
	if (st->machine_fd >= 0) {
		/* Not unlinked: a waiter holding the old inode would lock a
		 * ghost. The guardian keeps the lock until it exits. */
		if (ftruncate(st->machine_fd, 0))
			pr_debug("%s: truncate failed", runner_state_lock_path());
		close(st->machine_fd);
	}
	st->machine_fd = -1;
	cJSON_Delete(st->holder);
	st->holder = NULL;
}

int runner_state_acquire(struct runner_state *st, const char *dir,
			 double wait_s, const char *what, const char *label)
{
	char stamp[32];
	int ret;

	memset(st, 0, sizeof(*st));
	st->machine_fd = -1;
	ret = fsio_mkdir_p(dir, 0755);
	if (ret || !realpath(dir, st->dir)) {
		ret = ret ? ret : -errno;
		pr_err("%s: cannot create the state directory: %s", dir,
		       strerror(-ret));
		return ret;
	}
	rtpaths_fmt(st->path, sizeof(st->path), "%s/" STATE_FILE, st->dir);
	ret = runner_state_check_dir(st->dir);
	if (ret)
		return ret;
	ret = machine_lock(st, wait_s);
	if (ret)
		return ret;
	ret = restore_previous(st);
	if (ret >= 0)
		ret = runner_state_restore(st->dir, "start");
	if (ret < 0)
		goto fail;
	st->restored = ret > 0;
	ret = machine_claim(st, what, label);
	if (ret)
		goto fail;
	timefmt_iso8601_now(stamp, sizeof(stamp));
	st->doc = cJSON_CreateObject();
	if (!st->doc ||
	    !cJSON_AddStringToObject(st->doc, "schema", STATE_SCHEMA) ||
	    !cJSON_AddNumberToObject(st->doc, "pid", getpid()) ||
	    !cJSON_AddStringToObject(st->doc, "start_time", stamp) ||
	    !cJSON_AddArrayToObject(st->doc, "undo")) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = runner_state_write(st);
	if (!ret)
		return 0;
fail:
	cJSON_Delete(st->doc);
	st->doc = NULL;
	machine_unlock(st);
	return ret;
}

void runner_state_release(struct runner_state *st)
{
	if (st->doc && unlink(st->path) && errno != ENOENT)
		pr_warn("%s: %s", st->path, strerror(errno));
	cJSON_Delete(st->doc);
	st->doc = NULL;
	machine_unlock(st);
}

void runner_state_leave(struct runner_state *st)
{
	cJSON_Delete(st->doc);
	st->doc = NULL;
	if (st->machine_fd >= 0)
		close(st->machine_fd);
	st->machine_fd = -1;
	cJSON_Delete(st->holder);
	st->holder = NULL;
}
