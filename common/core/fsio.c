// SPDX-License-Identifier: GPL-2.0-only
/*
 * File helpers (fsio.h): whole files read, written atomically (temporary
 * file, fsync, rename), directories made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"

int fsio_write_full(int fd, const void *data, size_t len)
{
	const char *buf = data;

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

int fsio_copy(const char *from, const char *to)
{
	char *buf;
	size_t len;
	int ret;

	ret = fsio_read_all(from, &buf, &len);
	if (ret)
		return ret;
	ret = fsio_write_atomic(to, buf, len);
	free(buf);
	return ret;
}

int fsio_stream_open(struct fsio_stream *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	return s->f ? 0 : -ENOMEM;
}

int fsio_stream_commit(struct fsio_stream *s, const char *path, int ret)
{
	if (fclose(s->f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = fsio_write_atomic(path, s->buf, s->len);
	free(s->buf);
	s->buf = NULL;
	s->f = NULL;
	return ret;
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

/* "<path>.tmp.<pid>.XXXXXX" with a random suffix. */
static int tmp_name(char *buf, size_t len, const char *path)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	size_t i, n;

	n = snprintf(buf, len, "%s" FSIO_TMP_INFIX "%d.XXXXXX", path,
		     getpid());
	if (n >= len)
		return -ENAMETOOLONG;
	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		return -errno;
	for (i = 0; i < sizeof(rnd); i++)
		buf[n - sizeof(rnd) + i] = chars[rnd[i] % (sizeof(chars) - 1)];
	return 0;
}

/*
 * The data goes into a file that has no name yet (O_TMPFILE) and gets one
 * only when complete, so a writer killed meanwhile leaves nothing; the
 * name is random and linkat() never follows or replaces what is there.
 * Where the filesystem has no O_TMPFILE, O_CREAT|O_EXCL under a random
 * name does the same, less the first property.
 */
static int open_tmp(const char *path, char *tmp, size_t len, bool *named)
{
	char dir[PATH_MAX];
	int fd, ret, tries;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	/* linkat() reaches the file through /proc: without it, a name. */
	fd = access("/proc/self/fd", X_OK) ? -1 :
	     open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	*named = fd < 0;
	if (fd >= 0)
		return fd;
	for (tries = 0; tries < 100; tries++) {
		ret = tmp_name(tmp, len, path);
		if (ret)
			return ret;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

static int link_tmp(int fd, const char *path, char *tmp, size_t len)
{
	char proc[64];
	int ret, tries;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (tries = 0; tries < 100; tries++) {
		ret = tmp_name(tmp, len, path);
		if (ret)
			return ret;
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int fsio_write_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX] = "";
	bool named;
	int fd, ret;

	fd = open_tmp(path, tmp, sizeof(tmp), &named);
	if (fd < 0)
		return fd;
	ret = fsio_write_full(fd, buf, len);
	/* O_TMPFILE honours the umask; results are for everyone to read. */
	if (!ret && fchmod(fd, 0644))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (!ret && !named) {
		ret = link_tmp(fd, path, tmp, sizeof(tmp));
		if (ret)
			tmp[0] = '\0';
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		if (tmp[0])
			unlink(tmp);
		return ret;
	}
	return fsync_dir_of(path);
}

/* NAME.tmp.PID[.X] or NAME.spool.PID[.X]: a temporary of process @pid. */
static bool is_tmp_of(const char *name, long pid)
{
	static const char *const infixes[] = { FSIO_TMP_INFIX, ".spool." };
	const char *p;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(infixes) / sizeof(infixes[0]); i++) {
		p = strstr(name, infixes[i]);
		if (!p || p == name)
			continue;
		p += strlen(infixes[i]);
		if (strtol(p, &end, 10) == pid && end != p &&
		    (!*end || *end == '.'))
			return true;
	}
	return false;
}

static int remove_tree_at(int dfd, const char *name)
{
	struct dirent *de;
	int fd;
	DIR *d;

	if (!unlinkat(dfd, name, 0))
		return 1;
	if (errno != EISDIR)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	return !unlinkat(dfd, name, AT_REMOVEDIR);
}

static int sweep_tmp(int dfd, long pid, int depth)
{
	struct dirent *de;
	int n = 0, sub;
	DIR *d = fdopendir(dfd);

	if (!d) {
		close(dfd);
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (is_tmp_of(de->d_name, pid)) {
			n += remove_tree_at(dirfd(d), de->d_name);
			continue;
		}
		if (depth <= 0 || de->d_type != DT_DIR)
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
			     O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			n += sweep_tmp(sub, pid, depth - 1);
	}
	closedir(d);
	return n;
}

int fsio_remove_tmp_of(const char *dir, long pid, int depth)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return sweep_tmp(fd, pid, depth);
}

/* Root, the caller, and the user sudo ran it for may own what it uses. */
static bool owner_trusted(uid_t uid)
{
	const char *sudo = getenv("SUDO_UID");
	char *end;
	unsigned long v;

	if (uid == 0 || uid == geteuid())
		return true;
	if (geteuid() || !sudo || !*sudo)
		return false;
	v = strtoul(sudo, &end, 10);
	return !*end && v == uid;
}

/* One component: a symlink its trusted owner made, a directory. */
static int component_trusted(const char *path, char *why, size_t len)
{
	struct stat st;

	if (lstat(path, &st))
		return -errno;
	if (S_ISLNK(st.st_mode)) {
		if (!owner_trusted(st.st_uid)) {
			snprintf(why, len, "%s: a symlink owned by uid %u",
				 path, (unsigned int)st.st_uid);
			return -EPERM;
		}
		if (stat(path, &st))
			return -errno;
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!owner_trusted(st.st_uid) ||
	    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
		snprintf(why, len, "%s: owned by uid %u with mode %04o", path,
			 (unsigned int)st.st_uid,
			 (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int fsio_dir_trusted(const char *path, char *why, size_t len)
{
	char buf[PATH_MAX], cwd[PATH_MAX];
	char *p;
	int ret;

	why[0] = '\0';
	if (!*path)
		return -ENOENT;
	if (path[0] != '/') {
		/* The working directory, from the root down. */
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		ret = fsio_dir_trusted(cwd, why, len);
		if (ret)
			return ret;
	}
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		if (*p == '/' && p[-1] == '/')
			continue;
		if (*p) {
			*p = '\0';
			ret = component_trusted(buf, why, len);
			*p = '/';
		} else {
			ret = component_trusted(buf, why, len);
		}
		if (ret)
			return ret;
		if (!*p)
			return 0;
	}
}

int fsio_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX], why[PATH_MAX + 64];
	char *p;
	int ret;

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
	ret = fsio_dir_trusted(buf, why, sizeof(why));
	if (ret == -EPERM)
		pr_err("%s: rtgate writes only where nobody else could plant a "
		       "path: every directory on the way must belong to root "
		       "or to you, and only a sticky one (as /tmp) may be "
		       "writable by others", why);
	return ret;
}

int fsio_read_fd(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *data, *tmp;
	int ret = 0;

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
			*buf = data;
			if (len)
				*len = used;
			return 0;
		}
		used += n;
	}
	free(data);
	return ret ? ret : -ENOMEM;
}

int fsio_read_input(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd, ret;

	/* O_NONBLOCK: opening a FIFO nobody writes must not hang. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		ret = -EFTYPE_INPUT;
	else if ((unsigned long long)st.st_size > FSIO_INPUT_MAX)
		ret = -EFBIG;
	else
		ret = fsio_read_fd(fd, buf, len);
	/* A file that grew while read: the bound holds for what was read. */
	if (!ret && len && *len > FSIO_INPUT_MAX) {
		free(*buf);
		*buf = NULL;
		ret = -EFBIG;
	}
	close(fd);
	return ret;
}

const char *fsio_input_why(int err)
{
	switch (err) {
	case -EISDIR:
		return "a folder, not a file";
	case -EFTYPE_INPUT:
		return "not a regular file (a FIFO or a device may never end)";
	case -EFBIG:
		return "larger than 64 MiB, the bound of an input file (a "
		       "cyclictest --json of 256 CPUs with 10000 non-empty "
		       "buckets each is about 40 MiB; a larger file is no "
		       "result rtgate wrote, and reading it whole would cost "
		       "as much memory)";
	default:
		return strerror(-err);
	}
}

int fsio_read_all(const char *path, char **buf, size_t *len)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fsio_read_fd(fd, buf, len);
	close(fd);
	return ret;
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
