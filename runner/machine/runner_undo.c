// SPDX-License-Identifier: GPL-2.0-only
/*
 * Restoring what a dead run left (machine.h): its processes killed,
 * the entries of its state file undone newest first. Each entry was
 * written before its change was made; undoing it must be idempotent, as a
 * restore can be repeated (the guardian, then the next start).
 *
 * To add a kind of undo: write its undo function here and add a line to
 * state_undo_table below; the component that makes the change records it
 * with runner_state_add_undo() first.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "runner/machine/machine.h"
#include "trace/trace.h"

static int kind_from_name(const char *name, enum runner_tunable_kind *kind)
{
	static const enum runner_tunable_kind kinds[] = {
		RUNNER_TUNABLE_SYSCTL, RUNNER_TUNABLE_SCHED_FEATURE,
		RUNNER_TUNABLE_BASE_SLICE, RUNNER_TUNABLE_DEBUGFS,
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(name, runner_suite_tunable_kind_name(kinds[i]))) {
			*kind = kinds[i];
			return 0;
		}
	return -EINVAL;
}

/* {"kind":"tunable","key":K,"tunable":KIND,"path":P,"feature":F,"value":V} */
static int undo_tunable(const cJSON *e, char *done, size_t len)
{
	struct runner_tunable t = { .save_err = 0 };
	const char *key = json_get_str(e, "key", "?");
	char now[TUNABLE_VALUE_MAX];
	int ret;

	if (kind_from_name(json_get_str(e, "tunable", ""), &t.kind)) {
		snprintf(done, len, "%s: unknown tunable kind", key);
		return -EINVAL;
	}
	snprintf(t.key, sizeof(t.key), "%s", key);
	snprintf(t.path, sizeof(t.path), "%s", json_get_str(e, "path", ""));
	snprintf(t.feature, sizeof(t.feature), "%s",
		 json_get_str(e, "feature", ""));
	snprintf(t.orig, sizeof(t.orig), "%s", json_get_str(e, "value", ""));
	/* A state file names the files it makes root write: only knobs. */
	ret = runner_state_check_target(t.path, RUNNER_STATE_TARGET_KNOB, done,
					len);
	if (ret)
		return ret;
	if (!runner_tunable_read(&t, now, sizeof(now)) && !strcmp(now, t.orig))
		return 0;
	ret = runner_tunable_restore(&t);
	if (ret)
		snprintf(done, len, "cannot restore %s = %s (%s): %s", key,
			 t.orig, t.path, strerror(-ret));
	else
		snprintf(done, len, "restored %s = %s", key, t.orig);
	return ret;
}

/* {"kind":"cgroup","key":PATH} */
static int undo_cgroup(const cJSON *e, char *done, size_t len)
{
	const char *path = json_get_str(e, "key", "");
	int ret;

	if (!*path || !fsio_exists(path))
		return 0;
	ret = runner_state_check_target(path, RUNNER_STATE_TARGET_CGROUP, done,
					len);
	if (ret)
		return ret;
	ret = runner_cgroup_destroy(path);
	if (ret)
		snprintf(done, len, "cannot remove cgroup %s: %s", path,
			 strerror(-ret));
	return ret;
}

static int undo_trace(const cJSON *e, char *done, size_t len)
{
	const char *prefix = json_get_str(e, "key", "");
	int ret, stale;

	ret = trace_instances_remove_prefix(prefix);
	/* Workloads' own instances (hrtick-hogs), killed just before. */
	stale = trace_instances_clean();
	if (ret < 0) {
		snprintf(done, len, "cannot remove tracefs instances %s-*: %s",
			 prefix, strerror(-ret));
		return ret;
	}
	if (ret + (stale > 0 ? stale : 0))
		snprintf(done, len, "removed %d tracefs instance%s", ret +
			 (stale > 0 ? stale : 0), ret + stale == 1 ? "" : "s");
	return 0;
}

static const struct runner_state_undo_ops state_undo_table[] = {
	{ "cgroup", true, undo_cgroup },
	{ "tunable", false, undo_tunable },
	{ STATE_UNDO_TRACEFS, false, undo_trace },
};

/* The table of undo kinds. */
static const struct runner_state_undo_ops *
runner_state_undo_find(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(state_undo_table) /
		    sizeof(state_undo_table[0]); i++)
		if (!strcmp(state_undo_table[i].kind, kind))
			return &state_undo_table[i];
	return NULL;
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

int runner_state_kill_owned(const char *dir)
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
		const struct runner_state_undo_ops *ops =
			runner_state_undo_find(kind);
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

int runner_state_restore(const char *dir, const char *who)
{
	struct restore_log log = { .used = 0 };
	struct json_error err;
	char path[PATH_MAX], what[64];
	cJSON *doc, *undo;
	int killed, ret;

	snprintf(path, sizeof(path), "%s/" STATE_FILE, dir);
	if (!fsio_exists(path))
		return 0;
	ret = runner_state_check_dir(dir);
	if (ret)
		return ret;
	ret = runner_state_read_file(path, &doc, &err);
	if (ret) {
		/* Written atomically, so this is not a half-written file. */
		pr_err("%s; move it away once the machine is checked",
		       err.msg);
		return ret;
	}
	undo = cJSON_GetObjectItemCaseSensitive(doc, "undo");
	killed = runner_state_kill_owned(dir);
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
