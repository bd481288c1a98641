// SPDX-License-Identifier: GPL-2.0-only
/*
 * One nightly at a time. flock(2) rather than a pid file: the kernel drops
 * the lock when its holder dies, however it dies, so a killed nightly never
 * blocks the next one, and a running one always blocks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "timefmt.h"

static void say_owner(int fd, const char *path)
{
	char buf[128] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
	}
	pr_err("another nightly is running (%s: %s); not starting a second "
	       "one", path, n > 0 ? buf : "holder unknown");
}

int nightly_lock(const char *path, int *fd)
{
	char dir[PATH_MAX], line[128], now[32];
	int ret, len;

	snprintf(dir, sizeof(dir), "%s", path);
	ret = fsio_mkdir_p(dirname(dir), 0755);
	if (ret) {
		pr_err("%s: cannot create its directory: %s", path,
		       strerror(-ret));
		return ret;
	}
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0) {
		ret = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return ret;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (ret == -EBUSY)
			say_owner(*fd, path);
		else
			pr_err("%s: flock: %s", path, strerror(-ret));
		close(*fd);
		*fd = -1;
		return ret;
	}
	timefmt_iso8601_now(now, sizeof(now));
	len = snprintf(line, sizeof(line), "pid %d since %s\n", (int)getpid(),
		       now);
	if (ftruncate(*fd, 0) || pwrite(*fd, line, len, 0) != len)
		pr_warn("%s: cannot record the owner", path);
	return 0;
}

void nightly_unlock(int fd, const char *path)
{
	(void)path;
	if (fd < 0)
		return;
	/* Not unlinked: a waiter holding the old inode would lock a ghost. */
	if (ftruncate(fd, 0))
		pr_debug("%s: truncate failed", path);
	flock(fd, LOCK_UN);
	close(fd);
}
