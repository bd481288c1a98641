// SPDX-License-Identifier: GPL-2.0-only
/* Command lines of `rtgate lab run` and `rtgate lab gate`. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "lab.h"
#include "lab_gate.h"
#include "lab_run.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

static const char lab_usage[] =
	"usage: rtgate lab run (--kernel DIR|NAME | --debian-kernel rt|std)\n"
	"                      (--suite SUITE [-- RUN-ARGS] | --exec -- CMD "
	"[ARGS])\n"
	"                      [--append CMDLINE] [--accel auto|kvm|tcg] "
	"[--cpus N]\n"
	"                      [--mem MB] [--timeout DURATION] [--with PROG] "
	"[--out DIR] [-v]\n"
	"                      [--duration-scale F] [--repeat N] [--trace MODE] "
	"[--no-history]\n"
	"                      [--tcg-thread single|multi] "
	"[--on-crash rerun|stop]\n"
	"       rtgate lab initramfs (--kernel K | --debian-kernel F) "
	"[--suite S] [--with PROG]\n"
	"       rtgate lab gate KERNEL_A KERNEL_B --suite SUITE [--append-a "
	"CMDLINE]\n"
	"                      [--append-b CMDLINE] [--scenario S] [lab run "
	"options] [-- RUN-ARGS]\n"
	"KERNEL: a folder from `rtgate kernel build`, a NAME under "
	"out/kernels, or\ndebian:rt / debian:std (Debian's prebuilt 6.1 "
	"images). RUN-ARGS go to\n`rtgate run` inside the guest. "
	"See docs/kernels.md.\n";

enum { OPT_KERNEL = 1000, OPT_DEBIAN, OPT_SUITE, OPT_EXEC, OPT_APPEND,
       OPT_APPEND_A, OPT_APPEND_B, OPT_ACCEL, OPT_CPUS, OPT_MEM,
       OPT_TIMEOUT, OPT_WITH, OPT_OUT, OPT_SCENARIO, OPT_RUN_SCALE,
       OPT_RUN_REPEAT, OPT_RUN_TRACE, OPT_RUN_NO_HISTORY, OPT_TCG_THREAD,
       OPT_ON_CRASH };

static const struct option lab_opts[] = {
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "debian-kernel", required_argument, NULL, OPT_DEBIAN },
	{ "suite", required_argument, NULL, OPT_SUITE },
	{ "exec", no_argument, NULL, OPT_EXEC },
	{ "append", required_argument, NULL, OPT_APPEND },
	{ "append-a", required_argument, NULL, OPT_APPEND_A },
	{ "append-b", required_argument, NULL, OPT_APPEND_B },
	{ "accel", required_argument, NULL, OPT_ACCEL },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "with", required_argument, NULL, OPT_WITH },
	{ "tcg-thread", required_argument, NULL, OPT_TCG_THREAD },
	{ "on-crash", required_argument, NULL, OPT_ON_CRASH },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	/* `rtgate run`'s own options, passed to the guest as they are. */
	{ "duration-scale", required_argument, NULL, OPT_RUN_SCALE },
	{ "repeat", required_argument, NULL, OPT_RUN_REPEAT },
	{ "trace", required_argument, NULL, OPT_RUN_TRACE },
	{ "no-history", no_argument, NULL, OPT_RUN_NO_HISTORY },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct lab_cmd {
	struct lab_run_params p;
	const char *debian;
	const char *append_a, *append_b;
	bool exec;
	const char *scenarios[16];
	int nr_scenarios;
	char out[PATH_MAX], results[PATH_MAX];
};

static int number(const char *opt, const char *arg, uint64_t min,
		  uint64_t max, int *out)
{
	uint64_t v;

	if (parse_u64_range(arg, min, max, &v)) {
		pr_err("--%s: '%s' is not a number in %llu..%llu", opt, arg,
		       (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* A run option given to lab run/gate itself: the guest's rtgate run. */
static int run_arg(struct lab_run_params *p, int c, const char *arg)
{
	static const char *const names[] = {
		[OPT_RUN_SCALE - OPT_RUN_SCALE] = "--duration-scale",
		[OPT_RUN_REPEAT - OPT_RUN_SCALE] = "--repeat",
		[OPT_RUN_TRACE - OPT_RUN_SCALE] = "--trace",
		[OPT_RUN_NO_HISTORY - OPT_RUN_SCALE] = "--no-history",
	};

	if (p->nr_args + 2 > LAB_MAX_ARGS)
		return -E2BIG;
	p->args[p->nr_args++] = names[c - OPT_RUN_SCALE];
	if (arg)
		p->args[p->nr_args++] = arg;
	return 0;
}

static int parse_opt(struct lab_cmd *lc, int c)
{
	struct lab_run_params *p = &lc->p;
	uint64_t ns;

	switch (c) {
	case OPT_KERNEL: p->kernel = optarg; return 0;
	case OPT_DEBIAN: lc->debian = optarg; return 0;
	case OPT_SUITE: p->suite = optarg; return 0;
	case OPT_EXEC: lc->exec = true; return 0;
	case OPT_APPEND: p->append = optarg; return 0;
	case OPT_APPEND_A: lc->append_a = optarg; return 0;
	case OPT_APPEND_B: lc->append_b = optarg; return 0;
	case OPT_OUT: p->results_dir = optarg; return 0;
	case 'v': p->verbose = true; return 0;
	case OPT_ACCEL:
		if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") &&
		    strcmp(optarg, "tcg")) {
			pr_err("--accel: auto, kvm or tcg, not '%s'", optarg);
			return -EINVAL;
		}
		p->accel = optarg;
		return 0;
	case OPT_TCG_THREAD:
		if (strcmp(optarg, "single") && strcmp(optarg, "multi")) {
			pr_err("--tcg-thread: single or multi, not '%s'",
			       optarg);
			return -EINVAL;
		}
		p->tcg_single = !strcmp(optarg, "single");
		return 0;
	case OPT_ON_CRASH:
		if (strcmp(optarg, "rerun") && strcmp(optarg, "stop")) {
			pr_err("--on-crash: rerun or stop, not '%s'", optarg);
			return -EINVAL;
		}
		p->rerun_on_crash = !strcmp(optarg, "rerun");
		return 0;
	case OPT_CPUS: return number("cpus", optarg, 1, 64, &p->cpus);
	case OPT_MEM: return number("mem", optarg, 256, 65536, &p->mem_mb);
	case OPT_TIMEOUT:
		if (parse_duration_ns(optarg, &ns) || ns < 1000000000ULL) {
			pr_err("--timeout: '%s' is not a duration of 1s or "
			       "more (30s, 10m)", optarg);
			return -EINVAL;
		}
		p->timeout_s = ns / 1000000000ULL;
		return 0;
	case OPT_SCENARIO:
		if (lc->nr_scenarios == 16)
			return -E2BIG;
		lc->scenarios[lc->nr_scenarios++] = optarg;
		return 0;
	case OPT_RUN_SCALE:
	case OPT_RUN_REPEAT:
	case OPT_RUN_TRACE:
	case OPT_RUN_NO_HISTORY:
		return run_arg(p, c, optarg);
	case OPT_WITH:
		if (p->nr_tools == 16)
			return -E2BIG;
		p->tools[p->nr_tools++] = optarg;
		return 0;
	default:
		fputs(lab_usage, stderr);
		return -EINVAL;
	}
}

/* Options, then positional arguments up to "--", then the rest. */
static int parse(int argc, char **argv, struct lab_cmd *lc,
		 const char **pos, int *nr_pos, int max_pos)
{
	struct lab_run_params *p = &lc->p;
	int c, ret, i;

	p->accel = "auto";
	p->cpus = 2;
	p->mem_mb = 1024;
	p->timeout_s = 1800;
	optind = 1;
	for (;;) {
		c = getopt_long(argc, argv, "+vh", lab_opts, NULL);
		if (c == 'h') {
			fputs(lab_usage, stdout);
			return 1;
		}
		if (c != -1) {
			ret = parse_opt(lc, c);
			if (ret)
				return ret;
			continue;
		}
		/* getopt stops at "--" (consumed) or at a positional. */
		if (optind >= argc || !strcmp(argv[optind - 1], "--"))
			break;
		if (*nr_pos == max_pos) {
			pr_err("unexpected argument '%s' (arguments for the "
			       "guest go after --)", argv[optind]);
			return -EINVAL;
		}
		pos[(*nr_pos)++] = argv[optind++];
	}
	for (i = optind; i < argc; i++) {
		const char **dst = lc->exec ? p->exec : p->args;
		int *n = lc->exec ? &p->nr_exec : &p->nr_args;

		if (*n == LAB_MAX_ARGS)
			return -E2BIG;
		dst[(*n)++] = argv[i];
	}
	if (rtpaths_out(lc->out, sizeof(lc->out)))
		return -ENAMETOOLONG;
	p->out_dir = lc->out;
	if (!p->results_dir) {
		if (rtpaths_results(lc->results, sizeof(lc->results)))
			return -ENAMETOOLONG;
		p->results_dir = lc->results;
	}
	return 0;
}

static int lab_run_cmd(int argc, char **argv)
{
	struct lab_cmd lc = { 0 };
	struct lab_run_result res;
	const char *pos[1];
	int nr_pos = 0, ret;
	char spec[32];

	ret = parse(argc, argv, &lc, pos, &nr_pos, 0);
	if (ret)
		return ret > 0 ? EXIT_PASS : lab_exit_code(ret);
	if (!lc.p.kernel == !lc.debian || (!lc.p.suite == !lc.exec) ||
	    (lc.exec && !lc.p.nr_exec) || lc.append_a || lc.append_b) {
		pr_err("lab run needs one of --kernel/--debian-kernel and one "
		       "of --suite/--exec -- CMD");
		fputs(lab_usage, stderr);
		return EXIT_BAD_INPUT;
	}
	if (lc.debian) {
		rtpath_fmt(spec, sizeof(spec), "debian:%s", lc.debian);
		lc.p.kernel = spec;
	}
	toolrun_catch_signals();
	ret = lab_run(&lc.p, &res);
	if (ret)
		return lab_exit_code(ret);
	if (res.run_dir[0])
		printf("%s\n", res.run_dir);
	return res.exit_code;
}

static int lab_initramfs_cmd(int argc, char **argv)
{
	struct lab_cmd lc = { 0 };
	char path[PATH_MAX], spec[32];
	const char *pos[1];
	int nr_pos = 0, ret;

	ret = parse(argc, argv, &lc, pos, &nr_pos, 0);
	if (ret)
		return ret > 0 ? EXIT_PASS : lab_exit_code(ret);
	if (!lc.p.kernel == !lc.debian) {
		pr_err("lab initramfs needs --kernel or --debian-kernel");
		return EXIT_BAD_INPUT;
	}
	if (lc.debian) {
		rtpath_fmt(spec, sizeof(spec), "debian:%s", lc.debian);
		lc.p.kernel = spec;
	}
	ret = lab_initramfs(&lc.p, path, sizeof(path));
	if (ret)
		return lab_exit_code(ret);
	printf("%s\n", path);
	return EXIT_PASS;
}

/* Every scenario of the baseline's manifest (or --scenario's), compared. */
static int compare_runs(const struct lab_cmd *lc, const char *a,
			const char *b, const char *out)
{
	return lab_gate_compare(a, b, lc->scenarios, lc->nr_scenarios, out);
}

static int lab_gate_cmd(int argc, char **argv)
{
	struct lab_cmd lc = { 0 };
	struct lab_run_result ra, rb;
	char out[3 * PATH_MAX];
	const char *pos[2];
	int nr_pos = 0, ret;

	ret = parse(argc, argv, &lc, pos, &nr_pos, 2);
	if (ret)
		return ret > 0 ? EXIT_PASS : lab_exit_code(ret);
	if (nr_pos != 2 || !lc.p.suite || lc.exec || lc.p.kernel ||
	    lc.debian) {
		pr_err("lab gate needs KERNEL_A KERNEL_B and --suite");
		fputs(lab_usage, stderr);
		return EXIT_BAD_INPUT;
	}
	toolrun_catch_signals();
	lc.p.kernel = pos[0];
	lc.p.label = "a";
	if (lc.append_a)
		lc.p.append = lc.append_a;
	ret = lab_run(&lc.p, &ra);
	if (ret)
		return lab_exit_code(ret);
	if (ra.exit_code > EXIT_INCONCLUSIVE || !ra.run_dir[0]) {
		pr_err("lab gate: the run on %s did not complete (exit %d)",
		       pos[0], ra.exit_code);
		return ra.exit_code > EXIT_INCONCLUSIVE ? ra.exit_code :
		       EXIT_INCOMPLETE;
	}
	lc.p.kernel = pos[1];
	lc.p.label = "b";
	lc.p.append = lc.append_b ? lc.append_b : lc.append_a ? NULL :
		      lc.p.append;
	ret = lab_run(&lc.p, &rb);
	if (ret)
		return lab_exit_code(ret);
	if (rb.exit_code > EXIT_INCONCLUSIVE || !rb.run_dir[0]) {
		pr_err("lab gate: the run on %s did not complete (exit %d)",
		       pos[1], rb.exit_code);
		return rb.exit_code > EXIT_INCONCLUSIVE ? rb.exit_code :
		       EXIT_INCOMPLETE;
	}
	rtpath_fmt(out, sizeof(out), "%s/gate-%s-vs-%s",
		   lc.p.results_dir, strrchr(ra.run_dir, '/') + 1,
		   strrchr(rb.run_dir, '/') + 1);
	ret = compare_runs(&lc, ra.run_dir, rb.run_dir, out);
	pr_info("lab gate: %s vs %s: exit %d (reports: %s)", pos[0], pos[1],
		ret, out);
	return ret;
}

int cmd_lab(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(lab_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : EXIT_PASS;
	}
	if (!strcmp(argv[1], "run"))
		return lab_run_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gate"))
		return lab_gate_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "initramfs"))
		return lab_initramfs_cmd(argc - 1, argv + 1);
	pr_err("unknown lab command '%s' (run, gate, initramfs)", argv[1]);
	return EXIT_BAD_INPUT;
}
