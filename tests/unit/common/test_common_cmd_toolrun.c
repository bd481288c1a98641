// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for common/toolrun: exit codes, capture, lines, a missing
 * tool, and a timeout that kills the tool's whole process group.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "toolrun.h"

static void test_exit_and_capture(void **state)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 7", NULL };
	char *out = NULL;
	struct toolrun r = { .argv = argv, .capture = &out };
	int status;

	(void)state;
	assert_int_equal(toolrun(&r, &status), 0);
	assert_int_equal(status, 7);
	assert_non_null(strstr(out, "out\n"));
	assert_non_null(strstr(out, "err\n"));
	free(out);
}

static int lines;

static void count_line(const char *line, void *arg)
{
	(void)arg;
	if (!strncmp(line, "line", 4))
		lines++;
}

static void test_lines_env_cwd(void **state)
{
	char *argv[] = { "sh", "-c", "printf 'line %s\\nline %s' \"$X\" "
			 "\"$(pwd)\"", NULL };
	char *env[] = { "X=42", NULL }, *out = NULL;
	struct toolrun r = { .argv = argv, .env = env, .cwd = "/",
			     .on_line = count_line, .capture = &out };
	int status;

	(void)state;
	lines = 0;
	assert_int_equal(toolrun(&r, &status), 0);
	assert_int_equal(status, 0);
	assert_int_equal(lines, 2);	/* the last one has no newline */
	assert_string_equal(out, "line 42\nline /");
	free(out);
}

static void test_missing_tool(void **state)
{
	char *argv[] = { "rtgate-no-such-tool", NULL };
	struct toolrun r = { .argv = argv };
	int status;

	(void)state;
	assert_int_equal(toolrun(&r, &status), -ENOENT);
	assert_false(toolrun_have("rtgate-no-such-tool"));
	assert_true(toolrun_have("sh"));
}

static char proc_state(long pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void test_timeout_kills_group(void **state)
{
	char pidfile[] = "/tmp/rtgate-toolrun.XXXXXX";
	char cmd[256], *argv[] = { "sh", "-c", cmd, NULL };
	struct toolrun r = { .argv = argv, .timeout_ms = 300 };
	int status, fd;
	FILE *f;
	long pid = 0;

	(void)state;
	fd = mkstemp(pidfile);
	close(fd);
	/* A grandchild in the background: it must die with its parent. */
	snprintf(cmd, sizeof(cmd), "sleep 30 & echo $! > %s; wait", pidfile);
	assert_int_equal(toolrun(&r, &status), -ETIMEDOUT);
	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	unlink(pidfile);
	usleep(100000);
	/* Gone, or a zombie waiting for whoever reaps orphans here. */
	assert_true((kill(pid, 0) == -1 && errno == ESRCH) ||
		    proc_state(pid) == 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_and_capture),
		cmocka_unit_test(test_lines_env_cwd),
		cmocka_unit_test(test_missing_tool),
		cmocka_unit_test(test_timeout_kills_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
