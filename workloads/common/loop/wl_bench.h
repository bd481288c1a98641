/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The microbenchmarks with a bench and a load mode (sysctl-read, setparam):
 * their shared command line, and the rounds of bench mode as the seed
 * threads run them: warm-up rounds, then measured rounds of the same
 * number of operations, each timed on CLOCK_MONOTONIC_RAW. The workload
 * keeps its own timed loop (the operation stays inlined in it):
 *
 *	for (k = 0; wl_bench_more(&b, k); k++) {
 *		uint64_t t0 = wl_bench_clock();
 *
 *		for (i = 0; i < b.per_round; i++)
 *			op();
 *		wl_bench_round(&b, k, t0, wl_bench_clock());
 *	}
 */
#ifndef RTGATE_WL_BENCH_H
#define RTGATE_WL_BENCH_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "workloads/common/core/wl_opt.h"

/* The word that comes first: bench (measured rounds) or load (a rate). */
enum wl_bench_mode { WL_MODE_BENCH, WL_MODE_LOAD };

/* "bench" or "load", as the summary's "mode" says it. */
const char *wl_bench_mode_name(enum wl_bench_mode mode);

/*
 * The command line of a bench|load workload: the mode word, then the
 * options as wl_opt_parse() takes them; o->check runs with *mode set.
 * Returns 0, 1 for -h/--help, or -EINVAL after a message (a missing mode
 * word included).
 */
int wl_bench_parse(int argc, char *const argv[], const struct wl_opts *o,
		   void *ctx, enum wl_bench_mode *mode);

/*
 * The options every bench|load workload takes, same names and ranges:
 *   bench: -n (operations per round, named by the workload),
 *   -W/--warmups N, -r/--rounds N; load: -R/--rate N and the common
 *   -d/--duration D. The common --cpu too (struct wl_common). Defaults
 *   are the workload's, set before parsing.
 */
/* Their table entries; -n's long name is the workload's ("calls"). */
#define WL_OPT_BENCH \
	{ "warmups", required_argument, NULL, 'W' }, \
	{ "rounds", required_argument, NULL, 'r' }, \
	{ "rate", required_argument, NULL, 'R' }

struct wl_bench_opts {
	unsigned int per_round;
	unsigned int warmups;
	unsigned int rounds;
	uint64_t rate;		/* load: per second, 0: flat out */
	bool seen_bench;	/* -n, -W or -r given: bench mode only */
	bool seen_rate;		/* -R given: load mode only */
};

/*
 * Takes option c with its value arg when it is one of those; count_opt
 * names -n ("--reads", "--calls"). Returns 0, or -EINVAL: after a message
 * for a bad value, silently for any other c (wl_getopt() said why).
 */
int wl_bench_opt(int c, const char *arg, const char *count_opt,
		 struct wl_bench_opts *o);

/*
 * Each option in its own mode: -EINVAL after a message naming the ones
 * given to the other mode (count_opt as for wl_bench_opt()), else 0.
 */
int wl_bench_check_mode(enum wl_bench_mode mode, const struct wl_bench_opts *o,
			const struct wl_common *co, const char *count_opt);

struct wl_bench {
	unsigned int per_round;	/* operations in a round */
	unsigned int warmups;
	unsigned int rounds;	/* measured rounds asked for */
	double *round_ns;	/* ns per operation of each measured round */
	unsigned int done;	/* measured rounds finished */
};

/*
 * The shape of the rounds, known from the options: a summary printed
 * before any round (a failed setup) still says what was asked.
 */
void wl_bench_init(struct wl_bench *b, unsigned int per_round,
		   unsigned int warmups, unsigned int rounds);
/* Allocates the measured rounds; 0 or -ENOMEM. */
int wl_bench_start(struct wl_bench *b);
void wl_bench_free(struct wl_bench *b);

/* CLOCK_MONOTONIC_RAW in nanoseconds: no NTP slewing inside a round. */
uint64_t wl_bench_clock(void);

/* Whether round k (warm-ups first) is to run: not past the end, no stop. */
bool wl_bench_more(const struct wl_bench *b, unsigned int k);

/* Records round k, timed from t0_ns to t1_ns; a warm-up is not kept. */
void wl_bench_round(struct wl_bench *b, unsigned int k, uint64_t t0_ns,
		    uint64_t t1_ns);

/*
 * Adds the rounds to a summary, in this order:
 *   "<per_round_key>":N, "warmups":W, "rounds":done, "complete":bool,
 *   "<metric>_mean", "<metric>_cv_pct", "<metric>_min", "<metric>_max"
 *   (only with a round done), then metrics.<metric> (unit ns, lower).
 */
void wl_bench_summary(cJSON *s, const struct wl_bench *b,
		      const char *per_round_key, const char *metric);

#endif
