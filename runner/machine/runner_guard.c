// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guardian (machine.h): a process that outlives a killed runner and
 * restores what the state file says it changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "runner/machine/machine.h"

static void guard_main(int rfd, const char *dir)
{
	static const int deaf[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP,
				    SIGTTIN, SIGTTOU, SIGPIPE };
	sigset_t none;
	size_t i;
	char c;
	int fd;

	setpgid(0, 0);
	prctl(PR_SET_NAME, "rtgate-guard", 0, 0, 0);
	for (i = 0; i < sizeof(deaf) / sizeof(deaf[0]); i++)
		signal(deaf[i], SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Keep stderr for the message, the pipe and the lock; nothing else. */
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
	}
	while (read(rfd, &c, 1) < 0 && errno == EINTR)
		;
	runner_state_restore(dir, "guardian");
	_exit(0);
}

int runner_guard_start(struct runner_guard *g, const char *state_dir)
{
	int fds[2];

	g->pid = -1;
	g->fd = -1;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	g->pid = fork();
	if (g->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!g->pid) {
		close(fds[1]);
		guard_main(fds[0], state_dir);
	}
	close(fds[0]);
	g->fd = fds[1];
	return 0;
}

void runner_guard_stop(struct runner_guard *g)
{
	if (g->fd < 0)
		return;
	close(g->fd);
	g->fd = -1;
	while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
		;
}
