// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the runner's progress (runner/measure/measure.h) and the
 * text helpers it shares with the reports (common/text/textfmt.h): the CPU of
 * each maximum named, the suite's time left, long reasons wrapped to the
 * width.
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

#include "runner/measure/measure.h"
#include "textfmt.h"

/* Runs fn with stdout in a temporary file; returns what it printed. */
static char *capture(void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/rtgate-progress.XXXXXX";
	int fd = mkstemp(path), saved;
	char *buf = calloc(1, 8192);
	FILE *f;

	assert_true(fd >= 0 && buf);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	fn(arg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	fread(buf, 1, 8191, f);
	fclose(f);
	unlink(path);
	return buf;
}

static void suite_left(void **state)
{
	struct runner_progress pg;
	char buf[32];
	double now = 1000;

	(void)state;
	runner_progress_init(&pg, 9, 15);
	/* Step 1 just started, none finished: 9 x 15 s of measurement. */
	pg.step = 1;
	pg.step_start = now;
	assert_string_equal(runner_progress_suite_left(&pg, now, buf, sizeof(buf)),
			    "~2m15s");
	/* Two steps took 20 s each (overhead measured): 7 to come. */
	pg.step = 2;
	pg.done = 2;
	pg.done_s = 40;
	pg.step_start = 0;
	assert_string_equal(runner_progress_suite_left(&pg, now, buf, sizeof(buf)),
			    "~2m20s");
	/* Step 3, 5 s in: 15 s of it left, then 6 more steps. */
	pg.step = 3;
	pg.step_start = now - 5;
	assert_string_equal(runner_progress_suite_left(&pg, now, buf, sizeof(buf)),
			    "~2m15s");
	/* Nothing known (a suite without a measurement duration): nothing. */
	runner_progress_init(&pg, 4, 0);
	pg.step = 1;
	pg.step_start = now;
	assert_string_equal(runner_progress_suite_left(&pg, now, buf, sizeof(buf)),
			    "");
}

static void rep_end(void *arg)
{
	struct runner_progress *pg = arg;

	runner_progress_rep_end(pg, "INVALID", "hackbench-loop: expect "
				"hackbench-loop.work_done > 0 failed: work_done is 0; "
				"the workload did no work, so this repetition is no "
				"evidence either way and is left out of the verdicts");
}

static void rep_end_names_cpus_and_wraps(void **state)
{
	struct runner_progress pg;
	struct ctline t = { 0 };
	char *out, *line, *save = NULL;
	int n = 0;

	(void)state;
	runner_progress_init(&pg, 3, 15);
	pg.tty = false;
	runner_progress_rep_start(&pg, 1, "hackbench", 1, 3);
	t.thread = 0;
	t.max_us = 1013;
	runner_progress_ctline(&pg, &t);
	t.thread = 1;
	t.max_us = 772;
	runner_progress_ctline(&pg, &t);
	out = capture(rep_end, &pg);
	assert_non_null(strstr(out, "[1/3] hackbench rep 1/3: INVALID, max "
				"CPU0 1013 us, CPU1 772 us; suite ~"));
	/* Not a terminal: 80 columns, the reason wrapped beneath, indented. */
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		if (n)
			assert_true(strlen(line) <= 80);
		if (n)
			assert_memory_equal(line, "            ", 12);
	}
	assert_true(n >= 3);
	free(out);
}

static void wrap(void *arg)
{
	text_wrap(stdout, arg, 4, 40);
}

static void wrap_fits_width(void **state)
{
	char *out, *line, *save = NULL;
	int n = 0;

	(void)state;
	out = capture(wrap, "positive control, flagged as it must be "
		      "(passes): CPU 1 p99 rose from 43 to 273 us (+230 us, "
		      "+535%; p=5.8e-05)");
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		assert_true(strlen(line) <= 40);
		assert_memory_equal(line, "    ", 4);
		assert_true(line[4] != ' ');
	}
	assert_true(n >= 3);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suite_left),
		cmocka_unit_test(rep_end_names_cpus_and_wraps),
		cmocka_unit_test(wrap_fits_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
