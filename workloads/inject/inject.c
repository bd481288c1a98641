// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject: the positive control. A SCHED_FIFO thread (priority 99 by
 * default) on one CPU busy-waits, in user space with interrupts enabled,
 * for W us every P us. Anything on that CPU below its priority (cyclictest
 * at -p95) waits up to W us: a suite run with it must be flagged by the
 * analyzer, which is how we prove that the gate can fail.
 *
 * The period is drawn from [P-J, P+J] on every cycle so that the spins do
 * not phase-lock with cyclictest's own interval (a 50 us spin every 5 ms
 * beside a 1 ms cyclictest can miss every wake-up). Wake-ups use absolute
 * clock_nanosleep() so that the mean period does not drift.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "log.h"
#include "trace/trace.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"

#define NAME		"inject"
#define TOLERANCE	0.10	/* a spin "on width" is within 10 % */

struct inject_params {
	unsigned int prio;
	uint64_t width_ns;
	uint64_t period_ns;
	uint64_t jitter_ns;
	int jitter_set;
	uint64_t max_spins;	/* 0: no limit */
	uint64_t seed;
	int seed_set;
	struct wl_common co;	/* --cpu, --duration */
};

struct inject_stats {
	uint64_t spins;
	uint64_t on_width;	/* within TOLERANCE of the requested width */
	uint64_t overruns;	/* a wake-up later than the next one was due */
	uint64_t sum_ns, min_ns, max_ns;
	uint64_t first_ns, last_ns;	/* start of the first and last spin */
};

struct inject {
	const struct inject_params *p;
	struct inject_stats st;
	uint64_t rng;
	struct trace_marker mk;	/* the runner's trace, when it traces */
};

enum { OPT_PRIO = 256, OPT_SEED };

static const struct option long_opts[] = {
	WL_OPT_CPU,
	{ "width-us", required_argument, NULL, 'w' },
	{ "period-us", required_argument, NULL, 'p' },
	{ "jitter-us", required_argument, NULL, 'j' },
	{ "prio", required_argument, NULL, OPT_PRIO },
	WL_OPT_DURATION,
	{ "spins", required_argument, NULL, 'n' },
	{ "seed", required_argument, NULL, OPT_SEED },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " [OPTIONS]\n"
"A SCHED_FIFO thread pinned to one CPU spins for --width-us every\n"
"--period-us (+- --jitter-us, drawn per cycle): a latency of known width\n"
"for cyclictest to see. Runs until SIGTERM/SIGINT, --duration or --spins;\n"
"prints a one-line JSON summary with the widths it really spun.\n"
"\n"
"  -w, --width-us W     spin width in us (default 100)\n"
"  -p, --period-us P    mean period in us (default 7919, a prime)\n"
"  -j, --jitter-us J    period drawn from [P-J, P+J] (default P/10)\n"
"      --prio N         SCHED_FIFO priority 1..99 (default 99)\n"
"  -n, --spins N        stop after N spins\n"
"      --seed N         seed of the period jitter (default: from the clock)\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"Needs root (or CAP_SYS_NICE and RLIMIT_RTPRIO) for SCHED_FIFO: exit 4\n"
"without. Exit: 0 done, 1 failed, 2 usage, 4 environment.\n");
}

static int parse_one(int c, void *ctx)
{
	struct inject_params *p = ctx;

	switch (c) {
	case 'w':
		return wl_opt_us("--width-us", optarg, 1, 1000000,
				 &p->width_ns);
	case 'p':
		return wl_opt_us("--period-us", optarg, 2, 10000000,
				 &p->period_ns);
	case 'j':
		p->jitter_set = 1;
		return wl_opt_us("--jitter-us", optarg, 0, 10000000,
				 &p->jitter_ns);
	case OPT_PRIO:
		return wl_opt_uint("--prio", optarg, 1, 99, &p->prio);
	case 'n':
		return wl_opt_u64("--spins", optarg, 1, UINT32_MAX,
				  &p->max_spins);
	case OPT_SEED:
		p->seed_set = 1;
		return wl_opt_u64("--seed", optarg, 0, UINT32_MAX, &p->seed);
	default:
		return -EINVAL;
	}
}

static int check_params(void *ctx)
{
	struct inject_params *p = ctx;

	if (!p->jitter_set)
		p->jitter_ns = p->period_ns / 10 / 1000 * 1000;
	/* The shortest period must leave the CPU idle between spins. */
	if (p->jitter_ns >= p->period_ns ||
	    p->period_ns - p->jitter_ns <= p->width_ns) {
		pr_err("--period-us: %llu +- %llu us leaves no idle time after a %llu us spin",
		       (unsigned long long)p->period_ns / 1000,
		       (unsigned long long)p->jitter_ns / 1000,
		       (unsigned long long)p->width_ns / 1000);
		return -EINVAL;
	}
	return 0;
}

static const struct wl_opts opts = {
	"c:w:p:j:d:n:h", long_opts, parse_one, check_params,
	offsetof(struct inject_params, co),
};

/* xorshift64*: a period jitter, not cryptography. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static uint64_t next_period(struct inject *in)
{
	const struct inject_params *p = in->p;

	if (!p->jitter_ns)
		return p->period_ns;
	return p->period_ns - p->jitter_ns +
	       next_rand(&in->rng) % (2 * p->jitter_ns + 1);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static void spin(struct inject *in)
{
	uint64_t start, end, target, w;

	start = wl_now_ns();
	if (!in->st.spins)
		in->st.first_ns = start;
	in->st.last_ns = start;
	target = start + in->p->width_ns;
	do {
		cpu_relax();
		end = wl_now_ns();
	} while (end < target);

	w = end - start;
	in->st.sum_ns += w;
	if (!in->st.spins || w < in->st.min_ns)
		in->st.min_ns = w;
	if (w > in->st.max_ns)
		in->st.max_ns = w;
	if ((double)w <= in->p->width_ns * (1 + TOLERANCE))
		in->st.on_width++;
	in->st.spins++;
	/* After the spin, so that the write does not widen it. */
	trace_marker_printf(&in->mk, "inject: spun %llu us on CPU %d",
			    (unsigned long long)(w / 1000), in->p->co.cpu);
}

static void ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000ULL;
	ts->tv_nsec = ns % 1000000000ULL;
}

/*
 * Until next (CLOCK_MONOTONIC ns), or until told to stop: the stop
 * signal is taken by another thread, so a sleep of a long period (10 s)
 * would outlast the runner's grace after SIGTERM. Slices of at most
 * SLEEP_SLICE_NS, the last one to the exact deadline.
 */
#define SLEEP_SLICE_NS	50000000ULL

static void sleep_until(uint64_t next)
{
	struct timespec ts;
	uint64_t now;

	while (!wl_stopping() && (now = wl_now_ns()) < next) {
		ns_to_ts(next - now > SLEEP_SLICE_NS ? now + SLEEP_SLICE_NS :
			 next, &ts);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void *spinner(void *arg)
{
	struct inject *in = arg;
	uint64_t next = wl_now_ns();

	while (!wl_stopping()) {
		spin(in);
		if (in->st.spins == 1)
			wl_ready();
		if (in->p->max_spins && in->st.spins >= in->p->max_spins)
			break;
		next += next_period(in);
		if (next <= wl_now_ns()) {
			/* Late (host preemption, throttling): start afresh. */
			in->st.overruns++;
			next = wl_now_ns() + next_period(in);
		}
		sleep_until(next);
	}
	wl_stop();
	return NULL;
}

static int start_spinner(struct inject *in, pthread_t *tid)
{
	struct sched_param sp = { .sched_priority = (int)in->p->prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(in->p->co.cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(tid, &attr, spinner, in);
	pthread_attr_destroy(&attr);
	if (ret == EPERM) {
		pr_err("SCHED_FIFO %u: permission denied (run as root, or give CAP_SYS_NICE and RLIMIT_RTPRIO)",
		       in->p->prio);
		return -EPERM;
	}
	if (ret) {
		pr_err("cannot start the spinner on CPU %d: %s", in->p->co.cpu,
		       strerror(ret));
		return -ret;
	}
	return 0;
}

static int print_summary(const struct inject *in, double duration_s)
{
	const struct inject_params *p = in->p;
	const struct inject_stats *st = &in->st;
	struct wl_work work = {
		.work_done = (double)st->spins,
		.unit = "spins",
		.errors = 0,
		.duration_s = duration_s,
	};
	cJSON *s = wl_summary_new(NAME, &work);

	if (!s)
		return -ENOMEM;
	wl_summary_u64(s, "cpu", p->co.cpu);
	wl_summary_u64(s, "prio", p->prio);
	wl_summary_str(s, "policy", "fifo");
	wl_summary_num(s, "width_us", p->width_ns / 1e3, 3);
	wl_summary_num(s, "period_us", p->period_ns / 1e3, 3);
	wl_summary_num(s, "jitter_us", p->jitter_ns / 1e3, 3);
	wl_summary_u64(s, "seed", p->seed);
	wl_summary_u64(s, "spins", st->spins);
	if (st->spins) {
		wl_summary_num(s, "width_min_us", st->min_ns / 1e3, 3);
		wl_summary_num(s, "width_avg_us",
			       (double)st->sum_ns / st->spins / 1e3, 3);
		wl_summary_num(s, "width_max_us", st->max_ns / 1e3, 3);
	}
	if (st->spins > 1)
		wl_summary_num(s, "period_avg_us", (st->last_ns - st->first_ns) /
			       1e3 / (st->spins - 1), 3);
	wl_summary_u64(s, "spins_on_width", st->on_width);
	wl_summary_u64(s, "overruns", st->overruns);
	wl_summary_num(s, "duty_pct", duration_s > 0 ?
		       100.0 * st->sum_ns / 1e9 / duration_s : 0, 3);
	return wl_summary_print(s);
}

int main(int argc, char **argv)
{
	struct inject_params p = {
		.prio = 99, .width_ns = 100000, .period_ns = 7919000,
	};
	struct inject in = { .p = &p };
	uint64_t start;
	pthread_t tid;
	int ret;

	ret = wl_opt_start(NAME, argc, argv, &opts, &p, usage);
	if (ret != WL_OPT_GO_ON)
		return ret;
	if (!p.seed_set)
		p.seed = (wl_now_ns() ^ ((uint64_t)getpid() << 16)) &
			 UINT32_MAX;	/* exact in JSON, reusable as --seed */
	in.rng = (p.seed << 32 | p.seed) ^ 0x9e3779b97f4a7c15ULL;
	/* Page faults inside a spin would widen it: best effort. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		pr_warn("mlockall: %s (spins may be wider)", strerror(errno));

	/* Markers only when the runner traces the repetition. */
	trace_marker_open(&in.mk);
	start = wl_now_ns();
	ret = start_spinner(&in, &tid);
	if (ret) {
		trace_marker_close(&in.mk);
		return ret == -EPERM ? WL_EXIT_ENVIRONMENT : WL_EXIT_FAILURE;
	}
	wl_run_for(p.co.duration_ns);
	pthread_join(tid, NULL);
	trace_marker_close(&in.mk);
	if (print_summary(&in, wl_elapsed_s(start, wl_now_ns())))
		return WL_EXIT_FAILURE;
	return in.st.spins ? WL_EXIT_OK : WL_EXIT_FAILURE;
}
