// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's environment record (machine.h): kernel, preemption model,
 * CPUs, isolation, governor, tools and their versions, for the manifest.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsio.h"
#include "kconfig.h"
#include "parse.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"
#include "clocks.h"
#include "sha256.h"
#include "toolrun.h"

/* ---- preemption model ---------------------------------------------------- */

static bool has_token(const char *s, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = s;

	while ((p = strstr(p, tok))) {
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

static const char *config_default_model(const struct kconfig *kc)
{
	if (kconfig_is_y(kc, "PREEMPT_RT"))
		return "rt";
	if (kconfig_is_y(kc, "PREEMPT_LAZY"))
		return "lazy";
	if (kconfig_is_y(kc, "PREEMPT"))
		return "full";
	if (kconfig_is_y(kc, "PREEMPT_VOLUNTARY"))
		return "voluntary";
	if (kconfig_is_y(kc, "PREEMPT_NONE"))
		return "none";
	return NULL;
}

/* preempt=MODE on the command line selects a dynamic kernel's model. */
static bool cmdline_preempt(char *buf, size_t len)
{
	char cmdline[4096];
	const char *p;

	if (fsio_read_str("/proc/cmdline", cmdline, sizeof(cmdline)))
		return false;
	p = parse_cmdline_find(cmdline, "preempt", 7, PARSE_CMDLINE_VALUE);
	if (!p)
		return false;
	p += strlen("preempt=");
	snprintf(buf, len, "%.*s", (int)strcspn(p, PARSE_CMDLINE_BLANKS), p);
	return true;
}

static void preempt_model(const char *debugfs, const struct kconfig *kc,
			  char *buf, size_t len)
{
	char path[PATH_MAX], modes[128], mode[32], *open_p, *close_p;
	struct utsname u;
	const char *def;

	if (!fsio_read_str("/sys/kernel/realtime", modes, sizeof(modes)) &&
	    !strcmp(modes, "1")) {
		snprintf(buf, len, "rt");
		return;
	}
	uname(&u);
	if (has_token(u.version, "PREEMPT_RT")) {
		snprintf(buf, len, "rt");
		return;
	}
	if (has_token(u.version, "PREEMPT_DYNAMIC")) {
		/* sched/preempt shows "none (voluntary) full lazy". */
		snprintf(path, sizeof(path), "%s/sched/preempt",
			 debugfs ? debugfs : "/sys/kernel/debug");
		if (!fsio_read_str(path, modes, sizeof(modes)) &&
		    (open_p = strchr(modes, '(')) &&
		    (close_p = strchr(open_p, ')'))) {
			*close_p = '\0';
			snprintf(buf, len, "dynamic(%s)", open_p + 1);
			return;
		}
		if (cmdline_preempt(mode, sizeof(mode))) {
			snprintf(buf, len, "dynamic(%s)", mode);
			return;
		}
		def = config_default_model(kc);
		snprintf(buf, len, "dynamic(%s)", def ? def : "unknown");
		return;
	}
	if (has_token(u.version, "PREEMPT_LAZY"))
		def = "lazy";
	else if (has_token(u.version, "PREEMPT"))
		def = "full";
	else
		def = config_default_model(kc);
	snprintf(buf, len, "%s", def ? def : "unknown");
}

/* ---- host ---------------------------------------------------------------- */

static void add_file_str(cJSON *obj, const char *key, const char *path)
{
	char buf[4096];

	if (!fsio_read_str(path, buf, sizeof(buf)))
		cJSON_AddStringToObject(obj, key, buf);
}

static void cpu_model(char *buf, size_t len)
{
	char *all, *p, *end;

	buf[0] = '\0';
	if (fsio_read_all("/proc/cpuinfo", &all, NULL))
		return;
	p = strstr(all, "model name");
	if (p && (p = strchr(p, ':'))) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		end = strchr(p, '\n');
		snprintf(buf, len, "%.*s",
			 end ? (int)(end - p) : (int)strlen(p), p);
	}
	free(all);
}

static cJSON *host_json(void)
{
	cJSON *host = cJSON_CreateObject();
	char buf[256];

	if (!gethostname(buf, sizeof(buf)))
		cJSON_AddStringToObject(host, "hostname", buf);
	cpu_model(buf, sizeof(buf));
	if (buf[0])
		cJSON_AddStringToObject(host, "cpu_model", buf);
	cJSON_AddNumberToObject(host, "cpus_online",
				sysconf(_SC_NPROCESSORS_ONLN));
	add_file_str(host, "cpus_online_list",
		     "/sys/devices/system/cpu/online");
	add_file_str(host, "smt", "/sys/devices/system/cpu/smt/control");
	if (fsio_read_str("/sys/devices/system/cpu/cpu0/cpufreq/"
			  "scaling_governor", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unavailable");
	cJSON_AddStringToObject(host, "governor", buf);
	return host;
}

/* ---- kernel -------------------------------------------------------------- */

static cJSON *kernel_json(const char *debugfs)
{
	static const char *const options[] = {
		"PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT_LAZY", "HZ",
		"NO_HZ_FULL", "HIGH_RES_TIMERS", "SCHED_HRTICK", "RSEQ",
		"RSEQ_SLICE_EXTENSION", "FTRACE",
	};
	cJSON *k = cJSON_CreateObject(), *opts;
	char buf[4096], hex[65];
	struct kconfig kc;
	struct utsname u;
	size_t i;

	uname(&u);
	cJSON_AddStringToObject(k, "release", u.release);
	cJSON_AddStringToObject(k, "version", u.version);
	cJSON_AddStringToObject(k, "machine", u.machine);
	add_file_str(k, "cmdline", "/proc/cmdline");
	kconfig_load_running(&kc, u.release);
	preempt_model(debugfs, &kc, buf, sizeof(buf));
	cJSON_AddStringToObject(k, "preempt_model", buf);
	cJSON_AddBoolToObject(k, "preempt_rt", !strcmp(buf, "rt"));
	if (kc.text) {
		cJSON_AddStringToObject(k, "config_source", kc.source);
		sha256_buf(kc.text, kc.len, hex);
		cJSON_AddStringToObject(k, "config_sha256", hex);
		opts = cJSON_AddObjectToObject(k, "config");
		for (i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
			if (kconfig_value(&kc, options[i], buf, sizeof(buf)) < 1)
				continue;
			kconfig_unquote(buf);
			cJSON_AddStringToObject(opts, options[i], buf);
		}
	}
	kconfig_free(&kc);
	add_file_str(k, "isolcpus", "/sys/devices/system/cpu/isolated");
	add_file_str(k, "nohz_full", "/sys/devices/system/cpu/nohz_full");
	return k;
}

/* ---- environment --------------------------------------------------------- */

static bool process_running(const char *comm)
{
	char path[64], buf[64];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		rtpaths_fmt(path, sizeof(path), "/proc/%s/comm", de->d_name);
		found = !fsio_read_str(path, buf, sizeof(buf)) &&
			!strcmp(buf, comm);
	}
	closedir(d);
	return found;
}

static cJSON *environment_json(const struct runner_env_opts *o)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddBoolToObject(e, "stalld_running", process_running("stalld"));
	cJSON_AddBoolToObject(e, "tuned_running", process_running("tuned"));
	if (o->tracefs)
		cJSON_AddStringToObject(e, "tracefs", o->tracefs);
	if (o->debugfs)
		cJSON_AddStringToObject(e, "debugfs", o->debugfs);
	if (o->cgroup)
		cJSON_AddStringToObject(e, "cgroup", o->cgroup);
	return e;
}

/* ---- tools --------------------------------------------------------------- */

/*
 * Runs @argv (searched in PATH) with stdout and stderr captured into
 * @buf, for at most @timeout_s. Returns its exit status or -errno.
 */
static int runner_env_capture(char *const *argv, char *buf, size_t len,
			      double timeout_s)
{
	double deadline = clocks_mono_s() + timeout_s;
	size_t used = 0;
	int fds[2], status, null;
	pid_t pid, parent;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		toolrun_child_bind(parent);
		null = open("/dev/null", O_RDONLY);
		dup2(null, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double left = deadline - clocks_mono_s();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) == 0) {
			kill(pid, SIGKILL);
			break;
		}
		n = read(fds[0], buf + used, len - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += n;
		if (used + 1 >= len)
			break;
	}
	buf[used] = '\0';
	close(fds[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}

/* The token after @marker in the first line of the output ("V 2.40"). */
static void tool_version(cJSON *tools, const char *name, char *const *argv,
			 const char *marker)
{
	char out[8192], *p;
	size_t n;

	if (runner_env_capture(argv, out, sizeof(out), 5) < 0)
		return;
	p = strstr(out, marker);
	if (!p)
		return;
	p += strlen(marker);
	n = strcspn(p, " \n(),");
	if (n && n < 64) {
		char ver[64];

		snprintf(ver, sizeof(ver), "%.*s", (int)n, p);
		cJSON_AddStringToObject(tools, name, ver);
	}
}

int runner_env_rtla_version(const char *path, unsigned int *major,
			    unsigned int *minor)
{
	char *argv[] = { (char *)path, "--version", NULL };
	char out[8192], *p;

	if (runner_env_capture(argv, out, sizeof(out), 5) < 0)
		return -1;
	p = strstr(out, "rtla version ");
	if (!p || sscanf(p, "rtla version %u.%u", major, minor) != 2)
		return -1;
	return 0;
}

static cJSON *tools_json(bool probe, const char *rtla, const char *aa)
{
	char *rl[] = { (char *)rtla, "--version", NULL };
	char *ra[] = { (char *)aa, "--version", NULL };
	static char *const ct[] = { "cyclictest", "--help", NULL };
	static char *const hb[] = { "hackbench", "--help", NULL };
	static char *const sn[] = { "stress-ng", "--version", NULL };
	cJSON *tools = cJSON_CreateObject();

	cJSON_AddStringToObject(tools, "rtgate", RTGATE_VERSION);
	if (!probe)
		return tools;
	tool_version(tools, "cyclictest", ct, "cyclictest V ");
	tool_version(tools, "hackbench", hb, "hackbench V ");
	tool_version(tools, "stress-ng", sn, "version ");
	if (rtla) {
		/* "rtla version 7.3.4"; which one (rtgate's own or PATH's) */
		tool_version(tools, "rtla", rl, "rtla version ");
		cJSON_AddStringToObject(tools, "rtla_path", rtla);
	}
	if (aa && rtla && strcmp(aa, rtla)) {
		tool_version(tools, "rtla_aa", ra, "rtla version ");
		cJSON_AddStringToObject(tools, "rtla_aa_path", aa);
	}
	return tools;
}

cJSON *runner_env_record(const struct runner_env_opts *opts)
{
	cJSON *env = cJSON_CreateObject();

	if (!env)
		return NULL;
	cJSON_AddItemToObject(env, "host", host_json());
	cJSON_AddItemToObject(env, "kernel", kernel_json(opts->debugfs));
	cJSON_AddItemToObject(env, "environment", environment_json(opts));
	cJSON_AddItemToObject(env, "system", runner_sysfacts_record(""));
	cJSON_AddItemToObject(env, "tools", tools_json(opts->tools, opts->rtla, opts->rtla_aa));
	return env;
}
