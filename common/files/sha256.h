/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4) as 64 lower-case hex digits, for identifying suite
 * files, kernel configs, patches and initramfs images: OpenSSL's libcrypto
 * (EVP) behind rtgate's own small API.
 *
 *	struct sha256 s;
 *
 *	sha256_init(&s);
 *	sha256_update(&s, a, na);
 *	sha256_update(&s, b, nb);
 *	ret = sha256_hex(&s, hex);	(finishes and frees: no destroy needed)
 *
 * A hash given up before sha256_hex() is freed with sha256_destroy().
 */
#ifndef RTGATE_SHA256_H
#define RTGATE_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

struct sha256 {
	void *ctx;		/* OpenSSL's EVP_MD_CTX; NULL: failed or done */
	int err;		/* the first error, -errno */
};

/* 0 or -ENOMEM; after an error, update does nothing and hex says so. */
int sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/*
 * Finishes, frees the context and writes 64 hex digits and a NUL into
 * @hex; 0, or -errno with @hex "" when any step failed.
 */
int sha256_hex(struct sha256 *s, char hex[SHA256_HEX_LEN + 1]);
/* Frees a hash not finished with sha256_hex(); safe after it. */
void sha256_destroy(struct sha256 *s);
/* One call: the hex digest of a buffer; 0 or -errno (@hex ""). */
int sha256_buf(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);
/* The hex digest of a file; 0 or -errno (@hex ""). */
int sha256_file(const char *path, char hex[SHA256_HEX_LEN + 1]);

#endif
