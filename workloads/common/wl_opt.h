/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict command-line options for workloads, on top of common/parse.h.
 * Every helper prints one line naming the option and the bad value,
 *   hackbench-loop: --groups: 'abc' is not an integer in 1..10000
 * and returns -EINVAL; main() then exits WL_EXIT_USAGE (2).
 */
#ifndef RTGATE_WL_OPT_H
#define RTGATE_WL_OPT_H

#include <getopt.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

/*
 * getopt_long() that reports unknown options and missing arguments itself:
 * returns the option, -1 at the end, or '?' after printing the message.
 * --version prints "NAME (rtgate) VERSION" and exits 0. Workloads take
 * options written in suites and passed verbatim, so unlike rtgate's own
 * commands (glibc argp, common/cli.h) an abbreviation is refused here.
 */
int wl_getopt(int argc, char *const argv[], const char *shortopts,
	      const struct option *longopts);
/* Rejects operands left after the options. */
int wl_opt_no_operands(int argc, char *const argv[]);

/* A workload's options: its tables, and how each option is taken. */
struct wl_opts {
	const char *shortopts;
	const struct option *longopts;
	int (*one)(int c, void *ctx);	/* each option but -h: 0 or -EINVAL */
	int (*check)(void *ctx);	/* all of them together, after the
					 * last; NULL: nothing to check */
};

/*
 * The whole option loop of a workload without a mode word: o->one(c, ctx)
 * for each option but -h, then no operands, then o->check(ctx). Returns 0,
 * 1 for -h/--help, or -EINVAL.
 */
int wl_opt_parse(int argc, char *const argv[], const struct wl_opts *o,
		 void *ctx);

/*
 * main()'s exit for a parse result other than 0: 1 (--help) prints usage
 * on stdout and is WL_EXIT_OK; an error (already printed) is WL_EXIT_USAGE.
 */
int wl_opt_exit(int parsed, void (*usage)(FILE *f));

/* The longest --duration a workload takes: a day. */
#define WL_DURATION_MAX_NS	(86400ULL * 1000000000ULL)

int wl_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max,
	       uint64_t *out);
/* Microseconds in min_us..max_us (the --*-us options), as nanoseconds. */
int wl_opt_us(const char *opt, const char *arg, uint64_t min_us,
	      uint64_t max_us, uint64_t *out_ns);
int wl_opt_uint(const char *opt, const char *arg, unsigned int min,
		unsigned int max, unsigned int *out);
int wl_opt_int(const char *opt, const char *arg, int min, int max, int *out);
int wl_opt_double(const char *opt, const char *arg, double min, double max,
		  double *out);
/* "10" (seconds), "500ms", "2m"; at most max_ns. */
int wl_opt_duration(const char *opt, const char *arg, uint64_t max_ns,
		    uint64_t *out_ns);
/* A CPU list whose CPUs are all in this process's affinity mask. */
int wl_opt_cpulist(const char *opt, const char *arg, cpu_set_t *set);
/* One CPU in this process's affinity mask. */
int wl_opt_cpu(const char *opt, const char *arg, int *cpu);
/* One of a NULL-terminated list of words; *idx is its index. */
int wl_opt_choice(const char *opt, const char *arg,
		  const char *const *choices, int *idx);

#endif
