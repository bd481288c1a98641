// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's cgroup (machine.h): one per run, a leaf per process, so that
 * every process is killed and accounted at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"
#include "runner/machine/machine.h"
#include "clocks.h"

#define CGROUP_EMPTY_WAIT_S	10.0

/* Our cgroup v2 path relative to the mount: the "0::" line. */
static int own_cgroup(char *buf, size_t len)
{
	char *all, *line, *save = NULL;
	int ret = -ENOENT;

	ret = fsio_read_all("/proc/self/cgroup", &all, NULL);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (line = strtok_r(all, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0::", 3))
			continue;
		ret = snprintf(buf, len, "%s", line + 3) >= (int)len ?
		      -ENAMETOOLONG : 0;
		break;
	}
	free(all);
	return ret;
}

int runner_cgroup_run_path(char *path, size_t len)
{
	char mnt[PATH_MAX], rel[PATH_MAX];
	int ret;

	ret = runner_mount_find("cgroup2", mnt, sizeof(mnt));
	if (!ret)
		ret = own_cgroup(rel, sizeof(rel));
	if (ret)
		return ret;
	if (snprintf(path, len, "%s%s/rtgate-%d", mnt,
		     strcmp(rel, "/") ? rel : "", getpid()) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int runner_cgroup_create(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int runner_cgroup_leaf_create(const char *run, const char *name, char *path,
			      size_t len)
{
	if (snprintf(path, len, "%s/%s", run, name) >= (int)len)
		return -ENAMETOOLONG;
	return runner_cgroup_create(path);
}

int runner_cgroup_enter(const char *path)
{
	char procs[PATH_MAX];

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	return fsio_write_str(procs, "0");
}

/* Without cgroup.kill (before Linux 5.14): kill what cgroup.procs lists. */
static int kill_listed(const char *path)
{
	char file[PATH_MAX], *all, *line, *save = NULL;
	struct dirent *de;
	DIR *d;
	int ret;

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	ret = fsio_read_all(file, &all, NULL);
	if (ret)
		return ret;
	for (line = strtok_r(all, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		kill((pid_t)atoi(line), SIGKILL);
	free(all);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
			kill_listed(file);
		}
	closedir(d);
	return 0;
}

int runner_cgroup_kill(const char *path)
{
	char file[PATH_MAX];

	snprintf(file, sizeof(file), "%s/cgroup.kill", path);
	if (!fsio_write_str(file, "1"))
		return 0;
	return kill_listed(path);
}

static bool runner_cgroup_populated(const char *path)
{
	char file[PATH_MAX], *all;
	bool populated;

	snprintf(file, sizeof(file), "%s/cgroup.events", path);
	if (fsio_read_all(file, &all, NULL))
		return false;
	populated = strstr(all, "populated 1") != NULL;
	free(all);
	return populated;
}

static int remove_tree(const char *path)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *d;

	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			remove_tree(sub);
		}
	closedir(d);
	if (rmdir(path) && errno != ENOENT)
		return -errno;
	return 0;
}

int runner_cgroup_destroy(const char *path)
{
	double start = clocks_mono_s(), last_kill = start;

	if (!fsio_exists(path))
		return 0;
	runner_cgroup_kill(path);
	/*
	 * Killed tasks still have to run to exit, which takes a while on a
	 * loaded machine; kill again now and then in case one forked.
	 */
	while (runner_cgroup_populated(path) &&
	       clocks_mono_s() - start < CGROUP_EMPTY_WAIT_S) {
		usleep(10 * 1000);
		if (clocks_mono_s() - last_kill > 0.5) {
			runner_cgroup_kill(path);
			last_kill = clocks_mono_s();
		}
	}
	return remove_tree(path);
}
