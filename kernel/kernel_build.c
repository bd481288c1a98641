// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate kernel build` (kernel.h): a tree, a preemption model, patch sets
 * and fragments into a named kernel under out/kernels/NAME/ with its
 * .config and build.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "filehash.h"
#include "fsio.h"
#include "jsonio.h"
#include "kconfig.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "timefmt.h"
#include "toolrun.h"

const char *const kernel_default_fragments[] = { "qemu-guest", "tracing",
						  NULL };

struct build_ctx {
	const struct kernel_build_params *p;
	struct kernel_tree tree;
	struct kernel_patch_set *sets;		/* nr_sets of them */
	struct kernel_config_params kc;
	char name[64];
	char kdir[PATH_MAX];
	char src[PATH_MAX + 8];
	char obj[PATH_MAX + 8];
	char release[128];
	char compiler[256];
	bool ccache;
	time_t start, end;
	/* progress */
	long objects;
	time_t last_report;
};

void kernel_build_name(const struct kernel_build_params *p, char *buf,
		       size_t len)
{
	size_t n;
	int i;

	if (p->name) {
		rtpaths_fmt(buf, len, "%s", p->name);
		return;
	}
	n = snprintf(buf, len, "%s-%s", p->model, p->nr_sets ? "" : "base");
	for (i = 0; i < p->nr_sets && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "+" : "",
			      p->sets[i]);
	if (p->nr_sets && p->last_set_prefix > 0 && n < len)
		snprintf(buf + n, len - n, ".%d", p->last_set_prefix);
}

static bool valid_kernel_name(const char *s)
{
	if (!*s || *s == '.' || *s == '-' || strlen(s) > 48)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *s))
			return false;
	return true;
}

static int prepare_sources(struct build_ctx *c)
{
	char log[PATH_MAX + 16];
	int i, ret;

	pr_info("[%s] cloning %s (hard links) ...", c->name, c->tree.path);
	ret = kernel_tree_clone(&c->tree, c->src);
	if (ret)
		return ret;
	rtpaths_fmt(log, sizeof(log), "%s/patches.log", c->kdir);
	unlink(log);
	for (i = 0; i < c->p->nr_sets; i++) {
		struct kernel_patch_set *s = &c->sets[i];

		pr_info("[%s] applying %s (%d patch%s)", c->name, s->name,
			s->nr, s->nr == 1 ? "" : "es");
		ret = kernel_patchset_apply(s, c->src, log);
		if (ret)
			return ret;
	}
	return 0;
}

static int load_sets(struct build_ctx *c)
{
	char fetch_dir[PATH_MAX];
	int i, ret;

	rtpaths_fmt(fetch_dir, sizeof(fetch_dir), "%s/patches", c->p->out_dir);
	c->sets = calloc(c->p->nr_sets ? c->p->nr_sets : 1, sizeof(*c->sets));
	if (!c->sets)
		return -ENOMEM;
	for (i = 0; i < c->p->nr_sets; i++) {
		ret = kernel_patchset_open(c->p->patches_dir, c->p->sets[i],
					   fetch_dir, &c->sets[i]);
		if (ret)
			return ret;
	}
	if (c->p->nr_sets && c->p->last_set_prefix > 0) {
		struct kernel_patch_set *s = &c->sets[c->p->nr_sets - 1];

		if (c->p->last_set_prefix > s->nr) {
			pr_err("patch set '%s' has %d patches: no prefix of %d "
			       "(--prefix)", s->name, s->nr,
			       c->p->last_set_prefix);
			return -EINVAL;
		}
		s->nr = c->p->last_set_prefix;
	}
	return 0;
}

static int configure(struct build_ctx *c)
{
	const char *model_frag = kernel_config_model_fragment(c->p->model);
	struct kernel_config_params *kc = &c->kc;
	int i, ret;

	if (!model_frag) {
		pr_err("unknown model '%s' (rt, full, lazy, none)",
		       c->p->model);
		return -EINVAL;
	}
	kc->tree = &c->tree;
	kc->src = c->src;
	kc->obj = c->obj;
	kc->kconfigs_dir = c->p->kconfigs_dir;
	for (i = 0; kernel_default_fragments[i]; i++)
		kc->fragments[kc->nr_fragments++] = kernel_default_fragments[i];
	for (i = 0; i < c->p->nr_fragments; i++)
		kc->fragments[kc->nr_fragments++] = c->p->fragments[i];
	/* The model's fragment last: it decides the preemption model. */
	kc->fragments[kc->nr_fragments++] = model_frag;
	pr_info("[%s] config: x86_64_defconfig + kvm_guest.config + "
		"%s%s%s%s", c->name, "qemu-guest, tracing",
		c->p->nr_fragments ? ", ..." : "", ", ", model_frag);
	ret = kernel_config_make(kc);
	if (!ret) {
		char path[PATH_MAX + 16], flavour[64];

		rtpaths_fmt(path, sizeof(path), "%s/.config", c->obj);
		if (!kernel_config_preempt(path, flavour, sizeof(flavour)))
			pr_info("[%s] preemption (from the .config): %s",
				c->name, flavour);
	}
	return ret;
}

static void on_build_line(const char *line, void *arg)
{
	struct build_ctx *c = arg;
	time_t now = time(NULL);

	if (!strncmp(line, "  CC ", 5) || !strncmp(line, "  AS ", 5))
		c->objects++;
	if (strstr(line, "error:") || strstr(line, "Error "))
		fprintf(stderr, "%s\n", line);
	if (now - c->last_report < 30)
		return;
	c->last_report = now;
	pr_info("[%s] building: %ld objects, %ldm%02lds", c->name, c->objects,
		(long)(now - c->start) / 60, (long)(now - c->start) % 60);
}

static void detect_compiler(struct build_ctx *c)
{
	char *argv[] = { "gcc", "--version", NULL };
	char *out = NULL;
	struct toolrun r = { .argv = argv, .capture = &out };
	int status;

	c->ccache = toolrun_have("ccache");
	if (!toolrun(&r, &status) && !status && out) {
		out[strcspn(out, "\n")] = '\0';
		rtpaths_fmt(c->compiler, sizeof(c->compiler), "%s", out);
	}
	free(out);
}

static int run_make(struct build_ctx *c)
{
	char objarg[PATH_MAX + 16], jobs[32], lv[96], log[PATH_MAX + 16];
	char ccdir[PATH_MAX + 32], ccbase[PATH_MAX + 32];
	/* sized for the longest out/ and NAME paths */
	char *argv[] = { "make", objarg, jobs, lv, "bzImage",
			 c->ccache ? "CC=ccache gcc" : NULL, NULL };
	char *env[] = { ccdir, ccbase, "CCACHE_NOHASHDIR=1",
			"KBUILD_BUILD_USER=rtgate", "KBUILD_BUILD_HOST=rtgate",
			NULL };
	struct toolrun r = {
		.argv = argv, .cwd = c->src, .env = env, .out_path = log,
		.on_line = on_build_line, .arg = c, .nice = c->p->nice,
	};
	int ret, status, n = c->p->jobs;

	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	rtpaths_fmt(objarg, sizeof(objarg), "O=%s", c->obj);
	rtpaths_fmt(jobs, sizeof(jobs), "-j%d", n);
	rtpaths_fmt(lv, sizeof(lv), "LOCALVERSION=-%s", c->name);
	rtpaths_fmt(log, sizeof(log), "%s/build.log", c->kdir);
	rtpaths_fmt(ccdir, sizeof(ccdir), "CCACHE_DIR=%s/ccache",
		 c->p->cache_dir);
	/* Relative paths under NAME/ make every kernel's objects alike. */
	rtpaths_fmt(ccbase, sizeof(ccbase), "CCACHE_BASEDIR=%s", c->kdir);
	pr_info("[%s] make -j%d bzImage (nice %d%s; log: %s)", c->name, n,
		c->p->nice, c->ccache ? ", ccache" : "", log);
	c->last_report = time(NULL);
	ret = toolrun(&r, &status);
	if (ret == -EINTR)
		pr_err("[%s] build interrupted", c->name);
	else if (!ret && status) {
		pr_err("[%s] make failed (exit %d); full log: %s", c->name,
		       status, log);
		ret = -EIO;
	}
	return ret;
}

static int collect(struct build_ctx *c)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 16], *buf;
	size_t len;
	int ret;

	rtpaths_fmt(from, sizeof(from), "%s/include/config/kernel.release",
		 c->obj);
	ret = fsio_read_str(from, c->release, sizeof(c->release));
	if (ret)
		return ret;
	rtpaths_fmt(from, sizeof(from), "%s/arch/x86/boot/bzImage", c->obj);
	rtpaths_fmt(to, sizeof(to), "%s/bzImage", c->kdir);
	ret = fsio_read_all(from, &buf, &len);
	if (!ret) {
		ret = fsio_write_atomic(to, buf, len);
		free(buf);
	}
	return ret;
}

static cJSON *json_patches(const struct build_ctx *c)
{
	cJSON *arr = cJSON_CreateArray();
	int i, k;

	for (i = 0; i < c->p->nr_sets; i++) {
		const struct kernel_patch_set *s = &c->sets[i];
		cJSON *o = cJSON_CreateObject(), *files = cJSON_CreateArray();

		cJSON_AddStringToObject(o, "set", s->name);
		cJSON_AddBoolToObject(o, "own", s->own);
		if (s->message_id[0])
			cJSON_AddStringToObject(o, "message_id", s->message_id);
		if (s->base[0])
			cJSON_AddStringToObject(o, "base", s->base);
		for (k = 0; k < s->nr; k++) {
			cJSON *f = cJSON_CreateObject();
			const char *b = strrchr(s->items[k].file, '/');

			cJSON_AddStringToObject(f, "file", b ? b + 1 :
						s->items[k].file);
			cJSON_AddStringToObject(f, "subject",
						s->items[k].subject);
			cJSON_AddStringToObject(f, "sha256",
						s->items[k].actual);
			if (s->items[k].set[0])
				cJSON_AddStringToObject(f, "set",
							s->items[k].set);
			cJSON_AddItemToArray(files, f);
		}
		cJSON_AddItemToObject(o, "patches", files);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *json_source(const struct build_ctx *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "origin", c->tree.origin);
	cJSON_AddStringToObject(o, "path", c->tree.path);
	cJSON_AddStringToObject(o, "version", c->tree.version);
	if (c->tree.package[0]) {
		cJSON_AddStringToObject(o, "package", c->tree.package);
		cJSON_AddStringToObject(o, "package_version",
					c->tree.package_version);
		cJSON_AddStringToObject(o, "package_via", c->tree.via);
	}
	if (c->tree.commit[0])
		cJSON_AddStringToObject(o, "commit", c->tree.commit);
	return o;
}

static int write_manifest(struct build_ctx *c, const char *status)
{
	char path[PATH_MAX + 16], t[32], hex[FILEHASH_HEX_LEN + 1];
	cJSON *o = cJSON_CreateObject(), *frags = cJSON_CreateArray();
	struct kconfig kc;
	int i, ret;

	cJSON_AddStringToObject(o, "schema", "rtgate-kernel-build/1");
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddStringToObject(o, "model", c->p->model);
	rtpaths_fmt(path, sizeof(path), "%s/.config", c->obj);
	if (!kconfig_load_file(&kc, path)) {
		char flavour[64];

		cJSON_AddBoolToObject(o, "preempt_rt",
				      kconfig_is_y(&kc, "PREEMPT_RT"));
		kconfig_free(&kc);
		if (!kernel_config_preempt(path, flavour, sizeof(flavour)))
			cJSON_AddStringToObject(o, "preempt", flavour);
	}
	if (c->release[0])
		cJSON_AddStringToObject(o, "release", c->release);
	cJSON_AddItemToObject(o, "source", json_source(c));
	for (i = 0; i < c->kc.nr_fragments; i++)
		cJSON_AddItemToArray(frags,
				     cJSON_CreateString(c->kc.fragments[i]));
	cJSON_AddItemToObject(o, "fragments", frags);
	cJSON_AddStringToObject(o, "defconfig", "x86_64_defconfig");
	cJSON_AddItemToObject(o, "patches", json_patches(c));
	if (c->compiler[0])
		cJSON_AddStringToObject(o, "compiler", c->compiler);
	cJSON_AddBoolToObject(o, "ccache", c->ccache);
	timefmt_iso8601(c->start, t, sizeof(t));
	cJSON_AddStringToObject(o, "start_time", t);
	if (c->end) {
		timefmt_iso8601(c->end, t, sizeof(t));
		cJSON_AddStringToObject(o, "end_time", t);
		cJSON_AddNumberToObject(o, "duration_s",
					(double)(c->end - c->start));
	}
	rtpaths_fmt(path, sizeof(path), "%s/.config", c->kdir);
	if (fsio_exists(path) && !filehash_sha256(path, hex))
		cJSON_AddStringToObject(o, "config_sha256", hex);
	rtpaths_fmt(path, sizeof(path), "%s/bzImage", c->kdir);
	if (fsio_exists(path) && !filehash_sha256(path, hex))
		cJSON_AddStringToObject(o, "bzimage_sha256", hex);
	rtpaths_fmt(path, sizeof(path), "%s/build.json", c->kdir);
	ret = json_write_file(path, o);
	cJSON_Delete(o);
	return ret;
}

static int copy_config(struct build_ctx *c)
{
	char from[PATH_MAX + 16], to[PATH_MAX + 16];

	rtpaths_fmt(from, sizeof(from), "%s/.config", c->obj);
	rtpaths_fmt(to, sizeof(to), "%s/.config", c->kdir);
	return fsio_copy(from, to);
}

static int build_steps(struct build_ctx *c)
{
	char path[PATH_MAX + 16];
	int ret;

	ret = load_sets(c);
	/* A config alone never writes to the tree: no clone needed. */
	if (!ret && c->p->config_only && !c->p->nr_sets)
		rtpaths_fmt(c->src, sizeof(c->src), "%s", c->tree.path);
	else if (!ret)
		ret = prepare_sources(c);
	if (!ret)
		ret = configure(c);
	if (!ret)
		ret = copy_config(c);
	if (ret || c->p->config_only)
		return ret;
	/* Stale results of an earlier build must not pass for this one. */
	rtpaths_fmt(path, sizeof(path), "%s/bzImage", c->kdir);
	unlink(path);
	detect_compiler(c);
	write_manifest(c, "building");
	ret = run_make(c);
	if (!ret)
		ret = collect(c);
	return ret;
}

int kernel_build(const struct kernel_build_params *p, char *kdir, size_t len)
{
	struct build_ctx *c = calloc(1, sizeof(*c));
	char lock[PATH_MAX + 16];
	int ret, lock_fd = -1;

	if (!c)
		return -ENOMEM;
	c->p = p;
	c->start = time(NULL);
	kernel_build_name(p, c->name, sizeof(c->name));
	if (!valid_kernel_name(c->name)) {
		pr_err("'%s' is not a kernel name (letters, digits, ._+-, at "
		       "most 48)", c->name);
		ret = -EINVAL;
		goto out;
	}
	rtpaths_fmt(c->kdir, sizeof(c->kdir), "%s/kernels/%s", p->out_dir,
		 c->name);
	rtpaths_fmt(c->src, sizeof(c->src), "%s/src", c->kdir);
	rtpaths_fmt(c->obj, sizeof(c->obj), "%s/obj", c->kdir);
	rtpaths_fmt(kdir, len, "%s", c->kdir);
	ret = kernel_tree_open(p->src, p->debian, p->cache_dir, &c->tree);
	if (!ret)
		ret = fsio_mkdir_p(c->obj, 0755);
	if (ret)
		goto out;
	/* Two builds of one NAME would clone and make into each other. */
	rtpaths_fmt(lock, sizeof(lock), "%s/.build.lock", c->kdir);
	lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB)) {
		pr_err("[%s] another build of this kernel is running (%s): "
		       "wait for it, or give another --name", c->name, lock);
		ret = -EBUSY;
		goto out;
	}
	ret = build_steps(c);
	c->end = time(NULL);
	write_manifest(c, ret ? "failed" : p->config_only ? "configured" :
		       "built");
	if (!ret && !p->config_only)
		pr_info("[%s] built %s in %ldm%02lds: %s/bzImage", c->name,
			c->release, (long)(c->end - c->start) / 60,
			(long)(c->end - c->start) % 60, c->kdir);
out:
	if (lock_fd >= 0)
		close(lock_fd);
	free(c->sets);
	free(c);
	return ret;
}
