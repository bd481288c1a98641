// SPDX-License-Identifier: GPL-2.0-only
/*
 * extend-sched's threads (extend_sched.h): those that take the shared spin
 * lock (asking for an extension while they hold it) and the busy ones
 * beside them; their start, warm-up and statistics.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "trace/trace.h"
#include "workloads/common/core/wl_proto.h"
#include "workloads/extend-sched/extend_sched.h"

struct ext_thread {
	struct ext_run *run;
	pthread_t tid;
	int started;
	int cpu;
	int is_lock;
	struct ext_lock_stats st;
	uint64_t busy_loops;
};

struct ext_run {
	const struct ext_params *p;
	atomic_int lock;	/* the shared spin lock: 0 free, 1 held */
	atomic_int warm;	/* lock threads that took the lock once */
	atomic_int error;	/* first -errno a thread hit */
	int nr_lock;
	int nr_threads;
	struct ext_thread *t;
	struct trace_marker mk;	/* the runner's trace, when it traces */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

static void spin_for(uint64_t ns)
{
	uint64_t end = wl_now_ns() + ns;

	while (wl_now_ns() < end)
		cpu_relax();
}

static void sleep_for(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	nanosleep(&ts, NULL);
}

static void thread_fail(struct ext_run *run, int err, const char *what)
{
	int none = 0;

	if (atomic_compare_exchange_strong(&run->error, &none, err))
		pr_err("%s: %s", what, strerror(-err));
	wl_stop();
}

/* nice or SCHED_FIFO for the calling thread, as its kind asks. */
static int set_sched(struct ext_thread *t)
{
	const struct ext_params *p = t->run->p;
	unsigned int prio = t->is_lock ? p->lock_prio : p->busy_prio;
	int nice = t->is_lock ? p->lock_nice : p->busy_nice;

	if (prio) {
		struct sched_param sp = { .sched_priority = (int)prio };

		return -pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice))
		return -errno;
	return 0;
}

static bool try_lock(struct ext_run *run)
{
	int free_ = 0;

	return atomic_compare_exchange_strong_explicit(&run->lock, &free_, 1,
			memory_order_acquire, memory_order_relaxed);
}

static void wait_unlocked(struct ext_run *run)
{
	while (atomic_load_explicit(&run->lock, memory_order_relaxed) &&
	       !wl_stopping())
		cpu_relax();
}

static void end_request(struct ext_thread *t, enum ext_abi abi)
{
	struct ext_result res;

	ext_end(abi, &res);
	t->st.granted += res.granted;
	t->st.dropped += res.dropped;
	t->st.yields += res.yielded;
	t->st.yields_in_grant += res.yield_in_grant;
	/* After the yield: a marker's write is a system call. */
	if (res.granted)
		trace_marker_printf(&t->run->mk, "extend-sched: CPU %d lock "
				    "holder was granted an extension%s",
				    t->cpu, res.yielded ? ", yielded" : "");
}

/* One lock grab: wait, take, hold for cs_ns, release. */
static void grab_once(struct ext_thread *t)
{
	struct ext_run *run = t->run;
	enum ext_abi abi = run->p->abi;
	uint64_t start, got, released;
	bool contended = false;

	start = wl_now_ns();
	if (atomic_load_explicit(&run->lock, memory_order_relaxed))
		contended = true;
	if (abi && run->p->wait_extend) {
		ext_request(abi);
		t->st.requests++;
	}
	for (;;) {
		wait_unlocked(run);
		if (wl_stopping())
			break;
		if (abi && !run->p->wait_extend) {
			ext_request(abi);
			t->st.requests++;
		}
		if (try_lock(run))
			break;
		contended = true;
		/* Lost the race: no extension while we only spin. */
		if (abi && !run->p->wait_extend)
			end_request(t, abi);
	}
	if (wl_stopping()) {
		if (abi)
			end_request(t, abi);
		return;
	}
	got = wl_now_ns();
	spin_for(run->p->cs_ns);
	atomic_store_explicit(&run->lock, 0, memory_order_release);
	released = wl_now_ns();
	if (abi)
		end_request(t, abi);

	t->st.acquisitions++;
	t->st.contended += contended;
	t->st.hold_sum_ns += released - got;
	if (released - got > t->st.hold_max_ns)
		t->st.hold_max_ns = released - got;
	t->st.wait_sum_ns += got - start;
	if (got - start > t->st.wait_max_ns)
		t->st.wait_max_ns = got - start;
}

static void *lock_thread(void *arg)
{
	struct ext_thread *t = arg;
	const struct ext_params *p = t->run->p;
	uint64_t pause = ext_pause_ns(p, t->cpu);
	int ret;

	ret = set_sched(t);
	/* The control too: both sides run with the same registration. */
	if (!ret)
		ret = ext_rseq_thread_register();
	if (!ret)
		ret = ext_thread_enable(p->abi);
	if (ret) {
		ext_rseq_thread_unregister();
		thread_fail(t->run, ret, "lock thread setup");
		return NULL;
	}
	while (!wl_stopping()) {
		grab_once(t);
		if (t->st.acquisitions == 1)
			atomic_fetch_add(&t->run->warm, 1);
		/* 0: no system call between two grabs, never off the CPU */
		if (pause)
			sleep_for(pause);
	}
	ext_rseq_thread_unregister();
	return NULL;
}

static void *busy_thread(void *arg)
{
	struct ext_thread *t = arg;
	const struct ext_params *p = t->run->p;
	int ret;

	ret = set_sched(t);
	if (ret) {
		thread_fail(t->run, ret, "busy thread setup");
		return NULL;
	}
	while (!wl_stopping()) {
		spin_for(p->busy_spin_ns);
		sleep_for(p->busy_sleep_ns);
		t->busy_loops++;
	}
	return NULL;
}

static int start_thread(struct ext_thread *t)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(&t->tid, &attr,
			     t->is_lock ? lock_thread : busy_thread, t);
	pthread_attr_destroy(&attr);
	if (ret) {
		pr_err("pthread_create (CPU %d): %s", t->cpu, strerror(ret));
		return -ret;
	}
	t->started = 1;
	return 0;
}

int ext_run_start(const struct ext_params *p, struct ext_run **out)
{
	int nr_cpus = CPU_COUNT(&p->cpus), cpu, i = 0, k, ret = 0;
	struct ext_run *run;

	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->p = p;
	/* Markers only when the runner traces the repetition. */
	trace_marker_open(&run->mk);
	run->nr_lock = nr_cpus;
	run->nr_threads = nr_cpus * (1 + (int)p->busy_per_cpu);
	run->t = calloc(run->nr_threads, sizeof(*run->t));
	if (!run->t) {
		trace_marker_close(&run->mk);
		free(run);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		for (k = 0; k <= (int)p->busy_per_cpu; k++, i++) {
			run->t[i].run = run;
			run->t[i].cpu = cpu;
			run->t[i].is_lock = k == 0;
		}
	}
	for (i = 0; i < run->nr_threads && !ret; i++)
		ret = start_thread(&run->t[i]);
	*out = run;
	if (ret)
		wl_stop();
	return ret;
}

int ext_run_warm(const struct ext_run *run)
{
	return atomic_load(&run->warm) >= run->nr_lock;
}

void ext_run_finish(struct ext_run *run, struct ext_lock_stats *total,
		    uint64_t *busy_loops, int *thread_error)
{
	struct ext_lock_stats *s;
	int i;

	wl_stop();
	memset(total, 0, sizeof(*total));
	*busy_loops = 0;
	for (i = 0; i < run->nr_threads; i++) {
		if (!run->t[i].started)
			continue;
		pthread_join(run->t[i].tid, NULL);
		*busy_loops += run->t[i].busy_loops;
		s = &run->t[i].st;
		total->acquisitions += s->acquisitions;
		total->contended += s->contended;
		total->requests += s->requests;
		total->granted += s->granted;
		total->dropped += s->dropped;
		total->yields += s->yields;
		total->yields_in_grant += s->yields_in_grant;
		total->hold_sum_ns += s->hold_sum_ns;
		total->wait_sum_ns += s->wait_sum_ns;
		if (s->hold_max_ns > total->hold_max_ns)
			total->hold_max_ns = s->hold_max_ns;
		if (s->wait_max_ns > total->wait_max_ns)
			total->wait_max_ns = s->wait_max_ns;
	}
	*thread_error = atomic_load(&run->error);
	trace_marker_close(&run->mk);
	free(run->t);
	free(run);
}
