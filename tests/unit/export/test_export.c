// SPDX-License-Identifier: GPL-2.0-only
/*
 * export/: a recorded real run (a copy of one in tests/fixtures/nightly)
 * as KCIDB and as LAVA test cases, and the names both derive from it. The verdicts
 * each export states must be the ones the analyzer reached for the run.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"
#include "export/export.h"
#include "export/export_priv.h"
#include "log.h"

#define FIXTURE "tests/fixtures/nightly/recorded/20261130-195359-quick"

/*
 * A copy of the recorded run, judged (an export is made from a judged
 * report only): the report is written into the copy, never the fixture.
 */
static char run_copy[64];
#define RUN run_copy

static int copy_run(void **state)
{
	struct an_params ap;
	char cmd[256];
	int code;

	(void)state;
	snprintf(run_copy, sizeof(run_copy), "/tmp/rtgate-export.XXXXXX");
	if (!mkdtemp(run_copy))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -r '%s/.' '%s/'", FIXTURE, run_copy);
	if (system(cmd))
		return -1;
	/* An export is made from a judged report only (issue 35). */
	an_params_init(&ap);
	ap.quiet = true;
	code = an_report_run(run_copy, &ap);
	return code == 3 || code == 4 ? -1 : 0;
}

static int remove_run(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", run_copy);
	return system(cmd) ? -1 : 0;
}

/* Path segments: what a URL or a test path may hold, nothing else. */
static void test_path_segment(void **state)
{
	char out[32];

	(void)state;
	export_path_segment("idle", out, sizeof(out));
	assert_string_equal(out, "idle");
	export_path_segment("a b/c", out, sizeof(out));
	assert_null(strchr(out, ' '));
	assert_null(strchr(out, '/'));
	export_path_segment("a-very-long-scenario-name-beyond-the-buffer", out,
			    8);
	assert_int_equal(strlen(out), 7);
}

/* The tree a run measured, from its manifest: Debian's or a release. */
static void test_identity(void **state)
{
	struct export_identity id;
	cJSON *m = NULL;
	struct history h = { 0 };
	struct history_run run = { 0 };

	(void)state;
	log_set_level(LOG_LEVEL_ERR);
	assert_int_equal(export_load_run(RUN, NULL, &h, &run, &m), 0);
	assert_int_equal(export_identity_read(RUN, m, NULL, NULL, &id), 0);
	assert_true(!strcmp(id.kind, "git") || !strcmp(id.kind, "debian") ||
		    !strcmp(id.kind, "release"));
	assert_true(id.release[0] != '\0');
	assert_true(id.key[0] != '\0');
	/* A commit the records lack, given on the command line, is used. */
	assert_int_equal(export_identity_read(RUN, m,
		"https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git",
		"0123456789abcdef0123456789abcdef01234567", &id), 0);
	assert_string_equal(id.kind, "git");
	assert_string_equal(id.git_commit,
			    "0123456789abcdef0123456789abcdef01234567");
	cJSON_Delete(m);
	history_close(&h);
}

struct seen_cases {
	int n, fail, pass, skip, unknown;
	int suite_case;			/* the suite's verdict, its own case */
	int bad_names;
	char first[128];
};

static int take_case(const struct export_lava_case *c, void *arg)
{
	struct seen_cases *s = arg;
	const char *p;

	if (!s->n)
		snprintf(s->first, sizeof(s->first), "%s", c->name);
	s->n++;
	if (!strcmp(c->result, "fail"))
		s->fail++;
	else if (!strcmp(c->result, "pass"))
		s->pass++;
	else if (!strcmp(c->result, "skip"))
		s->skip++;
	else
		s->unknown++;
	if (strncmp(c->name, "rtgate.", 7))
		s->bad_names++;
	for (p = c->name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-", *p))
			s->bad_names++;
	if (strstr(c->name, ".verdict") || !strcmp(c->name + strlen(c->name) -
						    strlen(".exit"), ".exit"))
		s->suite_case++;
	return 0;
}

/*
 * LAVA: every case under one prefix, in LAVA's alphabet; with rtgate's
 * exit code one case more, and that one fails for an exit other than 0.
 */
static void test_lava_cases(void **state)
{
	struct seen_cases a = { 0 }, b = { 0 };

	(void)state;
	assert_int_equal(export_lava_cases(RUN, -1, take_case, &a), 0);
	assert_true(a.n > 0);
	assert_int_equal(a.bad_names, 0);
	assert_int_equal(a.unknown, 0);
	assert_int_equal(export_lava_cases(RUN, 1, take_case, &b), 0);
	assert_int_equal(b.n, a.n + 1);
	assert_int_equal(b.fail, a.fail + 1);
	assert_int_equal(export_lava_cases("/nonexistent/run", -1, take_case,
					   &a) < 0, true);
}

static const cJSON *find_test(const cJSON *tests, const char *path_end)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, tests) {
		const char *p = json_get_str(t, "path", NULL);
		size_t n = p ? strlen(p) : 0, m = strlen(path_end);

		if (n >= m && !strcmp(p + n - m, path_end))
			return t;
	}
	return NULL;
}

/*
 * KCIDB: one checkout, one build, the tests; the checkout's id under the
 * origin; every test's status one of KCIDB's, and as many tests that are
 * not a pass as LAVA has failed cases (one outcome table for both).
 */
static void test_kcidb(void **state)
{
	struct export_kcidb_params p = {
		.run_dir = RUN, .origin = "rtgate_test",
	};
	const cJSON *checkouts, *builds, *tests, *t;
	struct seen_cases lava = { 0 };
	cJSON *doc = NULL;
	int fails = 0;

	(void)state;
	assert_int_equal(export_kcidb_build(&p, &doc), 0);
	assert_non_null(doc);
	checkouts = cJSON_GetObjectItemCaseSensitive(doc, "checkouts");
	builds = cJSON_GetObjectItemCaseSensitive(doc, "builds");
	tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
	assert_int_equal(cJSON_GetArraySize(checkouts), 1);
	assert_int_equal(cJSON_GetArraySize(builds), 1);
	assert_true(cJSON_GetArraySize(tests) > 0);
	assert_int_equal(strncmp(json_get_str(cJSON_GetArrayItem(checkouts, 0),
					  "id", NULL), "rtgate_test:", 12), 0);
	cJSON_ArrayForEach(t, tests) {
		const char *st = json_get_str(t, "status", NULL);

		assert_non_null(st);
		assert_non_null(strstr("|FAIL|ERROR|MISS|PASS|DONE|SKIP|",
				       st));
		assert_int_equal(strncmp(json_get_str(t, "id", NULL), "rtgate_test:",
					 12), 0);
		/* Not a pass in KCIDB (common/cmd/outcome.c's table). */
		fails += !strcmp(st, "FAIL") || !strcmp(st, "ERROR") ||
			 !strcmp(st, "MISS");
	}
	assert_int_equal(export_lava_cases(RUN, -1, take_case, &lava), 0);
	assert_int_equal(fails, lava.fail);
	assert_null(find_test(tests, "no-such-scenario"));
	cJSON_Delete(doc);

	p.origin = "Not Valid!";
	assert_int_not_equal(export_kcidb_build(&p, &doc), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_segment),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_lava_cases),
		cmocka_unit_test(test_kcidb),
	};

	return cmocka_run_group_tests(tests, copy_run, remove_run);
}
