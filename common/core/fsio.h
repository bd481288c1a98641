/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * File helpers. Every result file rtgate writes goes through
 * fsio_write_atomic(): written to a temporary file in the same directory,
 * fsync'ed, then renamed over the target, so a reader never sees half a file.
 */
#ifndef RTGATE_FSIO_H
#define RTGATE_FSIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define FSIO_TMP_INFIX	".tmp."

int fsio_write_atomic(const char *path, const void *buf, size_t len);

/*
 * A file made through a memory stream, then written atomically: open it,
 * write to ->f, commit. fsio_stream_commit() writes @path only when @ret
 * (what writing the stream returned) is 0 and the stream closed cleanly,
 * frees the memory either way, and returns the first error, or 0.
 */
struct fsio_stream {
	FILE *f;
	char *buf;
	size_t len;
};
int fsio_stream_open(struct fsio_stream *s);
int fsio_stream_commit(struct fsio_stream *s, const char *path, int ret);
/*
 * Removes the temporaries a dead process @pid left in @dir and up to
 * @depth levels below (NAME.tmp.PID... and NAME.spool.PID... files or
 * directories). Returns how many, or -errno.
 */
int fsio_remove_tmp_of(const char *dir, long pid, int depth);
/*
 * Creates @path and its parents; then, as fsio_dir_trusted(), refuses a
 * path someone else could change under it (-EPERM, and says which part
 * and why on stderr).
 */
int fsio_mkdir_p(const char *path, mode_t mode);
/*
 * 0 when every component of directory @path (the working directory's
 * too, for a relative one) belongs to root, to the caller or to the user
 * sudo ran it for (SUDO_UID), and is writable by nobody else unless
 * sticky, and every symlink on the way was made by such an owner.
 * -EPERM with @why naming the component otherwise; -errno when a
 * component cannot be looked at.
 */
int fsio_dir_trusted(const char *path, char *why, size_t len);
/* Copies file @from to @to (atomically, as fsio_write_atomic()). */
int fsio_copy(const char *from, const char *to);
/* Reads a whole file, NUL-terminated; *len excludes the NUL. */
int fsio_read_all(const char *path, char **buf, size_t *len);
/*
 * Reads an input rtgate was given (a result file, a manifest, a report):
 * a regular file -- a FIFO or a device may never end, a folder is no
 * file -- of at most FSIO_INPUT_MAX bytes. 0, -EISDIR, -EFTYPE_INPUT
 * (not a regular file), -EFBIG, or -errno; fsio_input_why() words them.
 */
#define FSIO_INPUT_MAX		(64u << 20)
#define EFTYPE_INPUT		ENODEV
int fsio_read_input(const char *path, char **buf, size_t *len);
/* What fsio_read_input()'s error means, bound and reason included. */
const char *fsio_input_why(int err);
/* The same from an open descriptor, to its end. */
int fsio_read_fd(int fd, char **buf, size_t *len);
/* Reads a small kernel file (sysfs, procfs) and strips the trailing newline. */
int fsio_read_str(const char *path, char *buf, size_t len);
/* Writes all of @len bytes to @fd, again after EINTR and short writes. */
int fsio_write_full(int fd, const void *buf, size_t len);
/* Writes a string to a kernel file in one write(2); returns 0 or -errno. */
int fsio_write_str(const char *path, const char *val);
int fsio_exists(const char *path);
/* The directory holding the running executable (for finding bin/ siblings). */
int fsio_self_dir(char *buf, size_t len);
/*
 * @to as a path relative to directory @from_dir ("../run/report.html"),
 * so that pages link to each other wherever the tree is served or copied.
 * Both are resolved first; 0, or -errno when either cannot be.
 */
int fsio_relpath(const char *from_dir, const char *to, char *buf, size_t len);

#endif
