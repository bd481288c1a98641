/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 of files and buffers (common/files/sha256.h, OpenSSL's libcrypto),
 * under the names the patch pinning, the initramfs cache and the kernel
 * builds use.
 */
#ifndef RTGATE_FILEHASH_H
#define RTGATE_FILEHASH_H

#include <stddef.h>

#include "sha256.h"

#define FILEHASH_HEX_LEN SHA256_HEX_LEN

/* out: FILEHASH_HEX_LEN + 1 bytes. Returns 0 or -errno. */
int filehash_sha256(const char *path, char *out);

/*
 * Hashes n files; hex[i] receives the hash of paths[i] (each
 * FILEHASH_HEX_LEN + 1 bytes). 0, or the first file's -errno (said).
 */
int filehash_sha256_many(const char *const *paths, size_t n, char **hex);

/* The SHA-256 of a memory buffer. */
int filehash_sha256_buf(const void *buf, size_t len, char *out);

#endif
