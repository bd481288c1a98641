// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw per-CPU pages from the instance to files: the streaming thread of
 * TRACE_MODE_STREAM and the final drain of TRACE_MODE_RING.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>

#include "fsio.h"
#include "log.h"
#include "procstat.h"
#include "trace.h"
#include "trace_priv.h"

#define STREAM_DEFAULT_MB	512
#define STREAM_PERIOD_MS	100

struct trace_spool {
	char dir[PATH_MAX];
	bool own_dir;			/* made here: removed on free */
	int nr_cpus;
	struct tracefs_cpu **tcpu;
	int *fd;
	char **files;
	char *page;
	int page_size;
	unsigned long long cap;
	atomic_ullong bytes;
	atomic_bool stop;
	atomic_bool truncated;
	pthread_t thread;
	bool thread_running;
};

static int count_cpus(struct trace_session *s)
{
	char file[64];
	int n = 0;

	for (;;) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d", n);
		if (!tracefs_dir_exists(s->inst, file))
			return n;
		n++;
	}
}

#define SPOOL_PREFIX	"rtgate-trace-"

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

static int make_dir(struct trace_spool *sp, const char *dir)
{
	unsigned long long start = 0;

	if (dir) {
		if (snprintf(sp->dir, sizeof(sp->dir), "%s", dir) >=
		    (int)sizeof(sp->dir))
			return -ENAMETOOLONG;
		if (mkdir(sp->dir, 0755) == 0)
			sp->own_dir = true;
		else if (errno != EEXIST)
			return -errno;
		return 0;
	}
	/* Owner in the name: a later start removes it if we are killed. */
	procstat_start_time(getpid(), &start);
	snprintf(sp->dir, sizeof(sp->dir), "%s/" SPOOL_PREFIX "%d-%llu.XXXXXX",
		 tmp_dir(), getpid(), start);
	if (!mkdtemp(sp->dir))
		return -errno;
	sp->own_dir = true;
	return 0;
}

static int open_cpu(struct trace_session *s, struct trace_spool *sp,
		    int cpu)
{
	char name[PATH_MAX];

	if (snprintf(name, sizeof(name), "%s/cpu%d.raw", sp->dir, cpu) >=
	    (int)sizeof(name))
		return -ENAMETOOLONG;
	sp->files[cpu] = strdup(name);
	if (!sp->files[cpu])
		return -ENOMEM;
	sp->fd[cpu] = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			   0644);
	if (sp->fd[cpu] < 0)
		return -errno;
	/* An offline CPU has no pages: its file stays empty. */
	sp->tcpu[cpu] = tracefs_cpu_open(s->inst, cpu, true);
	if (sp->tcpu[cpu] && !sp->page_size)
		sp->page_size = tracefs_cpu_read_size(sp->tcpu[cpu]);
	return 0;
}

int trace_spool_open(struct trace_session *s, const char *dir)
{
	struct trace_spool *sp;
	int cpu, ret;

	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	s->spool = sp;
	ret = make_dir(sp, dir ? dir : s->params.spool_dir);
	if (ret) {
		pr_err("%s: cannot make the trace spool directory: %s",
		       sp->dir[0] ? sp->dir : tmp_dir(), strerror(-ret));
		return ret;
	}
	sp->nr_cpus = count_cpus(s);
	sp->tcpu = calloc(sp->nr_cpus, sizeof(*sp->tcpu));
	sp->fd = calloc(sp->nr_cpus, sizeof(*sp->fd));
	sp->files = calloc(sp->nr_cpus + 1, sizeof(*sp->files));
	if (!sp->tcpu || !sp->fd || !sp->files)
		return -ENOMEM;
	for (cpu = 0; cpu < sp->nr_cpus; cpu++)
		sp->fd[cpu] = -1;
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		ret = open_cpu(s, sp, cpu);
		if (ret) {
			pr_err("%s: %s", sp->dir, strerror(-ret));
			return ret;
		}
	}
	if (sp->page_size <= 0)
		sp->page_size = getpagesize();
	sp->page = malloc(sp->page_size);
	if (!sp->page)
		return -ENOMEM;
	sp->cap = (unsigned long long)(s->params.max_mb ? s->params.max_mb :
				       STREAM_DEFAULT_MB) << 20;
	return 0;
}

int trace_spool_create(struct trace_session *s)
{
	return trace_spool_open(s, NULL);
}

/* Copies the readable pages of one CPU; each read is one whole page. */
static int drain_cpu(struct trace_spool *sp, int cpu)
{
	int n, ret;

	if (!sp->tcpu[cpu])
		return 0;
	for (;;) {
		if (atomic_load(&sp->bytes) >= sp->cap) {
			atomic_store(&sp->truncated, true);
			return 0;
		}
		n = tracefs_cpu_read(sp->tcpu[cpu], sp->page, true);
		if (n <= 0)
			return 0;
		/* restore reads page-sized records: pad a short read. */
		if (n < sp->page_size)
			memset(sp->page + n, 0, sp->page_size - n);
		ret = fsio_write_full(sp->fd[cpu], sp->page, sp->page_size);
		if (ret)
			return ret;
		atomic_fetch_add(&sp->bytes, sp->page_size);
	}
}

int trace_spool_drain(struct trace_session *s)
{
	struct trace_spool *sp = s->spool;
	int cpu, ret;

	if (!sp)
		return -EINVAL;
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		ret = drain_cpu(sp, cpu);
		if (ret) {
			pr_err("%s: %s", sp->files[cpu], strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static void *stream_thread(void *arg)
{
	struct trace_session *s = arg;
	struct trace_spool *sp = s->spool;
	struct timespec ts = { 0, STREAM_PERIOD_MS * 1000000L };

	while (!atomic_load(&sp->stop)) {
		if (trace_spool_drain(s))
			break;
		if (atomic_load(&sp->truncated)) {
			/* At the cap: stop here rather than leave a hole. */
			tracefs_trace_off(s->inst);
			break;
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int trace_spool_start(struct trace_session *s)
{
	struct trace_spool *sp = s->spool;
	int ret;

	atomic_store(&sp->stop, false);
	ret = pthread_create(&sp->thread, NULL, stream_thread, s);
	if (ret) {
		pr_err("trace stream thread: %s", strerror(ret));
		return -ret;
	}
	sp->thread_running = true;
	return 0;
}

void trace_spool_stop(struct trace_session *s)
{
	struct trace_spool *sp = s->spool;

	if (!sp)
		return;
	if (sp->thread_running) {
		atomic_store(&sp->stop, true);
		pthread_join(sp->thread, NULL);
		sp->thread_running = false;
		/* Tracing is off now: what is left is the last pages. */
		trace_spool_drain(s);
	}
	if (atomic_load(&sp->truncated))
		s->truncated = true;
}

int trace_spool_files(struct trace_session *s, const char ***files, int *nr)
{
	if (!s->spool)
		return -EINVAL;
	*files = (const char **)s->spool->files;
	*nr = s->spool->nr_cpus;
	return 0;
}

const char *trace_spool_dir(struct trace_session *s)
{
	return s->spool ? s->spool->dir : NULL;
}

unsigned long long trace_spool_bytes(struct trace_session *s)
{
	return s->spool ? atomic_load(&s->spool->bytes) : 0;
}

void trace_spool_free(struct trace_session *s)
{
	struct trace_spool *sp = s->spool;
	int cpu;

	if (!sp)
		return;
	if (sp->thread_running) {
		atomic_store(&sp->stop, true);
		pthread_join(sp->thread, NULL);
	}
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		if (sp->tcpu && sp->tcpu[cpu])
			tracefs_cpu_close(sp->tcpu[cpu]);
		if (sp->fd && sp->fd[cpu] >= 0)
			close(sp->fd[cpu]);
		if (sp->files && sp->files[cpu]) {
			unlink(sp->files[cpu]);
			free(sp->files[cpu]);
		}
	}
	if (sp->own_dir && sp->dir[0])
		rmdir(sp->dir);
	free(sp->tcpu);
	free(sp->fd);
	free(sp->files);
	free(sp->page);
	free(sp);
	s->spool = NULL;
}

static void remove_dir(const char *path)
{
	char file[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(path);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, e->d_name) <
		    (int)sizeof(file))
			unlink(file);
	}
	closedir(d);
	rmdir(path);
}

void trace_spool_clean_stale(void)
{
	unsigned long long start;
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(tmp_dir());
	int pid;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, SPOOL_PREFIX "%d-%llu.", &pid,
			   &start) != 2 || procstat_alive(pid, start))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", tmp_dir(),
			     e->d_name) < (int)sizeof(path))
			remove_dir(path);
	}
	closedir(d);
}
