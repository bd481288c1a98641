// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload protocol (wl_proto.h, workloads/README.md): init, ready,
 * the stop flag.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "parse.h"
#include "stopsig.h"
#include "workloads/common/core/wl_proto.h"

static const char *wl_progname = "workload";
static int ready_fd = -1;

static int take_ready_fd(void)
{
	const char *s = getenv("RTGATE_READY_FD");
	uint64_t fd;

	if (!s)
		return 0;
	if (parse_u64_range(s, 0, 65535, &fd) ||
	    fcntl((int)fd, F_GETFD) < 0) {
		pr_err("RTGATE_READY_FD: '%s' is not an open file descriptor",
		       s);
		return -EINVAL;
	}
	ready_fd = (int)fd;
	fcntl(ready_fd, F_SETFD, FD_CLOEXEC);
	unsetenv("RTGATE_READY_FD");
	return 0;
}

int wl_init(const char *name)
{
	int ret;

	wl_progname = name;
	log_init(name);
	/* Slow calls restart; sleeps return EINTR and loops test the flag. */
	ret = stopsig_catch(SIGTERM, STOPSIG_STOP);
	if (!ret)
		ret = stopsig_catch(SIGINT, STOPSIG_STOP);
	if (ret) {
		pr_err("stop signals: %s", strerror(-ret));
		return ret;
	}
	/* A reader gone (runner, pipe) is an EPIPE to handle, not a death. */
	signal(SIGPIPE, SIG_IGN);
	return take_ready_fd();
}

const char *wl_name(void)
{
	return wl_progname;
}

int wl_ready(void)
{
	ssize_t n;
	int ret = 0;

	if (ready_fd < 0)
		return 0;
	do {
		n = write(ready_fd, "ready\n", 6);
	} while (n < 0 && errno == EINTR);
	if (n != 6) {
		ret = n < 0 ? -errno : -EIO;
		pr_warn("RTGATE_READY_FD: write: %s", strerror(-ret));
	}
	close(ready_fd);
	ready_fd = -1;
	return ret;
}

bool wl_stopping(void)
{
	return stopsig_requested();
}

void wl_stop(void)
{
	stopsig_request();
}

int wl_stop_signal(void)
{
	return stopsig_signal();
}

int wl_stop_fd(void)
{
	return stopsig_fd();
}

bool wl_wait(uint64_t timeout_ns)
{
	struct pollfd pfd = { .fd = stopsig_fd(), .events = POLLIN };
	uint64_t end, now;

	if (timeout_ns == UINT64_MAX) {
		while (!wl_stopping())
			poll(&pfd, 1, -1);
		return true;
	}
	now = wl_now_ns();
	end = now + timeout_ns;
	while (!wl_stopping() && now < end) {
		struct timespec ts = {
			.tv_sec = (end - now) / 1000000000ULL,
			.tv_nsec = (end - now) % 1000000000ULL,
		};

		ppoll(&pfd, 1, &ts, NULL);
		now = wl_now_ns();
	}
	return wl_stopping();
}

int wl_stop_after(uint64_t duration_ns)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGALRM,
	};
	struct itimerspec its = {
		.it_value = {
			.tv_sec = duration_ns / 1000000000ULL,
			.tv_nsec = duration_ns % 1000000000ULL,
		},
	};
	timer_t timer;
	int ret;

	if (!duration_ns)
		return 0;
	ret = stopsig_catch(SIGALRM, STOPSIG_TIMER);
	if (!ret && (timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
		     timer_settime(timer, 0, &its, NULL)))
		ret = -errno;
	if (ret)
		pr_err("duration timer: %s", strerror(-ret));
	return ret;
}

bool wl_wait_until(uint64_t deadline_ns)
{
	uint64_t now = wl_now_ns();

	if (deadline_ns == UINT64_MAX)
		return wl_wait(UINT64_MAX);
	return wl_wait(deadline_ns > now ? deadline_ns - now : 0);
}

void wl_run_for(uint64_t duration_ns)
{
	wl_wait(duration_ns ? duration_ns : UINT64_MAX);
	wl_stop();
}

uint64_t wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

double wl_elapsed_s(uint64_t start_ns, uint64_t end_ns)
{
	return (double)(end_ns - start_ns) / 1e9;
}
