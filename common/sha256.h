/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4), for identifying suite files and kernel configs in
 * manifests without a crypto library dependency.
 */
#ifndef RTGATE_SHA256_H
#define RTGATE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	uint8_t buf[64];
	size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Finishes and writes 64 lower-case hex digits and a NUL into @hex. */
void sha256_hex(struct sha256 *s, char hex[65]);
/* One call: the hex digest of a buffer. */
void sha256_buf(const void *data, size_t len, char hex[65]);
/* The hex digest of a file; 0 or -errno. */
int sha256_file(const char *path, char hex[65]);

#endif
