// SPDX-License-Identifier: GPL-2.0-only
/* Command lines of `rtgate kernel ...` and `rtgate patches ...`. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsio.h"
#include "kernel.h"
#include "kernel_build.h"
#include "kernel_patches.h"
#include "kernel_tree.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

static const char kernel_usage[] =
	"usage: rtgate kernel build [--src TREE | --debian SERIES] "
	"--model rt|full|lazy|none\n"
	"                           [--patches SET,...] [--fragments F,...] "
	"[--name NAME]\n"
	"                           [--jobs N] [--nice N] [--config-only] "
	"[--kconfigs DIR]\n"
	"       rtgate kernel matrix [--src TREE | --debian SERIES] "
	"--patches SET,...\n"
	"                           [--models rt,full] [--jobs N] [--nice N]\n"
	"       rtgate kernel config ...  (build --config-only: fragments "
	"merged and checked)\n"
	"Kernels land in out/kernels/NAME/ (bzImage, .config, build.json); "
	"the default\ntree is Debian's linux-source-6.12 (--debian 6.12). "
	"See docs/kernels.md.\n";

static const char patches_usage[] =
	"usage: rtgate patches fetch SET [--mbox FILE | --seeds DIR] [--pin]\n"
	"       rtgate patches check SET[,SET...] [--src TREE | --debian "
	"SERIES] [--keep DIR]\n"
	"       rtgate patches list\n"
	"Sets are patches/SET/manifest.ini; fetched patches land in "
	"out/patches/SET/.\n";

/* -errno from the library -> the documented exit code. */
static int exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_PASS;
	case -EINVAL:
	case -ENOENT:
	case -E2BIG:
	case -ENAMETOOLONG:
		return EXIT_BAD_INPUT;
	case -EINTR:
		return EXIT_INCOMPLETE;
	default:
		return EXIT_ENVIRONMENT;
	}
}

/* Splits "a,b,c" into list (pointers into a copy that lives on). */
static int split_list(const char *arg, const char **list, int *n, int max,
		      const char *what)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == max) {
			pr_err("too many %s (at most %d)", what, max);
			return -E2BIG;
		}
		list[(*n)++] = tok;
	}
	return 0;
}

static int default_dirs(struct kernel_build_params *p, char *out, char *kc,
			char *pd, char *cache)
{
	int ret = rtpaths_out(out, PATH_MAX);

	if (!ret)
		ret = rtpaths_cache(cache, PATH_MAX);
	p->cache_dir = cache;
	if (!ret)
		ret = rtpaths_in_top(kc, PATH_MAX, "kconfigs");
	if (!ret)
		ret = rtpaths_in_top(pd, PATH_MAX, "patches");
	p->out_dir = out;
	if (!p->kconfigs_dir)
		p->kconfigs_dir = kc;
	p->patches_dir = pd;
	return ret;
}

enum { OPT_SRC = 1000, OPT_DEBIAN, OPT_MODEL, OPT_MODELS, OPT_PATCHES,
       OPT_FRAGMENTS, OPT_NAME, OPT_JOBS, OPT_NICE, OPT_CONFIG_ONLY,
       OPT_KCONFIGS };

static const struct option build_opts[] = {
	{ "src", required_argument, NULL, OPT_SRC },
	{ "debian", required_argument, NULL, OPT_DEBIAN },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "models", required_argument, NULL, OPT_MODELS },
	{ "patches", required_argument, NULL, OPT_PATCHES },
	{ "fragments", required_argument, NULL, OPT_FRAGMENTS },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "nice", required_argument, NULL, OPT_NICE },
	{ "config-only", no_argument, NULL, OPT_CONFIG_ONLY },
	{ "kconfigs", required_argument, NULL, OPT_KCONFIGS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct matrix_models {
	const char *v[4];
	int n;
};

static int parse_build_opts(int argc, char **argv,
			    struct kernel_build_params *p,
			    struct matrix_models *mm)
{
	uint64_t v;
	int c, ret = 0;

	optind = 1;
	while (!ret && (c = getopt_long(argc, argv, "h", build_opts,
					NULL)) != -1) {
		switch (c) {
		case OPT_SRC: p->src = optarg; break;
		case OPT_DEBIAN: p->debian = optarg; break;
		case OPT_MODEL: p->model = optarg; break;
		case OPT_MODELS:
			ret = split_list(optarg, mm->v, &mm->n, 4, "models");
			break;
		case OPT_PATCHES:
			ret = split_list(optarg, p->sets, &p->nr_sets,
					 KBUILD_MAX_SETS, "patch sets");
			break;
		case OPT_FRAGMENTS:
			ret = split_list(optarg, p->fragments,
					 &p->nr_fragments,
					 KBUILD_MAX_FRAGMENTS, "fragments");
			break;
		case OPT_NAME: p->name = optarg; break;
		case OPT_JOBS:
		case OPT_NICE:
			if (parse_u64_range(optarg, c == OPT_JOBS,
					    c == OPT_JOBS ? 256 : 19, &v)) {
				pr_err("--%s: '%s' is not a valid number",
				       c == OPT_JOBS ? "jobs" : "nice", optarg);
				return -EINVAL;
			}
			if (c == OPT_JOBS)
				p->jobs = v;
			else
				p->nice = v;
			break;
		case OPT_CONFIG_ONLY: p->config_only = true; break;
		case OPT_KCONFIGS: p->kconfigs_dir = optarg; break;
		case 'h':
			fputs(kernel_usage, stdout);
			return 1;
		default:
			fputs(kernel_usage, stderr);
			return -EINVAL;
		}
	}
	if (!ret && optind < argc) {
		pr_err("unexpected argument '%s'", argv[optind]);
		fputs(kernel_usage, stderr);
		return -EINVAL;
	}
	return ret;
}

static int do_build(int argc, char **argv, bool config_only)
{
	char out[PATH_MAX], kc[PATH_MAX], pd[PATH_MAX], kdir[PATH_MAX];
	char cache[PATH_MAX];
	struct kernel_build_params p = { .nice = 19 };
	struct matrix_models mm = { .n = 0 };
	int ret;

	ret = parse_build_opts(argc, argv, &p, &mm);
	if (ret)
		return ret > 0 ? EXIT_PASS : exit_code(ret);
	p.config_only |= config_only;
	if (!p.model || mm.n) {
		pr_err("kernel build needs --model rt|full|lazy|none");
		return EXIT_BAD_INPUT;
	}
	ret = default_dirs(&p, out, kc, pd, cache);
	if (ret)
		return exit_code(ret);
	toolrun_catch_signals();
	ret = kernel_build(&p, kdir, sizeof(kdir));
	if (!ret)
		printf("%s\n", kdir);
	return exit_code(ret);
}

/* {models} x {base, patched}, one build after the other. */
static int do_matrix(int argc, char **argv)
{
	char out[PATH_MAX], kc[PATH_MAX], pd[PATH_MAX], kdir[PATH_MAX];
	char cache[PATH_MAX];
	struct kernel_build_params p = { .nice = 19 };
	struct matrix_models mm = { .n = 0 };
	char built[8][PATH_MAX + 16];
	int ret, i, k, n = 0, nr_sets;

	ret = parse_build_opts(argc, argv, &p, &mm);
	if (ret)
		return ret > 0 ? EXIT_PASS : exit_code(ret);
	if (!p.nr_sets || p.model || p.name || p.config_only) {
		pr_err("kernel matrix needs --patches SET,... (and takes "
		       "--models, not --model/--name)");
		return EXIT_BAD_INPUT;
	}
	if (!mm.n) {
		mm.v[mm.n++] = "rt";
		mm.v[mm.n++] = "full";
	}
	ret = default_dirs(&p, out, kc, pd, cache);
	if (ret)
		return exit_code(ret);
	toolrun_catch_signals();
	nr_sets = p.nr_sets;
	for (i = 0; i < mm.n && !ret; i++) {
		for (k = 0; k < 2 && !ret; k++) {
			p.model = mm.v[i];
			p.nr_sets = k ? nr_sets : 0;
			ret = kernel_build(&p, kdir, sizeof(kdir));
			rtpath_fmt(built[n++], sizeof(built[0]), "%s  %s",
				 ret ? "FAILED" : "built ", kdir);
		}
	}
	printf("kernel matrix:\n");
	for (i = 0; i < n; i++)
		printf("  %s\n", built[i]);
	return exit_code(ret);
}

int cmd_kernel(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(kernel_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : EXIT_PASS;
	}
	if (!strcmp(argv[1], "build"))
		return do_build(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "config"))
		return do_build(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "matrix"))
		return do_matrix(argc - 1, argv + 1);
	pr_err("unknown kernel command '%s' (build, matrix, config)", argv[1]);
	return EXIT_BAD_INPUT;
}

static int patches_fetch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mbox", required_argument, NULL, 'm' },
		{ "pin", no_argument, NULL, 'p' },
		{ "seeds", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	char seed[2 * PATH_MAX];
	const char *mbox = NULL, *seeds = NULL;
	struct patch_set *s;
	bool pin = false;
	int c, ret, i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'm')
			mbox = optarg;
		else if (c == 'p')
			pin = true;
		else if (c == 's')
			seeds = optarg;
		else
			return EXIT_BAD_INPUT;
	}
	if (optind != argc - 1 || (mbox && seeds)) {
		fputs(patches_usage, stderr);
		return EXIT_BAD_INPUT;
	}
	if (rtpaths_out(out, sizeof(out)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches"))
		return EXIT_ENVIRONMENT;
	rtpath_fmt(fetch, sizeof(fetch), "%s/patches", out);
	s = calloc(1, sizeof(*s));
	if (!s)
		return EXIT_ENVIRONMENT;
	ret = patchset_load(pd, argv[optind], s);
	/* --seeds DIR: the mail text the manifest names, in DIR. */
	if (!ret && seeds && !s->mail[0]) {
		pr_err("%s names no mail text (mail = FILE)", s->manifest);
		ret = -EINVAL;
	} else if (!ret && seeds) {
		rtpath_fmt(seed, sizeof(seed), "%s/%s", seeds, s->mail);
		mbox = seed;
	}
	if (!ret)
		ret = patchset_fetch(s, mbox, fetch, pin);
	for (i = 0; !ret && i < s->nr; i++)
		printf("%s  %s  %s\n", s->items[i].actual, s->items[i].file,
		       s->items[i].subject);
	if (!ret && pin)
		printf("pinned in %s\n", s->manifest);
	free(s);
	return exit_code(ret);
}

/* Applies sets to a throw-away clone of the tree (or --keep DIR). */
static int patches_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "src", required_argument, NULL, 's' },
		{ "debian", required_argument, NULL, 'd' },
		{ "keep", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	const char *src = NULL, *debian = NULL, *keep = NULL, *sets[16];
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	char clone[PATH_MAX + 32], log[PATH_MAX + 48], cache[PATH_MAX];
	struct kernel_tree tree;
	struct patch_set *s;
	int c, ret, i, n = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's')
			src = optarg;
		else if (c == 'd')
			debian = optarg;
		else if (c == 'k')
			keep = optarg;
		else
			return EXIT_BAD_INPUT;
	}
	if (optind != argc - 1) {
		fputs(patches_usage, stderr);
		return EXIT_BAD_INPUT;
	}
	ret = split_list(argv[optind], sets, &n, 16, "patch sets");
	if (ret)
		return exit_code(ret);
	if (rtpaths_out(out, sizeof(out)) ||
	    rtpaths_cache(cache, sizeof(cache)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches"))
		return EXIT_ENVIRONMENT;
	rtpath_fmt(fetch, sizeof(fetch), "%s/patches", out);
	toolrun_catch_signals();
	ret = kernel_tree_open(src, debian, cache, &tree);
	if (ret)
		return exit_code(ret);
	if (keep)
		rtpath_fmt(clone, sizeof(clone), "%s", keep);
	else
		rtpath_fmt(clone, sizeof(clone), "%s/check.%d", cache,
			 getpid());
	rtpath_fmt(log, sizeof(log), "%s.patch.log", clone);
	unlink(log);
	ret = kernel_tree_clone(&tree, clone);
	s = calloc(1, sizeof(*s));
	if (!s)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		ret = patchset_load(pd, sets[i], s);
		if (!ret)
			ret = patchset_locate(s, fetch);
		if (!ret)
			ret = patchset_apply(s, clone, log);
		if (!ret)
			printf("%s: %d patch%s appl%s to %s %s\n", s->name,
			       s->nr, s->nr == 1 ? "" : "es",
			       s->nr == 1 ? "ies" : "y", tree.origin,
			       tree.version);
	}
	free(s);
	if (!keep) {
		char *rm[] = { "rm", "-rf", clone, NULL };
		int status;

		toolrun_simple(rm, NULL, NULL, &status);
		/* A failure's messages may name the log: keep it then. */
		if (!ret)
			unlink(log);
	}
	return exit_code(ret);
}

static int patches_list(void)
{
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	struct dirent **names;
	struct patch_set *s = calloc(1, sizeof(*s));
	int i, n;

	if (!s || rtpaths_out(out, sizeof(out)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches")) {
		free(s);
		return EXIT_ENVIRONMENT;
	}
	rtpath_fmt(fetch, sizeof(fetch), "%s/patches", out);
	n = scandir(pd, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    !patchset_load(pd, names[i]->d_name, s)) {
			const char *state = s->own ? "own" : "not fetched";
			char series[2 * PATH_MAX + 96];

			rtpath_fmt(series, sizeof(series), "%s/%s/series",
				   fetch, s->name);
			if (!s->own && fsio_exists(series))
				state = "fetched";
			printf("%-24s %-12s %s\n", s->name, state,
			       s->description);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(s);
	return EXIT_PASS;
}

int cmd_patches(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(patches_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : EXIT_PASS;
	}
	if (!strcmp(argv[1], "fetch"))
		return patches_fetch(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check")) {
		int ret = patches_check(argc - 1, argv + 1);
		return ret;
	}
	if (!strcmp(argv[1], "list"))
		return patches_list();
	pr_err("unknown patches command '%s' (fetch, check, list)", argv[1]);
	return EXIT_BAD_INPUT;
}
