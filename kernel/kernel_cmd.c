// SPDX-License-Identifier: GPL-2.0-only
/* Command lines of `rtgate kernel ...` and `rtgate patches ...`. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "kernel.h"
#include "kernel_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

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

enum { OPT_MODEL = 1000, OPT_MODELS, OPT_PATCHES, OPT_FRAGMENTS,
       OPT_NAME, OPT_NICE, OPT_CONFIG_ONLY, OPT_KCONFIGS, OPT_MBOX,
       OPT_SEEDS, OPT_PIN, OPT_KEEP, OPT_PREFIX };

/*
 * Each subcommand's options: its own table, the groups it shares as argp
 * children, so that --help lists only what that subcommand takes. build,
 * config and matrix share the patch sets and fragments (sets_opts);
 * build and config the kernel's model and name (named_opts); they and
 * tools the tree (cli_tree_argp), make's nice level (nice_opts) and -j
 * (cli_jobs_argp). One parser, build_parse, serves them all.
 */
static const struct argp_option sets_opts[] = {
	{ "patches", OPT_PATCHES, "SET,...", 0, "patch sets (patches/SET/) "
	  "applied in order", 0 },
	{ "fragments", OPT_FRAGMENTS, "F,...", 0, "more kconfigs/ fragments",
	  0 },
	{ "kconfigs", OPT_KCONFIGS, "DIR", 0, "the fragments' folder (default "
	  "kconfigs/)", 0 },
	{ 0 }
};

static const struct argp_option nice_opts[] = {
	{ "nice", OPT_NICE, "N", 0, "the build's nice level (0..19, default "
	  "19)", 0 },
	{ 0 }
};

static const struct argp_option named_opts[] = {
	{ "model", OPT_MODEL, "MODEL", 0, "rt, full, lazy or none", 0 },
	{ "name", OPT_NAME, "NAME", 0, "the kernel's name (out/kernels/NAME/)",
	  0 },
	{ 0 }
};

static const struct argp_option build_opts[] = {
	{ "config-only", OPT_CONFIG_ONLY, NULL, 0, "merge and check the "
	  ".config, build nothing", 0 },
	{ "prefix", OPT_PREFIX, "N", 0, "only the first N patches of the "
	  "last --patches set (of a list: in the list's order): the kernel "
	  "rtgate bisect builds for that prefix; named BASE+SET.N it is the "
	  "one a bisection from BASE uses", 0 },
	{ 0 }
};

static const struct argp_option matrix_opts[] = {
	{ "models", OPT_MODELS, "M,...", 0, "the preemption models (default "
	  "rt,full)", 0 },
	{ 0 }
};

struct matrix_models {
	const char *v[4];
	int n;
};

struct build_args {
	struct kernel_build_params *p;
	struct matrix_models *mm;
};

static error_t build_parse(int key, char *arg, struct argp_state *state)
{
	struct build_args *a = state->input;
	struct kernel_build_params *p = a->p;
	uint64_t v;

	switch (key) {
	case CLI_KEY_SRC: p->src = arg; break;	/* shared (cli.h) */
	case CLI_KEY_DEBIAN: p->debian = arg; break;
	case OPT_MODEL: p->model = arg; break;
	case OPT_MODELS:
		if (split_list(arg, a->mm->v, &a->mm->n, 4, "models"))
			return cli_error(state, "--models: '%s'", arg);
		break;
	case OPT_PATCHES:
		if (split_list(arg, p->sets, &p->nr_sets, KBUILD_MAX_SETS,
			       "patch sets"))
			return cli_error(state, "--patches: '%s'", arg);
		break;
	case OPT_FRAGMENTS:
		if (split_list(arg, p->fragments, &p->nr_fragments,
			       KBUILD_MAX_FRAGMENTS, "fragments"))
			return cli_error(state, "--fragments: '%s'", arg);
		break;
	case OPT_NAME: p->name = arg; break;
	case CLI_KEY_JOBS:	/* checked by its shared group (cli.h) */
		p->jobs = cli_shared_uint(arg);
		break;
	case OPT_NICE:
		if (cli_arg_number(state, "nice", arg, 0, 19, &v))
			return EINVAL;
		p->nice = v;
		break;
	case OPT_CONFIG_ONLY: p->config_only = true; break;
	case OPT_KCONFIGS: p->kconfigs_dir = arg; break;
	case OPT_PREFIX:
		if (cli_arg_number(state, "prefix", arg, 1, 9999, &v))
			return EINVAL;
		p->last_set_prefix = v;
		break;
	default:
		return cli_key_default(state, key, arg);
	}
	return 0;
}

#define KERNEL_POST_DOC "\vKernels land in out/kernels/NAME/ (bzImage, " \
	".config, build.json); the default tree is Debian's " \
	"linux-source-6.12 (--debian 6.12). docs/kernels.md."

static const struct argp sets_argp = { sets_opts, build_parse };
static const struct argp nice_argp = { nice_opts, build_parse };
static const struct argp named_argp = { named_opts, build_parse };

static const struct argp_child named_children[] = {
	{ &cli_tree_argp }, { &named_argp }, { &sets_argp }, { &nice_argp },
	{ &cli_jobs_argp }, { 0 }
};
static const struct argp_child matrix_children[] = {
	{ &cli_tree_argp }, { &sets_argp }, { &nice_argp }, { &cli_jobs_argp },
	{ 0 }
};
static const struct argp_child tools_children[] = {
	{ &cli_tree_argp }, { &nice_argp }, { &cli_jobs_argp }, { 0 }
};

static const struct argp build_argp = {
	build_opts, build_parse, NULL,
	"Builds a named kernel: a tree, a preemption model (--model), patch "
	"sets and config fragments merged onto defconfig." KERNEL_POST_DOC,
	named_children, NULL, NULL
};

static const struct argp config_argp = {
	NULL, build_parse, NULL,
	"The .config of a kernel build (build --config-only): fragments merged "
	"and checked, nothing compiled." KERNEL_POST_DOC, named_children,
	NULL, NULL
};

static const struct argp matrix_argp = {
	matrix_opts, build_parse, NULL,
	"{models} x {base, patched}: one build after the other (--patches "
	"SET,... required)." KERNEL_POST_DOC, matrix_children, NULL, NULL
};

static int parse_build_opts(const char *cmd, const struct argp *argp,
			    int argc, char **argv,
			    struct kernel_build_params *p,
			    struct matrix_models *mm)
{
	struct build_args a = { .p = p, .mm = mm };

	return cli_parse(cmd, argp, argc, argv, 0, &a);
}

static int do_build(int argc, char **argv, bool config_only)
{
	char out[PATH_MAX], kc[PATH_MAX], pd[PATH_MAX], kdir[PATH_MAX];
	char cache[PATH_MAX];
	struct kernel_build_params p = { .nice = 19 };
	struct matrix_models mm = { .n = 0 };
	int ret;

	ret = parse_build_opts(config_only ? "kernel config" : "kernel build",
			       config_only ? &config_argp : &build_argp, argc,
			       argv, &p, &mm);
	if (ret)
		return cli_exit(ret);
	p.config_only |= config_only;
	if (!p.model) {
		pr_err("kernel build needs --model rt|full|lazy|none");
		return EXITCODE_BAD_INPUT;
	}
	if (p.last_set_prefix && !p.nr_sets) {
		pr_err("kernel build: --prefix needs --patches (the set whose "
		       "first patches it takes)");
		return EXITCODE_BAD_INPUT;
	}
	ret = default_dirs(&p, out, kc, pd, cache);
	if (ret)
		return exitcode_of_errno(ret);
	toolrun_catch_signals();
	ret = kernel_build(&p, kdir, sizeof(kdir));
	if (!ret)
		printf("%s\n", kdir);
	return exitcode_of_errno(ret);
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

	ret = parse_build_opts("kernel matrix", &matrix_argp, argc, argv, &p,
			       &mm);
	if (ret)
		return cli_exit(ret);
	if (!p.nr_sets) {
		pr_err("kernel matrix needs --patches SET,...");
		return EXITCODE_BAD_INPUT;
	}
	if (!mm.n) {
		mm.v[mm.n++] = "rt";
		mm.v[mm.n++] = "full";
	}
	ret = default_dirs(&p, out, kc, pd, cache);
	if (ret)
		return exitcode_of_errno(ret);
	toolrun_catch_signals();
	nr_sets = p.nr_sets;
	for (i = 0; i < mm.n && !ret; i++) {
		for (k = 0; k < 2 && !ret; k++) {
			p.model = mm.v[i];
			p.nr_sets = k ? nr_sets : 0;
			ret = kernel_build(&p, kdir, sizeof(kdir));
			rtpaths_fmt(built[n++], sizeof(built[0]), "%s  %s",
				 ret ? "FAILED" : "built ", kdir);
		}
	}
	printf("kernel matrix:\n");
	for (i = 0; i < n; i++)
		printf("  %s\n", built[i]);
	return exitcode_of_errno(ret);
}

static const struct argp tools_argp = {
	NULL, build_parse, NULL,
	"Builds the rtla of a tree with tools/tracing/rtla (with timerlat "
	"auto-analysis) into out/tools/rtla, which rtgate run and the lab's "
	"initramfs then prefer to the rtla in PATH; no host package changes."
	"\vThe default tree is Debian's linux-source-6.12. "
	"out/tools/rtla.json records its version and libraries. "
	"docs/kernels.md, \"rtla from the tree\".", tools_children, NULL,
	NULL
};

static int kernel_tools_cmd(int argc, char **argv)
{
	struct kernel_build_params b = { .nice = 19 };
	struct kernel_tools_params p;
	struct matrix_models mm = { .n = 0 };
	char out[PATH_MAX], cache[PATH_MAX], path[PATH_MAX + 16];
	int ret;

	ret = parse_build_opts("kernel tools", &tools_argp, argc, argv, &b,
			       &mm);
	if (ret)
		return cli_exit(ret);
	p = (struct kernel_tools_params){ .src = b.src, .debian = b.debian,
					  .jobs = b.jobs, .nice = b.nice };
	if (rtpaths_out(out, sizeof(out)) ||
	    rtpaths_cache(cache, sizeof(cache)))
		return EXITCODE_ENVIRONMENT;
	p.out_dir = out;
	p.cache_dir = cache;
	toolrun_catch_signals();
	ret = kernel_tools_build(&p, path, sizeof(path));
	if (!ret)
		printf("%s\n", path);
	return exitcode_of_errno(ret);
}

static int kernel_build_cmd(int argc, char **argv)
{
	return do_build(argc, argv, false);
}

static int kernel_config_cmd(int argc, char **argv)
{
	return do_build(argc, argv, true);
}

int kernel_cmd_kernel(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "build", "[--src TREE | --debian SERIES] --model "
		  "rt|full|lazy|none [OPTION...]", "build a named kernel",
		  kernel_build_cmd },
		{ "matrix", "[--src TREE | --debian SERIES] --patches SET,... "
		  "[--models rt,full]", "{models} x {base, patched}",
		  do_matrix },
		{ "config", "[OPTION...]", "build --config-only: fragments "
		  "merged and checked", kernel_config_cmd },
		{ "tools", "[--src TREE | --debian SERIES]", "the tree's rtla "
		  "into out/tools/rtla", kernel_tools_cmd },
	};

	return cli_dispatch("kernel", "Named kernels from a tree, a preemption "
			    "model and patch sets (docs/kernels.md).", subs,
			    sizeof(subs) / sizeof(subs[0]), argc, argv);
}

struct patches_args {
	const char *mbox, *seeds, *src, *debian, *keep, *set, *output;
	bool pin;
	int nwords;		/* positional words it takes */
};

/* Each subcommand's own table; the tree and -o are shared (cli.h). */
static const struct argp_option fetch_opts[] = {
	{ "mbox", OPT_MBOX, "FILE", 0, "the patches from a local mbox, not b4",
	  0 },
	{ "seeds", OPT_SEEDS, "DIR", 0, "the mail text the manifest names "
	  "(mail = FILE), in DIR", 0 },
	{ "pin", OPT_PIN, NULL, 0, "write each patch's sha256 into the "
	  "manifest", 0 },
	{ 0 }
};

static const struct argp_option check_opts[] = {
	{ "keep", OPT_KEEP, "DIR", 0, "apply in DIR and keep it (default: a "
	  "throw-away clone)", 0 },
	{ 0 }
};

static error_t patches_parse(int key, char *arg, struct argp_state *state)
{
	struct patches_args *a = state->input;

	switch (key) {
	case OPT_MBOX: a->mbox = arg; break;
	case OPT_SEEDS: a->seeds = arg; break;
	case OPT_PIN: a->pin = true; break;
	case CLI_KEY_SRC: a->src = arg; break;	/* shared (cli.h) */
	case CLI_KEY_DEBIAN: a->debian = arg; break;
	case CLI_KEY_OUTPUT: a->output = arg; break;
	case OPT_KEEP: a->keep = arg; break;
	case ARGP_KEY_ARG:
		if (!a->nwords || a->set)
			return cli_error(state, "unexpected argument '%s'", arg);
		a->set = arg;
		break;
	case ARGP_KEY_END:
		if (a->nwords && !a->set)
			return cli_error(state, "which patch set? (patches "
					 "list)");
		if (a->mbox && a->seeds)
			return cli_error(state, "--mbox or --seeds, not both");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

#define PATCHES_POST_DOC "\vSets are patches/SET/manifest.ini; fetched " \
	"patches land in out/patches/SET/. docs/kernels.md."

static const struct argp_child tree_child[] = {
	{ &cli_tree_argp }, { 0 }
};
static const struct argp_child recover_children[] = {
	{ &cli_tree_argp }, { &cli_output_argp }, { 0 }
};

static const struct argp fetch_argp = {
	fetch_opts, patches_parse, "SET",
	"Fetches a patch set (b4 am by its message-ids, a local mbox, or the "
	"seed mail) and checks each patch's sha256. A set whose manifest says "
	"pick = recover is rebuilt against its base tree: --src or --debian, "
	"else the manifest's debian = SERIES." PATCHES_POST_DOC, tree_child,
	NULL, NULL
};

static const struct argp check_argp = {
	check_opts, patches_parse, "SET[,SET...]",
	"Applies patch sets, in order, to a clone of the tree (default: "
	"Debian's linux-source-6.12)." PATCHES_POST_DOC, tree_child, NULL,
	NULL
};

static const struct argp recover_argp = {
	NULL, patches_parse, "MAIL",
	"Rebuilds the inline patch of a flattened mail (its line breaks and "
	"indentation lost, quoted-printable) against the base tree the patch "
	"was written for (--src or --debian): context and removed lines take "
	"the tree's text, added lines the kernel's indentation. A hunk that "
	"cannot be placed exactly is an error (exit 3), never a guess."
	PATCHES_POST_DOC, recover_children, NULL, NULL
};

static const struct argp list_argp = {
	NULL, patches_parse, NULL,
	"Lists the patch sets: ours, fetched, or not fetched yet."
	PATCHES_POST_DOC, NULL, NULL, NULL
};

/* pick = recover: --src, --debian, or the manifest's debian = SERIES. */
static int recover_tree(const struct patches_args *a,
			struct kernel_patch_set *s)
{
	const char *debian = a->debian ? a->debian : s->debian;
	struct kernel_tree tree;
	char cache[PATH_MAX];
	int ret;

	if (!a->src && !debian[0]) {
		pr_err("%s: pick = recover needs the base tree: --src TREE, "
		       "--debian SERIES or debian = SERIES in the manifest",
		       s->manifest);
		return -EINVAL;
	}
	if (rtpaths_cache(cache, sizeof(cache)))
		return -EIO;
	ret = kernel_tree_open(a->src, a->src ? NULL : debian, cache, &tree);
	if (ret)
		return ret;
	pr_info("base tree: %s %s (%s)", tree.origin, tree.version, tree.path);
	rtpaths_fmt(s->tree, sizeof(s->tree), "%s", tree.path);
	return 0;
}

static int patches_fetch(int argc, char **argv)
{
	struct patches_args a = { .nwords = 1 };
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	char seed[2 * PATH_MAX];
	const char *mbox, *seeds;
	struct kernel_patch_set *s;
	bool pin;
	int ret, i;

	ret = cli_parse("patches fetch", &fetch_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	mbox = a.mbox;
	seeds = a.seeds;
	pin = a.pin;
	if (rtpaths_out(out, sizeof(out)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches"))
		return EXITCODE_ENVIRONMENT;
	rtpaths_fmt(fetch, sizeof(fetch), "%s/patches", out);
	s = calloc(1, sizeof(*s));
	if (!s)
		return EXITCODE_ENVIRONMENT;
	ret = kernel_patchset_load(pd, a.set, s);
	/* --seeds DIR: the mail text the manifest names, in DIR. */
	if (!ret && seeds && !s->mail[0]) {
		pr_err("%s names no mail text (mail = FILE)", s->manifest);
		ret = -EINVAL;
	} else if (!ret && seeds) {
		rtpaths_fmt(seed, sizeof(seed), "%s/%s", seeds, s->mail);
		mbox = seed;
	}
	if (!ret && !strcmp(s->pick, "recover") && mbox)
		ret = recover_tree(&a, s);
	if (!ret)
		ret = kernel_patchset_fetch(s, mbox, fetch, pin);
	for (i = 0; !ret && i < s->nr; i++)
		printf("%s  %s  %s\n", s->items[i].actual, s->items[i].file,
		       s->items[i].subject);
	if (!ret && pin)
		printf("pinned in %s\n", s->manifest);
	free(s);
	return exitcode_of_errno(ret);
}

/* Applies sets to a throw-away clone of the tree (or --keep DIR). */
static int patches_check(int argc, char **argv)
{
	struct patches_args a = { .nwords = 1 };
	const char *src, *debian, *keep, *sets[16];
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	char clone[PATH_MAX + 32], log[PATH_MAX + 48], cache[PATH_MAX];
	struct kernel_tree tree;
	struct kernel_patch_set *s;
	int ret, i, n = 0;

	ret = cli_parse("patches check", &check_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	src = a.src;
	debian = a.debian;
	keep = a.keep;
	ret = split_list(a.set, sets, &n, 16, "patch sets");
	if (ret)
		return exitcode_of_errno(ret);
	if (rtpaths_out(out, sizeof(out)) ||
	    rtpaths_cache(cache, sizeof(cache)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches"))
		return EXITCODE_ENVIRONMENT;
	rtpaths_fmt(fetch, sizeof(fetch), "%s/patches", out);
	toolrun_catch_signals();
	/* The clone goes into the cache: it must exist (a fresh out/). */
	if (!keep && fsio_mkdir_p(cache, 0755)) {
		pr_err("%s: cannot create it", cache);
		return EXITCODE_ENVIRONMENT;
	}
	ret = kernel_tree_open(src, debian, cache, &tree);
	if (ret)
		return exitcode_of_errno(ret);
	if (keep)
		rtpaths_fmt(clone, sizeof(clone), "%s", keep);
	else
		rtpaths_fmt(clone, sizeof(clone), "%s/check.%d", cache,
			 getpid());
	rtpaths_fmt(log, sizeof(log), "%s.patch.log", clone);
	unlink(log);
	ret = kernel_tree_clone(&tree, clone);
	s = calloc(1, sizeof(*s));
	if (!s)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		ret = kernel_patchset_open(pd, sets[i], fetch, s);
		if (!ret)
			ret = kernel_patchset_apply(s, clone, log);
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
	return exitcode_of_errno(ret);
}

static int patches_recover(int argc, char **argv)
{
	struct patches_args a = { .nwords = 1 };
	struct kernel_tree tree;
	char cache[PATH_MAX], *text;
	size_t len;
	int ret;

	ret = cli_parse("patches recover", &recover_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (!a.src && !a.debian) {
		pr_err("patches recover needs the base tree: --src TREE or "
		       "--debian SERIES");
		return EXITCODE_BAD_INPUT;
	}
	if (rtpaths_cache(cache, sizeof(cache)))
		return EXITCODE_ENVIRONMENT;
	ret = kernel_tree_open(a.src, a.debian, cache, &tree);
	if (!ret)
		ret = kernel_mail_recover(a.set, tree.path, &text, &len);
	if (ret)
		return exitcode_of_errno(ret);
	if (a.output)
		ret = fsio_write_atomic(a.output, text, len);
	else if (fwrite(text, 1, len, stdout) != len || fflush(stdout))
		ret = -EIO;
	if (ret)
		pr_err("%s: %s", a.output ? a.output : "standard output",
		       strerror(-ret));
	free(text);
	return exitcode_of_errno(ret);
}

static int patches_list(int argc, char **argv)
{
	char out[PATH_MAX], pd[PATH_MAX], fetch[PATH_MAX + 16];
	struct patches_args a = { 0 };
	struct dirent **names;
	struct kernel_patch_set *s;
	int i, n;

	n = cli_parse("patches list", &list_argp, argc, argv, 0, &a);
	if (n)
		return cli_exit(n);
	s = calloc(1, sizeof(*s));
	if (!s || rtpaths_out(out, sizeof(out)) ||
	    rtpaths_in_top(pd, sizeof(pd), "patches")) {
		free(s);
		return EXITCODE_ENVIRONMENT;
	}
	rtpaths_fmt(fetch, sizeof(fetch), "%s/patches", out);
	n = scandir(pd, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    !kernel_patchset_load(pd, names[i]->d_name, s)) {
			const char *state = s->nr_sets ? "list of sets" :
					    s->own ? "own" : "not fetched";
			char series[2 * PATH_MAX + 96];

			rtpaths_fmt(series, sizeof(series), "%s/%s/series",
				    fetch, s->name);
			if (!s->own && !s->nr_sets && fsio_exists(series))
				state = "fetched";
			printf("%-24s %-12s %s\n", s->name, state,
			       s->description);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(s);
	return EXITCODE_PASS;
}

int kernel_cmd_patches(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "fetch", "SET [--mbox FILE | --seeds DIR] [--pin] "
		  "[--src TREE | --debian SERIES]",
		  "fetch a patch set (b4, mbox, the seed mail)",
		  patches_fetch },
		{ "recover", "MAIL (--src TREE | --debian SERIES) "
		  "[--output FILE]", "rebuild a flattened mail's patch "
		  "against its base tree", patches_recover },
		{ "check", "SET[,SET...] [--src TREE | --debian SERIES] "
		  "[--keep DIR]", "check that patch sets apply",
		  patches_check },
		{ "list", "", "the patch sets and whether they are fetched",
		  patches_list },
	};

	return cli_dispatch("patches", "Patch sets from the threads, fetched "
			    "(b4, mbox), never committed (docs/kernels.md).",
			    subs, sizeof(subs) / sizeof(subs[0]), argc, argv);
}
