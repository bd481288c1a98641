// SPDX-License-Identifier: GPL-2.0-only
/* SHA-256 through OpenSSL's EVP interface (libcrypto). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "sha256.h"

static void to_hex(const unsigned char *md, unsigned int n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * n] = '\0';
}

int sha256_init(struct sha256 *s)
{
	s->err = 0;
	s->ctx = EVP_MD_CTX_new();
	if (!s->ctx)
		s->err = -ENOMEM;
	else if (!EVP_DigestInit_ex(s->ctx, EVP_sha256(), NULL))
		s->err = -EIO;
	return s->err;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	if (!s->err && s->ctx && !EVP_DigestUpdate(s->ctx, data, len))
		s->err = -EIO;
}

int sha256_hex(struct sha256 *s, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	int ret = s->err;

	if (!ret && (!s->ctx || !EVP_DigestFinal_ex(s->ctx, md, &n) ||
		     n * 2 != SHA256_HEX_LEN))
		ret = -EIO;
	sha256_destroy(s);
	if (ret)
		hex[0] = '\0';
	else
		to_hex(md, n, hex);
	return ret;
}

void sha256_destroy(struct sha256 *s)
{
	EVP_MD_CTX_free(s->ctx);
	s->ctx = NULL;
}

int sha256_buf(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (!EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) ||
	    n * 2 != SHA256_HEX_LEN) {
		hex[0] = '\0';
		return -EIO;
	}
	to_hex(md, n, hex);
	return 0;
}

int sha256_file(const char *path, char hex[SHA256_HEX_LEN + 1])
{
	char buf[65536];
	struct sha256 s;
	ssize_t n;
	int fd;

	hex[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			sha256_destroy(&s);
			return (int)n;
		}
		sha256_update(&s, buf, n);
	}
	close(fd);
	return sha256_hex(&s, hex);
}
