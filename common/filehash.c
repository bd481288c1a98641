// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filehash.h"
#include "log.h"
#include "toolrun.h"

/* sha256sum prints "HEX  NAME" per file, in argument order. */
static int parse_sums(const char *text, size_t n, char **hex)
{
	const char *p = text;
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < FILEHASH_HEX_LEN; k++)
			if (!isxdigit((unsigned char)p[k]))
				return -EINVAL;
		memcpy(hex[i], p, FILEHASH_HEX_LEN);
		hex[i][FILEHASH_HEX_LEN] = '\0';
		p = strchr(p, '\n');
		if (!p)
			return i + 1 == n ? 0 : -EINVAL;
		p++;
	}
	return 0;
}

int filehash_sha256_many(const char *const *paths, size_t n, char **hex)
{
	char **argv = calloc(n + 3, sizeof(*argv));
	char *out = NULL;
	struct toolrun r = { .argv = argv, .capture = &out };
	int ret, status;
	size_t i;

	if (!argv)
		return -ENOMEM;
	argv[0] = "sha256sum";
	argv[1] = "--";
	for (i = 0; i < n; i++)
		argv[i + 2] = (char *)paths[i];
	ret = toolrun(&r, &status);
	if (!ret && status) {
		pr_err("sha256sum failed: %s", out ? out : "");
		ret = -EIO;
	}
	if (!ret)
		ret = parse_sums(out, n, hex);
	free(out);
	free(argv);
	return ret;
}

int filehash_sha256(const char *path, char *out)
{
	return filehash_sha256_many(&path, 1, &out);
}

int filehash_sha256_buf(const void *buf, size_t len, char *out)
{
	char tmp[] = "/tmp/rtgate-hash.XXXXXX";
	int fd, ret = 0;

	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, len) != (ssize_t)len)
		ret = -EIO;
	close(fd);
	if (!ret)
		ret = filehash_sha256(tmp, out);
	unlink(tmp);
	return ret;
}
