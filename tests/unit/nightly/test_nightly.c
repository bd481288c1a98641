// SPDX-License-Identifier: GPL-2.0-only
/*
 * nightly/: the configuration (defaults, the file's keys and suites in
 * order, FILE:LINE errors for what it does not know) and the lock a second
 * nightly must find held.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"
#include "nightly/nightly.h"

struct fx {
	char dir[64];
	char conf[128];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/rtgate-nightly.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->conf, sizeof(f->conf), "%s/nightly.conf", f->dir);
	log_set_level(LOG_LEVEL_ERR);
	unsetenv("RTGATE_RESULTS_DIR");
	unsetenv("RTGATE_STATE_DIR");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static void write_conf(const struct fx *f, const char *text)
{
	FILE *fp = fopen(f->conf, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* No file: the quick suite into ./results, as ./run.sh does. */
static void test_defaults(void **state)
{
	struct nightly_config c;

	(void)state;
	assert_int_equal(nightly_config_load(&c, NULL), 0);
	assert_string_equal(c.results, "results");
	assert_string_equal(c.database, "results/rtgate.db");
	assert_string_equal(c.summary, "results/nightly");
	assert_string_equal(c.lock, "/var/lib/rtgate/nightly.lock");
	assert_int_equal(c.history, 7);
	assert_false(c.gate_run);
	assert_int_equal(c.nr_suites, 1);
	assert_string_equal(c.suites[0].name, "quick");

	setenv("RTGATE_RESULTS_DIR", "/srv/r", 1);
	setenv("RTGATE_STATE_DIR", "/srv/state", 1);
	assert_int_equal(nightly_config_load(&c, NULL), 0);
	assert_string_equal(c.database, "/srv/r/rtgate.db");
	assert_string_equal(c.lock, "/srv/state/nightly.lock");
	unsetenv("RTGATE_RESULTS_DIR");
	unsetenv("RTGATE_STATE_DIR");
}

/* Every key of the installed nightly.conf, suites kept in file order. */
static void test_file(void **state)
{
	struct fx *f = *state;
	struct nightly_config c;

	write_conf(f,
		"[nightly]\n"
		"results = /srv/results ; a comment\n"
		"history = 14\n"
		"gate = both\n"
		"reference = 6.1.*-rt*\n"
		"[suite smoke]\n"
		"args = --duration-scale 0.5\n"
		"[suite hrtick]\n"
		"file = /etc/rtgate/hrtick.suite\n"
		"[suite smoke]\n"
		"import = /srv/lab/smoke\n");
	assert_int_equal(nightly_config_load(&c, f->conf), 0);
	assert_string_equal(c.path, f->conf);
	assert_string_equal(c.results, "/srv/results");
	assert_string_equal(c.database, "/srv/results/rtgate.db");
	assert_int_equal(c.history, 14);
	assert_true(c.gate_run);
	assert_string_equal(c.reference, "6.1.*-rt*");
	assert_int_equal(c.nr_suites, 2);
	assert_string_equal(c.suites[0].name, "smoke");
	assert_string_equal(c.suites[0].args, "--duration-scale 0.5");
	assert_string_equal(c.suites[0].import, "/srv/lab/smoke");
	assert_string_equal(c.suites[1].name, "hrtick");
	assert_string_equal(c.suites[1].file, "/etc/rtgate/hrtick.suite");
}

/* Loads f->conf with stderr caught into msg; returns the load's result. */
static int stderr_of_load(const struct fx *f, char *msg, size_t len)
{
	struct nightly_config c;
	char path[160];
	int saved, fd, ret;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", f->dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	ret = nightly_config_load(&c, f->conf);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, msg, len - 1, 0);
	close(fd);
	msg[n > 0 ? n : 0] = '\0';
	return ret;
}

/* What the file does not know is an error, never a default. */
static void test_errors(void **state)
{
	static const char *const bad[] = {
		"[nightly]\nhistroy = 7\n",
		"[nightly]\nhistory = 0\n",
		"[nightly]\nhistory = 1001\n",
		"[nightly]\ngate = run\n",
		"[nights]\nhistory = 7\n",
		"[suite two words]\nargs = x\n",
		"[suite smoke]\nduration = 5m\n",
		"[nightly]\nthis is not a key value line\n",
	};
	struct fx *f = *state;
	struct nightly_config c;
	char msg[1024], want[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_conf(f, bad[i]);
		assert_int_equal(nightly_config_load(&c, f->conf), -EINVAL);
	}
	/* The message names the file and the line. */
	write_conf(f, "[nightly]\nhistory = 7\n\nhistroy = 7\n");
	assert_int_equal(stderr_of_load(f, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "%s:4: unknown key 'histroy' in [nightly]",
		 f->conf);
	assert_non_null(strstr(msg, want));
	assert_int_equal(nightly_config_load(&c, "/nonexistent/nightly.conf"),
			 -EINVAL);
}

/* [lava], [board] and [kernel]: the night on a LAVA lab's boards. */
static void test_lava(void **state)
{
	static const char *const bad[] = {
		"[lava]\ntoken = s3cr3t\n",		/* never in a file */
		"[lava]\nbudget = soon\n",
		"[lava]\ntimeout = 5\n",		/* < 30 min */
		"[lava]\nurls = http://x/\n",
		"[board b1]\ntag = b1\n",
		"[kernel k]\nfile = /boot/vmlinuz\n",
	};
	struct fx *f = *state;
	struct nightly_config c;
	size_t i;

	write_conf(f,
		   "[lava]\nurl = http://127.0.0.1:18080/\n"
		   "token_file = /etc/rtgate/lava-token\nbudget = 90m\n"
		   "poll = 5s\nprompt = rtgate# \nramdisk = http://a/r.gz\n"
		   "[board b1]\ndevice_type = qemu\n"
		   "[board b2]\ndevice_type = x86\n"
		   "[kernel rt]\nurl = http://a/vmlinuz-rt\n"
		   "[kernel bad]\nurl = http://a/broken\nboards = b2\n"
		   "[suite smoke]\nfile = /opt/rtgate/suites/smoke.suite\n");
	assert_int_equal(nightly_config_load(&c, f->conf), 0);
	assert_string_equal(c.lava.url, "http://127.0.0.1:18080/");
	assert_string_equal(c.lava.token_file, "/etc/rtgate/lava-token");
	assert_int_equal(c.lava.budget_s, 90 * 60);
	assert_int_equal(c.lava.poll_s, 5);
	assert_int_equal(c.lava.timeout_min, 60);	/* the default */
	assert_string_equal(c.lava.device_type, "qemu");
	assert_string_equal(c.lava.prompt, "rtgate#");	/* inih trims */
	assert_int_equal(c.lava.nr_boards, 2);
	assert_string_equal(c.lava.boards[1].name, "b2");
	assert_string_equal(c.lava.boards[1].device_type, "x86");
	assert_int_equal(c.lava.nr_kernels, 2);
	assert_string_equal(c.lava.kernels[1].boards, "b2");
	assert_int_equal(c.nr_suites, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_conf(f, bad[i]);
		assert_int_equal(nightly_config_load(&c, f->conf), -EINVAL);
	}
}

/* A second nightly finds the lock held; once released it is free again. */
static void test_lock(void **state)
{
	struct fx *f = *state;
	char path[160];
	int a = -1, b = -1;

	(void)state;
	snprintf(path, sizeof(path), "%s/state/nightly.lock", f->dir);
	assert_int_equal(nightly_lock(path, &a), 0);
	assert_true(a >= 0);
	assert_int_equal(nightly_lock(path, &b), -EBUSY);
	assert_int_equal(b, -1);
	nightly_unlock(a, path);
	assert_int_equal(nightly_lock(path, &b), 0);
	nightly_unlock(b, path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lava, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
