/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A child's output (hackbench, make, stress-ng), line by line: read() into
 * the caller's buffer, split at '\n', each complete line handed to a
 * callback without its newline. Of a line longer than the buffer, each
 * buffer-full is dropped and only the rest arrives as a line: the buffer
 * is sized so that the lines the callbacks look for always fit.
 */
#ifndef RTGATE_WL_LINES_H
#define RTGATE_WL_LINES_H

#include <stddef.h>

struct wl_lines {
	char *buf;
	size_t size;		/* of buf, the NUL included */
	size_t used;
	void (*line)(char *text, void *ctx);
	void *ctx;
};

void wl_lines_init(struct wl_lines *l, char *buf, size_t size,
		   void (*line)(char *text, void *ctx), void *ctx);

/*
 * One read() from fd and the lines it completed. Returns 1 while fd may
 * have more (EINTR and EAGAIN too), 0 at EOF or on another read error.
 */
int wl_lines_read(struct wl_lines *l, int fd);

/*
 * Reads fd (blocking) until EOF or a stop request, polling it beside
 * wl_stop_fd(). Returns 1 when stopped, 0 at EOF.
 */
int wl_lines_follow(struct wl_lines *l, int fd);

#endif
