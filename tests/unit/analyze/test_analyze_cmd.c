// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze/cmd/: `rtgate compare RUN_A RUN_B [RUN_A2]` on recorded runs
 * (three nights of the quick suite on one kernel, tests/fixtures/nightly):
 * every scenario judged, the threads' table one row per scenario and a
 * column per run, and runs that cannot be compared refused with nothing
 * judged.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/cmd/cmd.h"
#include "log.h"

#define REC "tests/fixtures/nightly/recorded/"
#define NIGHT_1 REC "20261130-195359-quick"
#define NIGHT_2 REC "20261130-195420-quick"
#define NIGHT_3 REC "20261130-195440-quick"
#define SETPARAM "tests/fixtures/nightly/scaled/20261201-103223-setparam"

static void params(struct an_params *p)
{
	an_params_init(p);
	p->quiet = true;
}

static char *table_of(const struct an_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(an_compare_runs_table(r, f), 0);
	fclose(f);
	return buf;
}

/* A, B, A2: each scenario judged once, the table a row each. */
static void test_three_nights(void **state)
{
	char *dirs[] = { NIGHT_1, NIGHT_2, NIGHT_3 };
	struct an_report *r;
	struct an_params p;
	char *table;
	size_t i;

	(void)state;
	params(&p);
	assert_int_equal(an_compare_runs(dirs, 3, &p, &r), 0);
	assert_non_null(r);
	assert_int_equal(r->nsystems, 3);
	assert_true(r->ncmps >= 2);	/* idle and hackbench */
	for (i = 0; i < r->ncmps; i++)
		assert_true(r->cmps[i].res.verdict != AN_REGRESSION);
	assert_true(r->exit_code != 1);
	assert_non_null(strstr(r->title, "suite quick"));
	table = table_of(r);
	assert_non_null(strstr(table, "idle"));
	assert_non_null(strstr(table, "hackbench"));
	free(table);
	an_compare_runs_free(r);
}

/* Two runs: a plain A/B, the same scenarios. */
static void test_two_nights(void **state)
{
	char *dirs[] = { NIGHT_1, NIGHT_2 };
	struct an_report *r;
	struct an_params p;

	(void)state;
	params(&p);
	assert_int_equal(an_compare_runs(dirs, 2, &p, &r), 0);
	assert_int_equal(r->nsystems, 2);
	assert_true(r->ncmps >= 2);
	an_compare_runs_free(r);
}

/*
 * Refused, nothing judged: runs of two suites (no scenario in common) and
 * a directory that is not a run.
 */
static void test_refused(void **state)
{
	char *pairs[][2] = {
		{ NIGHT_1, SETPARAM },
		{ NIGHT_1, REC "no-such-run" },
	};
	struct an_report *r;
	struct an_params p;
	size_t i;

	(void)state;
	params(&p);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		r = (void *)1;
		assert_true(an_compare_runs(pairs[i], 2, &p, &r) < 0);
		assert_null(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_nights),
		cmocka_unit_test(test_two_nights),
		cmocka_unit_test(test_refused),
	};

	log_set_level(LOG_LEVEL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
