// SPDX-License-Identifier: GPL-2.0-only
/*
 * setparam: the sched_setparam() no-change loop of the "[RFC] sched/fair:
 * avoid redundant updates for unchanged default slices" thread. A
 * SCHED_OTHER nice-0 task pinned to one CPU calls sched_setparam(0, prio 0)
 * on itself. With the default slice the kernel compares sched_runtime 0
 * with the actual slice and takes the whole update path (v7.2: 616-619
 * ns/call); with a custom slice the no-change shortcut works (~162 ns).
 *
 *   bench  warm-up and measured rounds of N calls, ns/call per round
 *          (the thread: 3 warm-ups + 15 rounds of 500,000 calls)
 *   load   calls at a given rate beside cyclictest
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "workloads/common/loop/wl_bench.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/loop/wl_pace.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"
#include "workloads/setparam/setparam_sched.h"

#define NAME		"setparam"

enum sp_profile { SP_DEFAULT, SP_CUSTOM };

struct sp_params {
	enum wl_bench_mode mode;
	enum sp_profile profile;
	uint64_t slice_ns;	/* custom profile */
	int slice_set;
	struct wl_bench_opts bl;	/* per_round: calls */
	struct wl_common co;
};

struct sp_run {
	cpu_set_t saved_cpus;
	struct sp_state before, after;
	uint64_t calls;
	uint64_t failures;
	int last_errno;
	struct wl_bench bench;
	struct wl_pace pace;
	const char *verify_error;	/* what changed, or NULL */
	int restored;
};

enum { OPT_SLICE = 256 };

static const struct option long_opts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "slice-us", required_argument, NULL, OPT_SLICE },
	WL_OPT_CPU,
	{ "calls", required_argument, NULL, 'n' },
	WL_OPT_BENCH,
	WL_OPT_DURATION,
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " bench|load [OPTIONS]\n"
"A SCHED_OTHER nice-0 task pinned to one CPU calls sched_setparam(0,\n"
"prio 0) on itself: a call that changes nothing.\n"
"  bench: --warmups + --rounds rounds of --calls calls; ns/call per round\n"
"  load:  --rate calls per second until SIGTERM/SIGINT or --duration\n"
"\n"
"  -p, --profile P      default: the default slice (sched_setattr with\n"
"                       sched_runtime 0 first); custom: a --slice-us slice\n"
"                       set with sched_setattr (default: default)\n"
"      --slice-us N     custom profile's slice in us (default 10000)\n"
"  -n, --calls N        bench: calls per round (default 500000)\n"
"  -W, --warmups N      bench: warm-up rounds, not reported (default 3)\n"
"  -r, --rounds N       bench: measured rounds (default 15)\n"
"  -R, --rate N         load: calls per second, 0 = flat out (default 1000)\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f, "\n"
"--duration is load mode's.\n"
"Policy, nice, slice and CPU are checked before and after; the default\n"
"slice and the CPU affinity are restored on exit.\n"
"Exit: 0 done, 1 a call failed or the state changed, 2 usage,\n"
"4 not a SCHED_OTHER nice-0 task or no sched_setattr.\n");
}

static int parse_one(int c, void *ctx)
{
	static const char *const profiles[] = { "default", "custom", NULL };
	struct sp_params *p = ctx;
	int ret, idx;

	switch (c) {
	case 'p':
		ret = wl_opt_choice("--profile", optarg, profiles, &idx);
		p->profile = idx;
		return ret;
	case OPT_SLICE:
		/* The kernel clamps a fair slice to 0.1..100 ms. */
		p->slice_set = 1;
		return wl_opt_us("--slice-us", optarg, 100, 100000,
				 &p->slice_ns);
	default:
		return wl_bench_opt(c, optarg, "--calls", &p->bl);
	}
}

static int check_params(void *ctx)
{
	const struct sp_params *p = ctx;

	if (wl_bench_check_mode(p->mode, &p->bl, &p->co, "--calls"))
		return -EINVAL;
	if (p->slice_set && p->profile != SP_CUSTOM) {
		pr_err("--slice-us: only with --profile custom");
		return -EINVAL;
	}
	return 0;
}

static const struct wl_opts opts = {
	"p:c:n:W:r:R:d:h", long_opts, parse_one, check_params,
	offsetof(struct sp_params, co),
};

static inline void one_call(struct sp_run *r)
{
	r->calls++;
	if (sp_setparam_nochange()) {
		r->failures++;
		r->last_errno = errno;
	}
}

static int run_bench(const struct sp_params *p, struct sp_run *r)
{
	unsigned int k, i;

	if (wl_bench_start(&r->bench))
		return -ENOMEM;
	one_call(r);
	wl_ready();
	for (k = 0; wl_bench_more(&r->bench, k); k++) {
		uint64_t t0 = wl_bench_clock();

		for (i = 0; i < p->bl.per_round; i++)
			one_call(r);
		wl_bench_round(&r->bench, k, t0, wl_bench_clock());
	}
	return 0;
}

static void load_call(void *r)
{
	one_call(r);
}

static int run_load(const struct sp_params *p, struct sp_run *r)
{
	wl_pace_run(&r->pace, p->bl.rate, p->co.duration_ns, load_call, r);
	return 0;
}

/* Pins, checks SCHED_OTHER nice 0, sets the profile's slice. */
static int setup(const struct sp_params *p, struct sp_run *r)
{
	struct sp_state st;
	int ret;

	if (sched_getaffinity(0, sizeof(r->saved_cpus), &r->saved_cpus))
		return -errno;
	ret = sp_state_read(&st);
	if (ret) {
		pr_err("sched_getattr: %s", strerror(-ret));
		return ret;
	}
	if (st.policy != SCHED_OTHER || st.nice != 0) {
		pr_err("needs a SCHED_OTHER nice-0 task (policy %d, nice %d)",
		       st.policy, st.nice);
		return -EPERM;
	}
	ret = wl_cpu_pin(p->co.cpu);
	if (ret)
		return ret;
	ret = sp_set_slice(p->profile == SP_CUSTOM ? p->slice_ns : 0);
	if (ret) {
		pr_err("sched_setattr (%s slice): %s",
		       p->profile == SP_CUSTOM ? "custom" : "default",
		       strerror(-ret));
		return ret;
	}
	ret = sp_state_read(&r->before);
	if (ret)
		return ret;
	if (p->profile == SP_CUSTOM && r->before.slice_ns != p->slice_ns) {
		pr_err("the kernel reports a %llu ns slice after setting %llu ns: no custom slices here (Linux >= 6.12)",
		       (unsigned long long)r->before.slice_ns,
		       (unsigned long long)p->slice_ns);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The state must not have moved; then the default slice and CPUs return. */
static void verify_and_restore(const struct sp_params *p, struct sp_run *r)
{
	if (sp_state_read(&r->after))
		r->verify_error = "sched_getattr failed";
	else if (r->after.policy != SCHED_OTHER)
		r->verify_error = "policy changed";
	else if (r->after.nice != 0)
		r->verify_error = "nice changed";
	else if (r->after.slice_ns != r->before.slice_ns)
		r->verify_error = "slice changed";
	else if (r->after.cpu != p->co.cpu || r->after.nr_allowed != 1)
		r->verify_error = "CPU or affinity changed";
	if (r->verify_error)
		pr_err("state check after the calls: %s", r->verify_error);
	r->restored = !sp_set_slice(0) &&
		      !sched_setaffinity(0, sizeof(r->saved_cpus),
					 &r->saved_cpus);
	if (!r->restored)
		pr_err("restoring the default slice and affinity: %s",
		       strerror(errno));
}

static int print_summary(const struct sp_params *p, const struct sp_run *r,
			 double duration_s)
{
	struct wl_work work = {
		.work_done = p->mode == WL_MODE_BENCH ?
			     (double)r->bench.done * p->bl.per_round :
			     r->calls,
		.unit = "sched_setparam calls",
		.errors = r->failures + (r->verify_error ? 1 : 0),
		.duration_s = duration_s,
	};
	cJSON *s = wl_summary_new(NAME, &work);

	if (!s)
		return -ENOMEM;
	wl_summary_str(s, "mode", wl_bench_mode_name(p->mode));
	wl_summary_str(s, "profile",
		       p->profile == SP_CUSTOM ? "custom" : "default");
	wl_summary_u64(s, "slice_ns", r->before.slice_ns);
	wl_summary_u64(s, "cpu", p->co.cpu);
	wl_summary_u64(s, "failures", r->failures);
	if (r->failures)
		wl_summary_str(s, "last_error", strerror(r->last_errno));
	wl_summary_bool(s, "verified", !r->verify_error);
	wl_summary_bool(s, "restored", r->restored);
	if (p->mode == WL_MODE_BENCH)
		wl_bench_summary(s, &r->bench, "calls_per_round",
				 "ns_per_call");
	else
		wl_pace_summary(s, p->bl.rate, &r->pace, r->calls,
				duration_s);
	return wl_summary_print(s);
}

int main(int argc, char **argv)
{
	struct sp_params p = {
		.slice_ns = 10000000,
		.bl = { .per_round = 500000, .warmups = 3, .rounds = 15,
			.rate = 1000 },
	};
	struct sp_run r = { 0 };
	uint64_t start;
	int ret, code = WL_EXIT_OK;

	if (wl_init(NAME))
		return WL_EXIT_USAGE;
	ret = wl_bench_parse(argc, argv, &opts, &p, &p.mode);
	if (ret)
		return wl_opt_exit(ret, usage);
	wl_bench_init(&r.bench, p.bl.per_round, p.bl.warmups, p.bl.rounds);
	start = wl_now_ns();
	ret = setup(&p, &r);
	if (ret) {
		/* Undo what setup did, and still say what was tried. */
		verify_and_restore(&p, &r);
		r.verify_error = NULL;
		print_summary(&p, &r, 0);
		return WL_EXIT_ENVIRONMENT;
	}
	ret = p.mode == WL_MODE_BENCH ? run_bench(&p, &r) : run_load(&p, &r);
	verify_and_restore(&p, &r);
	if (print_summary(&p, &r, wl_elapsed_s(start, wl_now_ns())) || ret)
		code = WL_EXIT_FAILURE;
	if (r.failures) {
		pr_err("%llu of %llu sched_setparam calls failed: %s",
		       (unsigned long long)r.failures,
		       (unsigned long long)r.calls, strerror(r.last_errno));
		code = WL_EXIT_FAILURE;
	}
	if (r.verify_error || !r.restored)
		code = WL_EXIT_FAILURE;
	wl_bench_free(&r.bench);
	return code;
}
