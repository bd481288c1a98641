// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild's make (kbuild.h): the build run as the load, its lines read, its
 * exit judged.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "workloads/common/loop/wl_lines.h"
#include "workloads/common/loop/wl_proc.h"
#include "workloads/common/core/wl_proto.h"
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

struct kb_output {
	const struct kb_params *p;
	struct kb_counts *c;
};

static void take_line(char *line, void *ctx)
{
	struct kb_output *o = ctx;

	count_line(line, o->p, o->c);
}

/* Reads make's output; returns 1 when stopped, 0 at EOF. */
static int read_output(int fd, const struct kb_params *p,
		       struct kb_counts *c)
{
	struct kb_output o = { p, c };
	struct wl_lines lines;
	char buf[8192];

	wl_lines_init(&lines, buf, sizeof(buf), take_line, &o);
	return wl_lines_follow(&lines, fd);
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
	wl_proc_wait(pid, status);
	wl_proc_reap_orphans();
	return 0;
}
