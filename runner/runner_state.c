// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "runner_state.h"
#include "runner_util.h"
#include "timefmt.h"
#include "trace/trace_spool.h"

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

/* Unit tests only: their own machine lock and a fake knob tree. */
static const char *machine_lock_path = STATE_MACHINE_LOCK;
static const char *test_knob_root;

void state_testing_use(const char *machine_lock, const char *knob_root)
{
	machine_lock_path = machine_lock;
	test_knob_root = knob_root;
}

/* ---- trusting what is on disk -------------------------------------------- */

/* Ours (root's, when root) and writable by nobody else. */
static int check_owned(const char *path, const struct stat *st, bool dir)
{
	if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode)) {
		pr_err("%s: not a %s: not trusted", path, dir ? "directory" :
		       "regular file");
		return -EPERM;
	}
	if (st->st_uid != geteuid() || (st->st_mode & 022)) {
		pr_err("%s: owned by uid %u with mode %04o: a run's state must "
		       "belong to uid %u and be writable by nobody else; "
		       "not trusted (check it, then remove it)", path,
		       (unsigned int)st->st_uid,
		       (unsigned int)(st->st_mode & 07777),
		       (unsigned int)geteuid());
		return -EPERM;
	}
	return 0;
}

static int check_dir(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st)) {
		pr_err("%s: %s", dir, strerror(errno));
		return -errno;
	}
	return check_owned(dir, &st, true);
}

/* The state file, through a descriptor that followed no link. */
static int read_state(const char *path, cJSON **doc, struct json_error *err)
{
	struct stat st;
	char *buf;
	size_t len;
	int fd, ret;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		rtpaths_fmt(err->msg, sizeof(err->msg), "%s: %s", path,
			    strerror(errno));
		return ret;
	}
	ret = fstat(fd, &st) ? -errno : check_owned(path, &st, false);
	if (!ret)
		ret = fsio_read_fd(fd, &buf, &len);
	close(fd);
	if (ret) {
		rtpaths_fmt(err->msg, sizeof(err->msg), "%s: %s", path,
			    strerror(-ret));
		return ret;
	}
	ret = json_parse_buf(path, buf, len, doc, err);
	free(buf);
	return ret;
}

static bool under(const char *path, const char *root)
{
	size_t n = strlen(root);

	return !strncmp(path, root, n) && (path[n] == '/' || !path[n]);
}

int state_check_target(const char *path, enum state_target kind, char *why,
		       size_t len)
{
	char real[PATH_MAX];
	const char *base;
	struct statfs fs;

	if (!realpath(path, real) || statfs(real, &fs)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (kind == STATE_TARGET_KNOB) {
		if (fs.f_type == PROC_SUPER_MAGIC && under(real, "/proc/sys"))
			return 0;
		if (fs.f_type == DEBUGFS_MAGIC || fs.f_type == TRACEFS_MAGIC)
			return 0;
		if (test_knob_root && under(real, test_knob_root))
			return 0;
		snprintf(why, len, "%s is not a kernel tunable (not under "
			 "/proc/sys or debugfs): not restored", path);
		return -EPERM;
	}
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (fs.f_type == CGROUP2_SUPER_MAGIC && !strncmp(base, "rtgate-", 7) &&
	    base[7] && strspn(base + 7, "0123456789") == strlen(base + 7))
		return 0;
	snprintf(why, len, "%s is not a cgroup of a run (rtgate-PID in "
		 "cgroup2): not removed", path);
	return -EPERM;
}

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

static int machine_write(struct state *st)
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
			machine_lock_path, strerror(-ret));
	return 0;
}

static bool holder_alive(const cJSON *rec)
{
	long pid = (long)json_get_num(rec, "pid", 0);

	return pid > 0 && trace_owner_alive((int)pid,
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
static int machine_lock(struct state *st, double wait_s)
{
	double deadline = mono_now() + wait_s;
	char who[PATH_MAX + 256];
	struct stat sb;
	bool said = false;
	cJSON *rec;

	st->machine_fd = open(machine_lock_path, O_RDWR | O_CREAT | O_NOFOLLOW |
			      O_CLOEXEC, 0644);
	if (st->machine_fd < 0) {
		pr_err("%s: %s", machine_lock_path, strerror(errno));
		return -errno;
	}
	if (fstat(st->machine_fd, &sb) ||
	    check_owned(machine_lock_path, &sb, false))
		goto fail_perm;
	while (flock(st->machine_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			pr_err("%s: flock: %s", machine_lock_path,
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
		if (mono_now() > deadline) {
			pr_err("the clean-up of an rtgate run that ended (%s) "
			       "still holds %s after %.0f s; see `ps -C "
			       "rtgate-guard`", who, machine_lock_path, wait_s);
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
static int restore_previous(struct state *st)
{
	cJSON *rec = machine_record(st->machine_fd);
	const char *dir = json_get_str(rec, "state_dir", NULL);
	char path[PATH_MAX];
	int ret = 0;

	if (dir && strcmp(dir, st->dir)) {
		rtpaths_fmt(path, sizeof(path), "%s/" STATE_FILE, dir);
		if (fsio_exists(path))
			ret = state_restore(dir, "start");
	}
	cJSON_Delete(rec);
	return ret;
}

static int machine_claim(struct state *st, const char *what,
			 const char *label)
{
	unsigned long long start = 0;
	char stamp[32];

	trace_proc_start_time(getpid(), &start);
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

void state_label(struct state *st, const char *run_id)
{
	if (!st->holder || st->machine_fd < 0)
		return;
	cJSON_DeleteItemFromObjectCaseSensitive(st->holder, "run_id");
	cJSON_AddStringToObject(st->holder, "run_id", run_id);
	machine_write(st);
}

static void machine_unlock(struct state *st)
{
	if (st->machine_fd >= 0) {
		/* Not unlinked: a waiter holding the old inode would lock a
		 * ghost. The guardian keeps the lock until it exits. */
		if (ftruncate(st->machine_fd, 0))
			pr_debug("%s: truncate failed", machine_lock_path);
		close(st->machine_fd);
	}
	st->machine_fd = -1;
	cJSON_Delete(st->holder);
	st->holder = NULL;
}

int state_acquire(struct state *st, const char *dir, double wait_s,
		  const char *what, const char *label)
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
	ret = check_dir(st->dir);
	if (ret)
		return ret;
	ret = machine_lock(st, wait_s);
	if (ret)
		return ret;
	ret = restore_previous(st);
	if (ret >= 0)
		ret = state_restore(st->dir, "start");
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
	ret = state_write(st);
	if (!ret)
		return 0;
fail:
	cJSON_Delete(st->doc);
	st->doc = NULL;
	machine_unlock(st);
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
	machine_unlock(st);
}

void state_leave(struct state *st)
{
	cJSON_Delete(st->doc);
	st->doc = NULL;
	if (st->machine_fd >= 0)
		close(st->machine_fd);
	st->machine_fd = -1;
	cJSON_Delete(st->holder);
	st->holder = NULL;
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

/* Files the dead run was writing when it died (report.txt.tmp.PID...). */
static void remove_temporaries(const cJSON *doc, struct restore_log *log)
{
	const char *run_dir = json_get_str(doc, "run_dir", NULL);
	long pid = (long)json_get_num(doc, "pid", 0);
	char what[64];
	int n;

	if (!run_dir || pid <= 0)
		return;
	n = fsio_remove_tmp_of(run_dir, pid, 3);
	if (n > 0) {
		snprintf(what, sizeof(what), "removed %d unfinished file%s", n,
			 n == 1 ? "" : "s");
		log_add(log, what);
	}
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
	ret = check_dir(dir);
	if (ret)
		return ret;
	ret = read_state(path, &doc, &err);
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
	remove_temporaries(doc, &log);
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
