// SPDX-License-Identifier: GPL-2.0-only
/* Command lines of `rtgate lab run` and `rtgate lab gate`. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "lab.h"
#include "lab_run.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

enum { OPT_KERNEL = 1000, OPT_DEBIAN, OPT_SUITE, OPT_EXEC, OPT_APPEND,
       OPT_APPEND_A, OPT_APPEND_B, OPT_ACCEL, OPT_CPUS, OPT_MEM,
       OPT_TIMEOUT, OPT_WITH, OPT_OUT, OPT_SCENARIO };

static const struct argp_option lab_opts[] = {
	{ NULL, 0, NULL, 0, "The kernel and what runs inside:", 1 },
	{ "kernel", OPT_KERNEL, "DIR|NAME", 0, "a folder from `rtgate kernel "
	  "build` or a NAME under out/kernels", 1 },
	{ "debian-kernel", OPT_DEBIAN, "rt|std", 0, "Debian's prebuilt 6.1 "
	  "images", 1 },
	{ "suite", OPT_SUITE, "SUITE", 0, "run this suite inside (RUN-ARGS "
	  "after -- go to `rtgate run`)", 1 },
	{ "exec", OPT_EXEC, NULL, 0, "run the command after -- inside "
	  "instead", 1 },
	{ "scenario", OPT_SCENARIO, "S", 0, "gate: compare only this scenario "
	  "(repeatable)", 1 },
	{ "with", OPT_WITH, "PROG", 0, "put PROG into the initramfs too "
	  "(repeatable)", 1 },
	{ NULL, 0, NULL, 0, "The guest:", 2 },
	{ "append", OPT_APPEND, "CMDLINE", 0, "more kernel command line", 2 },
	{ "append-a", OPT_APPEND_A, "CMDLINE", 0, "gate: KERNEL_A's command "
	  "line", 2 },
	{ "append-b", OPT_APPEND_B, "CMDLINE", 0, "gate: KERNEL_B's command "
	  "line", 2 },
	{ "accel", OPT_ACCEL, "auto|kvm|tcg", 0, "QEMU's accelerator (default "
	  "auto)", 2 },
	{ "cpus", OPT_CPUS, "N", 0, "guest CPUs (default 2)", 2 },
	{ "mem", OPT_MEM, "MB", 0, "guest memory (default 1024)", 2 },
	{ "timeout", OPT_TIMEOUT, "DURATION", 0, "the whole boot and run "
	  "(default 30m)", 2 },
	{ "out", OPT_OUT, "DIR", 0, "results directory (default results/)",
	  2 },
	{ "verbose", 'v', NULL, 0, "the guest's console on stderr", 2 },
	{ 0 }
};

struct lab_cmd {
	struct lab_run_params p;
	const char **pos;
	int *nr_pos, max_pos;
	const char *debian;
	const char *append_a, *append_b;
	bool exec;
	const char *scenarios[16];
	int nr_scenarios;
	char out[PATH_MAX], results[PATH_MAX];
};

static int number(const struct argp_state *state, const char *opt,
		  const char *arg, uint64_t min, uint64_t max, int *out)
{
	uint64_t v;

	if (parse_u64_range(arg, min, max, &v))
		return cli_error(state, "--%s: '%s' is not a number in "
				 "%llu..%llu", opt, arg,
				 (unsigned long long)min,
				 (unsigned long long)max);
	*out = v;
	return 0;
}

/* The words after "--": RUN-ARGS for the guest's rtgate, or --exec's. */
static error_t guest_args(struct lab_cmd *lc, struct argp_state *state)
{
	struct lab_run_params *p = &lc->p;
	int i;

	for (i = state->next - 1; i < state->argc; i++) {
		const char **dst = lc->exec ? p->exec : p->args;
		int *n = lc->exec ? &p->nr_exec : &p->nr_args;

		if (*n == LAB_MAX_ARGS)
			return cli_error(state, "too many arguments after --");
		dst[(*n)++] = state->argv[i];
	}
	state->next = state->argc;
	return 0;
}

static error_t lab_parse(int key, char *arg, struct argp_state *state)
{
	struct lab_cmd *lc = state->input;
	struct lab_run_params *p = &lc->p;
	uint64_t ns;

	switch (key) {
	case OPT_KERNEL: p->kernel = arg; return 0;
	case OPT_DEBIAN: lc->debian = arg; return 0;
	case OPT_SUITE: p->suite = arg; return 0;
	case OPT_EXEC: lc->exec = true; return 0;
	case OPT_APPEND: p->append = arg; return 0;
	case OPT_APPEND_A: lc->append_a = arg; return 0;
	case OPT_APPEND_B: lc->append_b = arg; return 0;
	case OPT_OUT: p->results_dir = arg; return 0;
	case 'v': p->verbose = true; return 0;
	case OPT_ACCEL:
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") &&
		    strcmp(arg, "tcg"))
			return cli_error(state, "--accel: auto, kvm or tcg, "
					 "not '%s'", arg);
		p->accel = arg;
		return 0;
	case OPT_CPUS: return number(state, "cpus", arg, 1, 64, &p->cpus);
	case OPT_MEM:
		return number(state, "mem", arg, 256, 65536, &p->mem_mb);
	case OPT_TIMEOUT:
		if (parse_duration_ns(arg, &ns) || ns < 1000000000ULL)
			return cli_error(state, "--timeout: '%s' is not a "
					 "duration of 1s or more (30s, 10m)",
					 arg);
		p->timeout_s = ns / 1000000000ULL;
		return 0;
	case OPT_SCENARIO:
		if (lc->nr_scenarios == 16)
			return cli_error(state, "at most 16 --scenario");
		lc->scenarios[lc->nr_scenarios++] = arg;
		return 0;
	case OPT_WITH:
		if (p->nr_tools == 16)
			return cli_error(state, "at most 16 --with");
		p->tools[p->nr_tools++] = arg;
		return 0;
	case ARGP_KEY_ARG:
		/* After "--": the guest's; before it: KERNEL_A KERNEL_B. */
		if (state->quoted && state->next - 1 >= state->quoted)
			return guest_args(lc, state);
		if (*lc->nr_pos == lc->max_pos)
			return cli_error(state, "unexpected argument '%s' "
					 "(arguments for the guest go after "
					 "--)", arg);
		lc->pos[(*lc->nr_pos)++] = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

#define LAB_POST_DOC "\vKERNEL: a folder from `rtgate kernel build`, a " \
	"NAME under out/kernels, or debian:rt / debian:std (Debian's " \
	"prebuilt 6.1 images). RUN-ARGS go to `rtgate run` inside the " \
	"guest. docs/kernels.md."

static const struct argp run_argp = {
	lab_opts, lab_parse,
	"(--kernel DIR|NAME | --debian-kernel rt|std) --suite SUITE [-- "
	"RUN-ARGS]\n(--kernel DIR|NAME | --debian-kernel rt|std) --exec -- "
	"CMD [ARG...]",
	"Boots a kernel in QEMU with an initramfs carrying rtgate, runs a suite "
	"(or a command) inside and brings the results back." LAB_POST_DOC,
	NULL, NULL, NULL
};

static const struct argp initramfs_argp = {
	lab_opts, lab_parse, "(--kernel DIR|NAME | --debian-kernel rt|std)",
	"Builds the initramfs a lab run would boot, and prints its path."
	LAB_POST_DOC, NULL, NULL, NULL
};

static const struct argp gate_argp = {
	lab_opts, lab_parse, "KERNEL_A KERNEL_B --suite SUITE [-- RUN-ARGS]",
	"One suite on two kernels, each booted in QEMU, then every scenario "
	"compared (A the baseline) with the suite's gate." LAB_POST_DOC,
	NULL, NULL, NULL
};

/* Options, positional arguments, then after "--" the guest's. */
static int parse(const char *cmd, const struct argp *argp, int argc,
		 char **argv, struct lab_cmd *lc, const char **pos,
		 int *nr_pos, int max_pos)
{
	struct lab_run_params *p = &lc->p;
	int ret;

	p->accel = "auto";
	p->cpus = 2;
	p->mem_mb = 1024;
	p->timeout_s = 1800;
	lc->pos = pos;
	lc->nr_pos = nr_pos;
	lc->max_pos = max_pos;
	ret = cli_parse(cmd, argp, argc, argv, ARGP_IN_ORDER, lc);
	if (ret)
		return ret;
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

static int exit_code(int err)
{
	switch (err) {
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

static int lab_run_cmd(int argc, char **argv)
{
	struct lab_cmd lc = { 0 };
	struct lab_run_result res;
	const char *pos[1];
	int nr_pos = 0, ret;
	char spec[32];

	ret = parse("lab run", &run_argp, argc, argv, &lc, pos, &nr_pos, 0);
	if (ret)
		return ret == CLI_DONE || ret == -EINVAL ? cli_exit(ret) :
		       exit_code(ret);
	if (!lc.p.kernel == !lc.debian || (!lc.p.suite == !lc.exec) ||
	    (lc.exec && !lc.p.nr_exec) || lc.append_a || lc.append_b) {
		return cli_exit(cli_usage_error("lab run", "one of --kernel/"
						"--debian-kernel and one of "
						"--suite/--exec -- CMD, "
						"please"));
	}
	if (lc.debian) {
		rtpath_fmt(spec, sizeof(spec), "debian:%s", lc.debian);
		lc.p.kernel = spec;
	}
	toolrun_catch_signals();
	ret = lab_run(&lc.p, &res);
	if (ret)
		return exit_code(ret);
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

	ret = parse("lab initramfs", &initramfs_argp, argc, argv, &lc, pos,
		    &nr_pos, 0);
	if (ret)
		return ret == CLI_DONE || ret == -EINVAL ? cli_exit(ret) :
		       exit_code(ret);
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
		return exit_code(ret);
	printf("%s\n", path);
	return EXIT_PASS;
}

/* The documented priority when several codes apply: 3, 4, 5, 1, 2, 0. */
static int worse_exit(int a, int b)
{
	static const int rank[] = { 0, 3, 2, 6, 5, 4 };

	if (a < 0 || a > 5)
		a = EXIT_ENVIRONMENT;
	if (b < 0 || b > 5)
		b = EXIT_ENVIRONMENT;
	return rank[a] >= rank[b] ? a : b;
}

/*
 * The suite's [gate] as compare options: `rtgate compare A:S B:S` judges
 * with the analyzer's defaults, while the suite says what matters here.
 */
struct gate_opts {
	char metric[64], alpha[32], min_us[32], min_pct[32];
};

static void gate_opts_from(const cJSON *manifest, struct gate_opts *g)
{
	const cJSON *suite = cJSON_GetObjectItem(manifest, "suite");
	const cJSON *gate = cJSON_GetObjectItem(suite, "gate");

	rtpath_fmt(g->metric, sizeof(g->metric), "%s",
		   json_get_str(gate, "metric", "max"));
	rtpath_fmt(g->alpha, sizeof(g->alpha), "%g",
		   json_get_num(gate, "alpha", 0.05));
	rtpath_fmt(g->min_us, sizeof(g->min_us), "%g",
		   json_get_num(gate, "min_increase_us", 5));
	rtpath_fmt(g->min_pct, sizeof(g->min_pct), "%g",
		   json_get_num(gate, "min_increase_pct", 10));
}

/* rtgate compare A:S B:S, reports into out/S: the analyzer's verdict. */
static int compare_scenario(const char *a, const char *b, const char *scen,
			    const struct gate_opts *g, const char *out)
{
	char self[PATH_MAX], exe[PATH_MAX + 16], sa[PATH_MAX + 80];
	char sb[PATH_MAX + 80], dir[PATH_MAX + 80];
	char *argv[] = { exe, "compare", sa, sb, "--report",
			 "txt,md,json,junit,html", "--out", dir,
			 "--metric", (char *)g->metric, "--alpha",
			 (char *)g->alpha, "--min-increase-us",
			 (char *)g->min_us, "--min-increase-pct",
			 (char *)g->min_pct, NULL };
	struct toolrun r = { .argv = argv, .inherit = true };
	int ret, status;

	if (fsio_self_dir(self, sizeof(self)))
		return EXIT_ENVIRONMENT;
	rtpath_fmt(exe, sizeof(exe), "%s/rtgate", self);
	rtpath_fmt(sa, sizeof(sa), "%s:%s", a, scen);
	rtpath_fmt(sb, sizeof(sb), "%s:%s", b, scen);
	rtpath_fmt(dir, sizeof(dir), "%s/%s", out, scen);
	if (fsio_mkdir_p(dir, 0755))
		return EXIT_ENVIRONMENT;
	pr_info("lab gate: rtgate compare %s %s (gate %s, floor %s us and "
		"%s%%)", sa, sb, g->metric, g->min_us, g->min_pct);
	ret = toolrun(&r, &status);
	if (ret)
		return exit_code(ret);
	return status;
}

/* Every scenario of the baseline's manifest (or --scenario's), compared. */
static int compare_runs(const struct lab_cmd *lc, const char *a,
			const char *b, const char *out)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	struct gate_opts g;
	const cJSON *s;
	cJSON *m;
	int code = EXIT_PASS, n = 0, i;

	rtpath_fmt(path, sizeof(path), "%s/manifest.json", a);
	if (json_read_file(path, &m, &err)) {
		pr_err("%s", err.msg);
		return EXIT_BAD_INPUT;
	}
	gate_opts_from(m, &g);
	if (lc->nr_scenarios) {
		for (i = 0; i < lc->nr_scenarios; i++)
			code = worse_exit(code, compare_scenario(a, b,
					  lc->scenarios[i], &g, out));
		n = 1;
	} else {
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios")) {
			const char *name = json_get_str(s, "name", NULL);

			if (!name)
				continue;
			code = worse_exit(code, compare_scenario(a, b, name,
					  &g, out));
			n++;
		}
	}
	cJSON_Delete(m);
	if (!n) {
		pr_err("%s: no scenarios to compare", path);
		return EXIT_BAD_INPUT;
	}
	return code;
}

static int lab_gate_cmd(int argc, char **argv)
{
	struct lab_cmd lc = { 0 };
	struct lab_run_result ra, rb;
	char out[3 * PATH_MAX];
	const char *pos[2];
	int nr_pos = 0, ret;

	ret = parse("lab gate", &gate_argp, argc, argv, &lc, pos, &nr_pos,
		    2);
	if (ret)
		return ret == CLI_DONE || ret == -EINVAL ? cli_exit(ret) :
		       exit_code(ret);
	if (nr_pos != 2 || !lc.p.suite || lc.exec || lc.p.kernel ||
	    lc.debian)
		return cli_exit(cli_usage_error("lab gate", "KERNEL_A KERNEL_B "
						"and --suite, please"));
	toolrun_catch_signals();
	lc.p.kernel = pos[0];
	lc.p.label = "a";
	if (lc.append_a)
		lc.p.append = lc.append_a;
	ret = lab_run(&lc.p, &ra);
	if (ret)
		return exit_code(ret);
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
		return exit_code(ret);
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
	static const struct cli_sub subs[] = {
		{ "run", "(--kernel K | --debian-kernel rt|std) (--suite S "
		  "[-- RUN-ARGS] | --exec -- CMD)", "boot a kernel in QEMU, "
		  "run a suite inside", lab_run_cmd },
		{ "gate", "KERNEL_A KERNEL_B --suite SUITE [OPTION...]",
		  "one suite on two kernels, judged", lab_gate_cmd },
		{ "initramfs", "(--kernel K | --debian-kernel rt|std)",
		  "the initramfs a lab run boots", lab_initramfs_cmd },
	};

	return cli_dispatch("lab", "The QEMU lab: built kernels booted with "
			    "rtgate inside, the results brought back "
			    "(docs/kernels.md).", subs,
			    sizeof(subs) / sizeof(subs[0]), argc, argv);
}
