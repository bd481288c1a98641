// SPDX-License-Identifier: GPL-2.0-only
/*
 * extend-sched: our implementation of the lock-holder program Steven
 * Rostedt ran beside cyclictest in the slice-extension V5 thread (June
 * 2025): idle max 12 us -> 39 us with a 30 us extension on PREEMPT_RT.
 * Options, ABI detection and the summary; the threads are in
 * extend_threads.c, the two kernel ABIs in extend_abi.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"
#include "workloads/extend-sched/extend_sched.h"

#define NAME	"extend-sched"
#define US	1000ULL

enum {
	OPT_CS = 256, OPT_SLEEP, OPT_STEP, OPT_BSPIN, OPT_BSLEEP,
	OPT_LNICE, OPT_BNICE, OPT_LPRIO, OPT_BPRIO, OPT_ABI,
};

static const struct option long_opts[] = {
	{ "no-rseq", no_argument, NULL, 'd' },
	{ "wait-extend", no_argument, NULL, 'w' },
	{ "busy", required_argument, NULL, 'b' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "cs-us", required_argument, NULL, OPT_CS },
	{ "sleep-us", required_argument, NULL, OPT_SLEEP },
	{ "sleep-step-us", required_argument, NULL, OPT_STEP },
	{ "busy-spin-us", required_argument, NULL, OPT_BSPIN },
	{ "busy-sleep-us", required_argument, NULL, OPT_BSLEEP },
	{ "lock-nice", required_argument, NULL, OPT_LNICE },
	{ "busy-nice", required_argument, NULL, OPT_BNICE },
	{ "lock-prio", required_argument, NULL, OPT_LPRIO },
	{ "busy-prio", required_argument, NULL, OPT_BPRIO },
	{ "duration", required_argument, NULL, 't' },
	{ "abi", no_argument, NULL, OPT_ABI },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " [OPTIONS]\n"
"Per CPU one lock thread (a spin lock shared by all CPUs; the holder asks\n"
"the kernel for a time-slice extension around its critical section and\n"
"yields when it was extended) and N busy threads that spin briefly and\n"
"sleep. Runs until SIGTERM/SIGINT or --duration; prints a one-line JSON\n"
"summary on stdout.\n"
"\n"
"  -d, --no-rseq        no extension requests: the control\n"
"  -w, --wait-extend    request the extension while waiting for the lock too\n"
"  -b, --busy N         busy threads per CPU (default 5)\n"
"  -c, --cpus LIST      CPUs to load (default: every CPU allowed)\n"
"      --cs-us N        critical section (lock held), us (default 20)\n"
"      --sleep-us N     sleep between lock grabs, us (default 100) ...\n"
"      --sleep-step-us N  ... plus N us times the CPU number (default 27);\n"
"                       a pause of 0 is no sleep: the lock thread grabs\n"
"                       again at once and never leaves the CPU\n"
"      --busy-spin-us N busy threads spin N us (default 1) ...\n"
"      --busy-sleep-us N  ... then sleep N us (default 10)\n"
"      --lock-nice N    nice of the lock threads (default 0)\n"
"      --busy-nice N    nice of the busy threads (default 0)\n"
"      --lock-prio N    SCHED_FIFO priority of the lock threads (default 0:\n"
"                       SCHED_OTHER with --lock-nice)\n"
"      --busy-prio N    SCHED_FIFO priority of the busy threads (default 0)\n"
"      --abi            print the slice-extension ABI found as JSON, exit\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"ABIs: v5 (rseq flags bit 3/4, the V5/V6 series), linux-7.0 (prctl\n"
"PR_RSEQ_SLICE_EXTENSION, rseq slice_ctrl), none. Without -d, a kernel\n"
"with neither is exit 4 (the summary says abi \"none\").\n"
"Exit: 0 done, 1 failed, 2 usage, 4 environment.\n");
}

static int opt_us(const char *opt, uint64_t min, uint64_t *ns)
{
	uint64_t us;
	int ret = wl_opt_u64(opt, optarg, min, 1000000, &us);

	if (!ret)
		*ns = us * US;
	return ret;
}

static int parse_one(int c, struct ext_params *p)
{
	switch (c) {
	case 'd':
		p->no_rseq = 1;
		return 0;
	case 'w':
		p->wait_extend = 1;
		return 0;
	case 'b':
		return wl_opt_uint("--busy", optarg, 0, 64, &p->busy_per_cpu);
	case 'c':
		return wl_opt_cpulist("--cpus", optarg, &p->cpus);
	case OPT_CS:
		return opt_us("--cs-us", 1, &p->cs_ns);
	case OPT_SLEEP:
		return opt_us("--sleep-us", 0, &p->sleep_ns);
	case OPT_STEP:
		return opt_us("--sleep-step-us", 0, &p->sleep_step_ns);
	case OPT_BSPIN:
		return opt_us("--busy-spin-us", 0, &p->busy_spin_ns);
	case OPT_BSLEEP:
		return opt_us("--busy-sleep-us", 1, &p->busy_sleep_ns);
	case OPT_LNICE:
		return wl_opt_int("--lock-nice", optarg, -20, 19, &p->lock_nice);
	case OPT_BNICE:
		return wl_opt_int("--busy-nice", optarg, -20, 19, &p->busy_nice);
	case OPT_LPRIO:
		return wl_opt_uint("--lock-prio", optarg, 0, 99, &p->lock_prio);
	case OPT_BPRIO:
		return wl_opt_uint("--busy-prio", optarg, 0, 99, &p->busy_prio);
	default:
		return -EINVAL;
	}
}

/* Returns 0, 1 for --help, 2 for --abi, or -EINVAL. */
static int parse_args(int argc, char **argv, struct ext_params *p)
{
	int c, ret, abi_only = 0;

	wl_opt_common_init(&p->co);
	while ((c = wl_getopt(argc, argv, "dwb:c:t:h", long_opts)) != -1) {
		if (c == 'h')
			return 1;
		if (c == OPT_ABI) {
			abi_only = 1;
			continue;
		}
		if (!wl_opt_take_common(c, long_opts, &p->co, &ret))
			ret = parse_one(c, p);
		if (ret)
			return ret;
	}
	if (wl_opt_no_operands(argc, argv))
		return -EINVAL;
	if (p->no_rseq && p->wait_extend) {
		pr_err("-w: requests while waiting make no sense with -d (no requests)");
		return -EINVAL;
	}
	return abi_only ? 2 : 0;
}

static const char *mode_name(const struct ext_params *p)
{
	if (p->no_rseq)
		return "control";
	return p->wait_extend ? "wait" : "hold";
}

static void add_abi(cJSON *s, const struct ext_abi_info *abi)
{
	const struct ext_rseq_info *r = &abi->rseq;

	wl_summary_str(s, "abi", ext_abi_name(abi->abi));
	wl_summary_str(s, "abi_reason", abi->reason);
	wl_summary_str(s, "rseq_owner", ext_rseq_owner_name(r->owner));
	wl_summary_u64(s, "rseq_size", r->len);
	wl_summary_u64(s, "glibc_rseq_size", r->glibc_size);
	wl_summary_u64(s, "rseq_feature_size", r->feature_size);
	wl_summary_u64(s, "rseq_align", r->align);
	wl_summary_bool(s, "rseq_reexec", r->reexec);
}

static int print_summary(const struct ext_params *p,
			 const struct ext_abi_info *abi,
			 const struct ext_lock_stats *st, uint64_t busy_loops,
			 int error, double duration_s)
{
	struct wl_work work = {
		.work_done = (double)st->acquisitions,
		.unit = "lock acquisitions",
		.errors = error ? 1 : 0,
		.duration_s = duration_s,
	};
	uint64_t n = st->acquisitions ? st->acquisitions : 1;
	char cpus[256];
	cJSON *s = wl_summary_new(NAME, &work);

	if (!s)
		return -ENOMEM;
	add_abi(s, abi);
	wl_summary_str(s, "mode", mode_name(p));
	if (parse_cpulist_format(&p->cpus, cpus, sizeof(cpus)) < 0)
		snprintf(cpus, sizeof(cpus), "?");
	wl_summary_str(s, "cpus", cpus);
	wl_summary_u64(s, "busy_per_cpu", p->busy_per_cpu);
	wl_summary_num(s, "cs_us", p->cs_ns / 1e3, 3);
	wl_summary_num(s, "sleep_us", p->sleep_ns / 1e3, 3);
	wl_summary_u64(s, "lock_acquisitions", st->acquisitions);
	wl_summary_u64(s, "contended", st->contended);
	wl_summary_u64(s, "extension_requests", st->requests);
	wl_summary_u64(s, "extensions_granted", st->granted);
	wl_summary_u64(s, "requests_dropped", st->dropped);
	wl_summary_u64(s, "yields", st->yields);
	wl_summary_u64(s, "yields_in_grant", st->yields_in_grant);
	wl_summary_num(s, "hold_max_us", st->hold_max_ns / 1e3, 3);
	wl_summary_num(s, "hold_avg_us", st->hold_sum_ns / 1e3 / n, 3);
	wl_summary_num(s, "wait_max_us", st->wait_max_ns / 1e3, 3);
	wl_summary_num(s, "wait_avg_us", st->wait_sum_ns / 1e3 / n, 3);
	wl_summary_u64(s, "busy_loops", busy_loops);
	return wl_summary_print(s);
}

static int print_abi(const struct ext_abi_info *abi)
{
	cJSON *s = wl_summary_bare(NAME);

	if (!s)
		return -ENOMEM;
	add_abi(s, abi);
	return wl_summary_print(s);
}

/* Waits until every lock thread took the lock once, then says ready. */
static void wait_warm(struct ext_run *run, uint64_t deadline)
{
	while (!wl_stopping() && !ext_run_warm(run) && wl_now_ns() < deadline)
		wl_wait(1000000);
	if (!wl_stopping())
		wl_ready();
}

int main(int argc, char **argv)
{
	struct ext_params p = {
		.busy_per_cpu = 5, .cs_ns = 20 * US, .sleep_ns = 100 * US,
		.sleep_step_ns = 27 * US, .busy_spin_ns = 1 * US,
		.busy_sleep_ns = 10 * US,
	};
	struct ext_rseq_info rseq;
	struct ext_abi_info abi;
	struct ext_lock_stats st = { 0 };
	uint64_t start, deadline, busy_loops = 0;
	struct ext_run *run = NULL;
	int ret, error = 0;

	/* Before wl_init() takes the ready fd (close-on-exec). */
	ext_rseq_reexec_if_needed(argv);
	if (wl_init(NAME))
		return WL_EXIT_USAGE;
	sched_getaffinity(0, sizeof(p.cpus), &p.cpus);
	ret = parse_args(argc, argv, &p);
	if (ret == 1 || ret < 0)
		return wl_opt_exit(ret, usage);
	ext_rseq_setup(&rseq);
	ext_abi_detect(&abi, &rseq);
	if (ret == 2)
		return print_abi(&abi) ? WL_EXIT_FAILURE : WL_EXIT_OK;

	start = wl_now_ns();
	if (!p.no_rseq && abi.abi == EXT_ABI_NONE) {
		pr_err("no time-slice-extension ABI on this kernel (%s); -d runs the control",
		       abi.reason);
		print_summary(&p, &abi, &st, 0, 0, 0);
		return WL_EXIT_ENVIRONMENT;
	}
	p.abi = p.no_rseq ? EXT_ABI_NONE : abi.abi;

	deadline = p.co.duration_ns ? start + p.co.duration_ns : UINT64_MAX;
	ret = ext_run_start(&p, &run);
	if (!ret) {
		wait_warm(run, deadline);
		wl_wait_until(deadline);
	}
	if (run)
		ext_run_finish(run, &st, &busy_loops, &error);
	if (print_summary(&p, &abi, &st, busy_loops, ret || error,
			  wl_elapsed_s(start, wl_now_ns())))
		return WL_EXIT_FAILURE;
	if (error == -EPERM || error == -EACCES)
		return WL_EXIT_ENVIRONMENT;
	return ret || error || !st.acquisitions ? WL_EXIT_FAILURE : WL_EXIT_OK;
}
