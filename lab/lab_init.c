// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate lab-init`: /init of the lab's guest (PID 1). No shell: it mounts
 * what a run needs, loads the modules the 9p share needs, mounts the share
 * the host gave (tag "rtgate") on /lab, runs what /lab/plan.json says with
 * the results going to /lab/results, writes /lab/status.json, syncs and
 * powers off. Progress goes to the serial console as "rtgate-lab: ..."
 * lines, which the host shows and keeps in the console log.
 *
 * With rtgate.lab=shell on the kernel command line it runs a shell on the
 * console instead of a plan (prompt "rtgate# ", busybox's applets and
 * rtgate in PATH): the same image then serves a LAVA job, whose test shell
 * drives the guest over the serial line. It powers off when the shell
 * exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "lab.h"
#include "lab_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"

#define LAB_SETTLE_MAX_S	60	/* virtual seconds */
#define LAB_SETTLE_BUSY_PCT	2	/* of every CPU's second */

#define say(...)							\
	do {								\
		printf("rtgate-lab: " __VA_ARGS__);			\
		putchar('\n');						\
		fflush(stdout);						\
	} while (0)

struct guest_status {
	int exit_code;			/* of what ran; -1: never ran */
	int signal;
	char error[512];
	struct timespec start;
};

static void console_fds(void)
{
	int fd;

	if (fcntl(1, F_GETFD) >= 0)
		return;
	/* The kernel found no /dev/console in the image: use devtmpfs's. */
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static void mount_one(const char *src, const char *dir, const char *type,
		      const char *opts, bool quiet)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, opts) &&
	    errno != EBUSY && !quiet)
		say("warning: mount %s on %s: %s", type, dir, strerror(errno));
}

static void mount_basics(void)
{
	mount_one("devtmpfs", "/dev", "devtmpfs", NULL, true);
	console_fds();
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_one("proc", "/proc", "proc", NULL, false);
	mount_one("sysfs", "/sys", "sysfs", NULL, false);
	mount_one("devpts", "/dev/pts", "devpts", "gid=5,mode=620", false);
	mount_one("tmpfs", "/dev/shm", "tmpfs", "mode=1777", false);
	mount_one("tmpfs", "/run", "tmpfs", "mode=755", false);
	mount_one("tmpfs", "/tmp", "tmpfs", "mode=1777", false);
	mount_one("cgroup2", "/sys/fs/cgroup", "cgroup2", NULL, false);
	/* Kernels without tracing or debugfs still run suites that skip. */
	mount_one("tracefs", "/sys/kernel/tracing", "tracefs", NULL, false);
	mount_one("debugfs", "/sys/kernel/debug", "debugfs", NULL, false);
}

static void load_modules(void)
{
	char *buf, *line, *save;
	size_t len;
	int n = 0;

	if (fsio_read_all(LAB_GUEST_MODULES, &buf, &len))
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int fd = open(line, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) &&
			       errno != EEXIST))
			say("warning: module %s: %s", line, strerror(errno));
		else
			n++;
		if (fd >= 0)
			close(fd);
	}
	free(buf);
	if (n)
		say("loaded %d modules", n);
}

static int mount_share(void)
{
	int i;

	mkdir(LAB_GUEST_SHARE, 0755);
	for (i = 0; i < 10; i++) {
		if (!mount(LAB_SHARE_TAG, LAB_GUEST_SHARE, "9p", 0,
			   "trans=virtio,version=9p2000.L,msize=262144"))
			return 0;
		usleep(200000);
	}
	say("error: cannot mount the 9p share '%s': %s", LAB_SHARE_TAG,
	    strerror(errno));
	return -errno;
}

static char **json_argv(const cJSON *arr, const char *const *prefix)
{
	int n = 0, i = 0, k;
	const cJSON *it;
	char **argv;

	while (prefix && prefix[n])
		n++;
	argv = calloc(n + cJSON_GetArraySize(arr) + 1, sizeof(*argv));
	if (!argv)
		return NULL;
	for (k = 0; k < n; k++)
		argv[i++] = (char *)prefix[k];
	cJSON_ArrayForEach(it, arr)
		if (cJSON_IsString(it))
			argv[i++] = it->valuestring;
	return argv;
}

#define GUEST_PATH	"PATH=" LAB_GUEST_BIN ":/usr/local/bin:/usr/bin:/bin:" \
			"/usr/sbin:/sbin"

/*
 * What a plan runs with. RTGATE_LAB=1: the reports leave the plots to the
 * host, which renders them again (no "gnuplot is not installed" here).
 */
static char *const plan_envp[] = {
	GUEST_PATH, "HOME=/root", "TERM=dumb", "RTGATE_LAB=1",
	"RTGATE_RESULTS_DIR=" LAB_GUEST_SHARE "/results",
	"RTGATE_STATE_DIR=/run/rtgate",
	/* SQLite's locks fail on 9p: the guest's history is scratch. */
	"RTGATE_DB=/tmp/rtgate.db", NULL,
};

/* What the rtgate.lab=shell shell runs with: results under /root. */
static char *const shell_envp[] = {
	GUEST_PATH, "HOME=/root", "TERM=dumb", "RTGATE_LAB=1",
	"RTGATE_STATE_DIR=/run/rtgate", "PS1=rtgate# ", NULL,
};

/* Runs argv and reaps every orphan that PID 1 inherits meanwhile. */
static void run_child(char **argv, char *const *envp,
		      struct guest_status *st)
{
	int wst;
	pid_t pid, w;

	say("running: %s%s%s", argv[0], argv[1] ? " " : "",
	    argv[1] ? argv[1] : "");
	pid = fork();
	if (pid == 0) {
		setsid();
		if (chdir("/root"))
			_exit(127);
		/* A bare name is looked up in the guest's PATH, as a shell would. */
		if (!strchr(argv[0], '/')) {
			putenv((char *)GUEST_PATH);
			execvpe(argv[0], argv, envp);
		}
		execve(argv[0], argv, envp);
		fprintf(stderr, "rtgate-lab: error: exec %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		snprintf(st->error, sizeof(st->error), "fork: %s",
			 strerror(errno));
		return;
	}
	for (;;) {
		w = waitpid(-1, &wst, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return;
	}
	if (WIFEXITED(wst))
		st->exit_code = WEXITSTATUS(wst);
	else
		st->signal = WTERMSIG(wst);
}

static void run_plan(struct guest_status *st)
{
	static const char *const rtgate_run[] = { LAB_GUEST_BIN "/rtgate",
						  "run", NULL, NULL };
	const char *prefix[5] = { rtgate_run[0], rtgate_run[1], NULL, NULL,
				  NULL };
	char suite[PATH_MAX];
	struct json_error err;
	cJSON *plan;
	const char *mode, *host;
	char **argv = NULL;

	if (json_read_file(LAB_GUEST_SHARE "/plan.json", &plan, &err)) {
		snprintf(st->error, sizeof(st->error), "%s", err.msg);
		say("error: %s", err.msg);
		return;
	}
	/* The lab's name on this machine, not "(none)" (lab_guest_hostname). */
	host = json_get_str(plan, "hostname", "");
	if (host[0] && sethostname(host, strlen(host)))
		say("warning: sethostname %s: %s", host, strerror(errno));
	mode = json_get_str(plan, "mode", "");
	if (!strcmp(mode, "probe")) {
		st->exit_code = 0;
	} else if (!strcmp(mode, "exec")) {
		argv = json_argv(cJSON_GetObjectItem(plan, "argv"), NULL);
	} else if (!strcmp(mode, "suite")) {
		rtpaths_fmt(suite, sizeof(suite), "%s/%s", LAB_GUEST_SHARE,
			    json_get_str(plan, "suite", "suite.suite"));
		prefix[2] = suite;
		if (cJSON_IsTrue(cJSON_GetObjectItem(plan, "silent")))
			prefix[3] = "--silent";
		argv = json_argv(cJSON_GetObjectItem(plan, "args"), prefix);
	} else {
		snprintf(st->error, sizeof(st->error),
			 "plan.json: unknown mode '%s'", mode);
	}
	if (argv && argv[0])
		run_child(argv, plan_envp, st);
	free(argv);
	cJSON_Delete(plan);
}

/* Busy jiffies (all but idle and iowait) of every CPU, summed; -1: none. */
static long long busy_ticks(int *nr_cpus)
{
	unsigned long long v[10] = { 0 };
	long long busy = -1;
	char line[512];
	FILE *f = fopen("/proc/stat", "re");

	*nr_cpus = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] == ' ')
			continue;
		if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) != 8)
			continue;
		busy = (busy < 0 ? 0 : busy) + v[0] + v[1] + v[2] + v[5] +
		       v[6] + v[7];
		(*nr_cpus)++;
	}
	if (f)
		fclose(f);
	return busy;
}

/*
 * Waits until the guest has finished booting in the background (the
 * crypto self-tests, the first vmstat and writeback work, module
 * loading): a second in which its CPUs were busy for less than
 * LAB_SETTLE_BUSY_PCT of it, at most LAB_SETTLE_MAX_S seconds. A
 * measurement that starts earlier shares the CPUs with that work.
 */
static void settle(void)
{
	const long hz = sysconf(_SC_CLK_TCK);
	struct timespec one = { .tv_sec = 1 }, t0, t1;
	long long before, after;
	int cpus, waited;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (waited = 0; waited < LAB_SETTLE_MAX_S; waited++) {
		before = busy_ticks(&cpus);
		nanosleep(&one, NULL);
		after = busy_ticks(&cpus);
		if (before < 0 || after < 0 || cpus <= 0 || hz <= 0)
			return;
		if ((after - before) * 100 < LAB_SETTLE_BUSY_PCT * hz * cpus)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (waited == LAB_SETTLE_MAX_S)
		say("still busy after %d s (%.0f%% of a CPU in the last "
		    "second): measuring anyway", LAB_SETTLE_MAX_S,
		    100.0 * (after - before) / hz);
	else
		say("settled in %.1f s", (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* Whether the kernel command line has @word as one of its words. */
static bool cmdline_has(const char *word)
{
	char buf[4096];

	return !fsio_read_str("/proc/cmdline", buf, sizeof(buf)) &&
	       parse_cmdline_find(buf, word, strlen(word), PARSE_CMDLINE_WORD);
}

/* rtgate.lab=shell: busybox's applets installed, then a console shell. */
static void run_shell(struct guest_status *st)
{
	static const char *const dirs[] = { "/sbin", "/usr", "/usr/bin",
					    "/usr/sbin", "/root" };
	char *install[] = { "/bin/busybox", "--install", "-s", NULL };
	char *shell[] = { "/bin/busybox", "cttyhack", "/bin/sh", NULL };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		mkdir(dirs[i], 0755);
	run_child(install, shell_envp, st);
	if (st->exit_code) {
		say("error: busybox --install failed");
		return;
	}
	run_child(shell, shell_envp, st);
}

static void write_status(const struct guest_status *st)
{
	cJSON *o = cJSON_CreateObject();
	struct timespec end;
	struct utsname u;

	clock_gettime(CLOCK_MONOTONIC, &end);
	cJSON_AddStringToObject(o, "schema", "rtgate-lab-status/1");
	if (st->exit_code >= 0)
		cJSON_AddNumberToObject(o, "exit", st->exit_code);
	if (st->signal)
		cJSON_AddNumberToObject(o, "signal", st->signal);
	if (st->error[0])
		cJSON_AddStringToObject(o, "error", st->error);
	cJSON_AddNumberToObject(o, "duration_s", end.tv_sec - st->start.tv_sec);
	if (!uname(&u)) {
		cJSON_AddStringToObject(o, "release", u.release);
		cJSON_AddStringToObject(o, "version", u.version);
		cJSON_AddStringToObject(o, "machine", u.machine);
	}
	if (json_write_file(LAB_GUEST_SHARE "/status.json", o))
		say("error: cannot write %s/status.json", LAB_GUEST_SHARE);
	cJSON_Delete(o);
}

/*
 * The kernel's messages of the whole boot into the share, "[s.us] text"
 * a line: a silent run lets only emergencies reach the console, the
 * rest is kept here for the host (lab-kmsg.log beside the results).
 */
static void save_kmsg(void)
{
	char rec[8192], line[8400], *msg, *nl;
	unsigned long long us;
	struct fsio_stream s;
	ssize_t len;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fsio_stream_open(&s)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		/* "PRI,SEQ,USEC,FLAGS;text\n continuation lines" */
		if (!msg || sscanf(rec, "%*u,%*u,%llu", &us) != 1)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		snprintf(line, sizeof(line), "[%5llu.%06llu] %s\n",
			 us / 1000000, us % 1000000, msg);
		fputs(line, s.f);
	}
	close(fd);
	if (fsio_stream_commit(&s, LAB_GUEST_SHARE "/" LAB_GUEST_KMSG, 0))
		say("warning: cannot save the kernel's messages");
}

static void __attribute__((noreturn)) power_off(void)
{
	sync();
	umount(LAB_GUEST_SHARE);
	say("powering off");
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static const struct argp init_argp = {
	NULL, NULL, NULL,
	"The lab guest's /init: mounts what the guest needs, runs the plan the "
	"host shared (9p), writes its status and powers the machine off; with "
	"rtgate.lab=shell on the kernel command line, a console shell instead "
	"(for a LAVA job). Only as PID 1 (`rtgate lab run` boots it).",
	NULL, NULL, NULL
};

int lab_cmd_init(int argc, char **argv)
{
	struct guest_status st = { .exit_code = -1 };
	struct utsname u;
	int ret;

	if (getpid() != 1) {
		ret = cli_parse("lab-init", &init_argp, argc, argv, 0, NULL);
		if (ret)
			return cli_exit(ret);
		pr_err("lab-init is the lab guest's /init (PID 1); it powers "
		       "the machine off when done");
		return EXITCODE_BAD_INPUT;
	}
	(void)argc;
	(void)argv;
	clock_gettime(CLOCK_MONOTONIC, &st.start);
	mount_basics();
	uname(&u);
	say("booted %s %s", u.release, u.version);
	load_modules();
	if (cmdline_has("rtgate.lab=shell")) {
		run_shell(&st);
		say("shell exited: %d", st.exit_code);
	} else if (!mount_share()) {
		settle();
		run_plan(&st);
		say("done: exit %d%s%s", st.exit_code, st.error[0] ? ": " : "",
		    st.error);
		save_kmsg();
		write_status(&st);
	}
	power_off();
}
