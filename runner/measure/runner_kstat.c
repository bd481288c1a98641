// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's counters beside a repetition (measure.h): debugfs
 * rseq/stats read before and after, and their difference.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fsio.h"
#include "runner/measure/measure.h"

#define DEBUGFS_MAGIC_NR	0x64626720	/* include/uapi/linux/magic.h */

static int parse_line(const char *p, const char *end,
		      struct runner_kstat_snap *s)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	char num[32], *stop;
	size_t nlen, vlen;

	if (!colon || colon == p)
		return -EINVAL;
	nlen = (size_t)(colon - p);
	for (colon++; colon < end && (*colon == ' ' || *colon == '\t');
	     colon++)
		;
	vlen = (size_t)(end - colon);
	if (nlen >= KSTAT_NAME || !vlen || vlen >= sizeof(num) ||
	    s->n >= KSTAT_MAX)
		return -EINVAL;
	memcpy(num, colon, vlen);
	num[vlen] = '\0';
	if (num[0] < '0' || num[0] > '9')
		return -EINVAL;
	errno = 0;
	s->val[s->n] = strtoull(num, &stop, 10);
	if (errno || *stop)
		return -EINVAL;
	memcpy(s->name[s->n], p, nlen);
	s->name[s->n][nlen] = '\0';
	s->n++;
	return 0;
}

int runner_kstat_parse(const char *text, struct runner_kstat_snap *s,
		       unsigned int *line)
{
	const char *p = text, *end;

	memset(s, 0, sizeof(*s));
	*line = 0;
	while (*p) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		++*line;
		if (end > p && parse_line(p, end, s))
			return -EINVAL;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int runner_kstat_read(const char *debugfs, struct runner_kstat_snap *s)
{
	char path[PATH_MAX], *text = NULL;
	struct statfs fs;
	unsigned int line;
	int fd, ret;

	memset(s, 0, sizeof(*s));
	if (!debugfs)
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s", debugfs, KSTAT_RSEQ_FILE) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Only the kernel's own file: debugfs, not something put there. */
	if (fstatfs(fd, &fs)) {
		ret = -errno;
		goto out;
	}
	if (fs.f_type != DEBUGFS_MAGIC_NR) {
		ret = -EXDEV;
		goto out;
	}
	ret = fsio_read_fd(fd, &text, NULL);
	if (!ret)
		ret = runner_kstat_parse(text, s, &line);
out:
	free(text);
	close(fd);
	return ret;
}

cJSON *runner_kstat_delta(const struct runner_kstat_snap *before,
			  const struct runner_kstat_snap *after)
{
	cJSON *d;
	size_t i, j;

	if (!before->n || !after->n)
		return NULL;
	d = cJSON_CreateObject();
	for (i = 0; d && i < after->n; i++)
		for (j = 0; j < before->n; j++) {
			if (strcmp(after->name[i], before->name[j]))
				continue;
			cJSON_AddNumberToObject(d, after->name[i],
				after->val[i] >= before->val[j] ?
				(double)(after->val[i] - before->val[j]) : -1);
			break;
		}
	return d;
}
