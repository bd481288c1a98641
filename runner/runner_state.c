// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "runner_state.h"
#include "runner_util.h"

#define STATE_SCHEMA		"rtgate-state/1"

const char *state_dir_default(void)
{
	const char *dir = getenv("RTGATE_STATE_DIR");

	return dir && *dir ? dir : STATE_DEFAULT_DIR;
}

static int state_write(struct state *st)
{
	int ret = json_write_file(st->path, st->doc);

	if (ret)
		pr_err("%s: cannot write the run state: %s", st->path,
		       strerror(-ret));
	return ret;
}

static long state_owner(const char *path)
{
	struct json_error err;
	cJSON *doc;
	long pid;

	if (json_read_file(path, &doc, &err))
		return 0;
	pid = (long)json_get_num(doc, "pid", 0);
	cJSON_Delete(doc);
	return pid;
}

/* Waits for a dying run's guardian; a live run keeps the lock: -EBUSY. */
static int state_lock(struct state *st, double wait_s)
{
	char lock[PATH_MAX];
	double deadline = mono_now() + wait_s;
	bool said = false;

	path_fmt(lock, sizeof(lock), "%s/lock", st->dir);
	st->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (st->lock_fd < 0) {
		pr_err("%s: %s", lock, strerror(errno));
		return -errno;
	}
	while (flock(st->lock_fd, LOCK_EX | LOCK_NB)) {
		int err = errno;
		long pid;

		if (err != EWOULDBLOCK && err != EINTR)
			goto fail;
		pid = state_owner(st->path);
		if (mono_now() > deadline) {
			pr_err("another rtgate run (pid %ld) holds %s; stop it "
			       "or use another RTGATE_STATE_DIR", pid, st->dir);
			errno = EBUSY;
			goto fail;
		}
		if (!said)
			pr_info("waiting for the rtgate run that holds %s "
				"(pid %ld) to finish its clean-up", st->dir,
				pid);
		said = true;
		usleep(100 * 1000);
	}
	return 0;
fail:
	close(st->lock_fd);
	st->lock_fd = -1;
	return -errno;
}

int state_acquire(struct state *st, const char *dir, double wait_s)
{
	struct timespec now;
	char stamp[32];
	int ret;

	memset(st, 0, sizeof(*st));
	st->lock_fd = -1;
	ret = fsio_mkdir_p(dir, 0755);
	if (ret || !realpath(dir, st->dir)) {
		ret = ret ? ret : -errno;
		pr_err("%s: cannot create the state directory: %s", dir,
		       strerror(-ret));
		return ret;
	}
	path_fmt(st->path, sizeof(st->path), "%s/" STATE_FILE, st->dir);
	ret = state_lock(st, wait_s);
	if (ret)
		return ret;
	ret = state_restore(st->dir, "start");
	if (ret < 0)
		goto fail;
	st->restored = ret > 0;
	realtime_now(&now);
	iso_time(&now, stamp, sizeof(stamp));
	st->doc = cJSON_CreateObject();
	if (!st->doc ||
	    !cJSON_AddStringToObject(st->doc, "schema", STATE_SCHEMA) ||
	    !cJSON_AddNumberToObject(st->doc, "pid", getpid()) ||
	    !cJSON_AddStringToObject(st->doc, "start_time", stamp) ||
	    !cJSON_AddArrayToObject(st->doc, "undo")) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = state_write(st);
	if (!ret)
		return 0;
fail:
	cJSON_Delete(st->doc);
	st->doc = NULL;
	close(st->lock_fd);
	st->lock_fd = -1;
	return ret;
}

int state_set(struct state *st, const char *field, cJSON *value)
{
	if (!value)
		return -ENOMEM;
	if (cJSON_HasObjectItem(st->doc, field))
		cJSON_ReplaceItemInObjectCaseSensitive(st->doc, field, value);
	else
		cJSON_AddItemToObject(st->doc, field, value);
	return state_write(st);
}

static cJSON *find_undo(cJSON *undo, const char *kind, const char *key)
{
	cJSON *e;

	cJSON_ArrayForEach(e, undo) {
		if (!strcmp(json_get_str(e, "kind", ""), kind) &&
		    !strcmp(json_get_str(e, "key", ""), key))
			return e;
	}
	return NULL;
}

int state_add_undo(struct state *st, const char *kind, const char *key,
		   cJSON *data)
{
	cJSON *undo = cJSON_GetObjectItemCaseSensitive(st->doc, "undo");

	if (!data)
		data = cJSON_CreateObject();
	if (!data)
		return -ENOMEM;
	if (find_undo(undo, kind, key)) {
		cJSON_Delete(data);
		return 0;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(data, "kind");
	cJSON_DeleteItemFromObjectCaseSensitive(data, "key");
	if (!cJSON_AddStringToObject(data, "kind", kind) ||
	    !cJSON_AddStringToObject(data, "key", key)) {
		cJSON_Delete(data);
		return -ENOMEM;
	}
	cJSON_AddItemToArray(undo, data);
	return state_write(st);
}

int state_drop_undo(struct state *st, const char *kind, const char *key)
{
	cJSON *undo = cJSON_GetObjectItemCaseSensitive(st->doc, "undo");
	cJSON *e = find_undo(undo, kind, key);

	if (!e)
		return 0;
	cJSON_Delete(cJSON_DetachItemViaPointer(undo, e));
	return state_write(st);
}

void state_release(struct state *st)
{
	if (st->doc && unlink(st->path) && errno != ENOENT)
		pr_warn("%s: %s", st->path, strerror(errno));
	cJSON_Delete(st->doc);
	st->doc = NULL;
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	st->lock_fd = -1;
}

/* ---- killing a run's processes ------------------------------------------- */

static bool owned_by(pid_t pid, const char *needle, size_t nlen)
{
	char path[64], *env, *p;
	size_t len;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	if (fsio_read_all(path, &env, &len))
		return false;
	for (p = env; p < env + len; p += strlen(p) + 1)
		if (strlen(p) == nlen && !memcmp(p, needle, nlen)) {
			found = true;
			break;
		}
	free(env);
	return found;
}

/* One sweep over /proc; returns how many were signalled. */
static int kill_sweep(const char *needle)
{
	size_t nlen = strlen(needle);
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 1 || pid == getpid())
			continue;
		if (owned_by(pid, needle, nlen) && !kill(pid, SIGKILL))
			n++;
	}
	closedir(d);
	return n;
}

int state_kill_owned(const char *dir)
{
	char needle[PATH_MAX + 16];
	int i, n, total = 0;

	snprintf(needle, sizeof(needle), "RTGATE_OWNER=%s", dir);
	/* A process may fork while we sweep: sweep until none is left. */
	for (i = 0; i < 50; i++) {
		n = kill_sweep(needle);
		if (n < 0)
			return n;
		if (!n)
			break;
		total += n;
		usleep(20 * 1000);
	}
	return total;
}

/* ---- restoring ----------------------------------------------------------- */

struct restore_log {
	char text[2048];
	size_t used;
	int failures;
};

static void log_add(struct restore_log *log, const char *what)
{
	int n;

	if (!*what || log->used >= sizeof(log->text))
		return;
	n = snprintf(log->text + log->used, sizeof(log->text) - log->used,
		     "%s%s", log->used ? "; " : "", what);
	if (n > 0)
		log->used += n;
}

static void undo_pass(cJSON *undo, bool kills, struct restore_log *log)
{
	int i, n = cJSON_GetArraySize(undo);

	for (i = n - 1; i >= 0; i--) {
		const cJSON *e = cJSON_GetArrayItem(undo, i);
		const char *kind = json_get_str(e, "kind", "?");
		const struct state_undo_ops *ops = state_undo_find(kind);
		char done[512] = "";
		int ret;

		if (!ops) {
			if (kills)
				continue;
			snprintf(done, sizeof(done), "cannot undo unknown kind "
				 "'%s' (key %s): undo it by hand", kind,
				 json_get_str(e, "key", "?"));
			log->failures++;
			log_add(log, done);
			continue;
		}
		if (ops->kills != kills)
			continue;
		ret = ops->undo(e, done, sizeof(done));
		if (ret)
			log->failures++;
		log_add(log, done);
	}
}

static void mark_manifest(const cJSON *doc, const char *who)
{
	const char *run_dir = json_get_str(doc, "run_dir", NULL);
	char path[PATH_MAX], reason[256];
	struct json_error err;
	cJSON *m;

	if (!run_dir)
		return;
	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return;
	if (!strcmp(json_get_str(m, "status", ""), "incomplete")) {
		snprintf(reason, sizeof(reason), "rtgate (pid %ld) died during "
			 "the run; what it changed was restored by %s",
			 (long)json_get_num(doc, "pid", 0), who);
		cJSON_DeleteItemFromObjectCaseSensitive(m, "status_reason");
		cJSON_AddStringToObject(m, "status_reason", reason);
		json_write_file(path, m);
	}
	cJSON_Delete(m);
}

int state_restore(const char *dir, const char *who)
{
	struct restore_log log = { .used = 0 };
	struct json_error err;
	char path[PATH_MAX], what[64];
	cJSON *doc, *undo;
	int killed, ret;

	snprintf(path, sizeof(path), "%s/" STATE_FILE, dir);
	if (!fsio_exists(path))
		return 0;
	ret = json_read_file(path, &doc, &err);
	if (ret) {
		/* Written atomically, so this is not a half-written file. */
		pr_err("%s; move it away once the machine is checked",
		       err.msg);
		return ret;
	}
	undo = cJSON_GetObjectItemCaseSensitive(doc, "undo");
	killed = state_kill_owned(dir);
	if (killed > 0) {
		snprintf(what, sizeof(what), "killed %d process%s of the run",
			 killed, killed == 1 ? "" : "es");
		log_add(&log, what);
	}
	undo_pass(undo, true, &log);
	undo_pass(undo, false, &log);
	mark_manifest(doc, who);
	if (strcmp(who, "guardian"))
		pr_warn("the previous run (pid %ld, %s) did not finish; "
			"restored what it left: %s",
			(long)json_get_num(doc, "pid", 0),
			json_get_str(doc, "run_dir", "no results directory"),
			log.used ? log.text : "nothing was left changed");
	else
		pr_warn("%s: rtgate (pid %ld) died during a run; %s", who,
			(long)json_get_num(doc, "pid", 0),
			log.used ? log.text : "nothing was left changed");
	cJSON_Delete(doc);
	if (log.failures) {
		pr_err("%d thing%s could not be restored; %s is kept",
		       log.failures, log.failures == 1 ? "" : "s", path);
		return -EIO;
	}
	if (unlink(path) && errno != ENOENT)
		return -errno;
	return 1;
}
