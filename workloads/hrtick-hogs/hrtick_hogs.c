// SPDX-License-Identifier: GPL-2.0-only
/*
 * hrtick-hogs: the hrtick thread's setup. Two CPU-bound nice-0 fair tasks
 * and a periodic sleeper share one CPU; the metric is how long each
 * CPU-bound task ran between switches (max, and how many slices exceeded
 * a threshold: 4 ms in the thread). With HRTICK on and base_slice_ns at
 * 3 ms (the runner sets both from the suite) a kernel that forgets to
 * re-arm the hrtick after a same-task repick lets a slice run on to the
 * next regular tick.
 *
 * The runtimes come from sched_switch events in rtgate's own tracefs
 * instance (trace/); where tracing is unavailable the summary says so and
 * carries no metric at all, never a zero.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsio.h"
#include "log.h"
#include "trace/trace.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/common/core/wl_summary.h"

#define NAME		"hrtick-hogs"
#define MAX_HOGS	8
/*
 * Read the trace every 100 ms from an 8 MB buffer: with the hrtimer events
 * a 1 MB buffer read every 200 ms lost about 10000 events in 20 s of the
 * thread's setup in the lab (icount:0).
 */
#define DRAIN_NS	100000000ULL
#define BUFFER_KB	8192

struct hogs_params {
	unsigned int hogs;
	int nice;
	uint64_t period_ns;	/* the sleeper's */
	uint64_t work_ns;	/* its busy time per wake-up */
	uint64_t threshold_ns;
	uint64_t late_ns;	/* a run this far past an expired hrtick */
	unsigned int buffer_kb;	/* the trace buffer, per CPU */
	bool trace;
	struct wl_common co;	/* --cpu, --duration */
};

struct hog {
	pthread_t thread;
	atomic_int tid;
	atomic_ullong loops;
	uint64_t cpu_ns;	/* CPU time it got, at its end */
	int error;
};

struct sleeper {
	pthread_t thread;
	atomic_int tid;
	uint64_t wakeups;
	uint64_t late;		/* woke after its next period was due */
	int error;
};

struct hogs {
	const struct hogs_params *p;
	struct hog hog[MAX_HOGS];
	struct sleeper sl;
	struct trace_session session;
	struct trace_runtime rt;
	bool tracing;
	char trace_why[256];
	char hrtick_why[128];	/* why runs_past_hrtick is not counted */
};

enum { OPT_NICE = 256, OPT_NO_TRACE, OPT_LATE, OPT_BUFFER };

static const struct option long_opts[] = {
	WL_OPT_CPU,
	{ "hogs", required_argument, NULL, 'n' },
	{ "nice", required_argument, NULL, OPT_NICE },
	{ "sleeper-period-us", required_argument, NULL, 'p' },
	{ "sleeper-work-us", required_argument, NULL, 'w' },
	{ "threshold-us", required_argument, NULL, 't' },
	{ "late-us", required_argument, NULL, OPT_LATE },
	{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
	WL_OPT_DURATION,
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	WL_OPT_HELP,
	WL_OPT_END,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " NAME " [OPTIONS]\n"
"Two CPU-bound nice-0 fair tasks and a periodic sleeper on one CPU (the\n"
"hrtick thread's setup). Reports how long each CPU-bound task ran between\n"
"switches, from sched_switch events in rtgate's own tracefs instance.\n"
"\n"
"  -n, --hogs N         CPU-bound tasks, 1..8 (default 2)\n"
"      --nice N         their nice value and the sleeper's (default 0)\n"
"  -p, --sleeper-period-us P\n"
"                       the sleeper wakes every P us (default 1000)\n"
"  -w, --sleeper-work-us W\n"
"                       and is busy W us each time (default 50)\n"
"  -t, --threshold-us T count slices longer than T us (default 4000)\n"
"      --late-us L      count the runs that went on more than L us past\n"
"                       an expired hrtick, none armed again (default 500)\n"
"      --buffer-kb K    the trace buffer per CPU (default 8192); a run\n"
"                       that spans lost events is not measured, so a\n"
"                       repetition that lost any has no metric\n"
"      --no-trace       no tracing: the load only, no metric\n");
	wl_opt_usage_common(f, long_opts);
	fprintf(f,
"\n"
"The runner sets HRTICK and base_slice_ns (3 ms in the thread). Tracing\n"
"needs root; without it the summary says \"tracing\":\"unavailable\" and\n"
"has no runtime metric. Exit: 0 done, 1 failed, 2 usage, 4 environment.\n");
}

static int parse_one(int c, void *ctx)
{
	struct hogs_params *p = ctx;

	switch (c) {
	case 'n':
		return wl_opt_uint("--hogs", optarg, 1, MAX_HOGS, &p->hogs);
	case OPT_NICE:
		return wl_opt_int("--nice", optarg, -20, 19, &p->nice);
	case 'p':
		return wl_opt_us("--sleeper-period-us", optarg, 10, 10000000,
				 &p->period_ns);
	case 'w':
		return wl_opt_us("--sleeper-work-us", optarg, 0, 1000000,
				 &p->work_ns);
	case 't':
		return wl_opt_us("--threshold-us", optarg, 1, 10000000,
				 &p->threshold_ns);
	case OPT_LATE:
		return wl_opt_us("--late-us", optarg, 1, 1000000, &p->late_ns);
	case OPT_BUFFER:
		return wl_opt_uint("--buffer-kb", optarg, 4, 1048576,
				   &p->buffer_kb);
	case OPT_NO_TRACE:
		p->trace = false;
		return 0;
	default:
		return -EINVAL;
	}
}

static int check_params(void *ctx)
{
	const struct hogs_params *p = ctx;

	if (p->work_ns >= p->period_ns) {
		pr_err("--sleeper-work-us: %llu us of work leaves no sleep in "
		       "a %llu us period",
		       (unsigned long long)p->work_ns / 1000,
		       (unsigned long long)p->period_ns / 1000);
		return -EINVAL;
	}
	return 0;
}

static const struct wl_opts opts = {
	"c:n:p:w:t:d:h", long_opts, parse_one, check_params,
	offsetof(struct hogs_params, co),
};

/* The calling thread: on the CPU, SCHED_OTHER at the given nice. */
static int make_fair_on_cpu(int cpu, int nice)
{
	struct sched_param sp = { .sched_priority = 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		return -errno;
	if (setpriority(PRIO_PROCESS, gettid(), nice))
		return -errno;
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct hog_arg {
	struct hogs *h;
	struct hog *hog;
};

static void *hog_thread(void *arg)
{
	struct hog_arg *a = arg;
	struct hog *hog = a->hog;
	unsigned long long n = 0;

	hog->error = make_fair_on_cpu(a->h->p->co.cpu, a->h->p->nice);
	atomic_store(&hog->tid, gettid());
	if (hog->error)
		return NULL;
	/* Pure CPU: nothing here sleeps or makes a system call. */
	while (!wl_stopping()) {
		n++;
		if (!(n & 0xffff))
			atomic_store_explicit(&hog->loops, n,
					      memory_order_relaxed);
	}
	atomic_store(&hog->loops, n);
	hog->cpu_ns = thread_cpu_ns();
	return NULL;
}

static void busy_for(uint64_t ns)
{
	uint64_t end = wl_now_ns() + ns;

	while (wl_now_ns() < end)
		;
}

static void *sleeper_thread(void *arg)
{
	struct hogs *h = arg;
	struct sleeper *sl = &h->sl;
	uint64_t next;
	struct timespec ts;

	sl->error = make_fair_on_cpu(h->p->co.cpu, h->p->nice);
	atomic_store(&sl->tid, gettid());
	if (sl->error)
		return NULL;
	next = wl_now_ns();
	while (!wl_stopping()) {
		next += h->p->period_ns;
		if (next <= wl_now_ns()) {
			sl->late++;
			next = wl_now_ns() + h->p->period_ns;
		}
		ts.tv_sec = next / 1000000000ULL;
		ts.tv_nsec = next % 1000000000ULL;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		sl->wakeups++;
		busy_for(h->p->work_ns);
	}
	return NULL;
}

static struct hog_arg hog_args[MAX_HOGS];

static int start_threads(struct hogs *h)
{
	unsigned int i;
	int ret;

	for (i = 0; i < h->p->hogs; i++) {
		hog_args[i].h = h;
		hog_args[i].hog = &h->hog[i];
		ret = pthread_create(&h->hog[i].thread, NULL, hog_thread,
				     &hog_args[i]);
		if (ret)
			return -ret;
	}
	ret = pthread_create(&h->sl.thread, NULL, sleeper_thread, h);
	if (ret)
		return -ret;
	/* Wait until every thread knows its tid and has its placement. */
	for (i = 0; i < h->p->hogs; i++)
		while (!atomic_load(&h->hog[i].tid))
			usleep(1000);
	while (!atomic_load(&h->sl.tid))
		usleep(1000);
	for (i = 0; i < h->p->hogs; i++)
		if (h->hog[i].error)
			return h->hog[i].error;
	return h->sl.error;
}

/* The main thread only reads the trace: keep it off the measured CPU. */
static void leave_cpu(int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	CPU_CLR(cpu, &set);
	if (CPU_COUNT(&set))
		sched_setaffinity(0, sizeof(set), &set);
}

/*
 * The hrtick's function, from /proc/kallsyms (root sees the addresses):
 * its expiries and starts in the trace tell a repick that was left
 * without a timer. Unknown: no runs_past_hrtick at all, never a zero.
 */
static void set_hrtick(struct hogs *h)
{
	char line[256], name[128], type;
	unsigned long long addr, fn = 0;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f) {
		snprintf(h->hrtick_why, sizeof(h->hrtick_why),
			 "/proc/kallsyms: %s", strerror(errno));
		return;
	}
	while (!fn && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 &&
		    (type == 't' || type == 'T') && !strcmp(name, "hrtick"))
			fn = addr;
	fclose(f);
	if (!fn) {
		snprintf(h->hrtick_why, sizeof(h->hrtick_why),
			 "no hrtick in /proc/kallsyms (CONFIG_SCHED_HRTICK off, "
			 "or its addresses hidden)");
		return;
	}
	trace_runtime_set_hrtick(&h->rt, fn, h->p->late_ns);
}

static void start_tracing(struct hogs *h)
{
	struct trace_params tp = {
		.mode = TRACE_MODE_RING,
		.events = TRACE_EVENTS_HRTICK,
		.buffer_kb = h->p->buffer_kb,
	};
	cpu_set_t cpus;
	unsigned int i;

	trace_runtime_init(&h->rt, h->p->threshold_ns);
	set_hrtick(h);
	if (!h->p->trace) {
		snprintf(h->trace_why, sizeof(h->trace_why),
			 "disabled by --no-trace");
		return;
	}
	if (trace_available(h->trace_why, sizeof(h->trace_why)))
		return;
	CPU_ZERO(&cpus);
	CPU_SET(h->p->co.cpu, &cpus);
	tp.cpus = &cpus;
	if (trace_session_init(&h->session, &tp)) {
		snprintf(h->trace_why, sizeof(h->trace_why),
			 "the tracefs instance could not be set up");
		return;
	}
	for (i = 0; i < h->p->hogs; i++)
		trace_runtime_watch(&h->rt, atomic_load(&h->hog[i].tid));
	if (trace_session_start(&h->session)) {
		trace_session_destroy(&h->session);
		snprintf(h->trace_why, sizeof(h->trace_why),
			 "tracing could not be started");
		return;
	}
	h->tracing = true;
}

static void drain(struct hogs *h)
{
	if (h->tracing)
		trace_session_read(&h->session, trace_runtime_event, &h->rt);
}

static void run(struct hogs *h)
{
	uint64_t end = h->p->co.duration_ns ? wl_now_ns() + h->p->co.duration_ns :
					   0;
	uint64_t now, wait;

	while (!wl_stopping()) {
		wait = DRAIN_NS;
		now = wl_now_ns();
		if (end && end - now < wait)
			wait = end > now ? end - now : 0;
		wl_wait(wait);
		drain(h);
		if (end && wl_now_ns() >= end)
			wl_stop();
	}
}

static void stop_all(struct hogs *h)
{
	unsigned int i;

	wl_stop();
	for (i = 0; i < h->p->hogs; i++)
		if (h->hog[i].thread)
			pthread_join(h->hog[i].thread, NULL);
	if (h->sl.thread)
		pthread_join(h->sl.thread, NULL);
	if (h->tracing) {
		trace_session_stop(&h->session);
		drain(h);
		trace_session_destroy(&h->session);
	}
}

/* HRTICK and base_slice_ns as the kernel has them now, when readable. */
static void add_sched_state(cJSON *s)
{
	char buf[4096];

	if (!fsio_read_str("/sys/kernel/debug/sched/features", buf,
			   sizeof(buf))) {
		if (strstr(buf, "NO_HRTICK "))
			wl_summary_str(s, "hrtick", "off");
		else if (strstr(buf, "HRTICK "))
			wl_summary_str(s, "hrtick", "on");
	}
	if (!fsio_read_str("/sys/kernel/debug/sched/base_slice_ns", buf,
			   sizeof(buf)))
		wl_summary_str(s, "base_slice_ns", buf);
}

/* The runs' lengths, 100 us bins by their start ("3000": 3.0..3.1 ms). */
static void add_histogram(const struct trace_runtime *rt, cJSON *s)
{
	cJSON *h = cJSON_AddObjectToObject(s, "runs_histogram");
	cJSON *counts;
	char key[32];
	int i;

	if (!h)
		return;
	wl_summary_u64(h, "bin_us", TRACE_RUNTIME_BIN_NS / 1000);
	counts = cJSON_AddObjectToObject(h, "counts");
	for (i = 0; counts && i < TRACE_RUNTIME_BINS; i++) {
		if (!rt->hist[i])
			continue;
		snprintf(key, sizeof(key), "%llu%s",
			 i * TRACE_RUNTIME_BIN_NS / 1000,
			 i == TRACE_RUNTIME_BINS - 1 ? "+" : "");
		wl_summary_u64(counts, key, rt->hist[i]);
	}
}

static void add_runtimes(struct hogs *h, cJSON *s)
{
	struct trace_runtime_task sum;
	cJSON *tasks;
	double max_us, over, past;
	int i;

	trace_runtime_total(&h->rt, &sum);
	wl_summary_u64(s, "switches", h->rt.switches);
	wl_summary_u64(s, "events_lost", h->rt.missed);
	wl_summary_u64(s, "slices", sum.count);
	wl_summary_u64(s, "over_threshold", sum.over);
	if (h->rt.hrtick_fn) {
		wl_summary_num(s, "late_us", h->rt.late_ns / 1e3, 3);
		wl_summary_u64(s, "hrtick_expiries", h->rt.hrtick_expiries);
		wl_summary_u64(s, "runs_past_hrtick", sum.past_hrtick);
	} else {
		wl_summary_str(s, "hrtick_reason", h->hrtick_why);
	}
	tasks = cJSON_AddArrayToObject(s, "tasks");
	for (i = 0; i < h->rt.nr; i++) {
		const struct trace_runtime_task *t = &h->rt.task[i];
		cJSON *o = cJSON_CreateObject();

		wl_summary_u64(o, "tid", t->pid);
		wl_summary_u64(o, "slices", t->count);
		if (t->count)
			wl_summary_num(o, "max_us", t->max_ns / 1e3, 3);
		wl_summary_u64(o, "over_threshold", t->over);
		if (h->rt.hrtick_fn)
			wl_summary_u64(o, "past_hrtick", t->past_hrtick);
		cJSON_AddItemToArray(tasks, o);
	}
	/* No complete slice: nothing was measured, so no metric at all. */
	if (!sum.count)
		return;
	/*
	 * Lost events: the runs that spanned them were not measured, so each
	 * metric could only be too low (a false fix). None at all, and why:
	 * the analyzer then has no data, never a pass.
	 */
	if (h->rt.missed) {
		char why[160];

		snprintf(why, sizeof(why), "%llu trace events lost: the runs "
			 "that spanned them were not measured, so every count "
			 "and the longest run could only read too low",
			 (unsigned long long)h->rt.missed);
		wl_summary_str(s, "metrics_reason", why);
		add_histogram(&h->rt, s);
		return;
	}
	max_us = sum.max_ns / 1e3;
	over = (double)sum.over;
	wl_summary_num(s, "runtime_max_us", max_us, 3);
	wl_summary_num(s, "runtime_avg_us", sum.sum_ns / 1e3 / sum.count, 3);
	wl_summary_metric(s, "runtime_max_us", "us", "lower", &max_us, 1);
	wl_summary_metric(s, "slices_over_threshold", "slices", "lower",
			  &over, 1);
	if (h->rt.hrtick_fn) {
		past = (double)sum.past_hrtick;
		wl_summary_metric(s, "runs_past_hrtick", "runs", "lower",
				  &past, 1);
	}
	add_histogram(&h->rt, s);
}

static int print_summary(struct hogs *h, double duration_s)
{
	const struct hogs_params *p = h->p;
	struct wl_work work = { .unit = "hog CPU seconds",
				.duration_s = duration_s };
	unsigned long long loops = 0;
	unsigned int i;
	cJSON *s;

	for (i = 0; i < p->hogs; i++) {
		work.work_done += h->hog[i].cpu_ns / 1e9;
		loops += atomic_load(&h->hog[i].loops);
	}
	s = wl_summary_new(NAME, &work);
	if (!s)
		return -ENOMEM;
	wl_summary_u64(s, "cpu", p->co.cpu);
	wl_summary_u64(s, "hogs", p->hogs);
	wl_summary_num(s, "nice", p->nice, 0);
	wl_summary_u64(s, "hog_loops", loops);
	wl_summary_num(s, "sleeper_period_us", p->period_ns / 1e3, 3);
	wl_summary_num(s, "sleeper_work_us", p->work_ns / 1e3, 3);
	wl_summary_u64(s, "sleeper_wakeups", h->sl.wakeups);
	wl_summary_num(s, "threshold_us", p->threshold_ns / 1e3, 3);
	add_sched_state(s);
	wl_summary_str(s, "tracing", h->tracing ? "ok" : "unavailable");
	if (!h->tracing)
		wl_summary_str(s, "tracing_reason", h->trace_why);
	else
		add_runtimes(h, s);
	return wl_summary_print(s);
}

int main(int argc, char **argv)
{
	struct hogs_params p = {
		.hogs = 2, .period_ns = 1000000, .work_ns = 50000,
		.threshold_ns = 4000000, .late_ns = 500000,
		.buffer_kb = BUFFER_KB, .trace = true,
	};
	struct hogs h = { .p = &p };
	uint64_t start;
	int ret;

	ret = wl_opt_start(NAME, argc, argv, &opts, &p, usage);
	if (ret != WL_OPT_GO_ON)
		return ret;
	start = wl_now_ns();
	ret = start_threads(&h);
	if (ret) {
		pr_err("cannot place the tasks on CPU %d as nice %d fair tasks:"
		       " %s", p.co.cpu, p.nice, strerror(-ret));
		stop_all(&h);
		return ret == -EPERM || ret == -EACCES ? WL_EXIT_ENVIRONMENT :
							 WL_EXIT_FAILURE;
	}
	leave_cpu(p.co.cpu);
	start_tracing(&h);
	if (!h.tracing)
		pr_warn("tracing unavailable (%s): no runtime metric",
			h.trace_why);
	wl_ready();
	run(&h);
	stop_all(&h);
	if (print_summary(&h, wl_elapsed_s(start, wl_now_ns())))
		return WL_EXIT_FAILURE;
	return WL_EXIT_OK;
}
