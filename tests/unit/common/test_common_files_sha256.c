// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-256 (OpenSSL's, behind common/files/sha256.h and common/files/filehash.h)
 * against the FIPS 180-4 / NIST test vectors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "filehash.h"
#include "sha256.h"

#define ABC "ba7816bf8f01cfea414140de5dae2223" \
	    "b00361a396177a9cb410ff61f20015ad"

static void test_vectors(void **state)
{
	char hex[65];
	struct sha256 s;
	char block[1000];
	int i;

	(void)state;
	sha256_buf("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			    "27ae41e4649b934ca495991b7852b855");
	sha256_buf("abc", 3, hex);
	assert_string_equal(hex, ABC);
	sha256_buf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
			    "a33ce45964ff2167f6ecedd419db06c1");
	/* One million 'a', fed in pieces that straddle the blocks. */
	memset(block, 'a', sizeof(block));
	sha256_init(&s);
	for (i = 0; i < 1000; i++)
		sha256_update(&s, block, sizeof(block));
	assert_int_equal(sha256_hex(&s, hex), 0);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			    "f1809a48a497200e046d39ccc7112cd0");
}

static void test_file(void **state)
{
	char path[] = "/tmp/rtgate-unit-sha.XXXXXX", hex[65];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abc", 3), 3);
	close(fd);
	assert_int_equal(sha256_file(path, hex), 0);
	assert_string_equal(hex, ABC);
	unlink(path);
	assert_int_not_equal(sha256_file(path, hex), 0);
	assert_string_equal(hex, "");
}

/* A hash given up is freed (LeakSanitizer would say otherwise). */
static void test_destroy(void **state)
{
	struct sha256 s;
	char hex[65];

	(void)state;
	assert_int_equal(sha256_init(&s), 0);
	sha256_update(&s, "abc", 3);
	sha256_destroy(&s);
	assert_int_equal(sha256_init(&s), 0);
	sha256_update(&s, "abc", 3);
	assert_int_equal(sha256_hex(&s, hex), 0);
	sha256_destroy(&s);
	assert_string_equal(hex, ABC);
}

static void test_filehash(void **state)
{
	char a[] = "/tmp/rtgate-unit-fh.XXXXXX";
	char b[] = "/tmp/rtgate-unit-fh.XXXXXX";
	char ha[65], hb[65], hbuf[65], *hex[] = { ha, hb };
	const char *paths[] = { a, b };
	int fa = mkstemp(a), fb = mkstemp(b);

	(void)state;
	assert_true(fa >= 0 && fb >= 0);
	assert_int_equal(write(fa, "abc", 3), 3);
	close(fa);
	close(fb);
	assert_int_equal(filehash_sha256_many(paths, 2, hex), 0);
	assert_string_equal(ha, ABC);
	assert_string_equal(hb, "e3b0c44298fc1c149afbf4c8996fb924"
			    "27ae41e4649b934ca495991b7852b855");
	assert_int_equal(filehash_sha256_buf("abc", 3, hbuf), 0);
	assert_string_equal(hbuf, ABC);
	unlink(b);
	assert_int_not_equal(filehash_sha256_many(paths, 2, hex), 0);
	unlink(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_destroy),
		cmocka_unit_test(test_filehash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
