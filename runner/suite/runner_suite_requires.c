// SPDX-License-Identifier: GPL-2.0-only
/*
 * Requirements (suite.h): the names a suite may give, and whether the
 * running kernel meets each (root, tracefs, a tracer, a sysctl ...).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "fsio.h"
#include "parse.h"
#include "runner/suite/suite.h"

/* Linux 7.0's rseq time slice extension (include/uapi/linux/prctl.h). */
#define RTGATE_PR_RSEQ_SLICE_EXTENSION		79
#define RTGATE_PR_RSEQ_SLICE_EXTENSION_GET	1

static const char *const plain_reqs[] = {
	"root", "tracefs", "debugfs", "sched-features", "base-slice",
	"preempt-rt", "slice-extension", "slice-extension:v5",
	"slice-extension:linux-7.0",
};

/* A requirement named after a tool's tracer ("timerlat"): analyze.h's table. */
static const struct an_tool *tracer_tool(const char *req)
{
	const struct an_tool *t;
	size_t i;

	for (i = 0; (t = an_tool_at(i)); i++)
		if (t->tracer && !strcmp(t->tracer, req))
			return t;
	return NULL;
}

bool runner_req_valid(const char *req)
{
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(plain_reqs) / sizeof(plain_reqs[0]); i++)
		if (!strcmp(req, plain_reqs[i]))
			return true;
	if (tracer_tool(req))
		return true;
	if (!strncmp(req, "sysctl:", 7))
		return req[7] && req[7] != '/' && !strstr(req, "..");
	if (!strncmp(req, "file:", 5))
		return req[5] == '/';
	if (!strncmp(req, "cpus>=", 6))
		return !parse_u64_range(req + 6, 1, 1u << 20, &n);
	return false;
}

bool runner_req_needs_debugfs(const char *req)
{
	/* slice-extension: for the grant knob and rseq/stats evidence. */
	return !strcmp(req, "debugfs") || !strcmp(req, "sched-features") ||
	       !strcmp(req, "base-slice") ||
	       !strncmp(req, "slice-extension", 15);
}

bool runner_req_needs_tracefs(const char *req)
{
	return !strcmp(req, "tracefs") || tracer_tool(req);
}

/* A tool's kernel tracer (timerlat: CONFIG_TIMERLAT_TRACER), for rtla. */
static int check_tracer(const struct runner_req_env *env,
			const struct an_tool *t, char *reason, size_t len)
{
	char path[PATH_MAX], config[64], *buf, *p;
	size_t n, i, w = strlen(t->tracer);
	bool found = false;

	if (!env->tracefs) {
		snprintf(reason, len, "tracefs is not mounted and could not be "
			 "mounted (%s needs it)", t->title);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/available_tracers", env->tracefs);
	if (fsio_read_all(path, &buf, &n)) {
		snprintf(reason, len, "cannot read %s", path);
		return 0;
	}
	for (p = strstr(buf, t->tracer); p && !found;
	     p = strstr(p + 1, t->tracer))
		found = (p == buf || p[-1] == ' ' || p[-1] == '\n') &&
			(!p[w] || p[w] == ' ' || p[w] == '\n');
	free(buf);
	if (found)
		return 1;
	for (i = 0; i < w && i + 1 < sizeof(config); i++)
		config[i] = toupper((unsigned char)t->tracer[i]);
	config[i] = '\0';
	snprintf(reason, len, "this kernel has no %s tracer (%s does not list "
		 "it: needs CONFIG_%s_TRACER, e.g. the lab's kernels or "
		 "Debian's linux-image-rt-amd64)", t->tracer, path, config);
	return 0;
}

/* A debugfs sched file we can read and open for writing. */
static int check_debugfs_file(const struct runner_req_env *env, const char *rel,
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
	if (ret == -EPERM || ret == -EACCES) {
		/* Root refused: kernel lockdown, or the VM's own policy. */
		snprintf(reason, len, "%s: %s even to root (kernel lockdown "
			 "or a locked-down VM); run it where debugfs sched/ is "
			 "writable, e.g. the QEMU lab", path, strerror(-ret));
		return 0;
	}
	if (ret == -ENOENT && !strcmp(rel, "sched/base_slice_ns")) {
		char old[PATH_MAX];

		/* CFS before EEVDF (6.6) had min_granularity_ns instead. */
		snprintf(old, sizeof(old), "%s/sched/min_granularity_ns",
			 env->debugfs);
		if (fsio_exists(old)) {
			snprintf(reason, len, "%s does not exist: this kernel's "
				 "scheduler predates EEVDF (Linux 6.6), it has "
				 "min_granularity_ns instead", path);
			return 0;
		}
	}
	if (ret == -ENOENT && !strncmp(rel, "sched/", 6)) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s/sched", env->debugfs);
		if (!fsio_exists(dir)) {
			snprintf(reason, len, "%s: no such file: the kernel has "
				 "no sched debugfs (CONFIG_SCHED_DEBUG is off "
				 "before 6.16; kconfigs/hrtick.config turns "
				 "it on)", path);
			return 0;
		}
	}
	if (ret) {
		snprintf(reason, len, "%s: %s", path, strerror(-ret));
		return 0;
	}
	return 1;
}

#define SLICE_V5_SYSCTL "/proc/sys/kernel/sched_preempt_delay_us"

static bool has_slice_v5(void)
{
	return fsio_exists(SLICE_V5_SYSCTL);
}

static bool has_slice_70(void)
{
	return prctl(RTGATE_PR_RSEQ_SLICE_EXTENSION,
		     RTGATE_PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0) >= 0;
}

/* kstrtobool()'s false: n, f, 0, "off" (the kernel reads the first two). */
static bool kernel_false(const char *v)
{
	return strchr("nNfF0", v[0]) ||
	       ((v[0] == 'o' || v[0] == 'O') && (v[1] == 'f' || v[1] == 'F'));
}

/*
 * rseq_slice_ext=0 on the kernel command line turns 7.x's extension off
 * at boot, yet the prctl's GET still answers: the extension-off control
 * of the slice-ext experiment. Nothing can be granted there.
 */
static bool slice_70_off_at_boot(void)
{
	char buf[4096], *tok, *save = NULL;
	bool off = false;

	if (fsio_read_str("/proc/cmdline", buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save))
		if (!strncmp(tok, "rseq_slice_ext=", 15) && tok[15])
			off = kernel_false(tok + 15);
	return off;
}

/*
 * "slice-extension": either ABI; ":v5" or ":linux-7.0": that one (a
 * scenario that sets the ABI's own grant knob). The reasons are read by
 * people who have never heard of the patch set: say what is missing,
 * which kernel has it, and what the kernel has instead.
 */
static int check_slice_extension(const char *abi, char *reason, size_t len)
{
	bool v5 = has_slice_v5(), l70 = has_slice_70();
	const char *has = v5 ? "the V5 patch set's ABI" :
			  l70 ? "Linux 7.0's ABI" : "neither";

	if (l70 && !v5 && slice_70_off_at_boot()) {
		snprintf(reason, len, "the kernel's slice extension (Linux "
			 "7.0's ABI) is off: rseq_slice_ext= on its command "
			 "line turns it off at boot");
		return 0;
	}
	if (!abi && (v5 || l70))
		return 1;
	if (abi && !strcmp(abi, "v5") && v5)
		return 1;
	if (abi && !strcmp(abi, "linux-7.0") && l70)
		return 1;
	if (!v5 && !l70) {
		snprintf(reason, len, "no scheduler time-slice extension in "
			 "this kernel (needs Linux 7.0+ with "
			 "CONFIG_RSEQ_SLICE_EXTENSION, or the V5 patch set: "
			 "docs/reproducing.md)");
		return 0;
	}
	snprintf(reason, len, "sets the %s grant knob; this kernel has %s, "
		 "whose scenario runs instead", !strcmp(abi, "v5") ?
		 "V5 patch set's" : "Linux 7.0 ABI's", has);
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

int runner_req_check(const char *req, const struct runner_req_env *env,
		     char *reason, size_t len)
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
	if (tracer_tool(req))
		return check_tracer(env, tracer_tool(req), reason, len);
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
		return check_slice_extension(NULL, reason, len);
	if (!strncmp(req, "slice-extension:", 16))
		return check_slice_extension(req + 16, reason, len);
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
