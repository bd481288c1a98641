// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild: the kernel-build load of the slice-extension V5 thread (`make
 * -j20` on linux.git beside `while :; do hackbench 50; done`): make -jN on
 * a real tree in a scratch O= directory, in a loop with `make clean`
 * between rounds. Without a tree, a generated compile load, and the
 * summary says which one ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsio.h"
#include "log.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/loop/wl_proc.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"
#include "workloads/kbuild/kbuild.h"

#define NAME			"kbuild"
#define SYNTH_FILES		48
#define MAX_FAILS_IN_ROW	3

struct kb_run {
	int synthetic;
	char tree[PATH_MAX];
	char version[32];
	char out[PATH_MAX];
	int out_is_ours;	/* a scratch directory we remove */
	char tmp[PATH_MAX];	/* the compilers' TMPDIR, removed at the end */
	struct kb_counts counts;
	uint64_t rounds, failures, interrupted;
	char last_error[128];
};

enum {
	OPT_SOURCE = 256, OPT_TARBALL, OPT_CACHE, OPT_PREPARE, OPT_TARGET,
	OPT_CONFIG, OPT_NICE, OPT_JOBS_PER_CPU,
};

static const struct option long_opts[] = {
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "tree", required_argument, NULL, 'T' },
	{ "tarball", required_argument, NULL, OPT_TARBALL },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "prepare", no_argument, NULL, OPT_PREPARE },
	{ "out", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "jobs-per-cpu", required_argument, NULL, OPT_JOBS_PER_CPU },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "nice", required_argument, NULL, OPT_NICE },
	WL_OPT_DURATION,
	{ "rounds", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " [OPTIONS]\n"
"A kernel-build load: make -jN on a Linux source tree in a scratch O=\n"
"directory, in a loop with `make clean` between rounds, until SIGTERM/\n"
"SIGINT, --duration or --rounds. Without a tree, a generated compile load\n"
"(the summary says which ran). One-line JSON summary on stdout.\n"
"\n"
"      --source S       auto (default): the tree if there is one, else the\n"
"                       generated load; tree: a tree or exit 4; synthetic\n"
"  -T, --tree DIR       an extracted kernel source tree\n"
"      --tarball FILE   a source tarball to extract into --cache (default\n"
"                       " KB_DEFAULT_TARBALL ", Debian's\n"
"                       linux-source-6.12, when installed)\n"
"      --cache DIR      where tarballs are extracted, once (default\n"
"                       $XDG_CACHE_HOME/rtgate/kbuild or ~/.cache/…)\n"
"      --prepare        extract the tarball if needed, print the tree, exit\n"
"  -o, --out DIR        the O= build directory (default: a scratch\n"
"                       directory under $TMPDIR, removed at the end)\n"
"  -j, --jobs N         make -jN (default: the CPUs allowed)\n"
"      --jobs-per-cpu N make -j(N x the CPUs allowed), e.g. 2: -j16 on 8\n"
"      --target T       make target (default: make's default, all)\n"
"      --config T       the config target run first (default defconfig)\n"
"      --nice N         run make at nice N (default 0)\n"
"  -n, --rounds N       stop after N completed rounds\n"
"  -v, --verbose        copy make's output to stderr\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"Exit: 0 done, 1 the build failed %d times in a row, 2 usage,\n"
"4 no tree (--source tree) or no make/compiler.\n", MAX_FAILS_IN_ROW);
}

/* make targets: letters, digits, '_', '-', '.', '/'; never an option. */
static int check_word(const char *opt, const char *arg, const char *suffix)
{
	size_t len = strlen(arg), sl = suffix ? strlen(suffix) : 0;

	if (len && arg[0] != '-' && len < 128 &&
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_-./") == len &&
	    (!sl || (len > sl && !strcmp(arg + len - sl, suffix))))
		return 0;
	pr_err("%s: '%s' is not a make %s", opt, arg,
	       suffix ? "config target (e.g. defconfig)" : "target");
	return -EINVAL;
}

static int parse_one(int c, void *ctx)
{
	static const char *const sources[] = { "auto", "tree", "synthetic",
					       NULL };
	struct kb_params *p = ctx;
	int idx, ret;

	switch (c) {
	case OPT_SOURCE:
		ret = wl_opt_choice("--source", optarg, sources, &idx);
		p->source = idx;
		return ret;
	case 'T':
		p->tree = optarg;
		return 0;
	case OPT_TARBALL:
		p->tarball = optarg;
		p->tarball_given = 1;
		return 0;
	case OPT_CACHE:
		snprintf(p->cache, sizeof(p->cache), "%s", optarg);
		return *optarg ? 0 : -EINVAL;
	case OPT_PREPARE:
		p->prepare_only = 1;
		return 0;
	case 'o':
		p->out = optarg;
		return 0;
	case 'j':
		return wl_opt_uint("--jobs", optarg, 1, 1024, &p->jobs);
	case OPT_JOBS_PER_CPU:
		ret = wl_opt_uint("--jobs-per-cpu", optarg, 1, 64, &p->jobs);
		p->jobs *= wl_cpu_count_allowed();
		return ret;
	case OPT_TARGET:
		p->target = optarg;
		return check_word("--target", optarg, NULL);
	case OPT_CONFIG:
		p->config = optarg;
		return check_word("--config", optarg, "config");
	case OPT_NICE:
		return wl_opt_int("--nice", optarg, -20, 19, &p->nice);
	case 'n':
		return wl_opt_u64("--rounds", optarg, 1, UINT32_MAX,
				  &p->max_rounds);
	case 'v':
		p->verbose = 1;
		return 0;
	default:
		return -EINVAL;
	}
}

static int check_params(void *ctx)
{
	const struct kb_params *p = ctx;

	if (p->source == KB_SYNTHETIC && (p->tree || p->tarball_given)) {
		pr_err("--source synthetic: --tree/--tarball make no sense with it");
		return -EINVAL;
	}
	if (p->tree && p->tarball_given) {
		pr_err("--tree and --tarball: give one source");
		return -EINVAL;
	}
	if (p->tarball_given && !fsio_exists(p->tarball)) {
		pr_err("--tarball: %s does not exist", p->tarball);
		return -EINVAL;
	}
	return 0;
}

static const struct wl_opts opts = {
	"T:o:j:d:n:vh", long_opts, parse_one, check_params,
	offsetof(struct kb_params, co),
};

static void default_cache(struct kb_params *p)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(p->cache, sizeof(p->cache), "%s/rtgate/kbuild", xdg);
	else if (home && *home)
		snprintf(p->cache, sizeof(p->cache), "%s/.cache/rtgate/kbuild",
			 home);
	else
		snprintf(p->cache, sizeof(p->cache), "/var/cache/rtgate/kbuild");
}

/* Picks the tree or the fallback; returns an exit code, or -1 to go on. */
static int resolve_source(const struct kb_params *p, struct kb_run *r)
{
	int ret;

	if (p->source == KB_SYNTHETIC) {
		r->synthetic = 1;
		return -1;
	}
	ret = kb_tree_find(p, r->tree);
	if (!ret) {
		kb_tree_version(r->tree, r->version, sizeof(r->version));
		return -1;
	}
	if (ret == -ENOENT && p->tree)
		return WL_EXIT_USAGE;	/* --tree named something else */
	if (ret == -ENOENT && p->source == KB_AUTO) {
		pr_warn("no kernel tree (%s is not installed): running the synthetic compile load",
			p->tarball);
		r->synthetic = 1;
		r->tree[0] = '\0';
		return -1;
	}
	if (ret == -ENOENT)
		pr_err("--source tree: no kernel tree (--tree, or %s)",
		       p->tarball);
	return ret == -EINTR ? WL_EXIT_OK : WL_EXIT_ENVIRONMENT;
}

static int make_out(const struct kb_params *p, struct kb_run *r)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	if (p->out) {
		snprintf(r->out, sizeof(r->out), "%s", p->out);
		ret = fsio_mkdir_p(r->out, 0755);
		if (ret)
			pr_err("--out: %s: %s", r->out, strerror(-ret));
		return ret;
	}
	snprintf(r->out, sizeof(r->out), "%s/rtgate-kbuild.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(r->out)) {
		pr_err("mkdtemp %s: %s", r->out, strerror(errno));
		return -errno;
	}
	r->out_is_ours = 1;
	return 0;
}

static void rm_rf(const char *path)
{
	char *rm[] = { "rm", "-rf", (char *)path, NULL };
	int status, fd;
	pid_t pid;

	if (wl_proc_spawn(rm, &pid, &fd, WL_SPAWN_MERGE_STDERR))
		return;
	close(fd);
	waitpid(pid, &status, 0);
}

/*
 * Compilers killed by our stop leave their temporary files behind: they
 * get a TMPDIR of their own inside the build directory, removed with it.
 */
static int make_tmp(struct kb_run *r)
{
	int n = snprintf(r->tmp, sizeof(r->tmp), "%s/.rtgate-tmp", r->out);

	if (n < 0 || (size_t)n >= sizeof(r->tmp) ||
	    fsio_mkdir_p(r->tmp, 0700) || setenv("TMPDIR", r->tmp, 1)) {
		pr_err("%s: cannot make a temporary directory", r->out);
		r->tmp[0] = '\0';
		return -EIO;
	}
	return 0;
}

static void remove_out(const struct kb_run *r)
{
	if (*r->tmp)
		rm_rf(r->tmp);
	/* Only the scratch directory we made, never a user's --out. */
	if (r->out_is_ours && *r->out)
		rm_rf(r->out);
}

/* [nice -n N] make -C SRC [O=OUT] [-jN] WORDS… */
static void make_argv(const struct kb_params *p, const struct kb_run *r,
		      const char *w1, int with_jobs, char *argv[],
		      char bufs[][PATH_MAX + 8])
{
	int n = 0;

	if (p->nice) {
		snprintf(bufs[0], PATH_MAX, "%d", p->nice);
		argv[n++] = "nice";
		argv[n++] = "-n";
		argv[n++] = bufs[0];
	}
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)(r->synthetic ? r->out : r->tree);
	if (!r->synthetic) {
		snprintf(bufs[1], PATH_MAX + 8, "O=%s", r->out);
		argv[n++] = bufs[1];
		argv[n++] = "--no-print-directory";
	}
	if (with_jobs) {
		snprintf(bufs[2], PATH_MAX, "-j%u", p->jobs);
		argv[n++] = bufs[2];
	}
	if (w1)
		argv[n++] = (char *)w1;
	argv[n] = NULL;
}

/* One make step; returns 1 when stopped, 0 done, -errno not started. */
static int step(const struct kb_params *p, struct kb_run *r, const char *word,
		int with_jobs, int *ok)
{
	char bufs[3][PATH_MAX + 8], *argv[16];
	int status = 0, ret;

	make_argv(p, r, word, with_jobs, argv, bufs);
	ret = kb_make_run(argv, p, &r->counts, &status);
	if (ret)
		return ret;
	*ok = WIFEXITED(status) && !WEXITSTATUS(status);
	if (!*ok)
		snprintf(r->last_error, sizeof(r->last_error),
			 "make %s: %s %d", word ? word : "(default)",
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) :
			 WTERMSIG(status));
	return 0;
}

/* Config once, then rounds of build + clean. Returns an exit code. */
static int build_loop(const struct kb_params *p, struct kb_run *r)
{
	unsigned int in_row = 0;
	int ret, ok = 1;

	if (!r->synthetic) {
		ret = step(p, r, p->config, 0, &ok);
		r->interrupted += ret > 0;
		if (ret)
			return ret < 0 ? WL_EXIT_ENVIRONMENT : WL_EXIT_OK;
		if (!ok) {
			pr_err("%s", r->last_error);
			r->failures++;
			return WL_EXIT_FAILURE;
		}
	}
	while (!wl_stopping()) {
		ret = step(p, r, p->target, 1, &ok);
		if (ret > 0) {
			r->interrupted++;
			break;
		}
		if (ret < 0)
			return WL_EXIT_ENVIRONMENT;
		r->rounds += ok;
		r->failures += !ok;
		in_row = ok ? 0 : in_row + 1;
		if (in_row >= MAX_FAILS_IN_ROW) {
			pr_err("the build failed %u times in a row: %s",
			       in_row, r->last_error);
			return WL_EXIT_FAILURE;
		}
		if (p->max_rounds && r->rounds >= p->max_rounds)
			break;
		if (step(p, r, "clean", 0, &ok) > 0)
			break;
	}
	return WL_EXIT_OK;
}

static int print_summary(const struct kb_params *p, const struct kb_run *r,
			 double duration_s)
{
	struct wl_work work = {
		.work_done = (double)(r->counts.objects +
				      r->counts.host_objects),
		.unit = "objects compiled",
		.errors = r->failures,
		.duration_s = duration_s,
	};
	cJSON *s = wl_summary_new(NAME, &work);

	if (!s)
		return -ENOMEM;
	wl_summary_str(s, "source", r->synthetic ? "synthetic" : "linux-tree");
	if (!r->synthetic) {
		wl_summary_str(s, "tree", r->tree);
		wl_summary_str(s, "tree_version", r->version);
		wl_summary_str(s, "config", p->config);
	} else {
		wl_summary_u64(s, "synthetic_files", SYNTH_FILES);
	}
	wl_summary_str(s, "target", p->target ? p->target : "");
	wl_summary_u64(s, "jobs", p->jobs);
	wl_summary_num(s, "nice", p->nice, 0);
	wl_summary_u64(s, "rounds", r->rounds);
	wl_summary_u64(s, "failures", r->failures);
	wl_summary_u64(s, "interrupted", r->interrupted);
	wl_summary_u64(s, "objects", r->counts.objects);
	wl_summary_u64(s, "host_objects", r->counts.host_objects);
	if (r->failures)
		wl_summary_str(s, "last_error", r->last_error);
	return wl_summary_print(s);
}

static int print_prepared(const struct kb_run *r)
{
	cJSON *s = wl_summary_bare(NAME);

	if (!s)
		return -ENOMEM;
	wl_summary_str(s, "source", r->synthetic ? "synthetic" : "linux-tree");
	wl_summary_str(s, "tree", r->tree);
	wl_summary_str(s, "tree_version", r->version);
	return wl_summary_print(s);
}

/*
 * RTGATE_KBUILD_SOURCE=auto|tree|synthetic: the default of --source, so
 * that a scaled-down test run of a suite can use the synthetic load while
 * the suite keeps the published kernel build (--source still wins).
 */
static int env_source(struct kb_params *p)
{
	static const char *const sources[] = { "auto", "tree", "synthetic",
					       NULL };
	const char *env = getenv("RTGATE_KBUILD_SOURCE");
	int idx, ret;

	if (!env || !*env)
		return 0;
	ret = wl_opt_choice("RTGATE_KBUILD_SOURCE", env, sources, &idx);
	if (!ret)
		p->source = idx;
	return ret;
}

int main(int argc, char **argv)
{
	struct kb_params p = {
		.tarball = KB_DEFAULT_TARBALL, .config = "defconfig",
	};
	struct kb_run r = { 0 };
	uint64_t start;
	int ret, code;

	if (wl_init(NAME))
		return WL_EXIT_USAGE;
	default_cache(&p);
	p.jobs = wl_cpu_count_allowed();
	/* Test runs of a suite ask for the cheap load without editing it. */
	if (env_source(&p))
		return WL_EXIT_USAGE;
	ret = wl_opt_parse(argc, argv, &opts, &p);
	if (ret)
		return wl_opt_exit(ret, usage);
	if (wl_proc_init())
		return WL_EXIT_ENVIRONMENT;

	start = wl_now_ns();
	if (wl_stop_after(p.co.duration_ns))
		return WL_EXIT_ENVIRONMENT;
	code = resolve_source(&p, &r);
	if (code >= 0)
		return code;
	if (p.prepare_only)
		return print_prepared(&r) ? WL_EXIT_FAILURE : WL_EXIT_OK;
	if (make_out(&p, &r))
		return WL_EXIT_ENVIRONMENT;
	if (make_tmp(&r) ||
	    (r.synthetic && kb_synth_write(r.out, SYNTH_FILES))) {
		remove_out(&r);
		return WL_EXIT_ENVIRONMENT;
	}
	code = build_loop(&p, &r);
	wl_proc_kill_all();
	if (print_summary(&p, &r, wl_elapsed_s(start, wl_now_ns())))
		code = WL_EXIT_FAILURE;
	remove_out(&r);
	return code;
}
