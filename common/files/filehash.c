// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-256 of files and buffers under the names patch pinning, the
 * initramfs cache and the kernel builds use (filehash.h).
 */
#include <string.h>

#include "filehash.h"
#include "log.h"

int filehash_sha256_many(const char *const *paths, size_t n, char **hex)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = sha256_file(paths[i], hex[i]);
		if (ret) {
			pr_err("%s: %s", paths[i], strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int filehash_sha256(const char *path, char *out)
{
	return sha256_file(path, out);
}

int filehash_sha256_buf(const void *buf, size_t len, char *out)
{
	return sha256_buf(buf, len, out);
}
