// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla from the kernel tree (kernel_priv.h). The order of business:
 * open the tree (kernel_tree_open: --src or Debian's linux-source), make
 * tools/tracing/rtla with O= under out/tools/build, ask the result for
 * its version and libraries, copy it to out/tools/rtla and describe it in
 * out/tools/rtla.json.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cJSON.h"
#include "fsio.h"
#include "jsonio.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

/*
 * The first non-empty line a short command printed, whatever its exit
 * status (`rtla --version` exits 129 after its usage); "" when it fails.
 */
static void first_line(char *const *argv, char *buf, size_t len)
{
	struct toolrun r = { .argv = argv, .timeout_ms = 10000 };
	char *out = NULL, *p;
	int status;

	r.capture = &out;
	buf[0] = '\0';
	if (!toolrun(&r, &status) && out) {
		p = out + strspn(out, " \t\n");
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, len, "%s", p);
	}
	free(out);
}

static cJSON *libraries(const char *binary)
{
	char *argv[] = { "ldd", (char *)binary, NULL }, *out = NULL;
	struct toolrun r = { .argv = argv, .timeout_ms = 10000 };
	cJSON *libs = cJSON_CreateArray();
	char *line, *save = NULL;
	int status;

	r.capture = &out;
	if (toolrun(&r, &status) || status || !out || !libs) {
		free(out);
		return libs;
	}
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[256];

		if (sscanf(line, " %255s =>", name) == 1 &&
		    strstr(line, "=>") && strncmp(name, "linux-vdso", 10))
			cJSON_AddItemToArray(libs, cJSON_CreateString(name));
	}
	free(out);
	return libs;
}

static int run_make(const struct kernel_tools_params *p,
		    const struct kernel_tree *t, const char *obj,
		    const char *log)
{
	char dir[PATH_MAX + 32], objarg[PATH_MAX + 8], jobs[16];
	/* No BPF skeleton: it needs clang and bpftool, and rtla falls back
	 * to tracefs sampling without it. */
	char *argv[] = { "make", objarg, jobs, "BUILD_BPF_SKEL=0", NULL };
	struct toolrun r = {
		.argv = argv, .cwd = dir, .out_path = log, .nice = p->nice,
	};
	int ret, status;

	rtpaths_fmt(dir, sizeof(dir), "%s/tools/tracing/rtla", t->path);
	if (!fsio_exists(dir)) {
		pr_err("%s: no tools/tracing/rtla in this tree (rtla's "
		       "auto-analysis needs Linux 6.3 or later)", t->path);
		return -ENOENT;
	}
	rtpaths_fmt(objarg, sizeof(objarg), "O=%s", obj);
	rtpaths_fmt(jobs, sizeof(jobs), "-j%d", p->jobs > 0 ? p->jobs :
		    (int)sysconf(_SC_NPROCESSORS_ONLN));
	pr_info("rtla: make -C %s O=%s (nice %d; log: %s)", dir, obj,
		p->nice, log);
	ret = toolrun(&r, &status);
	if (ret == -ENOENT)
		pr_err("make is not installed");
	else if (!ret && status) {
		pr_err("rtla: make failed (exit %d); its log: %s (it needs "
		       "pkg-config, libtracefs-dev and libtraceevent-dev)",
		       status, log);
		ret = -EIO;
	}
	return ret;
}

static int describe(const char *json_path, const char *bin,
		    const struct kernel_tree *t, double secs)
{
	char *ver_argv[] = { (char *)bin, "--version", NULL };
	char ver[128], *v;
	cJSON *j = cJSON_CreateObject();
	int ret;

	if (!j)
		return -ENOMEM;
	first_line(ver_argv, ver, sizeof(ver));
	/* "rtla version 7.3.4" */
	v = strstr(ver, "version ");
	cJSON_AddStringToObject(j, "tool", "rtla");
	cJSON_AddStringToObject(j, "version", v ? v + 8 : ver);
	cJSON_AddStringToObject(j, "tree", t->path);
	cJSON_AddStringToObject(j, "tree_version", t->version);
	cJSON_AddStringToObject(j, "origin", t->origin);
	if (t->package[0])
		cJSON_AddStringToObject(j, "package", t->package_version);
	cJSON_AddBoolToObject(j, "bpf", false);
	cJSON_AddItemToObject(j, "libraries", libraries(bin));
	cJSON_AddNumberToObject(j, "build_s", secs);
	ret = json_write_file(json_path, j);
	cJSON_Delete(j);
	if (!v) {
		pr_err("%s --version printed no version (%s)", bin, ver);
		return -EIO;
	}
	return ret;
}

int kernel_tools_build(const struct kernel_tools_params *p, char *path,
		       size_t len)
{
	char tools[PATH_MAX], obj[PATH_MAX + 64], log[PATH_MAX + 80];
	char built[PATH_MAX + 64], json[PATH_MAX + 16];
	struct kernel_tree t;
	struct timespec t0, t1;
	int ret;

	ret = kernel_tree_open(p->src, p->debian, p->cache_dir, &t);
	if (ret)
		return ret;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = rtpaths_fmt(tools, sizeof(tools), "%s/tools", p->out_dir);
	if (!ret)
		ret = rtpaths_fmt(obj, sizeof(obj), "%s/build/rtla-%s", tools,
				  t.version);
	if (!ret)
		ret = fsio_mkdir_p(obj, 0755);
	if (ret) {
		pr_err("%s: %s", obj, strerror(-ret));
		return ret;
	}
	rtpaths_fmt(log, sizeof(log), "%s/build.log", obj);
	ret = run_make(p, &t, obj, log);
	if (ret)
		return ret;
	rtpaths_fmt(built, sizeof(built), "%s/rtla", obj);
	rtpaths_fmt(path, len, "%s/rtla", tools);
	ret = fsio_copy(built, path);
	if (!ret && chmod(path, 0755))
		ret = -errno;
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rtpaths_fmt(json, sizeof(json), "%s/rtla.json", tools);
	return describe(json, path, &t, (t1.tv_sec - t0.tv_sec) +
			(t1.tv_nsec - t0.tv_nsec) / 1e9);
}
