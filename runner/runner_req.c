// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "fsio.h"
#include "parse.h"
#include "runner_req.h"

/* Linux 7.0's rseq time slice extension (include/uapi/linux/prctl.h). */
#define RTGATE_PR_RSEQ_SLICE_EXTENSION		79
#define RTGATE_PR_RSEQ_SLICE_EXTENSION_GET	1

static const char *const plain_reqs[] = {
	"root", "tracefs", "debugfs", "sched-features", "base-slice",
	"preempt-rt", "slice-extension",
};

bool req_valid(const char *req)
{
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(plain_reqs) / sizeof(plain_reqs[0]); i++)
		if (!strcmp(req, plain_reqs[i]))
			return true;
	if (!strncmp(req, "sysctl:", 7))
		return req[7] && req[7] != '/' && !strstr(req, "..");
	if (!strncmp(req, "file:", 5))
		return req[5] == '/';
	if (!strncmp(req, "cpus>=", 6))
		return !parse_u64_range(req + 6, 1, 1u << 20, &n);
	return false;
}

bool req_needs_debugfs(const char *req)
{
	return !strcmp(req, "debugfs") || !strcmp(req, "sched-features") ||
	       !strcmp(req, "base-slice");
}

bool req_needs_tracefs(const char *req)
{
	return !strcmp(req, "tracefs");
}

/* A debugfs sched file we can read and open for writing. */
static int check_debugfs_file(const struct req_env *env, const char *rel,
			      char *reason, size_t len)
{
	char path[PATH_MAX], buf[64];
	int fd, ret;

	if (!env->debugfs) {
		snprintf(reason, len, "debugfs is not mounted");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", env->debugfs, rel);
	ret = fsio_read_str(path, buf, sizeof(buf));
	if (!ret) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
	}
	if (ret) {
		snprintf(reason, len, "%s: %s", path, strerror(-ret));
		return 0;
	}
	return 1;
}

static int check_slice_extension(char *reason, size_t len)
{
	/* The V5/V6 series' ABI had a sysctl; Linux 7.0's has a prctl. */
	if (fsio_exists("/proc/sys/kernel/sched_preempt_delay_us"))
		return 1;
	if (prctl(RTGATE_PR_RSEQ_SLICE_EXTENSION,
		  RTGATE_PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0) >= 0)
		return 1;
	snprintf(reason, len, "no slice-extension ABI: neither prctl "
		 "PR_RSEQ_SLICE_EXTENSION nor kernel.sched_preempt_delay_us");
	return 0;
}

static int check_sysctl(const char *name, char *reason, size_t len)
{
	char path[PATH_MAX];
	char *p;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	if (!strchr(name, '/'))
		for (p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
	if (fsio_exists(path))
		return 1;
	snprintf(reason, len, "sysctl %s does not exist on this kernel", name);
	return 0;
}

int req_check(const char *req, const struct req_env *env, char *reason,
	      size_t len)
{
	char buf[16];
	uint64_t n;
	long cpus;

	if (!strcmp(req, "root")) {
		if (geteuid() == 0)
			return 1;
		snprintf(reason, len, "not running as root");
		return 0;
	}
	if (!strcmp(req, "tracefs") || !strcmp(req, "debugfs")) {
		if (*req == 't' ? env->tracefs != NULL : env->debugfs != NULL)
			return 1;
		snprintf(reason, len, "%s is not mounted and could not be "
			 "mounted", req);
		return 0;
	}
	if (!strcmp(req, "sched-features"))
		return check_debugfs_file(env, "sched/features", reason, len);
	if (!strcmp(req, "base-slice"))
		return check_debugfs_file(env, "sched/base_slice_ns", reason,
					  len);
	if (!strcmp(req, "preempt-rt")) {
		if (!fsio_read_str("/sys/kernel/realtime", buf, sizeof(buf)) &&
		    !strcmp(buf, "1"))
			return 1;
		snprintf(reason, len, "the running kernel is not PREEMPT_RT "
			 "(/sys/kernel/realtime is not 1)");
		return 0;
	}
	if (!strcmp(req, "slice-extension"))
		return check_slice_extension(reason, len);
	if (!strncmp(req, "sysctl:", 7))
		return check_sysctl(req + 7, reason, len);
	if (!strncmp(req, "file:", 5)) {
		if (fsio_exists(req + 5))
			return 1;
		snprintf(reason, len, "%s does not exist", req + 5);
		return 0;
	}
	if (!strncmp(req, "cpus>=", 6) && !parse_u64(req + 6, &n)) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		if (cpus >= (long)n)
			return 1;
		snprintf(reason, len, "needs %llu CPUs, %ld online",
			 (unsigned long long)n, cpus);
		return 0;
	}
	snprintf(reason, len, "unknown requirement '%s'", req);
	return 0;
}
