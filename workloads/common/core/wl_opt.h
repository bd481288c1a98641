/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict command-line options for workloads, on top of common/text/parse.h.
 * Every helper prints one line naming the option and the bad value,
 *   hackbench-loop: --groups: 'abc' is not an integer in 1..10000
 * and returns -EINVAL; main() then exits WL_EXIT_USAGE (2).
 */
#ifndef RTGATE_WL_OPT_H
#define RTGATE_WL_OPT_H

#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * getopt_long() that reports unknown options and missing arguments itself:
 * returns the option, -1 at the end, or '?' after printing the message.
 * --version prints "NAME (rtgate) VERSION" and exits 0. Workloads take
 * options written in suites and passed verbatim, so unlike rtgate's own
 * commands (glibc argp, common/cmd/cli.h) an abbreviation is refused here.
 */
int wl_getopt(int argc, char *const argv[], const char *shortopts,
	      const struct option *longopts);
/* Rejects operands left after the options. */
int wl_opt_no_operands(int argc, char *const argv[]);

/*
 * The options every workload spells the same way (workloads/README.md):
 * --cpu N (one CPU), --duration D, --help, and --version (wl_getopt()
 * answers it). A workload's table names them with these entries, its
 * parameters hold one struct wl_common, and wl_opt_parse() takes them:
 * the workload's own parse function never sees them. The short letter is
 * the table's (extend-sched's -d is its --no-rseq, as in the seed's
 * program; its --duration is -t).
 */
#define WL_OPT_CPU		{ "cpu", required_argument, NULL, 'c' }
#define WL_OPT_DURATION		{ "duration", required_argument, NULL, 'd' }
#define WL_OPT_HELP		{ "help", no_argument, NULL, 'h' }
#define WL_OPT_END		{ NULL, 0, NULL, 0 }

struct wl_common {
	int cpu;		/* --cpu; default: the first allowed CPU */
	uint64_t duration_ns;	/* --duration; 0: until SIGTERM/SIGINT */
	bool seen_cpu;
	bool seen_duration;
};

/* A workload's options: its tables, and how each option is taken. */
struct wl_opts {
	const char *shortopts;
	const struct option *longopts;
	int (*one)(int c, void *ctx);	/* each option but the common ones:
					 * 0 or -EINVAL */
	int (*check)(void *ctx);	/* all of them together, after the
					 * last; NULL: nothing to check */
	size_t common_off;		/* offsetof() its struct wl_common
					 * in ctx */
};

/*
 * The whole option loop of a workload without a mode word: the common
 * options into its struct wl_common (defaults first), o->one(c, ctx) for
 * each other option, then no operands, then o->check(ctx). Returns 0, 1
 * for -h/--help, or -EINVAL.
 */
int wl_opt_parse(int argc, char *const argv[], const struct wl_opts *o,
		 void *ctx);

/* For a workload with a loop of its own: the defaults, then each option. */
void wl_opt_common_init(struct wl_common *co);
/*
 * 1 when c is one of the common options the table has: taken into co,
 * *ret 0 or -EINVAL (after a message); 0 when it is the workload's own.
 */
int wl_opt_take_common(int c, const struct option *longopts,
		       struct wl_common *co, int *ret);

/*
 * The --help lines of the common options the table has, in one wording
 * for every workload; usage() prints its own options first, then these.
 */
void wl_opt_usage_common(FILE *f, const struct option *longopts);

/*
 * main()'s exit for a parse result other than 0: 1 (--help) prints usage
 * on stdout and is WL_EXIT_OK; an error (already printed) is WL_EXIT_USAGE.
 */
int wl_opt_exit(int parsed, void (*usage)(FILE *f));

/*
 * main()'s start for a workload that wl_opt_parse() serves: wl_init(@name),
 * then the options into @ctx. Returns WL_OPT_GO_ON, or main()'s exit
 * code: WL_EXIT_OK after --help (usage on stdout), WL_EXIT_USAGE after
 * an error (said).
 *
 *	ret = wl_opt_start(NAME, argc, argv, &opts, &p, usage);
 *	if (ret != WL_OPT_GO_ON)
 *		return ret;
 */
#define WL_OPT_GO_ON	(-1)
int wl_opt_start(const char *name, int argc, char *const argv[],
		 const struct wl_opts *o, void *ctx, void (*usage)(FILE *f));

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
