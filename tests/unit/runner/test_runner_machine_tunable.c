// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tunables and the crash-safe state: save, write, restore; a state file
 * left by a process that died is restored by the next one, which kills
 * what the dead run left running.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "jsonio.h"
#include "runner/machine/machine.h"

static char tmpdir[] = "/tmp/rtgate-unit-tunable.XXXXXX";
static char statedir[256], lockpath[256];

static int setup(void **state)
{
	char path[300];

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/sched", tmpdir);
	snprintf(statedir, sizeof(statedir), "%s/state", tmpdir);
	/* Our own machine lock; tmpdir stands in for debugfs. */
	snprintf(lockpath, sizeof(lockpath), "%s/machine.lock", tmpdir);
	runner_state_testing_use(lockpath, tmpdir);
	return fsio_mkdir_p(path, 0755);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static void put(const char *rel, const char *text)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void get(const char *rel, char *buf, size_t len)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	assert_int_equal(fsio_read_str(path, buf, len), 0);
}

/* A debugfs knob, with tmpdir standing in for the debugfs mount. */
static void test_debugfs_roundtrip(void **state)
{
	struct runner_suite_tunable st = { RUNNER_TUNABLE_DEBUGFS,
					   "sched/knob", "7", 1 };
	struct runner_tunable t;
	char buf[64];

	(void)state;
	put("sched/knob", "3\n");
	assert_int_equal(runner_tunable_init(&t, &st, tmpdir), 0);
	assert_string_equal(t.key, "debugfs.sched/knob");
	assert_int_equal(runner_tunable_save(&t), 0);
	assert_string_equal(t.orig, "3");
	assert_int_equal(runner_tunable_write(&t, st.value), 0);
	get("sched/knob", buf, sizeof(buf));
	assert_string_equal(buf, "7");
	assert_int_equal(runner_tunable_restore(&t), 0);
	get("sched/knob", buf, sizeof(buf));
	assert_string_equal(buf, "3");
}

static void test_feature_state(void **state)
{
	struct runner_suite_tunable on = { RUNNER_TUNABLE_SCHED_FEATURE,
					   "HRTICK", "HRTICK", 1 };
	struct runner_suite_tunable gone = { RUNNER_TUNABLE_SCHED_FEATURE,
					     "NOPE", "NOPE", 1 };
	struct runner_tunable t;
	char buf[64];

	(void)state;
	put("sched/features", "GENTLE_FAIR_SLEEPERS NO_HRTICK HRTICK_DL "
	    "WAKEUP_PREEMPTION\n");
	assert_int_equal(runner_tunable_init(&t, &on, tmpdir), 0);
	assert_string_equal(t.key, "sched_feature.HRTICK");
	assert_int_equal(runner_tunable_save(&t), 0);
	assert_string_equal(t.orig, "NO_HRTICK");
	assert_int_equal(runner_tunable_read(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "NO_HRTICK");
	assert_int_equal(runner_tunable_init(&t, &gone, tmpdir), 0);
	assert_int_equal(runner_tunable_save(&t), -ENOENT);
	assert_int_equal(runner_tunable_restore(&t), -ENOENT);
}

static void test_unreadable(void **state)
{
	struct runner_suite_tunable st = { RUNNER_TUNABLE_BASE_SLICE,
					   "sched/base_slice_ns", "3000000",
					   1 };
	struct runner_tunable t;

	(void)state;
	/* No debugfs: saving fails, so restoring must not write anything. */
	assert_int_equal(runner_tunable_init(&t, &st, NULL), 0);
	assert_int_equal(runner_tunable_save(&t), -ENOENT);
	assert_int_not_equal(runner_tunable_restore(&t), 0);
}

/* The real sysctl the fault tests use; restored whatever happens. */
static void test_real_sysctl(void **state)
{
	struct runner_suite_tunable st = { RUNNER_TUNABLE_SYSCTL,
				    "kernel.sched_rr_timeslice_ms", "10", 1 };
	char buf[64], want[64];
	struct runner_tunable t;

	(void)state;
	if (geteuid() != 0 || access("/proc/sys/kernel/sched_rr_timeslice_ms",
				     W_OK))
		skip();
	assert_int_equal(runner_tunable_init(&t, &st, NULL), 0);
	assert_string_equal(t.path, "/proc/sys/kernel/sched_rr_timeslice_ms");
	assert_int_equal(runner_tunable_save(&t), 0);
	snprintf(want, sizeof(want), "%s", strcmp(t.orig, "10") ? "10" : "20");
	assert_int_equal(runner_tunable_write(&t, want), 0);
	assert_int_equal(runner_tunable_read(&t, buf, sizeof(buf)), 0);
	runner_tunable_restore(&t);
	assert_string_equal(buf, want);
	assert_int_equal(runner_tunable_read(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, t.orig);
}

static cJSON *undo_for(const char *rel, const char *orig)
{
	cJSON *u = cJSON_CreateObject();
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	cJSON_AddStringToObject(u, "tunable", "debugfs");
	cJSON_AddStringToObject(u, "path", path);
	cJSON_AddStringToObject(u, "value", orig);
	return u;
}

/*
 * A child takes the state, records the original, changes the knob and a
 * process of its run (RTGATE_OWNER) keeps running; then it dies without
 * cleaning up. The next acquire restores the knob and kills the process.
 */
static void test_dead_run_restored(void **state)
{
	struct runner_state st;
	char buf[64], path[300], env[PATH_MAX + 16];
	pid_t run, left;
	int status;

	(void)state;
	put("sched/knob2", "5");
	run = fork();
	assert_true(run >= 0);
	if (!run) {
		if (runner_state_acquire(&st, statedir, 1, "run", "test") ||
		    runner_state_add_undo(&st, "tunable", "debugfs.sched/knob2",
					  undo_for("sched/knob2", "5")) ||
		    /* A second record of the same key keeps the first. */
		    runner_state_add_undo(&st, "tunable", "debugfs.sched/knob2",
					  undo_for("sched/knob2", "6")))
			_exit(1);
		put("sched/knob2", "9");
		if (!fork()) {
			char *argv[] = { "sleep", "60", NULL };
			char *envp[] = { env, NULL };

			snprintf(env, sizeof(env), "RTGATE_OWNER=%s", st.dir);
			setsid();
			execve("/bin/sleep", argv, envp);
			_exit(127);
		}
		usleep(200 * 1000);
		_exit(0);	/* dies with the state file in place */
	}
	assert_int_equal(waitpid(run, &status, 0), run);
	assert_int_equal(WEXITSTATUS(status), 0);
	get("sched/knob2", buf, sizeof(buf));
	assert_string_equal(buf, "9");
	snprintf(path, sizeof(path), "%s/" STATE_FILE, statedir);
	assert_true(fsio_exists(path));

	assert_int_equal(runner_state_acquire(&st, statedir, 1, "run", "test"), 0);
	assert_true(st.restored);
	get("sched/knob2", buf, sizeof(buf));
	assert_string_equal(buf, "5");
	/* Nothing of the dead run is left. */
	assert_int_equal(runner_state_kill_owned(st.dir), 0);
	runner_state_release(&st);
	assert_false(fsio_exists(path));
	/* The orphaned sleep was reparented to init; it is gone or a zombie. */
	left = waitpid(-1, &status, WNOHANG);
	(void)left;
}

static void test_unknown_kind_kept(void **state)
{
	struct runner_state st;
	char path[300];

	(void)state;
	assert_int_equal(runner_state_acquire(&st, statedir, 1, "run", "test"), 0);
	assert_int_equal(runner_state_add_undo(&st, "frobnicator", "x", NULL), 0);
	/* Leave it as a dead run would (the lock goes with the fd). */
	runner_state_leave(&st);
	assert_int_equal(runner_state_restore(st.dir, "test"), -EIO);
	snprintf(path, sizeof(path), "%s/" STATE_FILE, statedir);
	assert_true(fsio_exists(path));
	unlink(path);
}

static void test_lock_excludes(void **state)
{
	struct runner_state a;
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(runner_state_acquire(&a, statedir, 1, "run", "test"), 0);
	pid = fork();
	if (!pid) {
		struct runner_state b;

		/* Another process: waits, then gives up with -EBUSY. */
		_exit(runner_state_acquire(&b, statedir, 0.3, "run", "test") == -EBUSY ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	runner_state_release(&a);
}

/* One lock for the machine: another state directory does not get past. */
static void test_lock_machine_wide(void **state)
{
	char other[300];
	struct runner_state a;
	pid_t pid;
	int status;

	(void)state;
	snprintf(other, sizeof(other), "%s/other-state", tmpdir);
	assert_int_equal(runner_state_acquire(&a, statedir, 1, "run", "test"), 0);
	pid = fork();
	if (!pid) {
		struct runner_state b;

		_exit(runner_state_acquire(&b, other, 0.3, "run", "test") == -EBUSY ?
		      0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	runner_state_release(&a);
}

/*
 * A run in another state directory died with its state file: the next
 * start, whatever its own state directory, restores it first (it learns
 * where from the machine lock's record).
 */
static void test_previous_holder_restored(void **state)
{
	char other[300], buf[64], path[400];
	struct runner_state st;
	pid_t run;
	int status;

	(void)state;
	snprintf(other, sizeof(other), "%s/dead-state", tmpdir);
	put("sched/knob3", "1");
	run = fork();
	if (!run) {
		if (runner_state_acquire(&st, other, 1, "run", "test") ||
		    runner_state_add_undo(&st, "tunable", "debugfs.sched/knob3",
					  undo_for("sched/knob3", "1")))
			_exit(1);
		put("sched/knob3", "8");
		_exit(0);
	}
	assert_int_equal(waitpid(run, &status, 0), run);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(runner_state_acquire(&st, statedir, 1, "run", "test"), 0);
	get("sched/knob3", buf, sizeof(buf));
	assert_string_equal(buf, "1");
	snprintf(path, sizeof(path), "%s/" STATE_FILE, other);
	assert_false(fsio_exists(path));
	runner_state_release(&st);
}

static void write_state(const char *victim, const char *vdir)
{
	char path[300], text[1024];

	snprintf(path, sizeof(path), "%s/" STATE_FILE, statedir);
	snprintf(text, sizeof(text), "{\"schema\": \"rtgate-state/1\", "
		 "\"pid\": 999999, \"undo\": [{\"kind\": \"cgroup\", "
		 "\"key\": \"%s\"}, {\"kind\": \"tunable\", \"key\": "
		 "\"kernel.x\", \"tunable\": \"sysctl\", \"path\": \"%s\", "
		 "\"value\": \"pwned\"}]}\n", vdir, victim);
	assert_int_equal(fsio_mkdir_p(statedir, 0755), 0);
	assert_int_equal(fsio_write_atomic(path, text, strlen(text)), 0);
}

/*
 * A state file makes root write files and remove directories: it is
 * trusted only when root's alone, and even then it reaches only kernel
 * knobs and the run's cgroups.
 */
static void test_untrusted_state(void **state)
{
	char vtop[] = "/tmp/rtgate-unit-victim.XXXXXX";
	char victim[300], vdir[300], path[300], buf[64], cmd[400];

	(void)state;
	assert_non_null(mkdtemp(vtop));
	snprintf(victim, sizeof(victim), "%s/passwd", vtop);
	snprintf(vdir, sizeof(vdir), "%s/rtgate-1", vtop);
	assert_int_equal(fsio_write_atomic(victim, "root\n", 5), 0);
	assert_int_equal(mkdir(vdir, 0755), 0);
	snprintf(path, sizeof(path), "%s/" STATE_FILE, statedir);

	/* Root's own file, pointing outside the knobs: refused, kept. */
	write_state(victim, vdir);
	assert_int_equal(runner_state_restore(statedir, "test"), -EIO);
	assert_int_equal(fsio_read_str(victim, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "root");
	assert_true(fsio_exists(vdir));
	assert_true(fsio_exists(path));

	/* Writable by others, or someone else's: not even read. */
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(runner_state_restore(statedir, "test"), -EPERM);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(runner_state_restore(statedir, "test"), -EPERM);
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(chmod(statedir, 0777), 0);
	assert_int_equal(runner_state_restore(statedir, "test"), -EPERM);
	assert_int_equal(chmod(statedir, 0755), 0);
	assert_int_equal(fsio_read_str(victim, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "root");
	assert_true(fsio_exists(vdir));
	unlink(path);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", vtop);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debugfs_roundtrip),
		cmocka_unit_test(test_feature_state),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_real_sysctl),
		cmocka_unit_test(test_dead_run_restored),
		cmocka_unit_test(test_unknown_kind_kept),
		cmocka_unit_test(test_lock_excludes),
		cmocka_unit_test(test_lock_machine_wide),
		cmocka_unit_test(test_previous_holder_restored),
		cmocka_unit_test(test_untrusted_state),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
