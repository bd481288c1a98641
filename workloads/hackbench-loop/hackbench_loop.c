// SPDX-License-Identifier: GPL-2.0-only
/*
 * hackbench-loop: `while :; do hackbench 50; done` done properly (the load
 * under which Steven Rostedt measured extend-sched, slice-extension V5
 * thread). Runs rt-tests' hackbench again and again, counts the runs that
 * completed and the ones that failed, and stops with no hackbench process
 * left behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "log.h"
#include "workloads/common/loop/wl_lines.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/loop/wl_proc.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"

#define NAME		"hackbench-loop"
#define MAX_FAILS_IN_ROW 3	/* a hackbench that cannot run at all */
#define STOP_GRACE_NS	2000000000ULL

struct hb_params {
	unsigned int groups;
	unsigned int loops;
	unsigned int fds;
	unsigned int datasize;	/* 0: hackbench's default */
	int threads;		/* -T instead of -P */
	int pipe;		/* -p instead of socketpairs */
	uint64_t max_runs;	/* 0: no limit */
	const char *hackbench;
	int verbose;
	struct wl_common co;	/* --cpu, --duration */
};

struct hb_stats {
	uint64_t runs;		/* completed with exit 0 and a Time: line */
	uint64_t failures;
	uint64_t interrupted;	/* cut short by our stop */
	double time_sum, time_min, time_max;
	char last_error[128];
};

enum { OPT_HACKBENCH = 256 };

static const struct option long_opts[] = {
	{ "groups", required_argument, NULL, 'g' },
	{ "loops", required_argument, NULL, 'l' },
	{ "fds", required_argument, NULL, 'f' },
	{ "datasize", required_argument, NULL, 's' },
	{ "threads", no_argument, NULL, 'T' },
	{ "processes", no_argument, NULL, 'P' },
	{ "pipe", no_argument, NULL, 'p' },
	WL_OPT_DURATION,
	{ "runs", required_argument, NULL, 'n' },
	{ "hackbench", required_argument, NULL, OPT_HACKBENCH },
	{ "verbose", no_argument, NULL, 'v' },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " [OPTIONS]\n"
"Runs rt-tests' hackbench in a loop until stopped (SIGTERM/SIGINT) or for\n"
"--duration; prints a one-line JSON summary on stdout.\n"
"\n"
"  -g, --groups N       hackbench groups (default 50, as `hackbench 50`)\n"
"  -l, --loops N        messages per sender (default 100)\n"
"  -f, --fds N          file descriptors per group (default 20)\n"
"  -s, --datasize B     message size in bytes (default: hackbench's, 100)\n"
"  -T, --threads        threads instead of processes\n"
"  -P, --processes      processes (default)\n"
"  -p, --pipe           pipes instead of socketpairs\n"
"  -n, --runs N         stop after N completed runs; default: no limit\n"
"      --hackbench PATH the hackbench binary (default: hackbench in PATH)\n"
"  -v, --verbose        copy all of hackbench's output to stderr (by\n"
"                       default only its unexpected lines)\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"Exit: 0 done, 1 hackbench failed %d times in a row, 2 usage,\n"
"4 hackbench missing. Environment: RTGATE_READY_FD (workloads/README.md).\n",
		MAX_FAILS_IN_ROW);
}

static int parse_one(int c, void *ctx)
{
	struct hb_params *p = ctx;

	switch (c) {
	case 'g':
		return wl_opt_uint("--groups", optarg, 1, 1000, &p->groups);
	case 'l':
		return wl_opt_uint("--loops", optarg, 1, 100000000, &p->loops);
	case 'f':
		return wl_opt_uint("--fds", optarg, 1, 1000, &p->fds);
	case 's':
		return wl_opt_uint("--datasize", optarg, 1, 1 << 20,
				   &p->datasize);
	case 'T':
	case 'P':
		p->threads = c == 'T';
		return 0;
	case 'p':
		p->pipe = 1;
		return 0;
	case 'n':
		return wl_opt_u64("--runs", optarg, 1, UINT32_MAX,
				  &p->max_runs);
	case OPT_HACKBENCH:
		p->hackbench = optarg;
		return 0;
	case 'v':
		p->verbose = 1;
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct wl_opts opts = {
	"g:l:f:s:TPpd:n:vh", long_opts, parse_one, NULL,
	offsetof(struct hb_params, co),
};

/* Accounts one "Time: 1.234" line of hackbench's output. */
static int parse_time_line(const char *line, double *t)
{
	char *end;

	if (strncmp(line, "Time:", 5))
		return -ENOENT;
	*t = strtod(line + 5, &end);
	while (*end == ' ' || *end == '\n')
		end++;
	return *end || *t < 0 ? -EINVAL : 0;
}

/* hackbench's own lines before a run; anything else is worth showing. */
static int is_banner(const char *line)
{
	return !strncmp(line, "Running in ", 11) ||
	       !strncmp(line, "Each sender will pass ", 22);
}

struct hb_output {
	const struct hb_params *p;
	double *time_s;
	int *have_time;
};

static void take_line(char *line, void *ctx)
{
	struct hb_output *o = ctx;

	if (!parse_time_line(line, o->time_s))
		*o->have_time = 1;
	else if (o->p->verbose || !is_banner(line))
		fprintf(stderr, "hackbench: %s\n", line);
}

/*
 * Reads hackbench's output (stdout and stderr) until EOF (hackbench and
 * all its workers have exited) or a stop request. Returns 1 when
 * stopped, 0 at EOF.
 */
static int read_output(int fd, const struct hb_params *p, double *time_s,
		       int *have_time)
{
	struct hb_output o = { p, time_s, have_time };
	struct wl_lines lines;
	char buf[4096];

	wl_lines_init(&lines, buf, sizeof(buf), take_line, &o);
	return wl_lines_follow(&lines, fd);
}

static void build_argv(const struct hb_params *p, char bufs[][24],
		       char **argv)
{
	int i = 0;

	argv[i++] = (char *)p->hackbench;
	argv[i++] = p->threads ? "-T" : "-P";
	if (p->pipe)
		argv[i++] = "-p";
	snprintf(bufs[0], 24, "--groups=%u", p->groups);
	argv[i++] = bufs[0];
	snprintf(bufs[1], 24, "--loops=%u", p->loops);
	argv[i++] = bufs[1];
	snprintf(bufs[2], 24, "--fds=%u", p->fds);
	argv[i++] = bufs[2];
	if (p->datasize) {
		snprintf(bufs[3], 24, "--datasize=%u", p->datasize);
		argv[i++] = bufs[3];
	}
	argv[i] = NULL;
}

static void account(struct hb_stats *st, int status, int have_time,
		    double t)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status) && have_time) {
		if (!st->runs || t < st->time_min)
			st->time_min = t;
		st->time_max = t > st->time_max ? t : st->time_max;
		st->time_sum += t;
		st->runs++;
		return;
	}
	st->failures++;
	if (WIFSIGNALED(status))
		snprintf(st->last_error, sizeof(st->last_error),
			 "hackbench killed by signal %d", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		snprintf(st->last_error, sizeof(st->last_error),
			 "hackbench exited with status %d", WEXITSTATUS(status));
	else
		snprintf(st->last_error, sizeof(st->last_error),
			 "hackbench printed no Time: line");
	pr_warn("%s", st->last_error);
}

/* One hackbench run. Returns 0, or -errno when it could not start. */
static int run_once(const struct hb_params *p, struct hb_stats *st)
{
	char bufs[4][24], *argv[10];
	int fd, status = 0, have_time = 0, stopped, ret;
	double t = 0;
	pid_t pid;

	build_argv(p, bufs, argv);
	ret = wl_proc_spawn(argv, &pid, &fd, WL_SPAWN_MERGE_STDERR);
	if (ret)
		return ret;
	wl_ready();
	stopped = read_output(fd, p, &t, &have_time);
	close(fd);
	/*
	 * A stop signal sent to the whole process group (the runner's way)
	 * reaches hackbench too: its death then is our stop, not a failure.
	 */
	if (stopped || wl_stopping()) {
		wl_proc_stop(pid, STOP_GRACE_NS, &status);
		st->interrupted++;
		return 0;
	}
	wl_proc_wait(pid, &status);
	wl_proc_reap_orphans();
	account(st, status, have_time, t);
	return 0;
}

static int print_summary(const struct hb_params *p, const struct hb_stats *st,
			 double duration_s)
{
	struct wl_work work = {
		.work_done = (double)st->runs,
		.unit = "hackbench runs",
		.errors = st->failures,
		.duration_s = duration_s,
	};
	cJSON *s = wl_summary_new(NAME, &work);

	if (!s)
		return -ENOMEM;
	wl_summary_u64(s, "runs", st->runs);
	wl_summary_u64(s, "failures", st->failures);
	wl_summary_u64(s, "interrupted", st->interrupted);
	wl_summary_u64(s, "groups", p->groups);
	wl_summary_u64(s, "loops", p->loops);
	wl_summary_u64(s, "fds", p->fds);
	wl_summary_str(s, "mode", p->threads ? "threads" : "processes");
	wl_summary_str(s, "ipc", p->pipe ? "pipe" : "socket");
	wl_summary_u64(s, "tasks_per_run", 2ULL * p->groups * p->fds);
	if (st->runs) {
		wl_summary_num(s, "time_mean_s", st->time_sum / st->runs, 3);
		wl_summary_num(s, "time_min_s", st->time_min, 3);
		wl_summary_num(s, "time_max_s", st->time_max, 3);
	}
	if (st->failures)
		wl_summary_str(s, "last_error", st->last_error);
	return wl_summary_print(s);
}

int main(int argc, char **argv)
{
	struct hb_params p = {
		.groups = 50, .loops = 100, .fds = 20, .hackbench = "hackbench",
	};
	struct hb_stats st = { 0 };
	uint64_t start;
	unsigned int in_row = 0;
	int ret, code = WL_EXIT_OK;

	ret = wl_opt_start(NAME, argc, argv, &opts, &p, usage);
	if (ret != WL_OPT_GO_ON)
		return ret;
	if (wl_proc_init())
		return WL_EXIT_ENVIRONMENT;

	start = wl_now_ns();
	if (wl_stop_after(p.co.duration_ns))
		return WL_EXIT_ENVIRONMENT;
	while (!wl_stopping()) {
		uint64_t before = st.failures;

		ret = run_once(&p, &st);
		if (ret) {
			code = ret == -ENOENT || ret == -EACCES ?
				WL_EXIT_ENVIRONMENT : WL_EXIT_FAILURE;
			break;
		}
		in_row = st.failures > before ? in_row + 1 : 0;
		if (in_row >= MAX_FAILS_IN_ROW) {
			pr_err("hackbench failed %u times in a row: %s",
			       in_row, st.last_error);
			code = WL_EXIT_FAILURE;
			break;
		}
		if (p.max_runs && st.runs >= p.max_runs)
			wl_stop();
	}
	wl_proc_kill_all();
	if (print_summary(&p, &st, wl_elapsed_s(start, wl_now_ns())))
		code = WL_EXIT_FAILURE;
	return code;
}
