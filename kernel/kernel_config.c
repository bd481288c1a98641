// SPDX-License-Identifier: GPL-2.0-only
/*
 * The .config of a build (kernel_priv.h): fragments merged onto defconfig
 * with the kernel's own merge_config.sh, then every requested symbol
 * checked; the preemption model a .config builds.
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "kconfig.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

#define KCONFIG_MAX_REQUESTS 256
#define KCONFIG_MAX_INCLUDES 16

struct kconfig_request {
	char sym[96];			/* without CONFIG_ */
	char val[256];			/* "y", "m", "n" (not set), or raw */
	char file[PATH_MAX];
	unsigned int line;
};

struct kconfig_plan {
	char frag[KCONFIG_MAX_FRAGMENTS][PATH_MAX];	/* effective copies */
	int nr_frag;
	/* the tree's fragments */
	char inc[KCONFIG_MAX_INCLUDES][PATH_MAX];
	int nr_inc;
	struct kconfig_request req[KCONFIG_MAX_REQUESTS];
	int nr_req;
};

static const struct {
	const char *model;
	const char *fragment;
} models[] = {
	{ "rt", "preempt-rt" },
	{ "full", "preempt-full" },
	{ "lazy", "preempt-lazy" },
	{ "none", "preempt-none" },
};

const char *kernel_config_model_fragment(const char *model)
{
	size_t i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(model, models[i].model))
			return models[i].fragment;
	return NULL;
}

static int resolve_fragment(const struct kernel_config_params *p,
			    const char *name,
			    char *path, size_t len)
{
	if (strchr(name, '/'))
		rtpaths_fmt(path, len, "%s", name);
	else
		rtpaths_fmt(path, len, "%s/%s%s", p->kconfigs_dir, name,
			 strstr(name, ".config") ? "" : ".config");
	if (!fsio_exists(path)) {
		pr_err("config fragment '%s' not found (%s)", name, path);
		return -ENOENT;
	}
	return 0;
}

/* The tree's own fragment NAME: kernel/configs/ first, then arch/x86. */
static int resolve_include(const char *src, const char *name, char *path,
			   size_t len)
{
	static const char *const dirs[] = { "kernel/configs",
					    "arch/x86/configs" };
	size_t i;

	for (i = 0; i < 2; i++) {
		rtpaths_fmt(path, len, "%s/%s/%s", src, dirs[i], name);
		if (fsio_exists(path))
			return 0;
	}
	return -ENOENT;
}

/* "CONFIG_FOO=val" or "# CONFIG_FOO is not set" -> request. */
static int parse_symbol_line(const char *line, struct kconfig_request *r)
{
	const char *p = line, *eq;
	size_t n;

	if (!strncmp(p, "# CONFIG_", 9)) {
		p += 9;
		n = strcspn(p, " ");
		if (!n || n >= sizeof(r->sym) || strcmp(p + n, " is not set"))
			return -EINVAL;
		memcpy(r->sym, p, n);
		r->sym[n] = '\0';
		strcpy(r->val, "n");
		return 0;
	}
	if (strncmp(p, "CONFIG_", 7))
		return -EINVAL;
	p += 7;
	eq = strchr(p, '=');
	if (!eq || eq == p || (size_t)(eq - p) >= sizeof(r->sym))
		return -EINVAL;
	for (n = 0; p + n < eq; n++)
		if (!isalnum((unsigned char)p[n]) && p[n] != '_')
			return -EINVAL;
	memcpy(r->sym, p, eq - p);
	r->sym[eq - p] = '\0';
	if (!eq[1] || snprintf(r->val, sizeof(r->val), "%s", eq + 1) >=
	    (int)sizeof(r->val))
		return -EINVAL;
	return 0;
}

static int parse_directive(const struct kernel_config_params *p, const char *d,
			   const char *file, unsigned int lineno,
			   struct kconfig_plan *plan, char *since, size_t len)
{
	const char *src = p->src ? p->src : p->tree->path;
	int i;

	if (!strncmp(d, "include ", 8)) {
		d += 8;
		if (plan->nr_inc == KCONFIG_MAX_INCLUDES)
			return -E2BIG;
		if (resolve_include(src, d, plan->inc[plan->nr_inc],
				    PATH_MAX)) {
			pr_err("%s:%u: the tree has no fragment '%s' "
			       "(kernel/configs/ or arch/x86/configs/)",
			       file, lineno, d);
			return -ENOENT;
		}
		for (i = 0; i < plan->nr_inc; i++)
			if (!strcmp(plan->inc[i], plan->inc[plan->nr_inc]))
				return 0;
		plan->nr_inc++;
		return 0;
	}
	/* since X.Y / before X.Y: kept as ">X.Y" / "<X.Y" for the next symbol */
	if (!strncmp(d, "since ", 6) && isdigit((unsigned char)d[6])) {
		rtpaths_fmt(since, len, ">%s", d + 6);
		return 0;
	}
	if (!strncmp(d, "before ", 7) && isdigit((unsigned char)d[7])) {
		rtpaths_fmt(since, len, "<%s", d + 7);
		return 0;
	}
	pr_err("%s:%u: unknown directive '# rtgate: %s' (include NAME, "
	       "since X.Y, before X.Y)", file, lineno, d);
	return -EINVAL;
}

/* Reads one fragment, records its requests and writes the copy to merge. */
static int plan_fragment(const struct kernel_config_params *p, const char *path,
			 const char *copy, struct kconfig_plan *plan)
{
	char *buf, *line, *save = NULL, since[32] = "";
	size_t len, outlen = 0;
	unsigned int lineno = 0;
	char *out;
	int ret;

	ret = fsio_read_all(path, &buf, &len);
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	out = malloc(len + 4096);
	if (!out) {
		free(buf);
		return -ENOMEM;
	}
	for (line = buf; line; line = save) {
		struct kconfig_request *r = &plan->req[plan->nr_req];
		char *nl = strchr(line, '\n');

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		else if (!*line)
			break;
		lineno++;
		if (!strncmp(line, "# rtgate: ", 10)) {
			ret = parse_directive(p, line + 10, path, lineno, plan,
					      since, sizeof(since));
			if (ret)
				goto out;
			continue;
		}
		if (!*line || (line[0] == '#' && strncmp(line, "# CONFIG_", 9)))
			continue;
		if (plan->nr_req == KCONFIG_MAX_REQUESTS) {
			ret = -E2BIG;
			goto out;
		}
		if (parse_symbol_line(line, r)) {
			pr_err("%s:%u: not a kconfig line: '%s' (CONFIG_X=v or "
			       "'# CONFIG_X is not set')", path, lineno, line);
			ret = -EINVAL;
			goto out;
		}
		if (since[0] && (since[0] == '>') ==
		    (kernel_version_cmp(p->tree->version, since + 1) < 0)) {
			pr_info("%s:%u: CONFIG_%s skipped: this tree is %s, "
				"the symbol %s %s", path, lineno, r->sym,
				p->tree->version, since[0] == '>' ?
				"needs" : "is gone since", since + 1);
			since[0] = '\0';
			continue;
		}
		since[0] = '\0';
		rtpaths_fmt(r->file, sizeof(r->file), "%s", path);
		r->line = lineno;
		plan->nr_req++;
		outlen += sprintf(out + outlen, "%s\n", line);
	}
	ret = fsio_write_atomic(copy, out, outlen);
out:
	free(out);
	free(buf);
	return ret;
}

/* The Kconfig entry of one symbol, for the "did not stick" message. */
static struct {
	const char *sym;
	char found[PATH_MAX];
	char depends[1024];
} kfind;

static int kfind_file(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	char *buf, *p, pat[128];
	size_t len;
	int hit = 0;

	(void)st;
	if (type != FTW_F || strncmp(path + ftw->base, "Kconfig", 7))
		return 0;
	if (fsio_read_all(path, &buf, &len))
		return 0;
	rtpaths_fmt(pat, sizeof(pat), "config %s\n", kfind.sym);
	for (p = strstr(buf, pat); p; p = strstr(p + 1, pat)) {
		if (p != buf && p[-1] != '\n' && p[-1] != ' ' &&
		    p[-1] != '\t' && p[-1] != 'u')
			continue;
		hit = 1;
		break;
	}
	if (hit) {
		char *q = p + strlen(pat);

		rtpaths_fmt(kfind.found, sizeof(kfind.found), "%s", path);
		/* "depends on" lines of this entry, up to the next one. */
		while (*q && (*q == '\t' || *q == ' ' || *q == '\n')) {
			char *e = strchrnul(q, '\n');
			char *t = q;

			while (*t == '\t' || *t == ' ')
				t++;
			if (!strncmp(t, "depends on ", 11) &&
			    strlen(kfind.depends) + (e - t) + 3 <
			    sizeof(kfind.depends))
				sprintf(kfind.depends + strlen(kfind.depends),
					"%s%.*s", kfind.depends[0] ? "; " : "",
					(int)(e - t), t);
			if (!strncmp(t, "help", 4))
				break;
			q = *e ? e + 1 : e;
		}
	}
	free(buf);
	return hit;
}

static void explain_symbol(const char *src, const char *sym, char *buf,
			   size_t len)
{
	kfind.sym = sym;
	kfind.found[0] = kfind.depends[0] = '\0';
	nftw(src, kfind_file, 32, FTW_PHYS);
	if (!kfind.found[0])
		rtpaths_fmt(buf, len, "no Kconfig in this tree defines %s", sym);
	else if (kfind.depends[0])
		rtpaths_fmt(buf, len, "Kconfig (%s): %s",
			 kfind.found + strlen(src) + 1, kfind.depends);
	else
		rtpaths_fmt(buf, len, "Kconfig (%s): selected or chosen by "
			 "other symbols", kfind.found + strlen(src) + 1);
}

static int check_plan(const struct kernel_config_params *p,
		      const struct kconfig_plan *plan, const char *config)
{
	const char *src = p->src ? p->src : p->tree->path;
	char val[256], why[1400];
	struct kconfig kc;
	int i, bad = 0, ret;

	ret = kconfig_load_file(&kc, config);
	if (ret) {
		pr_err("%s: %s", config, strerror(-ret));
		return ret;
	}
	for (i = 0; i < plan->nr_req; i++) {
		const struct kconfig_request *r = &plan->req[i];

		kconfig_value(&kc, r->sym, val, sizeof(val));
		if (!strcmp(val, r->val) ||
		    (!strcmp(r->val, "n") && !val[0]))
			continue;
		explain_symbol(src, r->sym, why, sizeof(why));
		pr_err("%s:%u: CONFIG_%s=%s did not stick: the .config has "
		       "%s (%s)", r->file, r->line, r->sym, r->val,
		       val[0] ? val : "nothing (absent)", why);
		bad++;
	}
	kconfig_free(&kc);
	if (bad) {
		pr_err("%d requested config symbol%s did not stick in %s", bad,
		       bad > 1 ? "s" : "", config);
		return -EINVAL;
	}
	return 0;
}

/*
 * The "depends on" atoms of SYM's entry in kernel/Kconfig.preempt that
 * name an architecture property ([!]ARCH_*), checked against what
 * arch/x86/Kconfig selects: on x86 7.x the tree itself says that
 * PREEMPT_NONE needs ARCH_NO_PREEMPT and PREEMPT_VOLUNTARY
 * !ARCH_HAS_PREEMPT_LAZY. Returns true and the reason in why when one
 * does not hold; false when all hold or the tree says nothing.
 */
static bool arch_unmet(const char *src, const char *sym, char *why,
		       size_t len)
{
	char path[PATH_MAX + 32], pat[128], *kc = NULL, *ax = NULL, *p, *e;
	size_t n;
	bool unmet = false;

	rtpaths_fmt(path, sizeof(path), "%s/kernel/Kconfig.preempt", src);
	if (fsio_read_all(path, &kc, &n))
		return false;
	rtpaths_fmt(path, sizeof(path), "%s/arch/x86/Kconfig", src);
	if (fsio_read_all(path, &ax, &n))
		goto out;
	rtpaths_fmt(pat, sizeof(pat), "\nconfig %s\n", sym);
	p = strstr(kc, pat);
	if (!p)
		goto out;
	/* The entry's lines: indented, up to the next top-level keyword. */
	for (p += strlen(pat); *p && !unmet; p = *e ? e + 1 : e) {
		char atom[96], sel[128];
		const char *a;
		bool neg, selected;

		e = strchrnul(p, '\n');
		if (p != e && *p != '\t' && *p != ' ')
			break;
		a = p + strspn(p, " \t");
		if (!strncmp(a, "help", 4) || !strncmp(a, "---help---", 10))
			break;
		if (strncmp(a, "depends on ", 11))
			continue;
		a += 11;
		neg = *a == '!';
		a += neg;
		if (strncmp(a, "ARCH_", 5) || sscanf(a, "%95[A-Z0-9_]", atom) != 1
		    || a + strlen(atom) != e)
			continue;
		rtpaths_fmt(sel, sizeof(sel), "\tselect %s", atom);
		selected = false;
		for (a = strstr(ax, sel); a && !selected; a = strstr(a + 1, sel))
			selected = strchr(" \t\n", a[strlen(sel)]) != NULL;
		if (selected != neg)
			continue;
		unmet = true;
		rtpaths_fmt(why, len, "kernel/Kconfig.preempt: %s 'depends on "
			    "%s%s', and arch/x86/Kconfig %s %s", sym,
			    neg ? "!" : "", atom, selected ? "selects" :
			    "does not select", atom);
	}
out:
	free(kc);
	free(ax);
	return unmet;
}

/*
 * A preemption model the tree cannot build on x86 is refused before any
 * kconfig run, with the tree's own reason (olddefconfig would quietly pick
 * another model and the check would only say "did not stick").
 */
static int refuse_models(const struct kernel_config_params *p,
			 const struct kconfig_plan *plan)
{
	const char *src = p->src ? p->src : p->tree->path;
	char why[512], why2[512];
	int i;

	for (i = 0; i < plan->nr_req; i++) {
		const struct kconfig_request *r = &plan->req[i];

		if (strcmp(r->val, "y") || strncmp(r->sym, "PREEMPT", 7) ||
		    !arch_unmet(src, r->sym, why, sizeof(why)))
			continue;
		if (!strcmp(r->sym, "PREEMPT_NONE") &&
		    arch_unmet(src, "PREEMPT_VOLUNTARY", why2, sizeof(why2)))
			pr_err("%s:%u: CONFIG_%s=y cannot be built on this tree "
			       "(%s, x86): %s; and the other non-preemptible "
			       "model cannot either: %s. Use the full or lazy "
			       "model", r->file, r->line, r->sym,
			       p->tree->version, why, why2);
		else
			pr_err("%s:%u: CONFIG_%s=y cannot be built on this tree "
			       "(%s, x86): %s", r->file, r->line, r->sym,
			       p->tree->version, why);
		return -EINVAL;
	}
	return 0;
}

int kernel_config_preempt(const char *config, char *buf, size_t len)
{
	static const struct {
		const char *sym, *name;
	} parts[] = {
		{ "PREEMPT_RT", "RT" }, { "PREEMPT_NONE", "NONE" },
		{ "PREEMPT_VOLUNTARY", "VOLUNTARY" }, { "PREEMPT", "FULL" },
		{ "PREEMPT_LAZY", "LAZY" }, { "PREEMPT_DYNAMIC", "DYNAMIC" },
	};
	struct kconfig kc;
	size_t i, used = 0;
	int ret;

	ret = kconfig_load_file(&kc, config);
	if (ret)
		return ret;
	buf[0] = '\0';
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (kconfig_is_y(&kc, parts[i].sym) && used < len)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? " + " : "", parts[i].name);
	kconfig_free(&kc);
	if (!buf[0])
		rtpaths_fmt(buf, len, "unknown");
	return used >= len ? -ENAMETOOLONG : 0;
}

static int make_plan(const struct kernel_config_params *p,
		     struct kconfig_plan *plan)
{
	char path[PATH_MAX];
	const char *base;
	int i, ret;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < p->nr_fragments; i++) {
		ret = resolve_fragment(p, p->fragments[i], path, sizeof(path));
		if (ret)
			return ret;
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		rtpaths_fmt(plan->frag[i], PATH_MAX, "%s/rtgate-%02d-%s", p->obj,
			 i + 1, base);
		ret = plan_fragment(p, path, plan->frag[i], plan);
		if (ret)
			return ret;
		plan->nr_frag++;
	}
	return 0;
}

static int run_kconfig(const struct kernel_config_params *p, char *const *argv,
		       const char *log, const char *what)
{
	struct toolrun r = {
		.argv = argv,
		.cwd = p->src ? p->src : p->tree->path,
		.out_path = log,
		.out_append = true,
	};
	int ret, status;

	ret = toolrun(&r, &status);
	if (ret == -ENOENT)
		pr_err("%s: %s not found", what, argv[0]);
	else if (!ret && status) {
		pr_err("%s failed (exit %d; log: %s)", what, status, log);
		ret = -EIO;
	}
	return ret;
}

/*
 * `make defconfig` into OBJ/.config, or its copy from an earlier run in
 * the same folder on the same tree (a kconfig run is a hundred compiler
 * probes: seconds when idle, minutes on a saturated machine).
 */
static int base_config(const struct kernel_config_params *p, char *objarg,
		       const char *config, const char *log)
{
	const char *name = p->defconfig ? p->defconfig : "x86_64_defconfig";
	char *argv[] = { "make", "-s", objarg, (char *)name, NULL };
	char saved[PATH_MAX + 32], stamp[PATH_MAX + 256], *buf, *old;
	size_t len, olen;
	int ret;

	rtpaths_fmt(saved, sizeof(saved), "%s/.rtgate-defconfig", p->obj);
	rtpaths_fmt(stamp, sizeof(stamp), "# rtgate: %s of %s %s\n", name,
		    p->src ? p->src : p->tree->path, p->tree->version);
	if (!fsio_read_all(saved, &old, &olen)) {
		bool hit = olen > strlen(stamp) &&
			   !strncmp(old, stamp, strlen(stamp));

		if (hit)
			ret = fsio_write_atomic(config, old + strlen(stamp),
						olen - strlen(stamp));
		free(old);
		if (hit)
			return ret;
	}
	ret = run_kconfig(p, argv, log, "make defconfig");
	if (ret || fsio_read_all(config, &buf, &len))
		return ret;
	old = malloc(strlen(stamp) + len);
	if (old) {
		memcpy(old, stamp, strlen(stamp));
		memcpy(old + strlen(stamp), buf, len);
		fsio_write_atomic(saved, old, strlen(stamp) + len);
	}
	free(old);
	free(buf);
	return 0;
}

int kernel_config_make(const struct kernel_config_params *p)
{
	char objarg[PATH_MAX + 4], config[PATH_MAX + 16], log[PATH_MAX + 16];
	const char *merge_argv[6 + KCONFIG_MAX_INCLUDES +
			       KCONFIG_MAX_FRAGMENTS];
	struct kconfig_plan *plan;
	int i, n = 0, ret;

	ret = fsio_mkdir_p(p->obj, 0755);
	if (ret) {
		pr_err("%s: %s", p->obj, strerror(-ret));
		return ret;
	}
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	rtpaths_fmt(objarg, sizeof(objarg), "O=%s", p->obj);
	rtpaths_fmt(config, sizeof(config), "%s/.config", p->obj);
	rtpaths_fmt(log, sizeof(log), "%s", p->log ? p->log : "");
	if (!p->log)
		rtpaths_fmt(log, sizeof(log), "%s/config.log", p->obj);
	unlink(log);
	ret = make_plan(p, plan);
	if (!ret)
		ret = refuse_models(p, plan);
	if (ret)
		goto out;
	/*
	 * defconfig first, fragments on top: merged into the defconfig file
	 * itself, EXPERT=y (PREEMPT_RT needs it) would flip the defaults of
	 * "if EXPERT" symbols such as NAMESPACES.
	 */
	ret = base_config(p, objarg, config, log);
	if (ret)
		goto out;
	merge_argv[n++] = "scripts/kconfig/merge_config.sh";
	merge_argv[n++] = "-m";
	merge_argv[n++] = "-O";
	merge_argv[n++] = p->obj;
	merge_argv[n++] = config;
	for (i = 0; i < plan->nr_inc; i++)
		merge_argv[n++] = plan->inc[i];
	for (i = 0; i < plan->nr_frag; i++)
		merge_argv[n++] = plan->frag[i];
	merge_argv[n] = NULL;
	ret = run_kconfig(p, (char *const *)merge_argv, log, "merge_config.sh");
	if (ret)
		goto out;
	{
		char *argv[] = { "make", "-s", objarg, "olddefconfig", NULL };

		ret = run_kconfig(p, argv, log, "make olddefconfig");
		if (ret)
			goto out;
	}
	ret = check_plan(p, plan, config);
out:
	free(plan);
	return ret;
}
