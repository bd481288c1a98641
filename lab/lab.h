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

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The 9p mount tag of the results share. */
#define LAB_SHARE_TAG "rtgate"

int lab_cmd_lab(int argc, char **argv);
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

/*
 * "host", "icount" or "icount:N": --clock's words, which common/cmd/cli.h
 * defines (cli_arg_clock(): N in 0..10, default 3, 8 ns an instruction).
 * Returns 0 or -EINVAL; NULL is the host's clock.
 */
int lab_clock_parse(const char *arg, struct lab_clock *c);

/* "host" or "icount:3": the name the manifest and the gate compare. */
void lab_clock_name(const struct lab_clock *c, char *buf, size_t len);

/* QEMU's -icount value ("shift=3,align=off,sleep=off"); icount only. */
void lab_clock_qemu_arg(const struct lab_clock *c, char *buf, size_t len);

/* What a latency measured in this clock means, one sentence. */
void lab_clock_statement(const struct lab_clock *c, char *buf, size_t len);

/* {"name", "kind", "shift", "ns_per_insn", "unit", "statement"}. */
struct cJSON *lab_clock_json(const struct lab_clock *c);

/*
 * The guest's extra kernel command line: under icount, "nohz=off
 * skew_tick=1" (a periodic tick, the CPUs' ticks apart: docs/kernels.md,
 * "The quiet lab") unless @user sets them itself, then @user.
 */
void lab_clock_guest_append(const struct lab_clock *c, const char *user,
			    char *buf, size_t len);

/* ---- One boot, one suite ---- */

/*
 * One lab run: a kernel, the initramfs, a suite (or a command), a boot,
 * the results brought back. The run's work folder is out/lab/ID/ (share/,
 * console.log, lab.json); the suite's results directory moves to the
 * results folder with lab.json and lab-console.log beside its manifest,
 * whose "lab" object names the kernel that ran it.
 */

#define LAB_MAX_ARGS 32

struct lab_run_params {
	const char *kernel;		/* a build folder, NAME, debian:rt|std */
	const char *suite;		/* FILE, or NAME in suites/ */
	const char *args[LAB_MAX_ARGS];	/* more `rtgate run` arguments */
	int nr_args;
	const char *exec[LAB_MAX_ARGS];	/* --exec: a command instead */
	int nr_exec;
	const char *append;		/* more kernel command line */
	const char *accel;		/* auto | kvm | tcg */
	int cpus;
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

/*
 * Returns 0 with res filled in (even for a failed boot), or -errno. A
 * guest crash is exit 5 with the crash written beside the results; with
 * rerun_on_crash, the result is the single-threaded re-run's, and res
 * says what the first boot did.
 */
int lab_run(const struct lab_run_params *p, struct lab_run_result *res);

/*
 * Only the initramfs lab_run() would boot p->kernel with; a p->suite from
 * outside suites/ is carried in it too (LAB_GUEST_SUITES), for a LAVA job
 * that runs it inside.
 */
int lab_initramfs(const struct lab_run_params *p, char *path, size_t len);

/* ---- The A/B/A gate ---- */

/*
 * A lab gate's judgement of two runs (docs/kernels.md, "lab gate"): for
 * every scenario of the baseline's manifest (or the ones named), `rtgate
 * compare A:S B:S` with its reports in OUT/S/, judged by the scenario's
 * own gate as the run itself was (a timerlat scenario's IRQ latency,
 * S.irq, too). Used by `lab gate` and `bisect`. @intended: the settings
 * the runs may differ in besides the kernel (compare --intended; NULL
 * none).
 */

/* Returns the worst comparison's exit code (docs/exit-codes.md). */
int lab_gate_compare(const char *a, const char *b,
		     const char *const *scenarios, int nr_scenarios,
		     const char *intended, const char *out);

/*
 * `rtgate compare A B A2 --labels LABELS` (A2 may be NULL: A against B),
 * every report into out: the A/B/A judgement of the threads, its table in
 * out/runs.txt. Returns compare's exit code, or -errno.
 */
int lab_gate_compare_aba(const char *a, const char *b, const char *a2,
			 const char *labels, const char *out);

#endif
