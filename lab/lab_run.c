// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate lab run` (lab.h): the whole of one lab run -- the kernel and the
 * initramfs, the accelerator probe, the boot and its time limit, the
 * results brought back from the share, a crash or a timeout recorded
 * beside them, and the reports rendered again on the host.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "analyze/analyze.h"
#include "lab.h"
#include "lab_priv.h"
#include "runner/runner.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "timefmt.h"
#include "toolrun.h"

#define PROBE_TIMEOUT_S 30

struct run_ctx {
	const struct lab_run_params *p;
	struct lab_run_result *res;
	struct lab_kernel k;
	char suite[PATH_MAX];
	char initrd[PATH_MAX];
	char initrd_sha[FILEHASH_HEX_LEN + 1];
	char share[PATH_MAX + 16];
	char console[PATH_MAX + 16];
	char accel[8];
	char accel_reason[256];
	struct lab_emulator emu;
	char append[1024];		/* the clock's words, then --append */
	struct lab_qemu_params qp;
	struct lab_qemu_result qr;
	cJSON *status;			/* the guest's status.json */
	struct lab_crash crash;
	bool crashed;
	bool carry_suite;		/* `lab initramfs --suite`: in the image */
	int cpus;			/* what boots: pick_cpus() */
	const char *cpus_from;		/* and who said so */
};

static int write_plan(const char *share, cJSON *plan)
{
	char path[PATH_MAX + 16];

	rtpaths_fmt(path, sizeof(path), "%s/plan.json", share);
	return json_write_file(path, plan);
}

/* The accelerator probe's verdict, cached per host kernel and QEMU. */
static bool probe_cached(struct run_ctx *c, const char *cache, const char *key)
{
	struct json_error err;
	cJSON *j;
	bool hit = false;

	if (!fsio_exists(cache) || json_read_file(cache, &j, &err))
		return false;
	if (!strcmp(json_get_str(j, "key", ""), key)) {
		rtpaths_fmt(c->accel, sizeof(c->accel), "%s",
			    json_get_str(j, "accel", "tcg"));
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "%s (cached)", json_get_str(j, "reason", ""));
		hit = true;
	}
	cJSON_Delete(j);
	return hit;
}

/* Boots the kernel once under KVM with a do-nothing plan. */
static void probe_kvm(struct run_ctx *c, const char *dir)
{
	struct lab_qemu_params qp = c->qp;
	struct lab_qemu_result qr;
	char share[PATH_MAX + 16], log[PATH_MAX + 16], st[PATH_MAX + 32];
	cJSON *plan = cJSON_CreateObject();

	rtpaths_fmt(share, sizeof(share), "%s/probe-share", dir);
	rtpaths_fmt(log, sizeof(log), "%s/probe-console.log", dir);
	rtpaths_fmt(st, sizeof(st), "%s/status.json", share);
	fsio_mkdir_p(share, 0755);
	unlink(st);
	cJSON_AddStringToObject(plan, "mode", "probe");
	write_plan(share, plan);
	cJSON_Delete(plan);
	qp.accel = "kvm";
	qp.share = share;
	qp.console_log = log;
	qp.timeout_s = PROBE_TIMEOUT_S;
	qp.quiet = true;
	pr_info("lab: probing KVM (a %d s boot at most) ...", PROBE_TIMEOUT_S);
	if (lab_qemu_boot(&qp, &qr)) {
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "QEMU could not run");
	} else if (fsio_exists(st)) {
		rtpaths_fmt(c->accel, sizeof(c->accel), "kvm");
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "a KVM guest booted in %.1f s", qr.wall_s);
	} else if (qr.timed_out) {
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "a KVM guest did not finish booting in %d s",
			    PROBE_TIMEOUT_S);
	} else {
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "QEMU with KVM exited with status %d before the "
			    "guest booted (see %s)", qr.status, log);
	}
}

static void pick_accel(struct run_ctx *c)
{
	char cache[PATH_MAX + 32], key[512], dir[PATH_MAX + 16];
	struct utsname u;
	cJSON *j;

	rtpaths_fmt(c->accel, sizeof(c->accel), "tcg");
	if (c->p->clock.icount && !strcmp(c->p->accel, "auto")) {
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "--clock icount: single-threaded TCG");
		return;
	}
	if (strcmp(c->p->accel, "auto")) {
		rtpaths_fmt(c->accel, sizeof(c->accel), "%s", c->p->accel);
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "--accel %s", c->p->accel);
		return;
	}
	if (!lab_qemu_kvm_device()) {
		rtpaths_fmt(c->accel_reason, sizeof(c->accel_reason),
			    "/dev/kvm cannot be opened");
		return;
	}
	uname(&u);
	rtpaths_fmt(key, sizeof(key), "%s %s | %s", u.release, u.version,
		    c->emu.version);
	if (rtpaths_cache(dir, sizeof(dir) - 8))
		return;
	strcat(dir, "/lab");
	rtpaths_fmt(cache, sizeof(cache), "%s/accel.json", dir);
	if (probe_cached(c, cache, key))
		return;
	fsio_mkdir_p(dir, 0755);
	probe_kvm(c, dir);
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "key", key);
	cJSON_AddStringToObject(j, "accel", c->accel);
	cJSON_AddStringToObject(j, "reason", c->accel_reason);
	json_write_file(cache, j);
	cJSON_Delete(j);
}

/* FILE, or NAME in suites/, as the real path in @out. */
static int suite_path(const char *s, char out[PATH_MAX])
{
	char path[PATH_MAX];

	if (strchr(s, '/') || strstr(s, ".suite"))
		rtpaths_fmt(path, sizeof(path), "%s", s);
	else if (rtpaths_in_top(path, sizeof(path), "suites") ||
		 rtpaths_fmt(path + strlen(path), sizeof(path) - strlen(path),
			     "/%s.suite", s))
		return -ENAMETOOLONG;
	if (!realpath(path, out)) {
		pr_err("suite %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	return 0;
}

static int find_suite(struct run_ctx *c)
{
	return suite_path(c->p->suite, c->suite);
}

static int cpus_of(const char *suite, int *cpus)
{
	unsigned int n = 0;
	char err[512];
	int ret = runner_suite_lab_cpus(suite, &n, err, sizeof(err));

	if (ret) {
		pr_err("%s", err);
		return ret;
	}
	*cpus = n ? (int)n : LAB_DEFAULT_CPUS;
	return 0;
}

int lab_suite_cpus(const char *suite, int *cpus)
{
	char path[PATH_MAX];
	int ret = suite_path(suite, path);

	return ret ? ret : cpus_of(path, cpus);
}

/* --cpus, else the suite's lab_cpus, else LAB_DEFAULT_CPUS. */
static int pick_cpus(struct run_ctx *c)
{
	int ret = 0;

	c->cpus = c->p->cpus;
	c->cpus_from = "--cpus";
	if (c->cpus)
		return 0;
	c->cpus = LAB_DEFAULT_CPUS;
	c->cpus_from = "the default";
	if (c->suite[0]) {
		ret = cpus_of(c->suite, &c->cpus);
		if (!ret && c->cpus != LAB_DEFAULT_CPUS)
			c->cpus_from = "the suite's lab_cpus";
	}
	return ret;
}

static bool suite_mentions(const char *suite, const char *word)
{
	char *buf;
	size_t len;
	bool hit;

	if (!suite[0] || fsio_read_all(suite, &buf, &len))
		return false;
	hit = strstr(buf, word) != NULL;
	free(buf);
	return hit;
}

static bool has_tool(const struct lab_run_params *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_tools; i++)
		if (!strcmp(p->tools[i], name))
			return true;
	return false;
}

/* Whether the guest's run traces: --trace MODE (not off) in RUN-ARGS. */
static bool run_traces(const struct lab_run_params *p)
{
	int i;

	for (i = 0; i < p->nr_args; i++) {
		const char *a = p->args[i], *mode = NULL;

		if (!strncmp(a, "--trace=", 8))
			mode = a + 8;
		else if (!strcmp(a, "--trace") && i + 1 < p->nr_args)
			mode = p->args[i + 1];
		if (mode && strcmp(mode, "off"))
			return true;
	}
	return false;
}

static int make_initramfs(struct run_ctx *c)
{
	struct lab_initramfs_params ip = { .k = &c->k };
	char bin[PATH_MAX], suites[PATH_MAX], cache[PATH_MAX + 32];
	char path[PATH_MAX];
	int i, ret;

	ret = rtpaths_in_top(bin, sizeof(bin), "bin");
	if (!ret)
		ret = rtpaths_in_top(suites, sizeof(suites), "suites");
	if (ret)
		return ret;
	ip.bin_dir = bin;
	ip.suites_dir = fsio_exists(suites) ? suites : NULL;
	/* A suite from elsewhere, for a LAVA job that runs it inside. */
	if (c->carry_suite && c->suite[0] &&
	    (!realpath(suites, path) ||
	     strncmp(c->suite, path, strlen(path)) ||
	     strchr(c->suite + strlen(path) + 1, '/')))
		ip.suite = c->suite;
	for (i = 0; lab_initramfs_default_tools[i]; i++) {
		/* cyclictest is what suites measure with; the rest if there. */
		if (i && !lab_initramfs_have_tool(
				lab_initramfs_default_tools[i])) {
			pr_warn("lab: %s is not installed; the guest will "
				"lack it", lab_initramfs_default_tools[i]);
			continue;
		}
		ip.tools[ip.nr_tools++] = lab_initramfs_default_tools[i];
	}
	for (i = 0; i < c->p->nr_tools && ip.nr_tools < INITRAMFS_MAX_TOOLS;
	     i++)
		ip.tools[ip.nr_tools++] = c->p->tools[i];
	/* stress-ng and its 30 MB of libraries only for suites using it. */
	if (suite_mentions(c->suite, "stress-ng") &&
	    ip.nr_tools < INITRAMFS_MAX_TOOLS)
		ip.tools[ip.nr_tools++] = "stress-ng";
	/* A traced run saves its trace with trace-cmd (trace/trace_save.c). */
	if ((run_traces(c->p) || suite_mentions(c->suite, "\ntrace")) &&
	    !has_tool(c->p, "trace-cmd") && ip.nr_tools < INITRAMFS_MAX_TOOLS)
		ip.tools[ip.nr_tools++] = "trace-cmd";
	ret = rtpaths_cache(cache, sizeof(cache) - 16);
	if (ret)
		return ret;
	strcat(cache, "/initramfs");
	ip.cache_dir = cache;
	ret = lab_initramfs_build(&ip, path, sizeof(path), c->initrd_sha);
	if (!ret)
		rtpaths_fmt(c->initrd, sizeof(c->initrd), "%s", path);
	return ret;
}

void lab_guest_hostname(const char *host, char *buf, size_t len)
{
	/* 64: the kernel's __NEW_UTS_LEN, what sethostname() takes. */
	static const char suffix[] = "-lab";
	int keep = 64 - (int)(sizeof(suffix) - 1);
	char *p;

	if (!host || !host[0] || !strcmp(host, "(none)")) {
		rtpaths_fmt(buf, len, "lab");
		return;
	}
	rtpaths_fmt(buf, len, "%.*s%s", keep, host, suffix);
	/*
	 * A host name is data in every output (docs/results.md: letters,
	 * digits, "._-", a letter or digit first): any other byte of the
	 * machine's name becomes '-', and a name that still is none is "lab".
	 */
	for (p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '-';
	if (!parse_host_name(buf))
		rtpaths_fmt(buf, len, "lab");
}

static int prepare_share(struct run_ctx *c)
{
	cJSON *plan = cJSON_CreateObject(), *arr = cJSON_CreateArray();
	char to[PATH_MAX + 300], host[256], guest[80];
	const char *base;
	int i, ret;

	ret = fsio_mkdir_p(c->share, 0755);
	if (ret)
		goto out;
	cJSON_AddStringToObject(plan, "schema", "rtgate-lab-plan/1");
	cJSON_AddStringToObject(plan, "kernel", c->k.name);
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	lab_guest_hostname(host, guest, sizeof(guest));
	cJSON_AddStringToObject(plan, "hostname", guest);
	if (c->p->nr_exec) {
		cJSON_AddStringToObject(plan, "mode", "exec");
		for (i = 0; i < c->p->nr_exec; i++)
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(c->p->exec[i]));
		cJSON_AddItemToObject(plan, "argv", arr);
	} else {
		/* Same file name: a suite's default name is its file's. */
		base = strrchr(c->suite, '/') + 1;
		rtpaths_fmt(to, sizeof(to), "%s/%s", c->share, base);
		ret = fsio_copy(c->suite, to);
		if (ret)
			goto out;
		cJSON_AddStringToObject(plan, "mode", "suite");
		cJSON_AddStringToObject(plan, "suite", base);
		/* Nothing crosses to the host while a repetition measures. */
		cJSON_AddBoolToObject(plan, "silent", !c->p->loud);
		for (i = 0; i < c->p->nr_args; i++)
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(c->p->args[i]));
		cJSON_AddItemToObject(plan, "args", arr);
	}
	ret = write_plan(c->share, plan);
out:
	cJSON_Delete(plan);
	return ret;
}

static void show_console_tail(const char *log, int lines)
{
	char *buf, *p;
	size_t len;
	int n = 0;

	if (fsio_read_all(log, &buf, &len))
		return;
	for (p = buf + len; p > buf; p--)
		if (p[-1] == '\n' && ++n > lines)
			break;
	fprintf(stderr, "-- the end of %s:\n%s", log, p);
	free(buf);
}

/* results/<run-id> (any folder beside "latest") from the share. */
static int bring_back(struct run_ctx *c)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 300], latest[PATH_MAX + 16];
	char src[PATH_MAX + 32];
	struct dirent **names;
	int i, n, ret = 0;

	rtpaths_fmt(src, sizeof(src), "%s/results", c->share);
	n = scandir(src, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	fsio_mkdir_p(c->p->results_dir, 0755);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct stat st;

		rtpaths_fmt(from, sizeof(from), "%s/%s", src, name);
		if (name[0] == '.' || !strcmp(name, "latest") ||
		    lstat(from, &st) || !S_ISDIR(st.st_mode) ||
		    c->res->run_dir[0]) {
			free(names[i]);
			continue;
		}
		rtpaths_fmt(to, sizeof(to), "%s/%s", c->p->results_dir, name);
		if (rename(from, to)) {
			char *cp[] = { "cp", "-a", from, to, NULL };
			int status;

			if (toolrun_simple(cp, NULL, NULL, &status) || status)
				ret = -EIO;
		}
		if (!ret && !realpath(to, c->res->run_dir))
			ret = -errno;
		free(names[i]);
	}
	free(names);
	if (!ret && c->res->run_dir[0]) {
		rtpaths_fmt(latest, sizeof(latest), "%s/latest",
			    c->p->results_dir);
		unlink(latest);
		if (symlink(strrchr(c->res->run_dir, '/') + 1, latest))
			pr_warn("%s: %s", latest, strerror(errno));
	}
	return ret;
}

static cJSON *json_kernel(const struct run_ctx *c)
{
	cJSON *o = cJSON_CreateObject(), *build;
	char path[PATH_MAX + 16];
	struct json_error err;

	cJSON_AddStringToObject(o, "name", c->k.name);
	cJSON_AddStringToObject(o, "origin", c->k.origin);
	cJSON_AddStringToObject(o, "release", c->k.release);
	cJSON_AddBoolToObject(o, "preempt_rt", c->k.preempt_rt);
	cJSON_AddStringToObject(o, "image", c->k.image);
	if (c->k.package[0]) {
		cJSON_AddStringToObject(o, "package", c->k.package);
		cJSON_AddStringToObject(o, "package_version",
					c->k.package_version);
	}
	rtpaths_fmt(path, sizeof(path), "%s/build.json", c->k.dir);
	if (!strcmp(c->k.origin, "build") &&
	    !json_read_file(path, &build, &err))
		cJSON_AddItemToObject(o, "build", build);
	return o;
}

static cJSON *json_lab(const struct run_ctx *c)
{
	cJSON *o = cJSON_CreateObject(), *ir = cJSON_CreateObject();
	char cmdline[2048];

	cJSON_AddStringToObject(o, "schema", "rtgate-lab/1");
	cJSON_AddItemToObject(o, "kernel", json_kernel(c));
	cJSON_AddStringToObject(o, "accel", c->accel);
	cJSON_AddStringToObject(o, "accel_reason", c->accel_reason);
	cJSON_AddStringToObject(o, "qemu", c->emu.version);
	cJSON_AddStringToObject(o, "qemu_origin", c->emu.origin);
	cJSON_AddStringToObject(o, "qemu_program", c->emu.program);
	cJSON_AddNumberToObject(o, "qemu_icount_quantum_ns",
				c->qp.quantum_ns);
	lab_qemu_kernel_cmdline(&c->qp, cmdline, sizeof(cmdline));
	cJSON_AddStringToObject(o, "cmdline", cmdline);
	cJSON_AddNumberToObject(o, "cpus", c->qp.cpus);
	cJSON_AddStringToObject(o, "cpus_from", c->cpus_from);
	cJSON_AddNumberToObject(o, "mem_mb", c->qp.mem_mb);
	cJSON_AddStringToObject(ir, "path", c->initrd);
	cJSON_AddStringToObject(ir, "sha256", c->initrd_sha);
	cJSON_AddItemToObject(o, "initramfs", ir);
	cJSON_AddNumberToObject(o, "wall_s", c->qr.wall_s);
	cJSON_AddBoolToObject(o, "timed_out", c->qr.timed_out);
	cJSON_AddBoolToObject(o, "panic", c->qr.panic);
	if (c->qr.panic)
		cJSON_AddStringToObject(o, "panic_line", c->qr.panic_line);
	if (c->status)
		cJSON_AddItemReferenceToObject(o, "guest", c->status);
	cJSON_AddStringToObject(o, "tcg_threads", c->qp.tcg_single ||
				c->qp.clock.icount ? "single" : "multi");
	cJSON_AddItemToObject(o, "clock", lab_clock_json(&c->qp.clock));
	if (c->crashed)
		cJSON_AddItemToObject(o, "crash", lab_crash_json(&c->crash));
	cJSON_AddStringToObject(o, "console_log", "lab-console.log");
	return o;
}

/*
 * The lab's wall-clock limit ended the guest mid-run: the manifest that
 * came back (written after every repetition) keeps the repetitions that
 * completed and says why the rest are missing -- incomplete, never a
 * pass, whatever the guest last wrote.
 */
static void mark_cut(struct run_ctx *c, cJSON *m)
{
	char reason[512], where[200] = "";

	if (c->crash.scenario[0])
		rtpaths_fmt(where, sizeof(where), " during %s rep %u%s",
			    c->crash.scenario, c->crash.rep,
			    c->crash.step_ended ? " (right after it ended)" :
			    "");
	rtpaths_fmt(reason, sizeof(reason), "the lab's wall-clock limit "
		    "(--timeout %u s) ran out%s: QEMU was killed; the "
		    "repetitions that completed are kept, the console is in "
		    "lab-console.log", c->qp.timeout_s, where);
	cJSON_DeleteItemFromObject(m, "status");
	cJSON_AddStringToObject(m, "status", "incomplete");
	cJSON_DeleteItemFromObject(m, "status_reason");
	cJSON_AddStringToObject(m, "status_reason", reason);
	pr_err("lab: %s", reason);
}

/*
 * The guest's kernel messages (its /init saves them after the run: the
 * console heard only emergencies while the run was silent) beside the
 * console log.
 */
static void keep_kmsg(struct run_ctx *c)
{
	char from[PATH_MAX + 32], to[PATH_MAX + 32];

	rtpaths_fmt(from, sizeof(from), "%s/" LAB_GUEST_KMSG, c->share);
	rtpaths_fmt(to, sizeof(to), "%s/lab-kmsg.log", c->res->run_dir);
	if (fsio_exists(from) && fsio_copy(from, to))
		pr_warn("lab: cannot keep the guest's kernel messages in %s",
			to);
}

/* lab.json and the console log beside the manifest; manifest.lab. */
static int annotate(struct run_ctx *c)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	cJSON *lab = json_lab(c), *m, *ref;
	int ret;

	rtpaths_fmt(path, sizeof(path), "%s/lab.json", c->res->lab_dir);
	ret = json_write_file(path, lab);
	if (!c->res->run_dir[0])
		goto out;
	rtpaths_fmt(path, sizeof(path), "%s/lab.json", c->res->run_dir);
	ret = json_write_file(path, lab);
	rtpaths_fmt(path, sizeof(path), "%s/lab-console.log", c->res->run_dir);
	if (!ret)
		ret = fsio_copy(c->console, path);
	keep_kmsg(c);
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", c->res->run_dir);
	if (ret || json_read_file(path, &m, &err))
		goto out;
	ref = cJSON_CreateObject();
	cJSON_AddStringToObject(ref, "kernel", c->k.name);
	cJSON_AddStringToObject(ref, "origin", c->k.origin);
	cJSON_AddStringToObject(ref, "release", c->k.release);
	cJSON_AddBoolToObject(ref, "preempt_rt", c->k.preempt_rt);
	cJSON_AddStringToObject(ref, "accel", c->accel);
	cJSON_AddItemToObject(ref, "clock", lab_clock_json(&c->qp.clock));
	cJSON_AddStringToObject(ref, "details", "lab.json");
	cJSON_DeleteItemFromObject(m, "lab");
	cJSON_AddItemToObject(m, "lab", ref);
	if (c->qr.timed_out)
		mark_cut(c, m);
	ret = json_write_file(path, m);
	cJSON_Delete(m);
out:
	cJSON_Delete(lab);
	return ret;
}

/* What the boot says: the guest's exit code, or why there is none. */
static void judge(struct run_ctx *c)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	struct lab_run_result *res = c->res;

	rtpaths_fmt(path, sizeof(path), "%s/status.json", c->share);
	if (fsio_exists(path) && json_read_file(path, &c->status, &err))
		pr_err("%s", err.msg);
	if (!c->status) {
		if (c->qr.timed_out)
			pr_err("lab: %s did not finish within %u s; QEMU was "
			       "killed", c->k.name, c->qp.timeout_s);
		else if (c->qr.panic)
			pr_err("lab: %s: %s", c->k.name, c->qr.panic_line);
		else
			pr_err("lab: QEMU exited (status %d) before the guest "
			       "finished", c->qr.status);
		show_console_tail(c->console, 15);
		res->exit_code = EXITCODE_INCOMPLETE;
		return;
	}
	if (cJSON_GetObjectItem(c->status, "error")) {
		pr_err("lab: the guest says: %s",
		       json_get_str(c->status, "error", ""));
		res->exit_code = EXITCODE_ENVIRONMENT;
		return;
	}
	if (cJSON_GetObjectItem(c->status, "signal")) {
		pr_err("lab: the guest's command died of signal %d",
		       (int)json_get_num(c->status, "signal", 0));
		res->exit_code = EXITCODE_INCOMPLETE;
		return;
	}
	res->exit_code = (int)json_get_num(c->status, "exit",
					   EXITCODE_INCOMPLETE);
}

static time_t newest_output;

static int note_mtime(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)path;
	(void)type;
	(void)ftw;
	if (st->st_mtime > newest_output)
		newest_output = st->st_mtime;
	return 0;
}

/* Seconds since the guest last wrote to the console or the share, or -1. */
static long guest_silent_s(const struct run_ctx *c)
{
	struct stat st;

	newest_output = 0;
	if (!stat(c->console, &st))
		newest_output = st.st_mtime;
	nftw(c->share, note_mtime, 16, FTW_PHYS);
	return newest_output ? (long)(time(NULL) - newest_output) : -1;
}

/*
 * A crash (an oops, BUG or panic on the console, or a guest stopped at
 * the time limit) is a result: the run's exit is 5 whatever the guest
 * managed to say.
 */
static void crash_check(struct run_ctx *c)
{
	if (!lab_crash_read(c->console, c->qr.timed_out, &c->crash))
		return;
	lab_crash_last_sign(&c->crash, guest_silent_s(c));
	c->crashed = true;
	lab_crash_tunables(&c->crash, c->res->run_dir);
	c->res->crashed = true;
	c->res->exit_code = EXITCODE_INCOMPLETE;
	rtpaths_fmt(c->res->crash, sizeof(c->res->crash), "%s%s%s rep %u: %s",
		    c->crash.kind, c->crash.scenario[0] ? " in " : "",
		    c->crash.scenario[0] ? c->crash.scenario : " at boot",
		    c->crash.rep, c->crash.headline);
}

/* crash.json/txt, the reports' crash section and its JUnit testcase. */
static void crash_record(struct run_ctx *c)
{
	const char *dir = c->res->run_dir[0] ? c->res->run_dir :
			  c->res->lab_dir;
	int ret;

	ret = lab_crash_write(&c->crash, dir, c->k.name);
	if (ret)
		pr_err("%s: cannot write the crash record: %s", dir,
		       strerror(-ret));
	rtpaths_fmt(c->res->crash_dir, sizeof(c->res->crash_dir), "%s", dir);
	pr_err("lab: %s (%s) %s %s rep %u: %s",
	       strcmp(c->crash.kind, "timeout") ? "the guest crashed" :
	       "the guest was stopped", c->crash.kind,
	       c->crash.step_ended ? "right after" : "during",
	       c->crash.scenario[0] ? c->crash.scenario : "boot",
	       c->crash.rep, c->crash.headline);
	if (c->crash.tunables && cJSON_GetArraySize(c->crash.tunables)) {
		char *t = cJSON_PrintUnformatted(c->crash.tunables);

		pr_err("lab: that scenario's tunables: %s", t ? t : "");
		free(t);
	}
	pr_err("lab: the crash is in %s/crash.txt (and its junit.xml)", dir);
}

/*
 * The guest has no gnuplot: the reports are rendered again on the host,
 * plots and all, from the results that came back (same data, same
 * verdicts).
 */
/*
 * The reports, judged again on the host: the manifest now carries
 * manifest.lab, the clock the guest's runner could not know (in virtual
 * time a silent repetition's spike is the kernel's, not a host pause).
 * A guest that reached a verdict gets the host's exit code, so the exit
 * code and the reports tell one story.
 */
static void render_on_host(struct run_ctx *c)
{
	struct an_params ap;
	int code;

	if (!c->res->run_dir[0])
		return;
	an_params_init(&ap);
	ap.quiet = true;
	code = an_report_run(c->res->run_dir, &ap);
	if (c->res->exit_code > EXITCODE_INCONCLUSIVE ||
	    code == c->res->exit_code)
		return;
	pr_info("lab: the guest's runner said exit %d; judged with the lab's "
		"clock (manifest.lab) the reports say exit %d, which is the "
		"run's", c->res->exit_code, code);
	c->res->exit_code = code;
}

static int lab_dirs(struct run_ctx *c, char *lab_root, size_t len)
{
	char stamp[32];

	timefmt_compact(time(NULL), stamp, sizeof(stamp));
	if (rtpaths_fmt(lab_root, len, "%s/lab", c->p->out_dir) ||
	    rtpaths_fmt(c->res->lab_dir, sizeof(c->res->lab_dir),
			"%s/%s-%s%s%s-%d", lab_root, stamp, c->k.name,
			c->p->label ? "-" : "", c->p->label ? c->p->label : "",
			getpid()))
		return -ENAMETOOLONG;
	rtpaths_fmt(c->share, sizeof(c->share), "%s/share", c->res->lab_dir);
	rtpaths_fmt(c->console, sizeof(c->console), "%s/console.log",
		    c->res->lab_dir);
	return fsio_mkdir_p(c->res->lab_dir, 0755);
}

static int run_steps(struct run_ctx *c)
{
	char lab_root[PATH_MAX], clock[32];
	bool turns;
	int ret;

	/* The suite first: a bad one is said before any kernel is fetched. */
	ret = c->p->nr_exec ? 0 : find_suite(c);
	if (!ret)
		ret = pick_cpus(c);
	turns = c->p->clock.icount && c->cpus > 1;
	if (!ret)
		ret = lab_kernel_resolve(c->p->kernel, c->p->out_dir, &c->k);
	if (!ret)
		ret = lab_emulator_pick(&c->emu, turns);
	if (!ret)
		ret = make_initramfs(c);
	if (!ret)
		ret = lab_dirs(c, lab_root, sizeof(lab_root));
	if (!ret)
		ret = prepare_share(c);
	if (ret)
		return ret;
	lab_clock_guest_append(&c->p->clock, c->p->append, c->append,
			       sizeof(c->append));
	c->qp = (struct lab_qemu_params){
		.program = c->emu.program, .datadir = c->emu.datadir,
		.image = c->k.image, .initrd = c->initrd, .share = c->share,
		.append = c->append, .cpus = c->cpus,
		.mem_mb = c->p->mem_mb, .timeout_s = c->p->timeout_s,
		.console_log = c->console, .verbose = c->p->verbose,
	};
	c->qp.tcg_single = c->p->tcg_single;
	c->qp.clock = c->p->clock;
	/* turns exist only with several vCPUs under icount: quantum or warn */
	if (turns && c->emu.takes_quantum)
		c->qp.quantum_ns = LAB_QEMU_QUANTUM_NS;
	else if (turns)
		pr_warn("lab: %s takes no icount-quantum: with %d vCPUs under "
			"-icount a wake-up can wait out another vCPU's whole "
			"turn, hundreds of virtual us (docs/kernels.md, "
			"\"The lab's emulator\")", c->emu.program, c->cpus);
	pick_accel(c);
	c->qp.accel = c->accel;
	lab_clock_name(&c->qp.clock, clock, sizeof(clock));
	pr_info("lab: booting %s (%s%s) under %s (%s), clock %s, %d vCPU%s "
		"(%s); console: %s", c->k.name, c->k.release,
		c->k.preempt_rt ? ", PREEMPT_RT" : "",
		!strcmp(c->accel, "kvm") ? "KVM" : "TCG", c->accel_reason,
		clock, c->cpus, c->cpus == 1 ? "" : "s", c->cpus_from,
		c->console);
	ret = lab_qemu_boot(&c->qp, &c->qr);
	if (ret)
		return ret;
	judge(c);
	ret = bring_back(c);
	if (!ret)
		crash_check(c);
	if (!ret)
		ret = annotate(c);
	if (!ret)
		render_on_host(c);
	if (!ret && c->crashed)
		crash_record(c);
	pr_info("lab: %s ran %.1f s under %s; exit %d%s%s", c->k.name,
		c->qr.wall_s, !strcmp(c->accel, "kvm") ? "KVM" : "TCG",
		c->res->exit_code, c->res->run_dir[0] ? "; results: " : "",
		c->res->run_dir);
	return ret;
}

int lab_initramfs(const struct lab_run_params *p, char *path, size_t len)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->p = p;
	c->carry_suite = true;
	ret = lab_kernel_resolve(p->kernel, p->out_dir, &c->k);
	if (!ret && p->suite)
		ret = find_suite(c);
	if (!ret)
		ret = make_initramfs(c);
	if (!ret)
		ret = rtpaths_fmt(path, len, "%s", c->initrd);
	free(c);
	return ret;
}

static int lab_run_once(const struct lab_run_params *p,
			struct lab_run_result *res)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	memset(res, 0, sizeof(*res));
	res->exit_code = EXITCODE_INCOMPLETE;
	c->p = p;
	c->res = res;
	ret = run_steps(c);
	cJSON_Delete(c->status);
	lab_crash_free(&c->crash);
	free(c);
	return ret;
}

/* The first boot's crash and the re-run's answer, in both records. */
static void note_rerun(const struct lab_run_result *first,
		       const struct lab_run_result *again)
{
	char path[PATH_MAX + 32], verdict[256];
	struct json_error err;
	cJSON *j, *r;

	rtpaths_fmt(verdict, sizeof(verdict), again->crashed ?
		    "crashed again under single-threaded TCG: reproducible, "
		    "a kernel bug rather than a TCG artefact" :
		    "no crash under single-threaded TCG: likely an artefact "
		    "of multi-threaded TCG (e.g. code patching racing vCPU "
		    "threads), not of the kernel under test");
	pr_info("lab: re-run: %s", verdict);
	rtpaths_fmt(path, sizeof(path), "%s/crash.json", first->crash_dir);
	if (!json_read_file(path, &j, &err)) {
		r = cJSON_AddObjectToObject(j, "rerun");
		cJSON_AddStringToObject(r, "accel", "tcg,thread=single");
		cJSON_AddBoolToObject(r, "crashed", again->crashed);
		cJSON_AddNumberToObject(r, "exit", again->exit_code);
		cJSON_AddStringToObject(r, "results", again->run_dir);
		cJSON_AddStringToObject(r, "verdict", verdict);
		json_write_file(path, j);
		cJSON_Delete(j);
	}
	if (!again->run_dir[0])
		return;
	rtpaths_fmt(path, sizeof(path), "%s/lab.json", again->run_dir);
	if (!json_read_file(path, &j, &err)) {
		r = cJSON_AddObjectToObject(j, "first_boot");
		cJSON_AddStringToObject(r, "crash", first->crash);
		cJSON_AddStringToObject(r, "crash_record", first->crash_dir);
		cJSON_AddStringToObject(r, "verdict", verdict);
		json_write_file(path, j);
		cJSON_Delete(j);
	}
}

int lab_run(const struct lab_run_params *p, struct lab_run_result *res)
{
	struct lab_run_params single;
	struct lab_run_result *again;
	int ret;

	ret = lab_run_once(p, res);
	if (ret || !res->crashed || !p->rerun_on_crash || p->tcg_single ||
	    p->clock.icount)
		return ret;
	again = calloc(1, sizeof(*again));
	if (!again)
		return -ENOMEM;
	single = *p;
	single.tcg_single = true;
	single.label = "rerun";
	pr_info("lab: the guest crashed under multi-threaded TCG; booting "
		"it again with -accel tcg,thread=single");
	ret = lab_run_once(&single, again);
	if (!ret) {
		bool crashed_again = again->crashed;

		note_rerun(res, again);
		again->rerun = true;
		again->rerun_crashed = crashed_again;
		again->crashed = true;
		if (!crashed_again) {
			rtpaths_fmt(again->crash, sizeof(again->crash), "%s",
				    res->crash);
			rtpaths_fmt(again->crash_dir, sizeof(again->crash_dir),
				    "%s", res->crash_dir);
		}
		*res = *again;
	}
	free(again);
	return ret;
}
