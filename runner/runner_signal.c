// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runner_signal.h"

/* Signal handlers can only reach file-scope state. */
static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t sig_stop;

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (sig != SIGCHLD && !sig_stop)
		sig_stop = sig;
	if (write(sig_pipe[1], &c, 1) < 0) {
		/* The pipe is full: the loop will wake up anyway. */
	}
	errno = saved;
}

int signals_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
	struct sigaction sa;
	size_t i;

	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int signals_fd(void)
{
	return sig_pipe[0];
}

void signals_drain(void)
{
	char buf[64];

	while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;
}

int signals_stop_requested(void)
{
	return sig_stop;
}
