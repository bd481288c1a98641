// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stop signals (stopsig.h): the first SIGINT/SIGTERM/SIGHUP recorded, the
 * stop flag, the self-pipe, and the signal passed on to one child.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "stopsig.h"

/* Signal handlers can only reach file-scope state; threads read it too. */
static int wake_pipe[2] = { -1, -1 };
static atomic_bool stop_flag;
static atomic_int stop_sig;
static atomic_int forward_pid;
static enum stopsig_how how_of[NSIG];

static void wake(void)
{
	char c = 's';

	if (write(wake_pipe[1], &c, 1) < 0) {
		/* The pipe is full: the loop wakes up anyway. */
	}
}

static void on_signal(int sig)
{
	int saved = errno, expected = 0;
	pid_t child;

	if (how_of[sig] == STOPSIG_STOP)
		atomic_compare_exchange_strong(&stop_sig, &expected, sig);
	if (how_of[sig] != STOPSIG_WAKE) {
		atomic_store(&stop_flag, true);
		child = atomic_load(&forward_pid);
		if (how_of[sig] == STOPSIG_STOP && child > 0)
			kill(child, sig);
	}
	wake();
	errno = saved;
}

int stopsig_catch(int sig, enum stopsig_how how)
{
	struct sigaction sa;

	if (sig <= 0 || sig >= NSIG)
		return -EINVAL;
	if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	how_of[sig] = how;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL) ? -errno : 0;
}

int stopsig_catch_terminal(void)
{
	int ret = stopsig_catch(SIGINT, STOPSIG_STOP);

	if (!ret)
		ret = stopsig_catch(SIGTERM, STOPSIG_STOP);
	if (!ret)
		ret = stopsig_catch(SIGHUP, STOPSIG_STOP);
	return ret;
}

bool stopsig_requested(void)
{
	return atomic_load_explicit(&stop_flag, memory_order_relaxed);
}

int stopsig_signal(void)
{
	return atomic_load(&stop_sig);
}

void stopsig_request(void)
{
	atomic_store(&stop_flag, true);
	if (wake_pipe[1] >= 0)
		wake();
}

int stopsig_fd(void)
{
	return wake_pipe[0];
}

void stopsig_drain(void)
{
	char buf[64];

	if (wake_pipe[0] < 0)
		return;
	while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

void stopsig_forward(pid_t pid)
{
	atomic_store(&forward_pid, pid);
}
