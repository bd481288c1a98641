// SPDX-License-Identifier: GPL-2.0-only
/* Command lines of `rtgate lab run` and `rtgate lab gate`. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "debapt.h"
#include "lab.h"
#include "lab_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

enum { OPT_KERNEL = 1000, OPT_DEBIAN, OPT_SUITE, OPT_EXEC,
       OPT_APPEND_A, OPT_APPEND_B, OPT_CPUS, OPT_MEM, OPT_WITH, OPT_OUT,
       OPT_SCENARIO, OPT_RUN_SCALE, OPT_RUN_REPEAT, OPT_RUN_TRACE,
       OPT_RUN_NO_HISTORY, OPT_RUN_DURATION, OPT_LOUD };

/* A boot's options (lab.h), which bisect takes too. */
const struct argp_option lab_boot_options[] = {
	{ NULL, 0, NULL, 0, "The guest:", 3 },
	{ "append", LAB_BOOT_APPEND, "CMDLINE", 0, "more kernel command line",
	  3 },
	{ "accel", LAB_BOOT_ACCEL, "auto|kvm|tcg", 0, "QEMU's accelerator "
	  "(default auto)", 3 },
	{ "timeout", LAB_BOOT_TIMEOUT, "DURATION", 0, "the whole boot and run "
	  "(default 30m)", 3 },
	{ "tcg-thread", LAB_BOOT_TCG_THREAD, "single|multi", 0, "TCG's "
	  "threads (default multi; single for scenarios that flip sched "
	  "features)", 3 },
	{ "on-crash", LAB_BOOT_ON_CRASH, "rerun|stop", 0, "a guest that "
	  "crashed: boot again single-threaded to tell a reproducible crash "
	  "from a TCG artefact (default stop)", 3 },
	{ "verbose", LAB_BOOT_VERBOSE, NULL, 0, "the guest's console on "
	  "stderr", 3 },
	{ 0 }
};

void lab_boot_defaults(struct lab_run_params *p)
{
	p->accel = "auto";
	p->cpus = 0;	/* the suite's lab_cpus, else LAB_DEFAULT_CPUS */
	p->mem_mb = 1024;
	p->timeout_s = 1800;
}

/* One of two words: 0 with *first set, or the usage error. */
static int either(struct argp_state *state, const char *opt, const char *arg,
		  const char *a, const char *b, bool *first)
{
	if (strcmp(arg, a) && strcmp(arg, b))
		return cli_error(state, "--%s: %s or %s, not '%s'", opt, a, b,
				 arg);
	*first = !strcmp(arg, a);
	return 0;
}

int lab_boot_parse(struct lab_run_params *p, int key, char *arg,
		   struct argp_state *state)
{
	switch (key) {
	case LAB_BOOT_APPEND: p->append = arg; return 0;
	case LAB_BOOT_VERBOSE: p->verbose = true; return 0;
	case LAB_BOOT_ACCEL:
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") &&
		    strcmp(arg, "tcg"))
			return cli_error(state, "--accel: auto, kvm or tcg, "
					 "not '%s'", arg);
		p->accel = arg;
		return 0;
	case LAB_BOOT_TIMEOUT:
		return cli_arg_seconds(state, "timeout", arg, &p->timeout_s);
	case LAB_BOOT_TCG_THREAD:
		return either(state, "tcg-thread", arg, "single", "multi",
			      &p->tcg_single);
	case LAB_BOOT_ON_CRASH:
		return either(state, "on-crash", arg, "rerun", "stop",
			      &p->rerun_on_crash);
	case CLI_KEY_CLOCK:	/* checked by its shared group (cli.h) */
		lab_clock_parse(arg, &p->clock);
		return 0;
	case ARGP_KEY_END:
		if (p->clock.icount && !strcmp(p->accel, "kvm"))
			return cli_error(state, "--clock icount runs under "
					 "TCG, not --accel kvm");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/*
 * Each subcommand's options: its own table, the shared groups as argp
 * children (kernel_argp, guest_argp, run_args_argp), so that --help lists
 * only what the subcommand takes. One parser, lab_parse, serves them all.
 */
static const struct argp_option kernel_opts[] = {
	{ NULL, 0, NULL, 0, "The kernel:", 1 },
	{ "kernel", OPT_KERNEL, "DIR|NAME", 0, "a folder from `rtgate kernel "
	  "build` or a NAME under out/kernels", 1 },
	{ "debian-kernel", OPT_DEBIAN, "FLAVOUR", 0, "Debian's prebuilt images: "
	  "rt or std (bookworm's 6.1), or SERIES[-rt|-cloud] such as 7.2-rt "
	  "(`rtgate lab images`)", 1 },
	{ 0 }
};

static const struct argp_option inside_opts[] = {
	{ NULL, 0, NULL, 0, "What runs inside:", 2 },
	{ "suite", OPT_SUITE, "SUITE", 0, "run this suite inside (RUN-ARGS "
	  "after -- go to `rtgate run`)", 2 },
	{ "with", OPT_WITH, "PROG", 0, "put PROG into the initramfs too "
	  "(repeatable)", 2 },
	{ 0 }
};

static const struct argp_option run_opts[] = {
	{ "exec", OPT_EXEC, NULL, 0, "run the command after -- inside "
	  "instead", 2 },
	{ 0 }
};

static const struct argp_option gate_opts[] = {
	{ "scenario", OPT_SCENARIO, "S", 0, "compare only this scenario "
	  "(repeatable)", 2 },
	{ "append-a", OPT_APPEND_A, "CMDLINE", 0, "KERNEL_A's command line",
	  3 },
	{ "append-b", OPT_APPEND_B, "CMDLINE", 0, "KERNEL_B's command line "
	  "(what it and --append-a set differently is --intended)", 3 },
	{ 0 }
};

/* The guest beyond its boot (lab_boot_options): lab run's and gate's. */
static const struct argp_option guest_opts[] = {
	{ "cpus", OPT_CPUS, "N", 0, "guest CPUs, 1..64 (default: the suite's "
	  "lab_cpus, else 2)", 3 },
	{ "mem", OPT_MEM, "MB", 0, "guest memory (default 1024)", 3 },
	{ "out", OPT_OUT, "DIR", 0, "results directory (default results/)",
	  3 },
	{ "loud", OPT_LOUD, NULL, 0, "let the guest's runner print and write "
	  "to the share while it measures (by default nothing crosses to the "
	  "host during a repetition: `rtgate run --silent`); for diagnosis, "
	  "the maxima then carry the guest's own I/O", 3 },
	{ 0 }
};

static const struct argp_option run_args_opts[] = {
	{ NULL, 0, NULL, 0, "The guest's `rtgate run` (as RUN-ARGS after -- "
	  "too):", 4 },
	{ "duration", OPT_RUN_DURATION, "T", 0, "its --duration: each "
	  "repetition measures for T (30s, 10m)", 4 },
	{ "duration-scale", OPT_RUN_SCALE, "F", 0, "its --duration-scale", 4 },
	{ "trace", OPT_RUN_TRACE, "MODE", 0, "its --trace", 4 },
	{ "no-history", OPT_RUN_NO_HISTORY, NULL, 0, "its --no-history", 4 },
	{ 0 }
};

struct lab_cmd {
	struct lab_run_params p;
	const char **pos;
	int *nr_pos, max_pos;
	const char *debian;
	const char *append_a, *append_b;
	bool exec;
	bool duration, scale;		/* the guest's --duration(-scale) */
	const char *scenarios[16];
	int nr_scenarios;
	char out[PATH_MAX], results[PATH_MAX];
	char intended[512];		/* --intended, comma-joined */
};

static int number(const struct argp_state *state, const char *opt,
		  const char *arg, uint64_t min, uint64_t max, int *out)
{
	uint64_t v;

	if (cli_arg_number(state, opt, arg, min, max, &v))
		return EINVAL;
	*out = v;
	return 0;
}

/* A run option given to lab run/gate itself: the guest's rtgate run. */
static error_t run_arg(struct lab_cmd *lc, struct argp_state *state,
		       int key, const char *arg)
{
	static const char *const names[] = {
		[OPT_RUN_SCALE - OPT_RUN_SCALE] = "--duration-scale",
		[OPT_RUN_REPEAT - OPT_RUN_SCALE] = "--repeat",
		[OPT_RUN_TRACE - OPT_RUN_SCALE] = "--trace",
		[OPT_RUN_NO_HISTORY - OPT_RUN_SCALE] = "--no-history",
		[OPT_RUN_DURATION - OPT_RUN_SCALE] = "--duration",
	};
	struct lab_run_params *p = &lc->p;

	if (p->nr_args + 2 > LAB_MAX_ARGS)
		return cli_error(state, "too many arguments for the guest");
	p->args[p->nr_args++] = names[key - OPT_RUN_SCALE];
	if (arg)
		p->args[p->nr_args++] = arg;
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

/* Every option of every table, and the positional arguments. */
static error_t lab_parse(int key, char *arg, struct argp_state *state)
{
	struct lab_cmd *lc = state->input;
	struct lab_run_params *p = &lc->p;
	unsigned int secs;
	char why[480];

	switch (key) {
	case OPT_KERNEL: p->kernel = arg; return 0;
	case OPT_DEBIAN: lc->debian = arg; return 0;
	case OPT_SUITE: p->suite = arg; return 0;
	case OPT_EXEC: lc->exec = true; return 0;
	case OPT_APPEND_A: lc->append_a = arg; return 0;
	case OPT_APPEND_B: lc->append_b = arg; return 0;
	case CLI_KEY_INTENDED:	/* besides the kernel */
		return an_like_intended_add(lc->intended, sizeof(lc->intended),
					    arg, why, sizeof(why)) ?
		       cli_error(state, "--intended: %s", why) : 0;
	case OPT_OUT: p->results_dir = arg; return 0;
	case OPT_LOUD: p->loud = true; return 0;
	case CLI_KEY_REPEAT:
		return run_arg(lc, state, OPT_RUN_REPEAT, arg);
	case OPT_RUN_DURATION:
		if (cli_arg_seconds(state, "duration", arg, &secs))
			return EINVAL;
		lc->duration = true;
		return run_arg(lc, state, key, arg);
	case OPT_RUN_SCALE:
		lc->scale = true;
		return run_arg(lc, state, key, arg);
	case OPT_RUN_TRACE:
	case OPT_RUN_NO_HISTORY:
		return run_arg(lc, state, key, arg);
	case OPT_CPUS:
		return number(state, "cpus", arg, 1, LAB_MAX_CPUS,
			      &p->cpus);
	case OPT_MEM:
		return number(state, "mem", arg, 256, 65536, &p->mem_mb);
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
	default:	/* a boot's options (lab.h); the line's end: sub_parse */
		return key == ARGP_KEY_END ? ARGP_ERR_UNKNOWN :
		       lab_boot_parse(p, key, arg, state);
	}
}

#define LAB_POST_DOC "\vKERNEL: a folder from `rtgate kernel build`, a " \
	"NAME under out/kernels, or debian:rt / debian:std (Debian's " \
	"prebuilt 6.1 images) / debian:SERIES[-rt|-cloud] (its 7.x images: " \
	"`rtgate lab images`). RUN-ARGS go to `rtgate run` inside the " \
	"guest. docs/kernels.md."

/*
 * A subcommand's own table: the checks of the whole line run once (its
 * option groups, the argp children, parse with lab_parse alone).
 */
static error_t sub_parse(int key, char *arg, struct argp_state *state)
{
	struct lab_cmd *lc = state->input;
	error_t err;

	if (key != ARGP_KEY_END)
		return lab_parse(key, arg, state);
	err = lab_boot_parse(&lc->p, key, arg, state);
	if (!err && lc->duration && lc->scale)
		return cli_error(state, "--duration and --duration-scale both "
				 "set the time: give one");
	return err;
}

static const struct argp kernel_argp = { kernel_opts, lab_parse };
static const struct argp inside_argp = { inside_opts, lab_parse };
static const struct argp guest_argp = { guest_opts, lab_parse };
static const struct argp boot_argp = { lab_boot_options, lab_parse };
static const struct argp run_args_argp = { run_args_opts, lab_parse };

/* --clock (the guest's) and --repeat (its rtgate run's): common/cmd/. */
static const struct argp_child run_children[] = {
	{ &kernel_argp }, { &inside_argp }, { &boot_argp }, { &guest_argp },
	{ &cli_clock_argp, 0, NULL, 3 }, { &run_args_argp },
	{ &cli_repeat_argp, 0, NULL, 4 }, { 0 }
};

static const struct argp_child initramfs_children[] = {
	{ &kernel_argp }, { &inside_argp }, { 0 }
};

static const struct argp_child gate_children[] = {
	{ &inside_argp }, { &boot_argp }, { &guest_argp },
	{ &cli_clock_argp, 0, NULL, 3 },
	{ &run_args_argp }, { &cli_repeat_argp, 0, NULL, 4 },
	{ &cli_intended_argp, 0, NULL, 2 }, { 0 }
};

static const struct argp run_argp = {
	run_opts, sub_parse,
	"(--kernel DIR|NAME | --debian-kernel F) --suite SUITE [-- "
	"RUN-ARGS]\n(--kernel DIR|NAME | --debian-kernel F) --exec -- "
	"CMD [ARG...]",
	"Boots a kernel in QEMU with an initramfs carrying rtgate, runs a suite "
	"(or a command) inside and brings the results back." LAB_POST_DOC,
	run_children, NULL, NULL
};

static const struct argp initramfs_argp = {
	NULL, sub_parse, "(--kernel DIR|NAME | --debian-kernel F)",
	"Builds the initramfs a lab run would boot, and prints its path. A "
	"--suite from outside suites/ goes into it too (/opt/rtgate/suites), "
	"and rtgate.lab=shell on the kernel command line makes its /init a "
	"shell: the image a LAVA job boots." LAB_POST_DOC,
	initramfs_children, NULL, NULL
};

static const struct argp gate_argp = {
	gate_opts, sub_parse, "KERNEL_A KERNEL_B --suite SUITE [-- RUN-ARGS]",
	"One suite on two kernels, each booted in QEMU, then every scenario "
	"compared (A the baseline) with the suite's gate." LAB_POST_DOC,
	gate_children, NULL, NULL
};

/* Options, positional arguments, then after "--" the guest's. */
static int parse(const char *cmd, const struct argp *argp, int argc,
		 char **argv, struct lab_cmd *lc, const char **pos,
		 int *nr_pos, int max_pos)
{
	struct lab_run_params *p = &lc->p;
	int ret;

	lab_boot_defaults(p);
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
		       exitcode_of_errno(ret);
	if (!lc.p.kernel == !lc.debian || (!lc.p.suite == !lc.exec) ||
	    (lc.exec && !lc.p.nr_exec)) {
		return cli_exit(cli_usage_error("lab run", "one of --kernel/"
						"--debian-kernel and one of "
						"--suite/--exec -- CMD, "
						"please"));
	}
	if (lc.debian) {
		rtpaths_fmt(spec, sizeof(spec), "debian:%s", lc.debian);
		lc.p.kernel = spec;
	}
	toolrun_catch_signals();
	ret = lab_run(&lc.p, &res);
	if (ret)
		return exitcode_of_errno(ret);
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
		       exitcode_of_errno(ret);
	if (!lc.p.kernel == !lc.debian) {
		pr_err("lab initramfs needs --kernel or --debian-kernel");
		return EXITCODE_BAD_INPUT;
	}
	if (lc.debian) {
		rtpaths_fmt(spec, sizeof(spec), "debian:%s", lc.debian);
		lc.p.kernel = spec;
	}
	ret = lab_initramfs(&lc.p, path, sizeof(path));
	if (ret)
		return exitcode_of_errno(ret);
	printf("%s\n", path);
	return EXITCODE_PASS;
}

struct images_cmd {
	const char *list;		/* --package-list FILE */
	const char *spec;
};

static const struct argp_option images_opts[] = {
	{ "package-list", 'l', "FILE", 0, "package names to choose from, one "
	  "a line (as `apt-cache pkgnames linux-binary-` prints them) "
	  "instead of rtgate's private apt", 0 },
	{ 0 }
};

static error_t images_parse(int key, char *arg, struct argp_state *state)
{
	struct images_cmd *ic = state->input;

	switch (key) {
	case 'l': ic->list = arg; return 0;
	case ARGP_KEY_ARG:
		if (ic->spec)
			return cli_error(state, "one KERNEL, please");
		ic->spec = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp images_argp = {
	images_opts, images_parse, "[debian:SERIES[-rt|-cloud]]",
	"Debian's prebuilt 7.x images the lab can boot (--kernel debian:7.2-rt"
	"): each series and flavour with its newest release, from rtgate's "
	"private apt (refreshed daily). With a KERNEL: the release it means "
	"and the packages that make it up. bookworm's 6.1 images are "
	"debian:rt and debian:std. docs/kernels.md.", NULL, NULL, NULL
};

/* The package names: --package-list's file, else the private apt's. */
static int image_names(const struct images_cmd *ic, char **names)
{
	char cache[PATH_MAX];
	struct debapt apt;
	size_t len;
	int ret;

	if (ic->list) {
		ret = fsio_read_all(ic->list, names, &len);
		if (ret)
			pr_err("%s: %s", ic->list, strerror(-ret));
		return ret;
	}
	ret = rtpaths_cache(cache, sizeof(cache));
	if (!ret)
		ret = debapt_init(&apt, cache);
	return ret ? ret : debapt_pkgnames(&apt, "linux-binary-", names);
}

static int lab_images_cmd(int argc, char **argv)
{
	struct images_cmd ic = { 0 };
	struct lab_debimage_spec spec;
	char *names = NULL, out[8192], rel[128];
	const char *text;
	int ret;

	ret = cli_parse("lab images", &images_argp, argc, argv, 0, &ic);
	if (ret)
		return cli_exit(ret);
	text = ic.spec && !strncmp(ic.spec, "debian:", 7) ? ic.spec + 7 :
	       ic.spec;
	if (text && lab_debimage_parse(text, &spec))
		return EXITCODE_BAD_INPUT;
	ret = image_names(&ic, &names);
	if (ret)
		return exitcode_of_errno(ret);
	if (text) {
		ret = lab_debimage_pick(names, &spec, rel, sizeof(rel));
		if (!ret)
			printf("debian:%s %s\nlinux-binary-%s linux-base-%s "
			       "linux-modules-%s\n", text, rel, rel, rel, rel);
	} else if (lab_debimage_list(names, out, sizeof(out)) > 0) {
		fputs(out, stdout);
	} else {
		pr_err("no Debian 7.x image in %s", ic.list ? ic.list :
		       "the private apt's lists");
		ret = -ENOENT;
	}
	free(names);
	return exitcode_of_errno(ret);
}

static const struct argp emulator_argp = {
	NULL, NULL, NULL,
	"The QEMU the lab boots several vCPUs with under --clock icount: "
	"QEMU 10.0.2 with lab/qemu/icount-quantum.patch, which caps a vCPU's "
	"round-robin turn, so that a wake-up on one vCPU does not wait out "
	"another's. Built once into the cache (a few minutes; `lab run` "
	"builds it on first need too); prints its path. RTGATE_QEMU, when "
	"set, is what the lab runs instead. docs/kernels.md, \"The lab's "
	"emulator\".", NULL, NULL, NULL
};

static int lab_emulator_cmd(int argc, char **argv)
{
	struct lab_emulator e;
	int ret;

	ret = cli_parse("lab emulator", &emulator_argp, argc, argv, 0, NULL);
	if (ret)
		return cli_exit(ret);
	toolrun_catch_signals();
	ret = lab_emulator_pick(&e, true);
	if (ret)
		return exitcode_of_errno(ret);
	printf("%s\n%s (%s)%s\n", e.program, e.version, e.origin,
	       e.takes_quantum ? ", takes icount-quantum" : "");
	return EXITCODE_PASS;
}

/* Every scenario of the baseline's manifest (or --scenario's), compared. */
static int compare_runs(const struct lab_cmd *lc, const char *a,
			const char *b, const char *out)
{
	char intended[1024];

	/* What --append-a and --append-b set differently is under test. */
	lab_gate_append_intended(lc->append_a, lc->append_b, lc->intended,
				 intended, sizeof(intended));
	return lab_gate_compare(a, b, lc->scenarios, lc->nr_scenarios,
				intended[0] ? intended : NULL, out);
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
		       exitcode_of_errno(ret);
	if (nr_pos != 2 || !lc.p.suite)
		return cli_exit(cli_usage_error("lab gate", "KERNEL_A KERNEL_B "
						"and --suite, please"));
	toolrun_catch_signals();
	lc.p.kernel = pos[0];
	lc.p.label = "a";
	if (lc.append_a)
		lc.p.append = lc.append_a;
	ret = lab_run(&lc.p, &ra);
	if (ret)
		return exitcode_of_errno(ret);
	if (ra.exit_code > EXITCODE_INCONCLUSIVE || !ra.run_dir[0]) {
		pr_err("lab gate: the run on %s did not complete (exit %d)",
		       pos[0], ra.exit_code);
		return ra.exit_code > EXITCODE_INCONCLUSIVE ? ra.exit_code :
		       EXITCODE_INCOMPLETE;
	}
	lc.p.kernel = pos[1];
	lc.p.label = "b";
	lc.p.append = lc.append_b ? lc.append_b : lc.append_a ? NULL :
		      lc.p.append;
	ret = lab_run(&lc.p, &rb);
	if (ret)
		return exitcode_of_errno(ret);
	if (rb.exit_code > EXITCODE_INCONCLUSIVE || !rb.run_dir[0]) {
		pr_err("lab gate: the run on %s did not complete (exit %d)",
		       pos[1], rb.exit_code);
		return rb.exit_code > EXITCODE_INCONCLUSIVE ? rb.exit_code :
		       EXITCODE_INCOMPLETE;
	}
	rtpaths_fmt(out, sizeof(out), "%s/gate-%s-vs-%s",
		    lc.p.results_dir, strrchr(ra.run_dir, '/') + 1,
		    strrchr(rb.run_dir, '/') + 1);
	ret = compare_runs(&lc, ra.run_dir, rb.run_dir, out);
	pr_info("lab gate: %s vs %s: exit %d (reports: %s)", pos[0], pos[1],
		ret, out);
	return ret;
}

int lab_cmd_lab(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "run", "(--kernel K | --debian-kernel F) (--suite S "
		  "[-- RUN-ARGS] | --exec -- CMD)", "boot a kernel in QEMU, "
		  "run a suite inside", lab_run_cmd },
		{ "gate", "KERNEL_A KERNEL_B --suite SUITE [OPTION...]",
		  "one suite on two kernels, judged", lab_gate_cmd },
		{ "initramfs", "(--kernel K | --debian-kernel F)",
		  "the initramfs a lab run boots", lab_initramfs_cmd },
		{ "images", "[--package-list FILE] [debian:SERIES[-FLAVOUR]]",
		  "Debian's prebuilt 7.x images on offer", lab_images_cmd },
		{ "emulator", "", "the QEMU the lab boots several vCPUs "
		  "with under icount, built once", lab_emulator_cmd },
	};

	return cli_dispatch("lab", "The QEMU lab: built kernels booted with "
			    "rtgate inside, the results brought back "
			    "(docs/kernels.md).", subs,
			    sizeof(subs) / sizeof(subs[0]), argc, argv);
}
