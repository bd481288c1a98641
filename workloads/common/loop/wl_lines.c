// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lines from a child's output (wl_lines.h): buffered reads, one line at a
 * time.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "workloads/common/loop/wl_lines.h"
#include "workloads/common/core/wl_proto.h"

void wl_lines_init(struct wl_lines *l, char *buf, size_t size,
		   void (*line)(char *text, void *ctx), void *ctx)
{
	l->buf = buf;
	l->size = size;
	l->used = 0;
	l->line = line;
	l->ctx = ctx;
	buf[0] = '\0';
}

int wl_lines_read(struct wl_lines *l, int fd)
{
	ssize_t n = read(fd, l->buf + l->used, l->size - 1 - l->used);
	char *nl;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return 0;
	l->used += n;
	l->buf[l->used] = '\0';
	while ((nl = strchr(l->buf, '\n'))) {
		*nl = '\0';
		l->line(l->buf, l->ctx);
		l->used -= nl + 1 - l->buf;
		memmove(l->buf, nl + 1, l->used + 1);
	}
	if (l->used == l->size - 1)
		l->used = 0;	/* an absurdly long line: drop it */
	return 1;
}

int wl_lines_follow(struct wl_lines *l, int fd)
{
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = wl_stop_fd(), .events = POLLIN },
	};

	for (;;) {
		if (wl_stopping())
			return 1;
		if (poll(pfd, 2, -1) < 0 || !pfd[0].revents)
			continue;
		if (!wl_lines_read(l, fd))
			return 0;
	}
}
