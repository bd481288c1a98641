// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress: stress-ng with the given stressors, as a background load beside
 * cyclictest. The work done comes from stress-ng's own metrics report
 * (--yaml with --metrics-brief), bogo-ops per stressor: its exit status
 * says little (a run stopped by a signal can exit 0, a stressor that did
 * nothing too).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
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
#include "workloads/stress/stress_yaml.h"

#define NAME		"stress"
#define MAX_STRESSORS	16
#define MAX_EXTRA	64
#define STOP_GRACE_NS	10000000000ULL	/* stress-ng writes its report */

struct stressor {
	char name[64];
	unsigned int instances;		/* 0: one per CPU (stress-ng's 0) */
};

struct stress_params {
	struct stressor s[MAX_STRESSORS];
	int nr;
	char **extra;			/* stress-ng options after "--" */
	int nr_extra;
	const char *stress_ng;
	int verbose;
	struct wl_common co;	/* --duration */
};

enum { OPT_STRESS_NG = 256 };

static const struct option long_opts[] = {
	{ "stressor", required_argument, NULL, 's' },
	WL_OPT_DURATION,
	{ "stress-ng", required_argument, NULL, OPT_STRESS_NG },
	{ "verbose", no_argument, NULL, 'v' },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " -s STRESSOR[:N] [-s …] [OPTIONS] [-- STRESS-NG-OPTIONS]\n"
"Runs stress-ng with the given stressors until SIGTERM/SIGINT or\n"
"--duration, and reports the bogo-ops of each stressor from stress-ng's own\n"
"metrics report. A one-line JSON summary goes to stdout.\n"
"\n"
"  -s, --stressor S[:N] a stress-ng stressor (cpu, vm, hdd, …) with N\n"
"                       instances (default 1; 0 = one per CPU); repeatable\n"
"      --stress-ng PATH the stress-ng binary (default: stress-ng in PATH)\n"
"  -v, --verbose        copy all of stress-ng's output to stderr\n"
"  -- OPTIONS           passed to stress-ng as they are (e.g. --vm-bytes 64M)\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"Exit: 0 done, 1 no work reported, 2 usage (an unknown stressor too),\n"
"4 stress-ng missing.\n");
}

static int add_stressor(struct stress_params *p, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct stressor *s;

	if (p->nr == MAX_STRESSORS) {
		pr_err("--stressor: at most %d stressors", MAX_STRESSORS);
		return -EINVAL;
	}
	s = &p->s[p->nr];
	if (!len || len >= sizeof(s->name) ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789-") != len) {
		pr_err("--stressor: '%s' is not NAME or NAME:N", arg);
		return -EINVAL;
	}
	memcpy(s->name, arg, len);
	s->name[len] = '\0';
	s->instances = 1;
	if (colon && wl_opt_uint("--stressor", colon + 1, 0, 4096,
				 &s->instances))
		return -EINVAL;
	p->nr++;
	return 0;
}

/* Returns 0, 1 for --help, or -EINVAL. */
static int parse_args(int argc, char **argv, struct stress_params *p)
{
	int c, ret = 0;

	wl_opt_common_init(&p->co);
	while ((c = wl_getopt(argc, argv, "s:d:vh", long_opts)) != -1) {
		if (wl_opt_take_common(c, long_opts, &p->co, &ret)) {
			if (ret)
				return ret;
			continue;
		}
		switch (c) {
		case 's':
			ret = add_stressor(p, optarg);
			break;
		case OPT_STRESS_NG:
			p->stress_ng = optarg;
			break;
		case 'v':
			p->verbose = 1;
			break;
		case 'h':
			return 1;
		default:
			return -EINVAL;
		}
		if (ret)
			return ret;
	}
	/* getopt stops at "--": the rest belongs to stress-ng. */
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		p->extra = argv + optind;
		p->nr_extra = argc - optind;
	} else if (wl_opt_no_operands(argc, argv)) {
		return -EINVAL;
	}
	if (p->nr_extra > MAX_EXTRA) {
		pr_err("--: at most %d stress-ng options", MAX_EXTRA);
		return -EINVAL;
	}
	if (!p->nr) {
		pr_err("--stressor: at least one is needed (try --help)");
		return -EINVAL;
	}
	return 0;
}

/* Reads a child's whole stdout into buf (NUL-terminated). */
static void read_all(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	while (used < len - 1) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += n;
	}
	buf[used] = '\0';
}

/*
 * The stressor names this stress-ng knows (`stress-ng --stressors`), so
 * that a typo is a usage error naming it rather than a run that did nothing.
 */
static int check_stressors(const struct stress_params *p)
{
	char *argv[] = { (char *)p->stress_ng, "--stressors", NULL };
	char buf[16384], *tok, *save;
	int found[MAX_STRESSORS] = { 0 };
	int fd, i, ret;
	pid_t pid;

	ret = wl_proc_spawn(argv, &pid, &fd, 0);
	if (ret)
		return ret;
	read_all(fd, buf, sizeof(buf));
	close(fd);
	waitpid(pid, NULL, 0);
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		for (i = 0; i < p->nr; i++)
			found[i] |= !strcmp(tok, p->s[i].name);
	for (i = 0; i < p->nr; i++) {
		if (found[i])
			continue;
		pr_err("--stressor: '%s' is not a stressor of %s (see %s --stressors)",
		       p->s[i].name, p->stress_ng, p->stress_ng);
		return -EINVAL;
	}
	return 0;
}

struct stress_run {
	char dir[PATH_MAX - 32];
	char yaml[PATH_MAX];
	pid_t pid;
	int fd;
	int status;
	int exited;		/* stress-ng ended before we stopped it */
	int dispatched;		/* its "dispatching hogs" line was seen */
	char line[1024];
};

static int build_argv(const struct stress_params *p, struct stress_run *r,
		      char **argv, char counts[][16])
{
	static char flags[MAX_STRESSORS][72];
	int i, n = 0;

	argv[n++] = (char *)p->stress_ng;
	for (i = 0; i < p->nr; i++) {
		snprintf(flags[i], sizeof(flags[i]), "--%s", p->s[i].name);
		snprintf(counts[i], 16, "%u", p->s[i].instances);
		argv[n++] = flags[i];
		argv[n++] = counts[i];
	}
	argv[n++] = "--metrics-brief";
	argv[n++] = "--yaml";
	argv[n++] = r->yaml;
	argv[n++] = "--temp-path";
	argv[n++] = r->dir;
	for (i = 0; i < p->nr_extra; i++)
		argv[n++] = p->extra[i];
	argv[n] = NULL;
	return n;
}

struct stress_output {
	const struct stress_params *p;
	struct stress_run *r;
};

/* stress-ng's lines go to our stderr; info and metrics only with -v. */
static void take_line(char *line, void *ctx)
{
	struct stress_output *o = ctx;
	int chatter = strstr(line, " info: ") || strstr(line, " metrc: ");

	if (strstr(line, "dispatching hogs"))
		o->r->dispatched = 1;
	if (o->p->verbose || !chatter)
		fprintf(stderr, "%s\n", line);
}

/*
 * Runs until stress-ng ends, a stop request or the deadline; then SIGINT
 * (stress-ng stops its stressors and writes its report) and waits for it.
 */
static void supervise(const struct stress_params *p, struct stress_run *r,
		      uint64_t deadline)
{
	struct pollfd pfd[2] = {
		{ .fd = r->fd, .events = POLLIN },
		{ .fd = wl_stop_fd(), .events = POLLIN },
	};
	struct stress_output o = { p, r };
	struct wl_lines lines;
	uint64_t grace_end = 0;
	int open_ = 1;

	wl_lines_init(&lines, r->line, sizeof(r->line), take_line, &o);

	while (open_) {
		uint64_t now = wl_now_ns(), until;

		if (!grace_end && (wl_stopping() || now >= deadline)) {
			kill(r->pid, SIGINT);
			grace_end = now + STOP_GRACE_NS;
			pfd[1].fd = -1;
		}
		if (grace_end && now >= grace_end)
			break;
		until = grace_end ? grace_end : deadline;
		poll(pfd, 2, until == UINT64_MAX ? -1 :
		     (int)((until - now) / 1000000 + 1));
		if (pfd[0].revents)
			open_ = wl_lines_read(&lines, r->fd);
		if (r->dispatched)
			wl_ready();
	}
	r->exited = !grace_end;
	if (open_) {
		pr_warn("stress-ng did not stop within %llus of SIGINT: killing it",
			STOP_GRACE_NS / 1000000000ULL);
		wl_proc_stop(r->pid, 1000000000ULL, &r->status);
	} else {
		wl_proc_wait(r->pid, &r->status);
	}
	wl_proc_kill_all();
}

static int print_summary(const struct stress_params *p,
			 const struct stress_run *r,
			 const struct stress_report *rep, const char *err,
			 double duration_s)
{
	struct wl_work work = { .unit = "bogo-ops", .duration_s = duration_s };
	cJSON *s, *all, *one;
	char key[96];
	size_t i;

	for (i = 0; i < rep->n; i++) {
		work.work_done += (double)rep->m[i].bogo_ops;
		work.errors += rep->m[i].bogo_ops == 0;
	}
	if (err)
		work.errors++;
	s = wl_summary_new(NAME, &work);
	if (!s)
		return -ENOMEM;
	if (WIFEXITED(r->status))
		wl_summary_u64(s, "stress_ng_exit", WEXITSTATUS(r->status));
	else
		wl_summary_u64(s, "stress_ng_signal", WTERMSIG(r->status));
	wl_summary_bool(s, "stopped_by_us", !r->exited);
	if (err)
		wl_summary_str(s, "report_error", err);
	/* Flat keys for suites' expect lines: cpu_bogo_ops > 0 … */
	for (i = 0; i < rep->n; i++) {
		snprintf(key, sizeof(key), "%s_bogo_ops", rep->m[i].stressor);
		wl_summary_u64(s, key, rep->m[i].bogo_ops);
	}
	all = cJSON_AddObjectToObject(s, "stressors");
	for (i = 0; all && i < rep->n; i++) {
		const struct stress_metric *m = &rep->m[i];
		int k;

		one = cJSON_AddObjectToObject(all, m->stressor);
		if (!one)
			break;
		for (k = 0; k < p->nr; k++)
			if (!strcmp(p->s[k].name, m->stressor))
				wl_summary_u64(one, "instances",
					       p->s[k].instances);
		wl_summary_u64(one, "bogo_ops", m->bogo_ops);
		wl_summary_num(one, "bogo_ops_per_s", m->ops_per_s, 3);
		wl_summary_num(one, "wall_s", m->wall_s, 3);
	}
	return wl_summary_print(s);
}

static int make_dir(struct stress_run *r)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(r->dir, sizeof(r->dir), "%s/rtgate-stress.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(r->dir)) {
		pr_err("mkdtemp %s: %s", r->dir, strerror(errno));
		return -errno;
	}
	snprintf(r->yaml, sizeof(r->yaml), "%s/stress-ng.yaml", r->dir);
	return 0;
}

static void remove_dir(const struct stress_run *r)
{
	unlink(r->yaml);
	if (rmdir(r->dir))
		pr_warn("%s: %s (left behind)", r->dir, strerror(errno));
}

int main(int argc, char **argv)
{
	struct stress_params p = { .stress_ng = "stress-ng" };
	struct stress_run r = { .fd = -1 };
	struct stress_report rep = { 0 };
	char counts[MAX_STRESSORS][16], err[512];
	char *sargv[2 * MAX_STRESSORS + MAX_EXTRA + 8];
	uint64_t start;
	int ret, code = WL_EXIT_OK;

	if (wl_init(NAME))
		return WL_EXIT_USAGE;
	ret = parse_args(argc, argv, &p);
	if (ret)
		return wl_opt_exit(ret, usage);
	if (wl_proc_init())
		return WL_EXIT_ENVIRONMENT;
	ret = check_stressors(&p);
	if (ret)
		return ret == -EINVAL ? WL_EXIT_USAGE : WL_EXIT_ENVIRONMENT;
	if (make_dir(&r))
		return WL_EXIT_ENVIRONMENT;

	start = wl_now_ns();
	build_argv(&p, &r, sargv, counts);
	ret = wl_proc_spawn(sargv, &r.pid, &r.fd, WL_SPAWN_MERGE_STDERR);
	if (ret) {
		remove_dir(&r);
		return WL_EXIT_ENVIRONMENT;
	}
	supervise(&p, &r, p.co.duration_ns ? start + p.co.duration_ns : UINT64_MAX);
	close(r.fd);
	ret = stress_yaml_read(r.yaml, &rep, err, sizeof(err));
	if (ret)
		pr_err("stress-ng's report: %s", err);
	if (print_summary(&p, &r, &rep, ret ? err : NULL,
			  wl_elapsed_s(start, wl_now_ns())))
		code = WL_EXIT_FAILURE;
	if (ret || !rep.n)
		code = WL_EXIT_FAILURE;
	else if (r.exited)
		pr_warn("stress-ng ended by itself (exit status %d) before it was stopped",
			WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1);
	remove_dir(&r);
	return code;
}
