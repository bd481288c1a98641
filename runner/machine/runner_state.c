// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's state file (machine.h): what it records, and what a
 * restorer may trust of one found on disk. The restore is runner_undo.c,
 * the machine lock and a run's hold of it runner_lock.c; both call down
 * into this file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"

const char *runner_state_dir_default(void)
{
	const char *dir = getenv("RTGATE_STATE_DIR");

	return dir && *dir ? dir : STATE_DEFAULT_DIR;
}

int runner_state_write(struct runner_state *st)
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

void runner_state_testing_use(const char *machine_lock, const char *knob_root)
{
	machine_lock_path = machine_lock;
	test_knob_root = knob_root;
}

const char *runner_state_lock_path(void)
{
	return machine_lock_path;
}

/* ---- trusting what is on disk -------------------------------------------- */

/* Ours (root's, when root) and writable by nobody else. */
int runner_state_check_owned(const char *path, const struct stat *st, bool dir)
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

int runner_state_check_dir(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st)) {
		pr_err("%s: %s", dir, strerror(errno));
		return -errno;
	}
	return runner_state_check_owned(dir, &st, true);
}

/* The state file, through a descriptor that followed no link. */
int runner_state_read_file(const char *path, cJSON **doc, struct json_error *err)
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
	ret = fstat(fd, &st) ? -errno : runner_state_check_owned(path, &st, false);
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

int runner_state_check_target(const char *path, enum runner_state_target kind,
			      char *why, size_t len)
{
	char real[PATH_MAX];
	const char *base;
	struct statfs fs;

	if (!realpath(path, real) || statfs(real, &fs)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (kind == RUNNER_STATE_TARGET_KNOB) {
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

int runner_state_set(struct runner_state *st, const char *field, cJSON *value)
{
	if (!value)
		return -ENOMEM;
	if (cJSON_HasObjectItem(st->doc, field))
		cJSON_ReplaceItemInObjectCaseSensitive(st->doc, field, value);
	else
		cJSON_AddItemToObject(st->doc, field, value);
	return runner_state_write(st);
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

int runner_state_add_undo(struct runner_state *st, const char *kind,
			  const char *key, cJSON *data)
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
	return runner_state_write(st);
}

