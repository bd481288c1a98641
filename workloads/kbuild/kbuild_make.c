// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "workloads/common/wl_proc.h"
#include "workloads/common/wl_proto.h"
#include "workloads/kbuild/kbuild.h"

#define STOP_GRACE_NS	5000000000ULL

/* "  CC [M]  fs/ext4/inode.o" -> "CC"; kbuild's quiet-mode command word. */
static void count_line(const char *line, const struct kb_params *p,
		       struct kb_counts *c)
{
	char word[16] = "";
	int compiled = 0;

	c->lines++;
	if (line[0] == ' ' && line[1] == ' ' && sscanf(line, "%15s", word) == 1) {
		if (!strcmp(word, "CC") || !strcmp(word, "AS")) {
			c->objects++;
			compiled = 1;
		} else if (!strcmp(word, "HOSTCC") || !strcmp(word, "HOSTCXX")) {
			c->host_objects++;
			compiled = 1;
		}
	}
	if (compiled)
		wl_ready();	/* the first compile: the load is running */
	if (p->verbose || (!compiled && (strstr(line, "rror") ||
					 strstr(line, "make: ***"))))
		fprintf(stderr, "make: %s\n", line);
}

/* Reads make's output; returns 1 when stopped, 0 at EOF. */
static int read_output(int fd, const struct kb_params *p,
		       struct kb_counts *c)
{
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = wl_stop_fd(), .events = POLLIN },
	};
	char buf[8192];
	size_t used = 0;

	for (;;) {
		char *nl;
		ssize_t n;

		if (wl_stopping())
			return 1;
		if (poll(pfd, 2, -1) < 0 || !pfd[0].revents)
			continue;
		n = read(fd, buf + used, sizeof(buf) - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		used += n;
		buf[used] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			count_line(buf, p, c);
			used -= nl + 1 - buf;
			memmove(buf, nl + 1, used + 1);
		}
		if (used == sizeof(buf) - 1)
			used = 0;	/* a line longer than the buffer */
	}
}

int kb_make_run(char *const argv[], const struct kb_params *p,
		struct kb_counts *c, int *status)
{
	int fd, ret, stopped;
	pid_t pid;

	ret = wl_proc_spawn(argv, &pid, &fd, WL_SPAWN_MERGE_STDERR);
	if (ret)
		return ret;
	stopped = read_output(fd, p, c);
	close(fd);
	/* A group-wide SIGTERM kills make as well: that is our stop too. */
	if (stopped || wl_stopping()) {
		/* make removes half-written targets on SIGTERM. */
		wl_proc_stop(pid, STOP_GRACE_NS, status);
		return 1;
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	wl_proc_reap_orphans();
	return 0;
}
