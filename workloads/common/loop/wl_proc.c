// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload's child processes (wl_proc.h): spawned in their own group,
 * signalled as a tree, stopped with a grace period.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "procstat.h"
#include "workloads/common/loop/wl_proc.h"
#include "workloads/common/core/wl_proto.h"

int wl_proc_init(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		int ret = -errno;

		pr_err("prctl(PR_SET_CHILD_SUBREAPER): %s", strerror(-ret));
		return ret;
	}
	return 0;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child_exec(char *const argv[], int out_w, int err_w, int flags)
{
	sigset_t none;
	int null_fd, e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	/* If the workload is SIGKILLed, its direct child goes too. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd >= 0)
		dup2(null_fd, STDIN_FILENO);
	dup2(out_w >= 0 ? out_w : STDERR_FILENO, STDOUT_FILENO);
	if (out_w >= 0 && (flags & WL_SPAWN_MERGE_STDERR))
		dup2(out_w, STDERR_FILENO);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_w, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int wl_proc_spawn(char *const argv[], pid_t *pid, int *out_fd, int flags)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int ret = 0, e;
	ssize_t n;
	pid_t p;

	if (pipe2(errp, O_CLOEXEC) ||
	    (out_fd && pipe2(out, O_CLOEXEC))) {
		ret = -errno;
		goto out;
	}
	p = fork();
	if (p < 0) {
		ret = -errno;
		goto out;
	}
	if (p == 0)
		child_exec(argv, out[1], errp[1], flags);
	close(errp[1]);
	errp[1] = -1;
	do {
		n = read(errp[0], &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	if (n == sizeof(e)) {
		/* The exec failed: the child is exiting with 127. */
		waitpid(p, NULL, 0);
		ret = -e;
		goto out;
	}
	*pid = p;
	if (out_fd) {
		*out_fd = out[0];
		out[0] = -1;
	}
out:
	if (ret)
		pr_err("cannot run %s: %s", argv[0], strerror(-ret));
	if (out[0] >= 0)
		close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (errp[0] >= 0)
		close(errp[0]);
	if (errp[1] >= 0)
		close(errp[1]);
	return ret;
}

/* The parent of pid from /proc/PID/stat. */
static pid_t parent_of(pid_t pid)
{
	struct procstat ps;

	return procstat_read(pid, &ps) ? -1 : ps.ppid;
}

struct proc_pair {
	pid_t pid;
	pid_t ppid;
};

/* Every process on the system with its parent; *n entries, malloc'ed. */
static struct proc_pair *list_procs(size_t *n)
{
	struct proc_pair *v = NULL, *nv;
	size_t cap = 0;
	struct dirent *d;
	DIR *dir;

	*n = 0;
	dir = opendir("/proc");
	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 512;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[*n].pid = (pid_t)pid;
		v[*n].ppid = parent_of((pid_t)pid);
		(*n)++;
	}
	closedir(dir);
	return v;
}

/* Signals root's descendants (not root); returns how many were found. */
static int signal_descendants(pid_t root, int sig)
{
	struct proc_pair *v;
	pid_t *queue;
	size_t n, i, head = 0, tail = 0;
	int found = 0;

	v = list_procs(&n);
	if (!v)
		return 0;
	queue = malloc((n + 1) * sizeof(*queue));
	if (!queue) {
		free(v);
		return 0;
	}
	queue[tail++] = root;
	while (head < tail) {
		pid_t parent = queue[head++];

		for (i = 0; i < n; i++) {
			if (v[i].ppid != parent || v[i].pid == root)
				continue;
			queue[tail++] = v[i].pid;
			v[i].ppid = -1;	/* visit once */
			kill(v[i].pid, sig);
			found++;
		}
	}
	free(queue);
	free(v);
	return found;
}

int wl_proc_signal_tree(pid_t pid, int sig)
{
	int ret = 0;

	/* Stop the root first so that it forks no more, then its tree. */
	if (kill(pid, sig) && errno != ESRCH)
		ret = -errno;
	signal_descendants(pid, sig);
	return ret;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int wl_proc_stop(pid_t pid, uint64_t grace_ns, int *status)
{
	uint64_t end = wl_now_ns() + grace_ns;
	int st = 0, ret = -ESRCH;
	pid_t r;

	wl_proc_signal_tree(pid, SIGTERM);
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid) {
			ret = 0;
			break;
		}
		if (r < 0 && errno != EINTR)
			break;
		if (wl_now_ns() >= end) {
			wl_proc_signal_tree(pid, SIGKILL);
			if (waitpid(pid, &st, 0) == pid)
				ret = 0;
			break;
		}
		sleep_ms(5);
	}
	if (status && !ret)
		*status = st;
	/* Children of a dead root were re-parented to us: end them too. */
	if (signal_descendants(getpid(), SIGTERM)) {
		sleep_ms(50);
		signal_descendants(getpid(), SIGKILL);
	}
	wl_proc_reap_orphans();
	return ret;
}

void wl_proc_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

int wl_proc_reap_orphans(void)
{
	int n = 0;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		n++;
	return n;
}

void wl_proc_kill_all(void)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		signal_descendants(getpid(), SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			return;
		sleep_ms(10);
	}
	pr_warn("some child processes would not die");
}
