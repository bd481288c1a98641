/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 of files, through coreutils' sha256sum (one process for many
 * files). Used to pin patches, name cached initramfs images and identify
 * kernel configs.
 */
#ifndef RTGATE_FILEHASH_H
#define RTGATE_FILEHASH_H

#include <stddef.h>

#define FILEHASH_HEX_LEN 64

/* out: FILEHASH_HEX_LEN + 1 bytes. Returns 0 or -errno. */
int filehash_sha256(const char *path, char *out);

/*
 * Hashes n files in one sha256sum run; hex[i] receives the hash of
 * paths[i] (each FILEHASH_HEX_LEN + 1 bytes).
 */
int filehash_sha256_many(const char *const *paths, size_t n, char **hex);

/* The SHA-256 of a memory buffer (fed to sha256sum on stdin). */
int filehash_sha256_buf(const void *buf, size_t len, char *out);

#endif
