// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's processes (runner_proc.h): spawned with their CPUs, policy,
 * cgroup and environment, their lines read, signalled and reaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/machine/machine.h"
#include "vec.h"
#include "clocks.h"
#include "stopsig.h"

#define PROC_OUT_MAX	(1 << 20)	/* stdout kept per process */

extern char **environ;

/* What a child reports through the exec pipe when a step fails. */
struct spawn_failure {
	int step;
	int err;
};

static const char *const spawn_steps[] = {
	"setpgid", "PR_SET_PDEATHSIG", "sched_setaffinity", "setpriority",
	"sched_setscheduler", "redirecting stdio", "exec",
};

enum { STEP_PGID, STEP_PDEATH, STEP_AFFINITY, STEP_NICE, STEP_POLICY,
       STEP_STDIO, STEP_EXEC };

static bool env_is_ours(const char *e)
{
	return !strncmp(e, "RTGATE_OWNER=", 13) ||
	       !strncmp(e, "RTGATE_READY_FD=", 16) ||
	       !strncmp(e, "RTGATE_SCALE=", 13);
}

/* The environment of rtgate with ours replaced. */
static char **build_env(const struct runner_proc_spec *spec, int ready_fd)
{
	char buf[PATH_MAX + 32];
	char **env = calloc(1, sizeof(*env));
	size_t i;

	if (!env)
		return NULL;
	for (i = 0; environ && environ[i]; i++)
		if (!env_is_ours(environ[i]) && vec_strv_push(&env, environ[i]))
			goto fail;
	snprintf(buf, sizeof(buf), "RTGATE_OWNER=%s", spec->owner);
	if (vec_strv_push(&env, buf))
		goto fail;
	if (ready_fd >= 0) {
		snprintf(buf, sizeof(buf), "RTGATE_READY_FD=%d", ready_fd);
		if (vec_strv_push(&env, buf))
			goto fail;
	}
	if (spec->scale) {
		snprintf(buf, sizeof(buf), "RTGATE_SCALE=%s", spec->scale);
		if (vec_strv_push(&env, buf))
			goto fail;
	}
	for (i = 0; spec->env && spec->env[i]; i++)
		if (vec_strv_push(&env, spec->env[i]))
			goto fail;
	return env;
fail:
	vec_strv_free(env);
	return NULL;
}

static void __attribute__((noreturn))
child_fail(int fd, int step, int err)
{
	struct spawn_failure f = { step, err };

	if (write(fd, &f, sizeof(f)) < 0) {
		/* Nobody to tell. */
	}
	_exit(127);
}

static void __attribute__((noreturn))
child_exec(const struct runner_proc_spec *spec, char **env, pid_t parent,
	   int out_w, int ready_w, int err_w)
{
	static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
				     SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU };
	struct sched_param sp = { .sched_priority = spec->prio };
	sigset_t none;
	size_t i;
	int null;

	for (i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		signal(reset[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (setpgid(0, 0))
		child_fail(err_w, STEP_PGID, errno);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		child_fail(err_w, STEP_PDEATH, errno);
	/* rtgate may have died before the prctl: then nobody kills us. */
	if (getppid() != parent)
		_exit(127);
	/* Nothing of rtgate's (trace_pipe_raw descriptors...) past exec. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	/* Without the leaf, the process group and RTGATE_OWNER still work. */
	if (spec->cgroup)
		runner_cgroup_enter(spec->cgroup);
	if (spec->cpus && sched_setaffinity(0, sizeof(*spec->cpus), spec->cpus))
		child_fail(err_w, STEP_AFFINITY, errno);
	if (spec->set_policy && sched_setscheduler(0, spec->policy, &sp))
		child_fail(err_w, STEP_POLICY, errno);
	if (spec->set_nice && setpriority(PRIO_PROCESS, 0, spec->nice))
		child_fail(err_w, STEP_NICE, errno);
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(out_w, STDOUT_FILENO) < 0 ||
	    dup2(spec->stderr_fd >= 0 ? spec->stderr_fd : out_w,
		 STDERR_FILENO) < 0)
		child_fail(err_w, STEP_STDIO, errno);
	if (ready_w >= 0 && fcntl(ready_w, F_SETFD, 0))
		child_fail(err_w, STEP_STDIO, errno);
	execve(spec->path, spec->argv, env);
	child_fail(err_w, STEP_EXEC, errno);
}

static void close_pair(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	fds[0] = fds[1] = -1;
}

/* Reads the exec pipe: nothing means the exec succeeded. */
static int spawn_result(int fd, char *err, size_t len)
{
	struct spawn_failure f;
	ssize_t n;

	do
		n = read(fd, &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(f))
		return 0;
	snprintf(err, len, "%s: %s", spawn_steps[f.step], strerror(f.err));
	return -f.err;
}

int runner_proc_spawn(struct runner_proc *p,
		      const struct runner_proc_spec *spec, char *err,
		      size_t len)
{
	int out[2] = { -1, -1 }, ready[2] = { -1, -1 }, ex[2] = { -1, -1 };
	char **env = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	p->out_fd = p->ready_fd = -1;
	p->pid = -1;
	snprintf(p->name, sizeof(p->name), "%s", spec->name);
	if (spec->cgroup)
		snprintf(p->cgroup, sizeof(p->cgroup), "%s", spec->cgroup);
	if (pipe2(out, O_CLOEXEC) || pipe2(ex, O_CLOEXEC) ||
	    (spec->ready && pipe2(ready, O_CLOEXEC))) {
		ret = -errno;
		snprintf(err, len, "pipe: %s", strerror(errno));
		goto out;
	}
	env = build_env(spec, ready[1]);
	if (!env) {
		ret = -ENOMEM;
		snprintf(err, len, "out of memory");
		goto out;
	}
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		ret = -errno;
		snprintf(err, len, "fork: %s", strerror(errno));
		goto out;
	}
	if (!p->pid)
		child_exec(spec, env, getppid(), out[1], ready[1], ex[1]);
	/* Both sides set the group: whichever runs first wins the race. */
	setpgid(p->pid, p->pid);
	p->t_start = clocks_mono_s();
	close(ex[1]);
	ex[1] = -1;
	ret = spawn_result(ex[0], err, len);
	if (ret) {
		waitpid(p->pid, &p->status, 0);
		p->t_exit = clocks_mono_s();
		goto out;
	}
	p->running = true;
	p->out_fd = out[0];
	out[0] = -1;
	fcntl(p->out_fd, F_SETFL, O_NONBLOCK);
	if (spec->ready) {
		p->ready_fd = ready[0];
		ready[0] = -1;
		fcntl(p->ready_fd, F_SETFL, O_NONBLOCK);
	}
out:
	close_pair(out);
	close_pair(ready);
	close_pair(ex);
	vec_strv_free(env);
	return ret;
}

void runner_proc_signal(struct runner_proc *p, int sig)
{
	if (p->pid <= 0)
		return;
	p->sent = sig;
	/* The group outlives its leader if children are left: signal both. */
	killpg(p->pid, sig);
	if (sig == SIGKILL && p->cgroup[0])
		runner_cgroup_kill(p->cgroup);
}

static void read_out(struct runner_proc *p)
{
	char buf[8192];
	ssize_t n;

	/* Lines handed out by runner_proc_next_line() are done with: drop them. */
	if (p->out_pos) {
		memmove(p->out, p->out + p->out_pos, p->out_len - p->out_pos);
		p->out_len -= p->out_pos;
		p->out_pos = 0;
		p->out[p->out_len] = '\0';
	}
	for (;;) {
		n = read(p->out_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (p->out_len + n + 1 > p->out_cap) {
			size_t cap = p->out_cap ? p->out_cap * 2 : 16384;
			char *grown;

			while (cap < p->out_len + n + 1)
				cap *= 2;
			if (cap > PROC_OUT_MAX + 1 ||
			    !(grown = realloc(p->out, cap))) {
				p->out_truncated = true;
				continue;
			}
			p->out = grown;
			p->out_cap = cap;
		}
		memcpy(p->out + p->out_len, buf, n);
		p->out_len += n;
		p->out[p->out_len] = '\0';
	}
	if (n == 0) {
		close(p->out_fd);
		p->out_fd = -1;
	}
}

static void read_ready(struct runner_proc *p)
{
	char buf[64];
	ssize_t n;

	n = read(p->ready_fd, buf, sizeof(buf) - 1);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		buf[n] = '\0';
		if (!strncmp(buf, "ready", 5)) {
			p->ready = true;
			p->t_ready = clocks_mono_s();
		}
		return;
	}
	close(p->ready_fd);
	p->ready_fd = -1;
}

static void reap(struct runner_proc **procs, size_t n)
{
	size_t i;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 0; i < n; i++)
			if (procs[i]->pid == pid && procs[i]->running) {
				procs[i]->running = false;
				procs[i]->status = status;
				procs[i]->t_exit = clocks_mono_s();
			}
}

void runner_proc_wait(struct runner_proc **procs, size_t n, double timeout_s)
{
	struct pollfd pfd[1 + 2 * 16];
	struct runner_proc *owner[1 + 2 * 16];
	size_t i, nfds = 0;

	pfd[nfds].fd = stopsig_fd();
	pfd[nfds].events = POLLIN;
	owner[nfds++] = NULL;
	for (i = 0; i < n && nfds + 2 <= sizeof(pfd) / sizeof(pfd[0]); i++) {
		if (procs[i]->out_fd >= 0) {
			pfd[nfds].fd = procs[i]->out_fd;
			pfd[nfds].events = POLLIN;
			owner[nfds++] = procs[i];
		}
		if (procs[i]->ready_fd >= 0) {
			pfd[nfds].fd = procs[i]->ready_fd;
			pfd[nfds].events = POLLIN;
			owner[nfds++] = procs[i];
		}
	}
	if (poll(pfd, nfds, timeout_s > 0 ? (int)(timeout_s * 1000) : 0) > 0)
		for (i = 1; i < nfds; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == owner[i]->out_fd)
				read_out(owner[i]);
			else if (pfd[i].fd == owner[i]->ready_fd)
				read_ready(owner[i]);
		}
	if (pfd[0].revents)
		stopsig_drain();
	reap(procs, n);
}

void runner_proc_drain(struct runner_proc *p)
{
	if (p->ready_fd >= 0)
		read_ready(p);
	if (p->out_fd >= 0)
		read_out(p);
}

char *runner_proc_next_line(struct runner_proc *p)
{
	char *line, *nl;

	if (p->out_pos >= p->out_len)
		return NULL;
	line = p->out + p->out_pos;
	nl = memchr(line, '\n', p->out_len - p->out_pos);
	if (!nl) {
		if (p->out_fd >= 0)
			return NULL;
		p->out_pos = p->out_len;
		return line;
	}
	*nl = '\0';
	p->out_pos = nl + 1 - p->out;
	return line;
}

void runner_proc_describe_exit(const struct runner_proc *p, char *buf,
			       size_t len)
{
	if (p->running)
		snprintf(buf, len, "still running");
	else if (WIFEXITED(p->status))
		snprintf(buf, len, "exited with code %d",
			 WEXITSTATUS(p->status));
	else if (WIFSIGNALED(p->status))
		snprintf(buf, len, "killed by SIG%s%s",
			 sigabbrev_np(WTERMSIG(p->status)) ?
			 sigabbrev_np(WTERMSIG(p->status)) : "?",
			 p->sent == WTERMSIG(p->status) ? " (sent by rtgate)" :
			 "");
	else
		snprintf(buf, len, "ended (status %#x)", p->status);
}

void runner_proc_close(struct runner_proc *p)
{
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->ready_fd >= 0)
		close(p->ready_fd);
	p->out_fd = p->ready_fd = -1;
	free(p->out);
	p->out = NULL;
	p->out_len = p->out_pos = p->out_cap = 0;
}
