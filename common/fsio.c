// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"

static int write_full(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

static int fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, ret = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (fsync(fd))
			ret = -errno;
		close(fd);
	}
	free(copy);
	return ret;
}

int fsio_write_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_full(fd, buf, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	return fsync_dir_of(path);
}

int fsio_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int fsio_read_all(const char *path, char **buf, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *data, *tmp;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	data = malloc(cap);
	while (data) {
		ssize_t n;

		if (used + 1 >= cap) {
			cap *= 2;
			tmp = realloc(data, cap);
			if (!tmp)
				break;
			data = tmp;
		}
		n = read(fd, data + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n) {
			data[used] = '\0';
			close(fd);
			*buf = data;
			if (len)
				*len = used;
			return 0;
		}
		used += n;
	}
	close(fd);
	free(data);
	return ret ? ret : -ENOMEM;
}

int fsio_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int fsio_write_str(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

int fsio_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int fsio_self_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	if (snprintf(buf, len, "%s", dirname(exe)) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int fsio_relpath(const char *from_dir, const char *to, char *buf, size_t len)
{
	char a[PATH_MAX], b[PATH_MAX];
	size_t i = 0, common = 0, used = 0;

	if (!realpath(from_dir, a) || !realpath(to, b))
		return -errno;
	/* The longest common prefix that ends at a component boundary. */
	while (a[i] && a[i] == b[i]) {
		i++;
		if ((a[i] == '/' || !a[i]) && (b[i] == '/' || !b[i]))
			common = i;
	}
	if (!strcmp(a, "/"))
		common = 0;
	buf[0] = '\0';
	for (i = common; a[i]; i++)
		if (a[i] == '/' && used + 4 < len) {
			memcpy(buf + used, "../", 4);
			used += 3;
		}
	if (snprintf(buf + used, len - used, "%s", b[common] == '/' ?
		     b + common + 1 : b + common) >= (int)(len - used))
		return -ENAMETOOLONG;
	return 0;
}
