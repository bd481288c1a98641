// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracefs instance a session owns: creation, events, start/stop,
 * removal, and the clean-up of instances left by killed processes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tracefs.h>

#include "log.h"
#include "procstat.h"
#include "parse.h"
#include "trace.h"
#include "trace_priv.h"

#define INSTANCE_PREFIX		"rtgate-"
#define RING_DEFAULT_KB		4096
#define STREAM_DEFAULT_KB	2048

struct event_id {
	const char *system;
	const char *name;
	bool required;
};

/* What explains a wake-up (issue: tracing). */
static const struct event_id latency_events[] = {
	{ "sched", "sched_switch", true },
	{ "sched", "sched_waking", false },
	{ "sched", "sched_wakeup", false },
	{ "sched", "sched_wakeup_new", false },
	{ "sched", "sched_migrate_task", false },
	{ "irq", "irq_handler_entry", false },
	{ "irq", "irq_handler_exit", false },
	{ "irq", "softirq_entry", false },
	{ "irq", "softirq_exit", false },
	/* hrtimer_start gives the expiry, so a late timer irq shows. */
	{ "timer", "hrtimer_start", false },
	{ "timer", "hrtimer_expire_entry", false },
	{ "timer", "hrtimer_expire_exit", false },
	{ NULL, NULL, false },
};

static const struct event_id switch_events[] = {
	{ "sched", "sched_switch", true },
	{ NULL, NULL, false },
};

/* Slice runtimes and the hrtick: was it armed again after it expired? */
static const struct event_id hrtick_events[] = {
	{ "sched", "sched_switch", true },
	{ "timer", "hrtimer_start", true },
	{ "timer", "hrtimer_expire_entry", true },
	{ NULL, NULL, false },
};

int trace_capture_parse(const char *s, enum trace_capture *out)
{
	if (!strcmp(s, "off"))
		*out = TRACE_CAPTURE_OFF;
	else if (!strcmp(s, "spikes"))
		*out = TRACE_CAPTURE_SPIKES;
	else if (!strcmp(s, "on"))
		*out = TRACE_CAPTURE_ON;
	else
		return -EINVAL;
	return 0;
}

const char *trace_capture_name(enum trace_capture c)
{
	switch (c) {
	case TRACE_CAPTURE_SPIKES:
		return "spikes";
	case TRACE_CAPTURE_ON:
		return "on";
	default:
		return "off";
	}
}

int trace_available(char *why, size_t len)
{
	const char *dir = NULL;
	char path[4096];

	/*
	 * 1: it was mounted; 0: it was not and libtracefs mounted it now
	 * (a fresh boot); -1: it was not and could not be.
	 */
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !dir) {
		snprintf(why, len, "tracefs is not mounted and mounting it "
			 "failed (%s)", strerror(errno ? errno : ENODEV));
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK)) {
		int err = errno;

		snprintf(why, len, "%s: %s (tracing instances need root)",
			 path, strerror(err));
		return -err;
	}
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", dir);
	if (access(path, F_OK)) {
		snprintf(why, len, "%s: this kernel has no sched_switch event",
			 path);
		return -ENOENT;
	}
	return 0;
}

static bool valid_instance_name(const char *name)
{
	return !strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) &&
	       !strchr(name, '/') && strlen(name) < 64;
}

#define REMOVE_TRIES	100
#define REMOVE_WAIT_US	50000	/* 5 s in all */

int trace_instance_remove(const char *name)
{
	struct tracefs_instance *inst;
	int ret = 0, tries;

	if (!valid_instance_name(name))
		return -EINVAL;
	if (!tracefs_instance_exists(name))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return -ENOMEM;
	/* Stop it first: removing a busy buffer can take a while. */
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	/*
	 * EBUSY while a reader still has its trace_pipe_raw open: a tool of
	 * a killed run that has yet to die of its PR_SET_PDEATHSIG.
	 */
	for (tries = 0; tries < REMOVE_TRIES; tries++) {
		errno = 0;
		if (!tracefs_instance_destroy(inst) ||
		    !tracefs_instance_exists(name)) {
			ret = 0;
			break;
		}
		ret = errno ? -errno : -EBUSY;
		if (ret != -EBUSY)
			break;
		usleep(REMOVE_WAIT_US);
	}
	tracefs_instance_free(inst);
	if (ret)
		pr_err("tracefs instance %s: cannot remove it: %s", name,
		       strerror(-ret));
	return ret;
}

int trace_instance_owner_prefix(char *buf, size_t len)
{
	unsigned long long start;
	int ret;

	ret = procstat_start_time(getpid(), &start);
	if (ret)
		return ret;
	snprintf(buf, len, INSTANCE_PREFIX "%d-%llu", getpid(), start);
	return 0;
}

int trace_instances_remove_prefix(const char *prefix)
{
	size_t n = strlen(prefix);
	int i, removed = 0, ret = 0;
	char **list;

	if (!valid_instance_name(prefix))
		return -EINVAL;
	list = tracefs_instances("^" INSTANCE_PREFIX);
	if (!list)
		return 0;
	for (i = 0; list[i]; i++) {
		if (strncmp(list[i], prefix, n) || list[i][n] != '-')
			continue;
		ret = trace_instance_remove(list[i]);
		if (ret)
			break;
		removed++;
	}
	tracefs_list_free(list);
	return ret ? ret : removed;
}

int trace_instances_clean(void)
{
	unsigned long long start;
	char **list;
	int i, pid, removed = 0;
	unsigned int seq;

	trace_spool_clean_stale();
	list = tracefs_instances("^" INSTANCE_PREFIX);
	if (!list)
		return 0;
	for (i = 0; list[i]; i++) {
		if (sscanf(list[i], INSTANCE_PREFIX "%d-%llu-%u", &pid, &start,
			   &seq) != 3)
			continue;
		if (procstat_alive(pid, start))
			continue;
		if (!trace_instance_remove(list[i])) {
			pr_info("removed tracefs instance %s left by a process "
				"that is gone", list[i]);
			removed++;
		}
	}
	tracefs_list_free(list);
	return removed;
}

static void note_event(char *buf, size_t len, const char *sys,
		       const char *name)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s:%s", used ? " " : "", sys,
		 name);
}

static int enable_one(struct trace_session *s, const char *sys,
		      const char *name)
{
	if (tracefs_event_enable(s->inst, sys, name))
		return -errno ? -errno : -ENOENT;
	s->nr_events++;
	return 0;
}

static int enable_list(struct trace_session *s, const struct event_id *ev)
{
	int ret;

	for (; ev->system; ev++) {
		ret = enable_one(s, ev->system, ev->name);
		if (!ret)
			continue;
		if (ev->required) {
			pr_err("tracefs instance %s: cannot enable %s:%s: %s",
			       s->name, ev->system, ev->name, strerror(-ret));
			return ret;
		}
		note_event(s->missing, sizeof(s->missing), ev->system,
			   ev->name);
	}
	return 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * Slice-extension events differ between kernels (the V5 patch's
 * sched_delay_resched, whatever rseq grows): found by name at run time.
 */
static bool is_feature_event(const char *sys, const char *name)
{
	if (strcmp(sys, "sched") && strcmp(sys, "rseq"))
		return false;
	return strstr(name, "delay_resched") || strstr(name, "slice");
}

static void enable_system_matching(struct trace_session *s, const char *sys)
{
	char **names;
	int i;

	names = tracefs_system_events(NULL, sys);
	if (!names)
		return;
	for (i = 0; names[i]; i++) {
		bool vector = !strcmp(sys, "irq_vectors") &&
			      (has_suffix(names[i], "_entry") ||
			       has_suffix(names[i], "_exit"));

		if (vector) {
			/* x86 vectors (local_timer, reschedule...): irqs too */
			enable_one(s, sys, names[i]);
		} else if (is_feature_event(sys, names[i]) &&
			   !enable_one(s, sys, names[i])) {
			note_event(s->features, sizeof(s->features), sys,
				   names[i]);
		}
	}
	tracefs_list_free(names);
}

static int enable_events(struct trace_session *s)
{
	int ret;

	if (s->params.events == TRACE_EVENTS_SWITCH)
		return enable_list(s, switch_events);
	if (s->params.events == TRACE_EVENTS_HRTICK)
		return enable_list(s, hrtick_events);
	ret = enable_list(s, latency_events);
	if (ret)
		return ret;
	enable_system_matching(s, "irq_vectors");
	enable_system_matching(s, "sched");
	enable_system_matching(s, "rseq");
	return 0;
}

static int make_name(struct trace_session *s)
{
	static unsigned int seq;
	unsigned long long start;
	int ret;

	ret = procstat_start_time(getpid(), &start);
	if (ret)
		return ret;
	snprintf(s->name, sizeof(s->name), INSTANCE_PREFIX "%d-%llu-%u",
		 getpid(), start, seq++);
	return 0;
}

/* tracing_cpumask's format: 32-bit hex groups, highest first, by commas. */
static void cpumask_hex(const cpu_set_t *set, char *buf, size_t len)
{
	int group, top = 0, cpu;
	size_t used = 0;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			top = cpu / 32;
	buf[0] = '\0';
	for (group = top; group >= 0 && used < len; group--) {
		unsigned int bits = 0;

		for (cpu = 0; cpu < 32; cpu++)
			if (CPU_ISSET(group * 32 + cpu, set))
				bits |= 1U << cpu;
		used += snprintf(buf + used, len - used, "%s%08x",
				 group == top ? "" : ",", bits);
	}
}

static int setup_buffer(struct trace_session *s)
{
	unsigned int kb = s->params.buffer_kb;
	char cpus[1024] = "", mask[CPU_SETSIZE / 4 + CPU_SETSIZE / 32 + 2];

	if (!kb)
		kb = s->params.mode == TRACE_MODE_STREAM ? STREAM_DEFAULT_KB :
							   RING_DEFAULT_KB;
	if (tracefs_instance_set_buffer_size(s->inst, kb, -1)) {
		pr_err("tracefs instance %s: cannot size its buffer to %u KiB "
		       "per CPU: %s", s->name, kb, strerror(errno));
		return -errno ? -errno : -ENOMEM;
	}
	/* The ring keeps the newest events: the spike is at the end. */
	tracefs_option_enable(s->inst, TRACEFS_OPTION_OVERWRITE);
	if (!s->params.cpus)
		return 0;
	cpumask_hex(s->params.cpus, mask, sizeof(mask));
	if (tracefs_instance_file_write(s->inst, "tracing_cpumask", mask) <
	    0) {
		parse_cpulist_format(s->params.cpus, cpus, sizeof(cpus));
		pr_err("tracefs instance %s: cannot trace CPUs %s only: %s",
		       s->name, cpus, strerror(errno));
		return -errno ? -errno : -EINVAL;
	}
	return 0;
}

int trace_session_init(struct trace_session *s, const struct trace_params *p)
{
	char why[512];
	int ret;

	memset(s, 0, sizeof(*s));
	s->params = *p;
	ret = trace_available(why, sizeof(why));
	if (ret) {
		pr_err("tracing unavailable: %s", why);
		return ret;
	}
	trace_instances_clean();
	ret = make_name(s);
	if (ret)
		return ret;
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		ret = errno ? -errno : -ENOMEM;
		pr_err("cannot create tracefs instance %s: %s", s->name,
		       strerror(-ret));
		return ret;
	}
	/* Nothing is recorded before trace_session_start(). */
	tracefs_trace_off(s->inst);
	ret = setup_buffer(s);
	if (!ret)
		ret = enable_events(s);
	if (!ret && s->params.mode == TRACE_MODE_STREAM)
		ret = trace_spool_create(s);
	if (ret)
		trace_session_destroy(s);
	return ret;
}

int trace_session_start(struct trace_session *s)
{
	int ret;

	if (!s->inst)
		return -EINVAL;
	if (s->spool) {
		ret = trace_spool_start(s);
		if (ret)
			return ret;
	}
	if (tracefs_trace_on(s->inst)) {
		ret = errno ? -errno : -EIO;
		pr_err("tracefs instance %s: cannot turn tracing on: %s",
		       s->name, strerror(-ret));
		return ret;
	}
	s->running = true;
	return 0;
}

int trace_session_stop(struct trace_session *s)
{
	if (!s->inst)
		return -EINVAL;
	tracefs_trace_off(s->inst);
	s->running = false;
	if (s->spool)
		trace_spool_stop(s);
	return 0;
}

void trace_session_destroy(struct trace_session *s)
{
	if (s->inst) {
		tracefs_trace_off(s->inst);
		if (s->spool)
			trace_spool_stop(s);
		tracefs_event_disable(s->inst, NULL, NULL);
		if (tracefs_instance_destroy(s->inst) &&
		    tracefs_instance_exists(s->name))
			pr_warn("tracefs instance %s: cannot remove it: %s",
				s->name, strerror(errno));
		tracefs_instance_free(s->inst);
	}
	trace_spool_free(s);
	if (s->tep)
		tep_free(s->tep);
	s->inst = NULL;
	s->tep = NULL;
	s->running = false;
}

static unsigned long long stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

int trace_session_stats(struct trace_session *s, struct trace_stats *st)
{
	char file[64], *text;
	long cpu, nr = sysconf(_SC_NPROCESSORS_CONF);

	memset(st, 0, sizeof(*st));
	if (!s->inst)
		return -EINVAL;
	for (cpu = 0; cpu < nr; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", cpu);
		text = tracefs_instance_file_read(s->inst, file, NULL);
		if (!text)
			continue;
		st->entries += stat_value(text, "entries: ");
		st->overrun += stat_value(text, "overrun: ");
		st->dropped += stat_value(text, "dropped events: ");
		free(text);
	}
	st->spooled_bytes = trace_spool_bytes(s);
	st->truncated = s->truncated;
	return 0;
}

#define EXIT_TRIGGER	"events/sched/sched_process_exit/trigger"
#define SETSCHED_TRIGGER \
	"events/syscalls/sys_enter_sched_setscheduler/trigger"

static int set_trigger(struct trace_session *s, const char *file,
		       const char *buf)
{
	/* One traceoff trigger per event: replace the previous one. */
	tracefs_instance_file_write(s->inst, file, "!traceoff");
	if (tracefs_instance_file_write(s->inst, file, buf) < 0) {
		pr_err("tracefs instance %s: cannot set a traceoff trigger in "
		       "%s: %s", s->name, file, strerror(errno));
		return -errno ? -errno : -EIO;
	}
	return 0;
}

static int set_exit_trigger(struct trace_session *s, const char *buf)
{
	return set_trigger(s, EXIT_TRIGGER, buf);
}

static int pid_filter(const char *field, const int *tids, unsigned int nr,
		      char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < nr && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s == %d",
				 i ? " || " : "", field, tids[i]);
	return used < len ? 0 : -E2BIG;
}

int trace_session_stop_on_exit(struct trace_session *s, const int *tids,
			       unsigned int nr)
{
	char pids[4096], buf[4200];
	int ret;

	if (!s->inst || !nr)
		return -EINVAL;
	ret = pid_filter("pid", tids, nr, pids, sizeof(pids));
	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "traceoff if %s", pids);
	ret = set_exit_trigger(s, buf);
	if (ret)
		return ret;
	/*
	 * Earlier still: cyclictest's threads drop to SCHED_OTHER just
	 * before they exit, and then wait for a CPU like any nice-0 task.
	 * Their sched_setscheduler() call is made while still RT.
	 */
	if (!tracefs_file_exists(s->inst, SETSCHED_TRIGGER))
		return 0;
	pid_filter("common_pid", tids, nr, pids, sizeof(pids));
	snprintf(buf, sizeof(buf), "traceoff if policy == 0 && (%s)", pids);
	set_trigger(s, SETSCHED_TRIGGER, buf);
	return 0;
}

int trace_session_stop_on_exit_comm(struct trace_session *s,
				    const char *comm)
{
	char buf[128];

	if (!s->inst || !*comm || strchr(comm, '"') || strlen(comm) > 15)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "traceoff if comm == \"%s\"", comm);
	return set_exit_trigger(s, buf);
}

int trace_proc_threads(int pid, int *tids, unsigned int max)
{
	char path[64];
	struct dirent *e;
	unsigned int n = 0;
	DIR *d;
	int tid;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		tid = atoi(e->d_name);
		if (tid > 0)
			tids[n++] = tid;
	}
	closedir(d);
	return n;
}
