// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysctl-read: the RT sysctl reader of the "sched/rt: Rebuild domains only
 * after successful RT sysctl writes" thread. pread() at offset 0 on an open
 * fd of one /proc/sys file, every value checked against the expected one.
 * On affected kernels (v7.2) every read of sched_rt_period_us or
 * sched_rt_runtime_us rebuilds the sched domains: ~8.5 us per read against
 * ~0.25 us for the sched_rr_timeslice_ms control.
 *
 *   bench  warm-up and measured rounds of N reads, ns/read per round (the
 *          thread: 3 warm-ups + 9 rounds of 4096 reads, mean and CV)
 *   load   reads at a given rate beside cyclictest (a rebuild on every
 *          read is a latency hazard for RT tasks)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "log.h"
#include "workloads/common/loop/wl_bench.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/loop/wl_pace.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"

#define NAME		"sysctl-read"
#define VALUE_MAX	256

struct sr_params {
	enum wl_bench_mode mode;
	char name[128];		/* dotted: kernel.sched_rt_period_us */
	char path[PATH_MAX];
	const char *expect;	/* NULL: the value read at start */
	struct wl_bench_opts bl;	/* per_round: reads */
	struct wl_common co;
};

struct sr_state {
	int fd;
	char want[VALUE_MAX];
	size_t want_len;
	uint64_t reads;
	uint64_t mismatches;
	char last_bad[VALUE_MAX];
	struct wl_bench bench;	/* ns/read of each measured round */
};

static const struct option long_opts[] = {
	{ "sysctl", required_argument, NULL, 's' },
	{ "expect", required_argument, NULL, 'e' },
	WL_OPT_CPU,
	{ "reads", required_argument, NULL, 'n' },
	WL_OPT_BENCH,
	WL_OPT_DURATION,
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " bench|load [OPTIONS]\n"
"Reads one /proc/sys file with pread() at offset 0 on an open fd and\n"
"checks every value read.\n"
"  bench: --warmups + --rounds rounds of --reads reads; ns/read per round\n"
"  load:  --rate reads per second until SIGTERM/SIGINT or --duration\n"
"\n"
"  -s, --sysctl NAME    kernel.sched_rt_period_us (default), or the\n"
"                       kernel/sched_rt_period_us form\n"
"  -e, --expect VALUE   the value every read must return (default: the\n"
"                       value read at start)\n"
"  -n, --reads N        bench: reads per round (default 4096)\n"
"  -W, --warmups N      bench: warm-up rounds, not reported (default 3)\n"
"  -r, --rounds N       bench: measured rounds (default 9)\n"
"  -R, --rate N         load: reads per second, 0 = flat out (default 1000)\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f, "\n"
"--duration is load mode's.\n"
"Exit: 0 done, 1 a read returned another value, 2 usage, 4 the file\n"
"cannot be read.\n");
}

/* kernel.sched_rt_period_us or kernel/sched_rt_period_us -> both forms. */
static int set_sysctl(struct sr_params *p, const char *arg)
{
	size_t len = strlen(arg), i;
	int slash = strchr(arg, '/') != NULL;

	if (!len || len >= sizeof(p->name) ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_-./") != len ||
	    strstr(arg, "..") || arg[0] == '/' || arg[0] == '.' ||
	    arg[len - 1] == '/' || arg[len - 1] == '.') {
		pr_err("--sysctl: '%s' is not a sysctl name (e.g. kernel.sched_rt_period_us)",
		       arg);
		return -EINVAL;
	}
	for (i = 0; i <= len; i++)
		p->name[i] = arg[i] == '/' ? '.' : arg[i];
	snprintf(p->path, sizeof(p->path), "/proc/sys/%s", arg);
	if (!slash)
		for (i = strlen("/proc/sys/"); p->path[i]; i++)
			if (p->path[i] == '.')
				p->path[i] = '/';
	return 0;
}

static int parse_one(int c, void *ctx)
{
	struct sr_params *p = ctx;

	switch (c) {
	case 's':
		return set_sysctl(p, optarg);
	case 'e':
		if (strlen(optarg) >= VALUE_MAX - 1 || strchr(optarg, '\n')) {
			pr_err("--expect: '%s' is not a one-line value", optarg);
			return -EINVAL;
		}
		p->expect = optarg;
		return 0;
	default:
		return wl_bench_opt(c, optarg, "--reads", &p->bl);
	}
}

/* Options that belong to the other mode are an error, not ignored. */
static int check_params(void *ctx)
{
	const struct sr_params *p = ctx;

	return wl_bench_check_mode(p->mode, &p->bl, &p->co, "--reads");
}

static const struct wl_opts opts = {
	"s:e:c:n:W:r:R:d:h", long_opts, parse_one, check_params,
	offsetof(struct sr_params, co),
};

/* Opens the file and fixes the value every read must return. */
static int sr_open(const struct sr_params *p, struct sr_state *s)
{
	ssize_t n;

	s->fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		pr_err("%s: %s", p->path, strerror(errno));
		return -errno;
	}
	n = pread(s->fd, s->want, sizeof(s->want) - 1, 0);
	if (n < 0) {
		pr_err("%s: read: %s", p->path, strerror(errno));
		return -errno;
	}
	if (n == 0 || n >= (ssize_t)sizeof(s->want) - 1) {
		pr_err("%s: %zd bytes: not a one-line value", p->path, n);
		return -EINVAL;
	}
	s->want[n] = '\0';
	s->want_len = n;
	if (p->expect && (s->want_len != strlen(p->expect) + 1 ||
			  strncmp(s->want, p->expect, strlen(p->expect)))) {
		pr_err("%s: reads '%.*s', expected '%s'", p->path,
		       (int)strcspn(s->want, "\n"), s->want, p->expect);
		return -ERANGE;
	}
	return 0;
}

/* One checked read; inlined into the timed loop. */
static inline void sr_read(struct sr_state *s)
{
	char buf[VALUE_MAX];
	ssize_t n = pread(s->fd, buf, sizeof(buf) - 1, 0);

	s->reads++;
	if (n == (ssize_t)s->want_len && !memcmp(buf, s->want, n))
		return;
	s->mismatches++;
	if (n < 0)
		snprintf(s->last_bad, sizeof(s->last_bad), "error: %s",
			 strerror(errno));
	else
		snprintf(s->last_bad, sizeof(s->last_bad), "%.*s",
			 (int)strcspn(buf, "\n") < (int)n ?
			 (int)strcspn(buf, "\n") : (int)n, buf);
}

static int run_bench(const struct sr_params *p, struct sr_state *s)
{
	unsigned int r, i;

	if (wl_bench_start(&s->bench))
		return -ENOMEM;
	wl_ready();
	for (r = 0; wl_bench_more(&s->bench, r); r++) {
		uint64_t t0 = wl_bench_clock();

		for (i = 0; i < p->bl.per_round; i++)
			sr_read(s);
		wl_bench_round(&s->bench, r, t0, wl_bench_clock());
	}
	return 0;
}

static void load_read(void *s)
{
	sr_read(s);
}

static int run_load(const struct sr_params *p, struct sr_state *s,
		    struct wl_pace *pace)
{
	wl_pace_run(pace, p->bl.rate, p->co.duration_ns, load_read, s);
	return 0;
}

static int print_summary(const struct sr_params *p, const struct sr_state *s,
			 const struct wl_pace *pace, double duration_s)
{
	uint64_t measured = p->mode == WL_MODE_BENCH ?
			    (uint64_t)s->bench.done * p->bl.per_round :
			    s->reads;
	struct wl_work work = {
		.work_done = (double)measured,
		.unit = "reads",
		.errors = s->mismatches,
		.duration_s = duration_s,
	};
	cJSON *sum = wl_summary_new(NAME, &work);
	char value[VALUE_MAX];

	if (!sum)
		return -ENOMEM;
	/* The value without its newline: "100" for sched_rr_timeslice_ms. */
	snprintf(value, sizeof(value), "%.*s", (int)strcspn(s->want, "\n"),
		 s->want);
	wl_summary_str(sum, "mode", wl_bench_mode_name(p->mode));
	wl_summary_str(sum, "sysctl", p->name);
	wl_summary_str(sum, "path", p->path);
	wl_summary_str(sum, "value", value);
	wl_summary_u64(sum, "cpu", p->co.cpu);
	wl_summary_u64(sum, "mismatches", s->mismatches);
	if (s->mismatches)
		wl_summary_str(sum, "last_mismatch", s->last_bad);
	if (p->mode == WL_MODE_BENCH)
		wl_bench_summary(sum, &s->bench, "reads_per_round",
				 "ns_per_read");
	else
		wl_pace_summary(sum, p->bl.rate, pace, s->reads, duration_s);
	return wl_summary_print(sum);
}

int main(int argc, char **argv)
{
	struct sr_params p = {
		.bl = { .per_round = 4096, .warmups = 3, .rounds = 9,
			.rate = 1000 },
	};
	struct sr_state s = { .fd = -1 };
	struct wl_pace pace = { 0 };
	uint64_t start;
	int ret, code = WL_EXIT_OK;

	if (wl_init(NAME))
		return WL_EXIT_USAGE;
	set_sysctl(&p, "kernel.sched_rt_period_us");
	ret = wl_bench_parse(argc, argv, &opts, &p, &p.mode);
	if (ret)
		return wl_opt_exit(ret, usage);
	wl_bench_init(&s.bench, p.bl.per_round, p.bl.warmups, p.bl.rounds);
	if (wl_cpu_pin(p.co.cpu))
		return WL_EXIT_ENVIRONMENT;
	start = wl_now_ns();
	ret = sr_open(&p, &s);
	if (ret) {
		/* The summary still says what was tried, with no work done. */
		print_summary(&p, &s, &pace, 0);
		code = ret == -ERANGE ? WL_EXIT_FAILURE : WL_EXIT_ENVIRONMENT;
		goto out;
	}
	ret = p.mode == WL_MODE_BENCH ? run_bench(&p, &s) :
				   run_load(&p, &s, &pace);
	if (ret || print_summary(&p, &s, &pace,
				 wl_elapsed_s(start, wl_now_ns()))) {
		code = WL_EXIT_FAILURE;
	} else if (s.mismatches) {
		pr_err("%s: %llu of %llu reads did not return '%.*s' (last: '%s')",
		       p.path, (unsigned long long)s.mismatches,
		       (unsigned long long)s.reads,
		       (int)strcspn(s.want, "\n"), s.want, s.last_bad);
		code = WL_EXIT_FAILURE;
	}
out:
	if (s.fd >= 0)
		close(s.fd);
	wl_bench_free(&s.bench);
	return code;
}
