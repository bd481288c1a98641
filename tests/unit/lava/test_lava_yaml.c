// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava_yaml_write(): the LAVA job writer's YAML (libyaml's emitter), on
 * the shapes a job has and the strings YAML would misread. The layout is
 * pinned as text; tests/integration/lava_job_report.sh checks whole jobs with
 * lava-common's schema.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lava/lava.h"

/* @json written as YAML into a string the caller frees. */
static char *yaml_of(const char *json)
{
	cJSON *j = cJSON_Parse(json);
	char *text = NULL;
	size_t len;
	FILE *f;

	assert_non_null(j);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(lava_yaml_write(f, j), 0);
	assert_int_equal(fclose(f), 0);
	cJSON_Delete(j);
	return text;
}

static void check(const char *json, const char *want)
{
	char *got = yaml_of(json);

	assert_string_equal(got, want);
	free(got);
}

static void test_block_layout(void **state)
{
	(void)state;
	check("{\"a\":{\"b\":1,\"c\":[\"x\",{\"d\":true,\"e\":null}]},"
	      "\"f\":[[1,2],[]],\"g\":{}}",
	      "a:\n"
	      "  b: 1\n"
	      "  c:\n"
	      "  - \"x\"\n"
	      "  - d: true\n"
	      "    e: null\n"
	      "f:\n"
	      "- - 1\n"
	      "  - 2\n"
	      "- []\n"
	      "g: {}\n");
}

static void test_strings_stay_strings(void **state)
{
	(void)state;
	/* Keys outside [A-Za-z0-9_-] are quoted, every string value too. */
	check("{\"rtgate.suite\":\"yes: no\",\"p\":\"root@rt: ~#\","
	      "\"n\":\"12\",\"s\":\"*x\"}",
	      "\"rtgate.suite\": \"yes: no\"\n"
	      "p: \"root@rt: ~#\"\n"
	      "n: \"12\"\n"
	      "s: \"*x\"\n");
	/* Escapes; UTF-8 as it is; a long line is not folded. */
	check("{\"q\":\"a \\\"b\\\"\\\\c\\n\\t\",\"u\":\"\\u00b5s\"}",
	      "q: \"a \\\"b\\\"\\\\c\\n\\t\"\n"
	      "u: \"\xc2\xb5s\"\n");
}

static void test_long_line(void **state)
{
	char json[400], want[400];

	(void)state;
	memset(json, 0, sizeof(json));
	strcpy(json, "{\"k\":\"");
	memset(json + 6, 'w', 200);
	strcat(json, "\"}");
	snprintf(want, sizeof(want), "k: \"%.200s\"\n", json + 6);
	check(json, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_layout),
		cmocka_unit_test(test_strings_stay_strings),
		cmocka_unit_test(test_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
