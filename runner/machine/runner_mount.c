// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs and debugfs (machine.h): found where mounted, else mounted for
 * the run.
 */
#include <errno.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "log.h"
#include "runner/machine/machine.h"

int runner_mount_find(const char *fstype, char *buf, size_t len)
{
	struct mntent ent;
	char strings[4096];
	int ret = -ENOENT;
	FILE *f;

	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return -errno;
	while (getmntent_r(f, &ent, strings, sizeof(strings))) {
		if (strcmp(ent.mnt_type, fstype))
			continue;
		if (snprintf(buf, len, "%s", ent.mnt_dir) >= (int)len)
			ret = -ENAMETOOLONG;
		else
			ret = 0;
		break;
	}
	endmntent(f);
	return ret;
}

int runner_mount_ensure(const char *fstype, char *buf, size_t len, bool *mounted)
{
	const char *target = !strcmp(fstype, "debugfs") ? "/sys/kernel/debug" :
			     "/sys/kernel/tracing";
	int ret;

	*mounted = false;
	ret = runner_mount_find(fstype, buf, len);
	if (ret != -ENOENT)
		return ret;
	if (mount("nodev", target, fstype, 0, NULL) && errno != EBUSY) {
		ret = -errno;
		pr_warn("cannot mount %s on %s: %s", fstype, target,
			strerror(errno));
		return ret;
	}
	*mounted = true;
	return runner_mount_find(fstype, buf, len);
}
