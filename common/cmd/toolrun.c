// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running other programs (toolrun.h): fork and exec in their own process
 * group, timeouts, output to a log or line by line, and never a leftover.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stopsig.h"
#include "toolrun.h"

extern char **environ;

/* Whether a stop signal stops the tools (toolrun_catch_signals()). */
static bool stop_tools;

void toolrun_catch_signals(void)
{
	stopsig_catch_terminal();
	stop_tools = true;
}

void toolrun_child_bind(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* The parent may have died before the prctl: nobody would kill us. */
	if (getppid() != parent)
		_exit(127);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
}

bool toolrun_have(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];
	const char *p, *end;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = end + (*end != 0)) {
		end = strchrnul(p, ':');
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p,
			     name) < (int)sizeof(buf) && !access(buf, X_OK))
			return true;
		if (!*end)
			break;
	}
	return false;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* environ with r->env added; a name given in r->env replaces ours. */
static char **build_env(char *const *extra)
{
	size_t n = 0, m = 0, i, j, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		bool replaced = false;

		for (j = 0; j < m; j++)
			if (!strncmp(extra[j], environ[i], len) &&
			    extra[j][len] == '=')
				replaced = true;
		if (!replaced)
			env[k++] = environ[i];
	}
	for (j = 0; j < m; j++)
		env[k++] = extra[j];
	return env;
}

/* In the child: never returns. Reports an exec failure through errfd. */
static void child_exec(const struct toolrun *r, int outfd, int errfd,
		       char **env, pid_t parent)
{
	sigset_t none;
	int in, err;

	toolrun_child_bind(parent);
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* What the caller blocked to clean up first is not the tool's. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (r->cwd && chdir(r->cwd))
		goto fail;
	in = open(r->in_path ? r->in_path : "/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0)
		goto fail;
	if (r->stdout_path) {
		int fd = open(r->stdout_path, O_WRONLY | O_CREAT | O_TRUNC,
			      0644);

		if (fd < 0 || dup2(fd, 1) < 0)
			goto fail;
	} else if (outfd >= 0 && dup2(outfd, 1) < 0) {
		goto fail;
	}
	if (outfd >= 0 && dup2(outfd, 2) < 0)
		goto fail;
	if (r->nice)
		setpriority(PRIO_PROCESS, 0,
			    getpriority(PRIO_PROCESS, 0) + r->nice);
	execvpe(r->argv[0], r->argv, env);
fail:
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

struct outbuf {
	const struct toolrun *r;
	int logfd;
	char *cap;
	size_t cap_len;
	char line[8192];
	size_t line_len;
};

static void out_line_flush(struct outbuf *o)
{
	o->line[o->line_len] = '\0';
	if (o->r->on_line)
		o->r->on_line(o->line, o->r->arg);
	if (o->r->echo)
		fprintf(stderr, "%s\n", o->line);
	o->line_len = 0;
}

static int out_feed(struct outbuf *o, const char *buf, size_t n)
{
	size_t i;

	if (o->logfd >= 0 && write(o->logfd, buf, n) != (ssize_t)n)
		return -EIO;
	if (o->r->capture) {
		char *p = realloc(o->cap, o->cap_len + n + 1);

		if (!p)
			return -ENOMEM;
		memcpy(p + o->cap_len, buf, n);
		o->cap = p;
		o->cap_len += n;
		o->cap[o->cap_len] = '\0';
	}
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || o->line_len == sizeof(o->line) - 1) {
			out_line_flush(o);
			if (buf[i] == '\n')
				continue;
		}
		if (buf[i] != '\r')
			o->line[o->line_len++] = buf[i];
	}
	return 0;
}

/* A stop signal the caller blocked (stop_on_pending) is waiting. */
static bool stop_pending(void)
{
	sigset_t set;

	return !sigpending(&set) && (sigismember(&set, SIGINT) == 1 ||
				     sigismember(&set, SIGTERM) == 1 ||
				     sigismember(&set, SIGHUP) == 1);
}

/* SIGTERM to the group, SIGKILL after a grace period; always reaps. */
static int kill_and_reap(pid_t pid)
{
	long deadline = now_ms() + 5000;
	int wst;

	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	while (waitpid(pid, &wst, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, &wst, 0);
			break;
		}
		usleep(20000);
	}
	/* Whatever else of the group survived its leader goes too. */
	kill(-pid, SIGKILL);
	return 0;
}

static int wait_child(const struct toolrun *r, pid_t pid, int pipefd,
		      struct outbuf *o, int *status)
{
	long deadline = r->timeout_ms ? now_ms() + r->timeout_ms : 0;
	char buf[16384];
	int wst, ret = 0;
	pid_t w;

	for (;;) {
		if ((stop_tools && stopsig_requested()) ||
		    (r->stop_on_pending && stop_pending())) {
			ret = -EINTR;
			break;
		}
		if (deadline && now_ms() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		if (pipefd >= 0) {
			struct pollfd pfd = { .fd = pipefd, .events = POLLIN };
			ssize_t n;

			if (poll(&pfd, 1, 200) <= 0)
				continue;
			n = read(pipefd, buf, sizeof(buf));
			if (n > 0) {
				ret = out_feed(o, buf, n);
				if (ret)
					break;
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			close(pipefd);
			pipefd = -1;
			continue;
		}
		w = waitpid(pid, &wst, WNOHANG);
		if (w == pid) {
			*status = WIFEXITED(wst) ? WEXITSTATUS(wst) :
				  128 + WTERMSIG(wst);
			/* Children it left behind in its group go with it. */
			kill(-pid, SIGKILL);
			return 0;
		}
		if (w < 0 && errno != EINTR)
			return -errno;
		usleep(20000);
	}
	if (pipefd >= 0)
		close(pipefd);
	kill_and_reap(pid);
	return ret;
}

int toolrun(const struct toolrun *r, int *status)
{
	struct outbuf o = { .r = r, .logfd = -1 };
	int pfd[2] = { -1, -1 }, efd[2], err = 0, ret;
	bool piped = !r->inherit;
	pid_t pid, parent;
	char **env;
	ssize_t n;

	*status = -1;
	if (r->out_path) {
		o.logfd = open(r->out_path, O_WRONLY | O_CREAT | O_CLOEXEC |
			       (r->out_append ? O_APPEND : O_TRUNC), 0644);
		if (o.logfd < 0)
			return -errno;
	}
	env = build_env(r->env);
	if (!env || pipe2(efd, O_CLOEXEC) ||
	    (piped && pipe2(pfd, O_CLOEXEC))) {
		ret = env ? -errno : -ENOMEM;
		goto out;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(efd[0]);
		close(efd[1]);
		goto out_pipe;
	}
	if (pid == 0)
		child_exec(r, piped ? pfd[1] : -1, efd[1], env, parent);
	setpgid(pid, pid);
	close(efd[1]);
	do {
		n = read(efd[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(efd[0]);
	if (n == sizeof(err)) {
		waitpid(pid, NULL, 0);
		ret = -err;
		goto out_pipe;
	}
	if (piped) {
		close(pfd[1]);
		pfd[1] = -1;
	}
	ret = wait_child(r, pid, piped ? pfd[0] : -1, &o, status);
	pfd[0] = -1;
	if (o.line_len)
		out_line_flush(&o);
	if (r->capture) {
		*r->capture = o.cap ? o.cap : strdup("");
		o.cap = NULL;
	}
out_pipe:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
out:
	free(o.cap);
	free(env);
	if (o.logfd >= 0)
		close(o.logfd);
	return ret;
}

int toolrun_simple(char *const *argv, const char *cwd, const char *log_path,
		   int *status)
{
	struct toolrun r = {
		.argv = argv,
		.cwd = cwd,
		.out_path = log_path ? log_path : "/dev/null",
	};

	return toolrun(&r, status);
}
