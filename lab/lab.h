/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lab (docs/kernels.md): boot a kernel in QEMU with an initramfs that
 * carries rtgate, run a suite inside, bring the results back. Its one
 * public header: the commands, and what other folders boot kernels with
 * (bisect's prefixes, a seed's table): lab_run(), the A/B/A gate and the
 * guest's clock. The rest is lab_priv.h.
 *   rtgate lab run --kernel DIR|--debian-kernel rt|std --suite S ...
 *   rtgate lab gate KERNEL_A KERNEL_B --suite S ...
 *   rtgate lab-init   (the guest's /init; PID 1 only)
 */
#ifndef RTGATE_LAB_H
#define RTGATE_LAB_H

#include <argp.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The 9p mount tag of the results share. */
#define LAB_SHARE_TAG "rtgate"

/**
 * lab_cmd_lab() - `rtgate lab run|gate|initramfs|images`
 * @argc: the number of arguments
 * @argv: "lab", a subcommand and its arguments (docs/kernels.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int lab_cmd_lab(int argc, char **argv);
/**
 * lab_cmd_init() - `rtgate lab-init`: the lab guest's /init
 * @argc: the number of arguments
 * @argv: "lab-init"; the plan comes from the kernel command line and the
 *        results share
 *
 * As PID 1 it mounts what the guest needs, runs the plan, writes its
 * status to the share and powers the machine off: it does not return.
 *
 * Return: EXITCODE_BAD_INPUT (or --help's code) when not PID 1.
 */
int lab_cmd_init(int argc, char **argv);

/* ---- The guest's clock ---- */

/*
 * The clock a lab guest's latencies are measured in (docs/kernels.md,
 * "The quiet lab"): the host's (the guest's time is the host's, so its
 * pauses show as latency: milliseconds under multi-threaded TCG), or
 * QEMU's instruction counter (-icount shift=N,align=off,sleep=off under
 * single-threaded TCG): guest time advances 2^N ns per instruction the
 * guest runs, whatever the host does. Such "virtual microseconds" are
 * comparable between kernels measured the same way, never with bare metal
 * or with another clock.
 */

struct cJSON;

struct lab_clock {
	bool icount;			/* false: the host's clock */
	unsigned int shift;		/* icount: 2^shift ns an instruction */
};

/**
 * lab_clock_parse() - a clock from --clock's words
 * @arg: "host", "icount" or "icount:N", which common/cmd/cli.h defines
 *       (cli_arg_clock(): N in 0..10, default 3, 8 ns an instruction);
 *       NULL is the host's clock
 * @c: filled
 *
 * Return: 0, or -EINVAL for another word.
 */
int lab_clock_parse(const char *arg, struct lab_clock *c);

/**
 * lab_clock_name() - a clock's name, which the manifest and the gate
 * compare
 * @c: the clock
 * @buf: gets "host" or "icount:3"
 * @len: its size
 */
void lab_clock_name(const struct lab_clock *c, char *buf, size_t len);

/**
 * lab_clock_qemu_arg() - QEMU's -icount value
 * @c: an icount clock
 * @buf: gets "shift=3,align=off,sleep=off"
 * @len: its size
 */
void lab_clock_qemu_arg(const struct lab_clock *c, char *buf, size_t len);

/**
 * lab_clock_statement() - what a latency measured in a clock means
 * @c: the clock
 * @buf: gets one sentence
 * @len: its size
 */
void lab_clock_statement(const struct lab_clock *c, char *buf, size_t len);

/**
 * lab_clock_json() - a clock as the manifest's lab.clock
 * @c: the clock
 *
 * Return: a new {"name", "kind", "shift", "ns_per_insn", "unit",
 * "statement"} (shift and ns_per_insn under icount only), the caller's to
 * cJSON_Delete().
 */
struct cJSON *lab_clock_json(const struct lab_clock *c);

/**
 * lab_clock_guest_append() - the guest's extra kernel command line
 * @c: the clock
 * @user: the command line the user adds (--append); NULL: none
 * @buf: gets, under icount, "nohz=off skew_tick=1 nowatchdog" (a
 *       periodic tick, the CPUs' ticks apart, no lockup detectors:
 *       docs/kernels.md, "The quiet lab") but for the parameters @user
 *       sets itself (nowatchdog: any of nowatchdog, nosoftlockup,
 *       watchdog_thresh=, nmi_watchdog=), then @user
 * @len: its size
 */
void lab_clock_guest_append(const struct lab_clock *c, const char *user,
			    char *buf, size_t len);

/**
 * lab_guest_hostname() - the name a lab guest gives itself
 * @host: the name of the machine that runs the emulator (gethostname())
 * @buf: gets "HOST-lab", HOST cut so that the whole fits a hostname
 *       (64 bytes), every byte of it but letters, digits and "._-" made
 *       '-'; "lab" when @host is empty, "(none)", or starts with no
 *       letter or digit
 * @len: its size
 *
 * A guest nobody names is "(none)" to itself, so every QEMU lab on every
 * machine would be one host in a history and in the runs' ids; the
 * guest's runs are the lab's on that machine, apart from the machine's
 * own (docs/nightly.md, "The history store").
 */
void lab_guest_hostname(const char *host, char *buf, size_t len);

/* ---- One boot, one suite ---- */

/*
 * One lab run: a kernel, the initramfs, a suite (or a command), a boot,
 * the results brought back. The run's work folder is out/lab/ID/ (share/,
 * console.log, lab.json); the suite's results directory moves to the
 * results folder with lab.json and lab-console.log beside its manifest,
 * whose "lab" object names the kernel that ran it.
 */

#define LAB_MAX_ARGS 32
/* The guest's vCPUs when neither --cpus nor the suite's lab_cpus says. */
#define LAB_DEFAULT_CPUS 2
/* --cpus's bound; a suite's lab_cpus has the same (suites/README.md). */
#define LAB_MAX_CPUS 64

struct lab_run_params {
	const char *kernel;		/* a build folder, NAME, debian:rt|std */
	const char *suite;		/* FILE, or NAME in suites/ */
	const char *args[LAB_MAX_ARGS];	/* more `rtgate run` arguments */
	int nr_args;
	const char *exec[LAB_MAX_ARGS];	/* --exec: a command instead */
	int nr_exec;
	const char *append;		/* more kernel command line */
	const char *accel;		/* auto | kvm | tcg */
	int cpus;			/* 0: the suite's lab_cpus, else
					 * LAB_DEFAULT_CPUS */
	int mem_mb;
	unsigned int timeout_s;
	const char *tools[16];		/* --with PROG */
	int nr_tools;
	bool verbose;
	const char *out_dir;		/* out/ */
	const char *results_dir;	/* where results/<run-id> go */
	const char *label;		/* a word in the work folder's name */
	bool tcg_single;		/* -accel tcg,thread=single */
	struct lab_clock clock;		/* --clock: host or icount:N */
	bool rerun_on_crash;		/* a crash under multi-threaded TCG is
					 * booted again single-threaded */
	bool loud;			/* the guest's run not --silent */
};

/*
 * A boot's options, which every command that boots the lab takes (lab
 * run, lab gate, bisect): one table and one parser for them here. A
 * command lists { lab_boot_options, its parser } among its argp's
 * children (common/cmd/cli.h) with cli_clock_argp, and its parser hands
 * lab_boot_parse() the keys it does not know and ARGP_KEY_END:
 *   --append CMDLINE, --accel auto|kvm|tcg, --timeout DURATION,
 *   --tcg-thread single|multi, --on-crash rerun|stop, -v (the console),
 *   and --clock (cli.h's CLI_KEY_CLOCK), into struct lab_run_params.
 */
enum lab_boot_key {
	LAB_BOOT_APPEND = 0x1301,
	LAB_BOOT_ACCEL,
	LAB_BOOT_TIMEOUT,
	LAB_BOOT_TCG_THREAD,
	LAB_BOOT_ON_CRASH,
	LAB_BOOT_VERBOSE = 'v',
};
extern const struct argp_option lab_boot_options[];

/**
 * lab_boot_defaults() - a boot as the lab makes it where no option says
 * otherwise
 * @p: gets accel auto, the suite's vCPUs (cpus 0: its lab_cpus, else
 *     LAB_DEFAULT_CPUS), 1024 MB and a timeout of 30 minutes
 */
void lab_boot_defaults(struct lab_run_params *p);
/**
 * lab_boot_parse() - one of a boot's options, checked, into @p
 * @p: the boot's parameters
 * @key: an option of lab_boot_options, CLI_KEY_CLOCK, or ARGP_KEY_END
 *       (the whole line: icount needs TCG)
 * @arg: its argument
 * @state: the parse, for cli_error()
 *
 * Return: 0, EINVAL after a usage error, ARGP_ERR_UNKNOWN for another key.
 */
int lab_boot_parse(struct lab_run_params *p, int key, char *arg,
		   struct argp_state *state);

struct lab_run_result {
	int exit_code;			/* the documented exit code */
	char run_dir[PATH_MAX];		/* the results directory, or "" */
	char lab_dir[PATH_MAX];		/* out/lab/ID */
	bool crashed;			/* the guest crashed (lab_crash.c) */
	char crash[320];		/* what and where, one line */
	char crash_dir[PATH_MAX];	/* where crash.json went */
	bool rerun;			/* booted again after a crash */
	bool rerun_crashed;		/* and crashed again */
};

/**
 * lab_run() - boots a kernel in QEMU and runs a suite (or a command)
 * inside
 * @p: the kernel, the suite and its arguments, the machine, the clock
 * @res: filled, even for a failed boot: the exit code, where the results
 *       and the work folder are, and any crash
 *
 * A guest crash is exit 5 with the crash written beside the results;
 * with rerun_on_crash (under multi-threaded TCG), the result is the
 * single-threaded re-run's, and @res says what the first boot did.
 *
 * Return: 0 with @res filled, or -errno (bad parameters, the host cannot
 * boot it).
 */
int lab_run(const struct lab_run_params *p, struct lab_run_result *res);
/**
 * lab_suite_cpus() - how many vCPUs a lab run boots for a suite
 * @suite: FILE, or NAME in suites/
 * @cpus: set to the suite's `lab_cpus`, or LAB_DEFAULT_CPUS when it names
 *        none
 *
 * What lab_run() boots when its params' cpus is 0: the suite states the
 * layout its experiment needs (a gate on the maximum wants one vCPU,
 * docs/kernels.md), and --cpus overrides it.
 *
 * Return: 0; -EINVAL for a bad suite, -ENOENT for a missing one (both
 * said on stderr).
 */
int lab_suite_cpus(const char *suite, int *cpus);

/**
 * lab_initramfs() - only the initramfs lab_run() would boot a kernel with
 * @p: the kernel; a suite from outside suites/ is carried in it too
 *     (LAB_GUEST_SUITES), for a LAVA job that runs it inside
 * @path: gets the initramfs's path
 * @len: its size
 *
 * Return: 0, or -errno after a message.
 */
int lab_initramfs(const struct lab_run_params *p, char *path, size_t len);

/* ---- The A/B/A gate ---- */

/**
 * lab_gate_compare() - a lab gate's judgement of two runs
 * @a: the baseline's results directory
 * @b: the candidate's
 * @scenarios: the scenarios to compare; NULL with @nr_scenarios 0: every
 *             one of @a's manifest
 * @nr_scenarios: how many
 * @intended: the settings the runs may differ in besides the kernel
 *            (compare --intended); NULL: none
 * @out: the reports go to OUT/S/
 *
 * For each scenario S, `rtgate compare A:S B:S` (docs/kernels.md, "lab
 * gate"), judged by the scenario's own gate as the run itself was (a
 * timerlat scenario's IRQ latency, S.irq, too) at the suite's share of
 * alpha (an_gate_family()). Used by `lab gate` and `bisect`.
 *
 * Return: the worst comparison's exit code (docs/exit-codes.md);
 * EXITCODE_BAD_INPUT for a manifest that cannot be read or no scenario.
 */
int lab_gate_compare(const char *a, const char *b,
		     const char *const *scenarios, int nr_scenarios,
		     const char *intended, const char *out);

/**
 * lab_gate_compare_aba() - the A/B/A judgement of two kernels' threads
 * @a: the baseline's results directory, measured first
 * @b: the candidate's
 * @a2: the baseline's measured again after @b; NULL: A against B
 * @labels: --labels: the columns' names
 * @out: every report goes here, the threads' table to out/runs.txt
 *
 * Runs `rtgate compare A B A2 --labels LABELS`.
 *
 * Return: compare's exit code, or -errno when it cannot be run.
 */
int lab_gate_compare_aba(const char *a, const char *b, const char *a2,
			 const char *labels, const char *out);

#endif
