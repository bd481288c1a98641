// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lab's initramfs (lab.h): rtgate, its workloads, cyclictest, rtla and
 * their libraries, the suites and the guest's /init, cached by content.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

/*
 * rtla: timerlat suites measure with it (its libraries are rtgate's). A
 * tool rtgate built (out/tools/NAME, `rtgate kernel tools`) goes to
 * /opt/rtgate/tools/NAME, beside the one in PATH (when there is one).
 */
const char *const lab_initramfs_default_tools[] = { "cyclictest", "hackbench",
						"rtla", NULL };

enum ir_type { IR_FILE, IR_LINK, IR_DIR, IR_DATA };

struct ir_entry {
	enum ir_type type;
	char guest[PATH_MAX];		/* absolute path in the guest */
	char host[PATH_MAX];		/* IR_FILE: the file to copy */
	char *data;			/* IR_DATA: content; IR_LINK: target */
	mode_t mode;
	char sha[FILEHASH_HEX_LEN + 1];
};

struct ir_list {
	struct ir_entry *v;
	int n, cap;
};

static struct ir_entry *ir_add(struct ir_list *l, enum ir_type type,
			       const char *guest, const char *host_or_data,
			       mode_t mode)
{
	struct ir_entry *e;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].guest, guest))
			return &l->v[i];	/* first one wins */
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct ir_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	e = &l->v[l->n++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->mode = mode;
	rtpaths_fmt(e->guest, sizeof(e->guest), "%s", guest);
	if (type == IR_FILE)
		rtpaths_fmt(e->host, sizeof(e->host), "%s", host_or_data);
	else if (host_or_data)
		e->data = strdup(host_or_data);
	return e;
}

static void ir_free(struct ir_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].data);
	free(l->v);
}

static int add_host_file(struct ir_list *l, const char *guest,
			 const char *host)
{
	struct stat st;

	if (stat(host, &st) || !S_ISREG(st.st_mode)) {
		pr_err("%s: %s", host, strerror(errno ? errno : EINVAL));
		return -ENOENT;
	}
	return ir_add(l, IR_FILE, guest, host, st.st_mode & 07777) ? 0 :
	       -ENOMEM;
}

/*
 * glibc dlopen()s libgcc_s.so.1 from libc's directory when a thread
 * exits or is cancelled, and aborts without it ("libgcc_s.so.1 must be
 * installed for pthread_exit to work": the 7.3 tree's rtla in the lab).
 * ldd does not list it, so it goes in beside libc.so.6.
 */
static int add_libgcc_s(struct ir_list *l, const char *lib)
{
	const char *base = strrchr(lib, '/');
	char path[PATH_MAX];

	if (!base || strcmp(base, "/libc.so.6"))
		return 0;
	if (rtpaths_fmt(path, sizeof(path), "%.*s/libgcc_s.so.1",
			(int)(base - lib), lib) || access(path, R_OK))
		return 0;
	return add_host_file(l, path, path);
}

/* The libraries ldd lists for one binary, at the same paths. */
static int add_libraries(struct ir_list *l, const char *binary)
{
	char *argv[] = { "ldd", (char *)binary, NULL }, *out = NULL;
	struct toolrun r = { .argv = argv, .capture = &out };
	char *line, *save, *p;
	int ret, status;

	ret = toolrun(&r, &status);
	if (ret == -ENOENT) {
		pr_err("ldd is not installed");
		return -ENOPKG;
	}
	if (ret || status) {		/* static: "not a dynamic executable" */
		free(out);
		return ret;
	}
	for (line = strtok_r(out, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX];

		if (strstr(line, "not found")) {
			pr_err("%s: library missing: %s", binary, line);
			ret = -ENOPKG;
			break;
		}
		p = strstr(line, "=> ");
		p = p ? p + 3 : line + strspn(line, " \t");
		if (*p != '/' || sscanf(p, "%4095s", path) != 1)
			continue;
		ret = add_host_file(l, path, path);
		if (!ret)
			ret = add_libgcc_s(l, path);
	}
	free(out);
	return ret;
}

/* A program found in PATH goes to the same path in the guest. */
static int find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	for (p = path ? path : "/usr/bin:/bin"; *p; p = end + 1) {
		end = strchrnul(p, ':');
		if (!rtpaths_fmt(buf, len, "%.*s/%s", (int)(end - p), p, name) &&
		    !access(buf, X_OK))
			return 0;
		if (!*end)
			break;
	}
	return -ENOENT;
}

bool lab_initramfs_have_tool(const char *name)
{
	char path[PATH_MAX];

	return !rtpaths_tool(path, sizeof(path), name) ||
	       !find_in_path(name, path, sizeof(path));
}

static int add_program(struct ir_list *l, const char *guest,
		       const char *host)
{
	int ret = add_host_file(l, guest, host);

	return ret ? ret : add_libraries(l, host);
}

static int add_dir_files(struct ir_list *l, const char *dir,
			 const char *guest_dir, const char *suffix,
			 bool programs)
{
	struct dirent **names;
	char host[PATH_MAX], guest[PATH_MAX];
	int i, n, ret = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		pr_err("%s: %s", dir, strerror(errno));
		return -errno;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name), sl = strlen(suffix);
		struct stat st;

		if (ret || name[0] == '.' || len < sl ||
		    strcmp(name + len - sl, suffix))
			goto next;
		rtpaths_fmt(host, sizeof(host), "%s/%s", dir, name);
		rtpaths_fmt(guest, sizeof(guest), "%s/%s", guest_dir, name);
		if (stat(host, &st) || !S_ISREG(st.st_mode))
			goto next;
		if (programs && !(st.st_mode & S_IXUSR))
			goto next;
		ret = programs ? add_program(l, guest, host) :
				 add_host_file(l, guest, host);
next:
		free(names[i]);
	}
	free(names);
	return ret;
}

static int add_modules(struct ir_list *l, const struct lab_kernel *k)
{
	char list[LAB_MAX_MODULES * 200] = "", guest[PATH_MAX];
	size_t len = 0;
	int i, ret;

	for (i = 0; i < k->nr_modules; i++) {
		const char *rel = strstr(k->modules[i], "/lib/modules/");

		if (!rel)
			return -EINVAL;
		rtpaths_fmt(guest, sizeof(guest), "%s", rel);
		ret = add_host_file(l, guest, k->modules[i]);
		if (ret)
			return ret;
		len += snprintf(list + len, sizeof(list) - len, "%s\n", guest);
	}
	return ir_add(l, IR_DATA, LAB_GUEST_MODULES, list, 0644) ? 0 : -ENOMEM;
}

static int gather(const struct lab_initramfs_params *p, struct ir_list *l)
{
	static const char *const dirs[] = { "/dev", "/proc", "/sys", "/tmp",
					    "/run", "/root", "/lab", "/mnt",
					    NULL };
	char path[PATH_MAX], guest[PATH_MAX];
	int i, ret;

	ret = add_dir_files(l, p->bin_dir, LAB_GUEST_BIN, "", true);
	if (!ret && p->suites_dir)
		ret = add_dir_files(l, p->suites_dir, LAB_GUEST_SUITES,
				    ".suite", false);
	if (!ret && p->suite) {
		const char *base = strrchr(p->suite, '/');

		rtpaths_fmt(guest, sizeof(guest), "%s/%s", LAB_GUEST_SUITES,
			    base ? base + 1 : p->suite);
		ret = add_host_file(l, guest, p->suite);
	}
	for (i = 0; !ret && i < p->nr_tools; i++) {
		/* A path: the program goes to the same path in the guest. */
		if (strchr(p->tools[i], '/')) {
			if (!realpath(p->tools[i], path) ||
			    access(path, X_OK)) {
				pr_err("--with %s: %s", p->tools[i],
				       errno == ENOENT ? "no such file" :
				       "not an executable file");
				return -EINVAL;
			}
			ret = add_program(l, path, path);
			continue;
		}
		/*
		 * rtgate's own build goes beside the guest's rtgate, where
		 * rtpaths_tool() finds it; the one in PATH too, if any.
		 */
		if (!rtpaths_tool(path, sizeof(path), p->tools[i])) {
			rtpaths_fmt(guest, sizeof(guest), "%s/%s",
				    LAB_GUEST_TOOLS, p->tools[i]);
			ret = add_program(l, guest, path);
			if (ret || find_in_path(p->tools[i], path,
						sizeof(path)))
				continue;
			ret = add_program(l, path, path);
			continue;
		}
		if (find_in_path(p->tools[i], path, sizeof(path))) {
			pr_err("%s is not installed; the lab's guest needs it",
			       p->tools[i]);
			return -ENOPKG;
		}
		ret = add_program(l, path, path);
	}
	if (!ret && find_in_path("busybox", path, sizeof(path))) {
		pr_err("busybox is not installed (apt-get install "
		       "busybox-static)");
		return -ENOPKG;
	}
	if (!ret)
		ret = add_program(l, "/bin/busybox", path);
	if (!ret && !ir_add(l, IR_LINK, "/bin/sh", "busybox", 0777))
		ret = -ENOMEM;
	if (!ret)
		ret = add_modules(l, p->k);
	rtpaths_fmt(guest, sizeof(guest), "/boot/config-%s", p->k->release);
	if (!ret)
		ret = add_host_file(l, guest, p->k->config);
	if (!ret && (!ir_add(l, IR_LINK, "/init", LAB_GUEST_BIN "/rtgate",
			     0777) ||
		     !ir_add(l, IR_DATA, "/etc/passwd",
			     "root:x:0:0:root:/root:/bin/sh\n", 0644) ||
		     !ir_add(l, IR_DATA, "/etc/group", "root:x:0:\n", 0644)))
		ret = -ENOMEM;
	for (i = 0; !ret && dirs[i]; i++)
		if (!ir_add(l, IR_DIR, dirs[i], NULL, 0755))
			ret = -ENOMEM;
	return ret;
}

/* The content key: every entry's path, mode and content hash. */
static int content_key(struct ir_list *l, char *key)
{
	const char **paths = calloc(l->n + 1, sizeof(*paths));
	char **hex = calloc(l->n + 1, sizeof(*hex));
	char *text = NULL;
	size_t len = 0;
	int i, n = 0, ret;
	FILE *f;

	f = paths && hex ? open_memstream(&text, &len) : NULL;
	if (!f) {
		free(paths);
		free(hex);
		return -ENOMEM;
	}
	for (i = 0; i < l->n; i++)
		if (l->v[i].type == IR_FILE) {
			paths[n] = l->v[i].host;
			hex[n++] = l->v[i].sha;
		}
	ret = filehash_sha256_many(paths, n, hex);
	fprintf(f, "rtgate-initramfs/1 %s\n", RTGATE_VERSION);
	for (i = 0; i < l->n; i++)
		fprintf(f, "%d %s %o %s %s\n", l->v[i].type, l->v[i].guest,
			l->v[i].mode, l->v[i].sha,
			l->v[i].data ? l->v[i].data : "");
	fclose(f);
	if (!ret)
		ret = filehash_sha256_buf(text, len, key);
	free(text);
	free(paths);
	free(hex);
	return ret;
}

static int mkparent(const char *path)
{
	char buf[PATH_MAX];
	char *slash;

	rtpaths_fmt(buf, sizeof(buf), "%s", path);
	slash = strrchr(buf, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return fsio_mkdir_p(buf, 0755);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	int ret = fsio_copy(from, to);

	if (!ret && chmod(to, mode))
		ret = -errno;
	return ret;
}

static int stage(struct ir_list *l, const char *dir)
{
	char path[2 * PATH_MAX];
	int i, ret = 0;

	for (i = 0; i < l->n && !ret; i++) {
		const struct ir_entry *e = &l->v[i];

		rtpaths_fmt(path, sizeof(path), "%s%s", dir, e->guest);
		ret = mkparent(path);
		if (ret)
			break;
		switch (e->type) {
		case IR_FILE:
			ret = copy_file(e->host, path, e->mode);
			break;
		case IR_DATA:
			ret = fsio_write_atomic(path, e->data,
						strlen(e->data));
			break;
		case IR_LINK:
			ret = symlink(e->data, path) ? -errno : 0;
			break;
		case IR_DIR:
			ret = fsio_mkdir_p(path, e->mode);
			break;
		}
		if (ret)
			pr_err("initramfs: %s: %s", e->guest, strerror(-ret));
	}
	/* Only root can make the node; lab-init copes without it. */
	rtpaths_fmt(path, sizeof(path), "%s/dev/console", dir);
	if (!ret && mknod(path, S_IFCHR | 0600, makedev(5, 1)))
		pr_debug("initramfs: no /dev/console node: %s",
			 strerror(errno));
	return ret;
}

static FILE *list_out;
static size_t list_skip;

static int list_entry(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (strlen(path) > list_skip)
		fprintf(list_out, "%s\n", path + list_skip);
	return 0;
}

/* busybox cpio -o -H newc, names read from a list of the staged tree. */
static int archive(const char *stage_dir, const char *out)
{
	char list[PATH_MAX + 8], log[PATH_MAX + 8];
	char *argv[] = { "busybox", "cpio", "-o", "-H", "newc", NULL };
	struct toolrun r = { .argv = argv, .cwd = stage_dir, .in_path = list,
			     .stdout_path = out, .out_path = log };
	int ret, status;

	rtpaths_fmt(list, sizeof(list), "%s.list", stage_dir);
	rtpaths_fmt(log, sizeof(log), "%s.log", stage_dir);
	list_out = fopen(list, "w");
	if (!list_out)
		return -errno;
	list_skip = strlen(stage_dir) + 1;
	ret = nftw(stage_dir, list_entry, 32, FTW_PHYS) ? -EIO : 0;
	fclose(list_out);
	if (!ret)
		ret = toolrun(&r, &status);
	if (!ret && status) {
		pr_err("busybox cpio failed (exit %d; log: %s)", status, log);
		ret = -EIO;
	}
	unlink(list);
	if (!ret)
		unlink(log);
	return ret;
}

#define INITRAMFS_KEEP 8

struct cached {
	char path[PATH_MAX];
	time_t mtime;
};

static int newest_first(const void *a, const void *b)
{
	time_t x = ((const struct cached *)a)->mtime;
	time_t y = ((const struct cached *)b)->mtime;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Keeps the INITRAMFS_KEEP images used last (a cache hit touches one). */
static void prune_cache(const char *dir)
{
	struct dirent **names;
	struct cached *v;
	int i, n, k = 0;

	n = scandir(dir, &names, NULL, NULL);
	if (n < 0)
		return;
	v = calloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		struct stat st;

		if (v && len > 5 && !strcmp(name + len - 5, ".cpio") &&
		    !rtpaths_fmt(v[k].path, PATH_MAX, "%s/%s", dir, name) &&
		    !stat(v[k].path, &st))
			v[k++].mtime = st.st_mtime;
		free(names[i]);
	}
	free(names);
	if (v)
		qsort(v, k, sizeof(*v), newest_first);
	for (i = INITRAMFS_KEEP; v && i < k; i++)
		unlink(v[i].path);
	free(v);
}

int lab_initramfs_build(const struct lab_initramfs_params *p, char *path,
			size_t len, char hash[FILEHASH_HEX_LEN + 1])
{
	char stage_dir[PATH_MAX], tmp[PATH_MAX];
	char *rm[] = { "rm", "-rf", stage_dir, NULL };
	struct ir_list l = { 0 };
	int ret, status;

	ret = gather(p, &l);
	if (!ret)
		ret = content_key(&l, hash);
	if (ret)
		goto out;
	ret = rtpaths_fmt(path, len, "%s/%s.cpio", p->cache_dir, hash);
	if (ret)
		goto out;
	if (fsio_exists(path)) {
		/* The same content was built before: mark it used. */
		utimes(path, NULL);
		goto out;
	}
	ret = fsio_mkdir_p(p->cache_dir, 0755);
	rtpaths_fmt(stage_dir, sizeof(stage_dir), "%s/stage.%d", p->cache_dir,
		    getpid());
	rtpaths_fmt(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid());
	if (!ret)
		ret = stage(&l, stage_dir);
	if (!ret)
		ret = archive(stage_dir, tmp);
	if (!ret && rename(tmp, path))
		ret = -errno;
	unlink(tmp);
	toolrun_simple(rm, NULL, NULL, &status);
	if (!ret) {
		pr_info("initramfs: %d files -> %s", l.n, path);
		prune_cache(p->cache_dir);
	}
out:
	ir_free(&l);
	return ret;
}
