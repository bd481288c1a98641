// SPDX-License-Identifier: GPL-2.0-only
/*
 * The microbenchmark harness (wl_bench.h): rounds of calls, their options
 * and modes, and the per-call statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"
#include "workloads/common/loop/wl_bench.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_stats.h"
#include "workloads/common/core/wl_summary.h"

#define MAX_ROUNDS	1000

static const char *const modes[] = { "bench", "load", NULL };

const char *wl_bench_mode_name(enum wl_bench_mode mode)
{
	return modes[mode];
}

int wl_bench_parse(int argc, char *const argv[], const struct wl_opts *o,
		   void *ctx, enum wl_bench_mode *mode)
{
	struct wl_opts each = {
		o->shortopts, o->longopts, o->one, NULL, o->common_off,
	};
	int ret, idx = -1;

	if (argc > 1 && argv[1][0] != '-') {
		if (wl_opt_choice("mode", argv[1], modes, &idx))
			return -EINVAL;
		optind = 2;
	}
	ret = wl_opt_parse(argc, argv, &each, ctx);
	if (ret)
		return ret;
	if (idx < 0) {
		pr_err("mode: bench or load must come first (try --help)");
		return -EINVAL;
	}
	*mode = idx;
	return o->check ? o->check(ctx) : 0;
}

static int bench_opt(int c, const char *arg, const char *count_opt,
		     struct wl_bench_opts *o)
{
	o->seen_bench = true;
	switch (c) {
	case 'n':
		return wl_opt_uint(count_opt, arg, 1, 100000000, &o->per_round);
	case 'W':
		return wl_opt_uint("--warmups", arg, 0, MAX_ROUNDS,
				   &o->warmups);
	default:
		return wl_opt_uint("--rounds", arg, 1, MAX_ROUNDS, &o->rounds);
	}
}

int wl_bench_opt(int c, const char *arg, const char *count_opt,
		 struct wl_bench_opts *o)
{
	switch (c) {
	case 'n':
	case 'W':
	case 'r':
		return bench_opt(c, arg, count_opt, o);
	case 'R':
		o->seen_rate = true;
		return wl_opt_u64("--rate", arg, 0, 10000000, &o->rate);
	default:
		return -EINVAL;
	}
}

int wl_bench_check_mode(enum wl_bench_mode mode, const struct wl_bench_opts *o,
			const struct wl_common *co, const char *count_opt)
{
	bool seen_load = o->seen_rate || co->seen_duration;

	if (mode == WL_MODE_BENCH && seen_load) {
		pr_err("--rate/--duration: not an option of bench mode");
		return -EINVAL;
	}
	if (mode == WL_MODE_LOAD && o->seen_bench) {
		pr_err("%s/--warmups/--rounds: not an option of load mode",
		       count_opt);
		return -EINVAL;
	}
	return 0;
}

void wl_bench_init(struct wl_bench *b, unsigned int per_round,
		   unsigned int warmups, unsigned int rounds)
{
	b->per_round = per_round;
	b->warmups = warmups;
	b->rounds = rounds;
	b->round_ns = NULL;
	b->done = 0;
}

int wl_bench_start(struct wl_bench *b)
{
	b->round_ns = calloc(b->rounds, sizeof(double));
	return b->round_ns ? 0 : -ENOMEM;
}

void wl_bench_free(struct wl_bench *b)
{
	free(b->round_ns);
	b->round_ns = NULL;
}

uint64_t wl_bench_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

bool wl_bench_more(const struct wl_bench *b, unsigned int k)
{
	return k < b->warmups + b->rounds && !wl_stopping();
}

void wl_bench_round(struct wl_bench *b, unsigned int k, uint64_t t0_ns,
		    uint64_t t1_ns)
{
	if (k >= b->warmups)
		b->round_ns[b->done++] = (double)(t1_ns - t0_ns) / b->per_round;
}

static void add_stat(cJSON *s, const char *metric, const char *what,
		     double v)
{
	char key[96];

	snprintf(key, sizeof(key), "%s_%s", metric, what);
	wl_summary_num(s, key, v, 3);
}

void wl_bench_summary(cJSON *s, const struct wl_bench *b,
		      const char *per_round_key, const char *metric)
{
	struct wl_stats st;

	wl_stats_compute(b->round_ns, b->done, &st);
	wl_summary_u64(s, per_round_key, b->per_round);
	wl_summary_u64(s, "warmups", b->warmups);
	wl_summary_u64(s, "rounds", b->done);
	wl_summary_bool(s, "complete", b->done == b->rounds);
	if (b->done) {
		add_stat(s, metric, "mean", st.mean);
		add_stat(s, metric, "cv_pct", st.cv_pct);
		add_stat(s, metric, "min", st.min);
		add_stat(s, metric, "max", st.max);
	}
	wl_summary_metric(s, metric, "ns", "lower", b->round_ns, b->done);
}
