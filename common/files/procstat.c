// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/PID/stat (procstat.h): a process's state, parent and start time,
 * which make a pid an identity.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "procstat.h"

int procstat_read(int pid, struct procstat *ps)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: count from the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d", &ps->state, &ps->ppid) != 2)
		return -EINVAL;
	/* Field 22 is the start time. */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ps->start) != 1)
		return -EINVAL;
	return 0;
}

int procstat_start_time(int pid, unsigned long long *start)
{
	struct procstat ps;
	int ret = procstat_read(pid, &ps);

	if (!ret)
		*start = ps.start;
	return ret;
}

bool procstat_alive(int pid, unsigned long long start)
{
	unsigned long long now_start;

	if (procstat_start_time(pid, &now_start))
		return false;
	/* The pid was reused by another process: the owner is gone. */
	return now_start == start;
}
