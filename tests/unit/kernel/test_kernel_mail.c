// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for kernel/: patches found in mail texts (the seeds' thread
 * format), kernel version comparison.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kernel/kernel_priv.h"

#define THREAD "tests/fixtures/mail/thread.txt"

static void test_thread_patches(void **state)
{
	struct kernel_mail_patch *v;
	int n;

	(void)state;
	assert_int_equal(kernel_mail_text_parse(THREAD, &v, &n), 0);
	/* 1/2 and 2/2 inline, the reply's attachment; not the quote. */
	assert_int_equal(n, 3);
	assert_string_equal(v[0].subject,
			    "[PATCH 1/2] sched: say what syscalls.c holds");
	assert_int_equal(v[0].index, 1);
	assert_int_equal(v[0].total, 2);
	assert_false(v[0].reply);
	assert_string_equal(v[0].attachment, "");
	assert_string_equal(v[0].author, "Ada Tester <ada@example.org>");
	assert_non_null(strstr(v[0].text, "Subject: [PATCH 1/2]"));
	assert_non_null(strstr(v[0].text, "+ *  (rtgate test: this line"));
	assert_int_equal(v[1].index, 2);
	assert_true(v[2].reply);
	assert_string_equal(v[2].attachment, "variant.patch");
	assert_non_null(strstr(v[2].text, "+ *  (rtgate test: the variant)"));
	/* The attachment's Type: line is not part of the patch. */
	assert_null(strstr(v[2].text, "[-- Type:"));
	kernel_mail_text_free(v, n);
}

static void test_flattened_mail(void **state)
{
	char path[] = "/tmp/rtgate-mail.XXXXXX";
	struct kernel_mail_patch *v;
	int fd, n, i;
	FILE *f;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("From nobody Subject: [PATCH] x ", f);
	for (i = 0; i < 500; i++)
		fputs("words words ", f);
	fputs("diff --git a/x b/x --- a/x +++ b/x @@ -1 +1 @@ -a +b", f);
	fclose(f);
	assert_int_equal(kernel_mail_text_parse(path, &v, &n), -EINVAL);
	assert_int_equal(n, 0);
	unlink(path);
}

static void test_no_patch(void **state)
{
	char path[] = "/tmp/rtgate-mail.XXXXXX";
	struct kernel_mail_patch *v;
	int fd, n;
	FILE *f;

	(void)state;
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs("Re: [PATCH] x\n\n[Some One]\n\nLooks good.\n", f);
	fclose(f);
	assert_int_equal(kernel_mail_text_parse(path, &v, &n), 0);
	assert_int_equal(n, 0);
	kernel_mail_text_free(v, n);
	unlink(path);
}

static void test_version_cmp(void **state)
{
	(void)state;
	assert_true(kernel_version_cmp("6.12.117", "6.13") < 0);
	assert_true(kernel_version_cmp("7.0", "6.13") > 0);
	assert_true(kernel_version_cmp("6.13.2", "6.13") == 0);
	assert_true(kernel_version_cmp("6.9", "6.12") < 0);
	assert_true(kernel_version_cmp("7.0.0-rc1", "7.0") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_patches),
		cmocka_unit_test(test_flattened_mail),
		cmocka_unit_test(test_no_patch),
		cmocka_unit_test(test_version_cmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
