// SPDX-License-Identifier: GPL-2.0-only
/* `--json` on stdout (jsonout.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonout.h"
#include "log.h"

int jsonout_strip(int argc, char **argv, bool *found)
{
	int i, n = 1;
	bool rest = false;

	*found = false;
	for (i = 1; i < argc; i++) {
		if (!rest && !strcmp(argv[i], "--"))
			rest = true;
		if (!rest && !strcmp(argv[i], "--json")) {
			*found = true;
			continue;
		}
		argv[n++] = argv[i];
	}
	if (n < argc)
		argv[n] = NULL;
	return n;
}

int jsonout_begin(struct jsonout *j)
{
	fflush(stdout);
	j->saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (j->saved < 0)
		return -errno;
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		int ret = -errno;

		close(j->saved);
		j->saved = -1;
		return ret;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int jsonout_end(struct jsonout *j, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = 0;

	if (j->saved < 0)
		return -EBADF;
	fflush(stdout);
	if (path) {
		ret = fsio_read_all(path, &buf, &len);
		if (ret)
			pr_err("%s: %s: no JSON document for --json", path,
			       strerror(-ret));
	}
	if (dup2(j->saved, STDOUT_FILENO) < 0 && !ret)
		ret = -errno;
	close(j->saved);
	j->saved = -1;
	if (!ret && buf)
		ret = write_all(STDOUT_FILENO, buf, len);
	free(buf);
	return ret;
}

int jsonout_tmpdir(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if ((size_t)snprintf(buf, len, "%s/rtgate-json.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") >= len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void jsonout_tmpdir_remove(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
