// SPDX-License-Identifier: GPL-2.0-only
/*
 * common/text/parse.c's search of a kernel command line's words: a flag,
 * a parameter's key with or without a value, and a key with a value, as
 * the lab (the guest's /init, the clock's append, the gate's --append-a
 * and -b), the runner (preempt=) and the analyzer (cmdline.PARAM) ask.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"

static const char *find(const char *cmdline, const char *word,
			enum parse_cmdline_match how)
{
	return parse_cmdline_find(cmdline, word, strlen(word), how);
}

static void test_cmdline_word(void **state)
{
	const char *line = "console=ttyS0 quiet rtgate.lab=shell nohz=off";

	(void)state;
	assert_ptr_equal(find(line, "quiet", PARSE_CMDLINE_WORD),
			 strstr(line, "quiet"));
	assert_non_null(find(line, "rtgate.lab=shell", PARSE_CMDLINE_WORD));
	assert_non_null(find(line, "console=ttyS0", PARSE_CMDLINE_WORD));
	/* A word is whole: no prefix, no suffix, no key of a parameter. */
	assert_null(find(line, "qui", PARSE_CMDLINE_WORD));
	assert_null(find(line, "rtgate.lab", PARSE_CMDLINE_WORD));
	assert_null(find(line, "rtgate.lab=she", PARSE_CMDLINE_WORD));
	assert_null(find(line, "lab=shell", PARSE_CMDLINE_WORD));
	assert_null(find(line, "nohz=on", PARSE_CMDLINE_WORD));
	/* Blanks: spaces, tabs and /proc/cmdline's newline; none at all. */
	assert_non_null(find("  a\tquiet\n", "quiet", PARSE_CMDLINE_WORD));
	assert_non_null(find("quiet", "quiet", PARSE_CMDLINE_WORD));
	assert_null(find("", "quiet", PARSE_CMDLINE_WORD));
	assert_null(find(NULL, "quiet", PARSE_CMDLINE_WORD));
	assert_null(find("   ", "quiet", PARSE_CMDLINE_WORD));
}

static void test_cmdline_key(void **state)
{
	const char *line = "nohz skew_tick=1 isolcpus=2-3 preempt=";

	(void)state;
	/* A key is set bare or with a value, an empty one too. */
	assert_ptr_equal(find(line, "nohz", PARSE_CMDLINE_KEY), line);
	assert_ptr_equal(find(line, "skew_tick", PARSE_CMDLINE_KEY),
			 strstr(line, "skew_tick"));
	assert_non_null(find(line, "preempt", PARSE_CMDLINE_KEY));
	assert_null(find(line, "skew", PARSE_CMDLINE_KEY));
	assert_null(find(line, "isolcpus=2", PARSE_CMDLINE_KEY));
	assert_null(find(line, "tick", PARSE_CMDLINE_KEY));
	/* @n bytes of @word count: a key cut from a longer text. */
	assert_non_null(parse_cmdline_find(line, "isolcpus=9", 8,
					   PARSE_CMDLINE_KEY));
	assert_null(parse_cmdline_find(line, "quiet", 0, PARSE_CMDLINE_KEY));
}

static void test_cmdline_value(void **state)
{
	const char *line = "preempt full preempt=lazy nohz_full=1-3";
	const char *w;

	(void)state;
	/* A bare flag of that name is no value: the next word is. */
	w = find(line, "preempt", PARSE_CMDLINE_VALUE);
	assert_ptr_equal(w, strstr(line, "preempt=lazy"));
	assert_int_equal(strcspn(w + 8, PARSE_CMDLINE_BLANKS), 4);
	assert_non_null(find(line, "nohz_full", PARSE_CMDLINE_VALUE));
	assert_null(find(line, "nohz", PARSE_CMDLINE_VALUE));
	assert_null(find(line, "full", PARSE_CMDLINE_VALUE));
	assert_non_null(find("preempt=", "preempt", PARSE_CMDLINE_VALUE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_word),
		cmocka_unit_test(test_cmdline_key),
		cmocka_unit_test(test_cmdline_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
