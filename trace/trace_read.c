// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoding records into struct trace_ev, from trace.dat files (libtracecmd)
 * and from live instances (libtracefs). Field lookups are done once per
 * event type and cached by event id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <trace-cmd.h>
#include <tracefs.h>

#include "log.h"
#include "trace.h"

#define MAX_FIELDS	8
#define MAX_TEPS	4

struct ev_desc {
	signed char state;	/* 0: not looked at, 1: decode, -1: skip */
	int type;
	struct tep_format_field *f[MAX_FIELDS];
	char name[TRACE_NAME_LEN * 2];	/* sys:name */
	char vector[TRACE_NAME_LEN];	/* x86 vector name */
};

struct decoder {
	struct tep_handle *tep;
	struct ev_desc *desc;
	int nr_desc;
};

struct read_ctx {
	struct decoder dec[MAX_TEPS];
	int (*fn)(const struct trace_ev *ev, void *ctx);
	void *ctx;
	struct trace_file_info *info;
	int ret;
};

static const char *const type_names[TRACE_EV_NR_TYPES] = {
	[TRACE_EV_SWITCH] = "sched_switch", [TRACE_EV_WAKING] = "sched_waking",
	[TRACE_EV_WAKEUP] = "sched_wakeup",
	[TRACE_EV_WAKEUP_NEW] = "sched_wakeup_new",
	[TRACE_EV_MIGRATE] = "sched_migrate_task",
	[TRACE_EV_IRQ_ENTRY] = "irq_entry", [TRACE_EV_IRQ_EXIT] = "irq_exit",
	[TRACE_EV_SOFTIRQ_ENTRY] = "softirq_entry",
	[TRACE_EV_SOFTIRQ_EXIT] = "softirq_exit",
	[TRACE_EV_HRTIMER_START] = "hrtimer_start",
	[TRACE_EV_HRTIMER_ENTRY] = "hrtimer_expire_entry",
	[TRACE_EV_HRTIMER_EXIT] = "hrtimer_expire_exit",
	[TRACE_EV_MARKER] = "marker", [TRACE_EV_EXT_GRANT] = "extension_grant",
	[TRACE_EV_EXT_END] = "extension_end",
};

const char *trace_ev_type_name(int type)
{
	return type >= 0 && type < TRACE_EV_NR_TYPES ? type_names[type] : "?";
}

const char *trace_softirq_name(unsigned int vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : "?";
}

void trace_prio_str(int prio, char *buf, unsigned int len)
{
	if (prio < 0)
		snprintf(buf, len, "dl");
	else if (prio < 100)
		snprintf(buf, len, "rt %d", 99 - prio);
	else
		snprintf(buf, len, "nice %d", prio - 120);
}

struct type_fields {
	const char *system;
	const char *name;
	int type;
	const char *fields[MAX_FIELDS];
	int required;			/* the first N fields must exist */
};

static const struct type_fields known[] = {
	{ "sched", "sched_switch", TRACE_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
	    "next_pid", "next_prio" }, 7 },
	{ "sched", "sched_waking", TRACE_EV_WAKING,
	  { "comm", "pid", "prio", "target_cpu" }, 2 },
	{ "sched", "sched_wakeup", TRACE_EV_WAKEUP,
	  { "comm", "pid", "prio", "target_cpu" }, 2 },
	{ "sched", "sched_wakeup_new", TRACE_EV_WAKEUP_NEW,
	  { "comm", "pid", "prio", "target_cpu" }, 2 },
	{ "sched", "sched_migrate_task", TRACE_EV_MIGRATE,
	  { "comm", "pid", "prio", "orig_cpu", "dest_cpu" }, 2 },
	{ "irq", "irq_handler_entry", TRACE_EV_IRQ_ENTRY, { "irq" }, 1 },
	{ "irq", "irq_handler_exit", TRACE_EV_IRQ_EXIT, { "irq" }, 1 },
	{ "irq", "softirq_entry", TRACE_EV_SOFTIRQ_ENTRY, { "vec" }, 1 },
	{ "irq", "softirq_exit", TRACE_EV_SOFTIRQ_EXIT, { "vec" }, 1 },
	{ "timer", "hrtimer_start", TRACE_EV_HRTIMER_START,
	  { "hrtimer", "function", "expires" }, 3 },
	{ "timer", "hrtimer_expire_entry", TRACE_EV_HRTIMER_ENTRY,
	  { "hrtimer", "now", "function" }, 2 },
	{ "timer", "hrtimer_expire_exit", TRACE_EV_HRTIMER_EXIT,
	  { "hrtimer" }, 1 },
	{ "ftrace", "print", TRACE_EV_MARKER, { NULL }, 0 },
	{ NULL, NULL, 0, { NULL }, 0 },
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static bool contains_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return true;
	return false;
}

/*
 * Slice-extension events are matched by name (see trace_session.c):
 * a grant opens an extension for the task, an end word closes it.
 */
static int feature_type(const char *sys, const char *name)
{
	static const char *const end[] = { "yield", "expire", "revoke",
					   "clear", "end", "done", "abort",
					   NULL };
	static const char *const grant[] = { "grant", "extend", "extension",
					     "delay_resched", NULL };

	if (strcmp(sys, "sched") && strcmp(sys, "rseq"))
		return -1;
	if (!strstr(name, "delay_resched") && !strstr(name, "slice"))
		return -1;
	if (contains_any(name, end))
		return TRACE_EV_EXT_END;
	if (contains_any(name, grant))
		return TRACE_EV_EXT_GRANT;
	return -1;
}

static void desc_vector(struct ev_desc *d, struct tep_event *ev)
{
	size_t n;

	snprintf(d->vector, sizeof(d->vector), "%s", ev->name);
	n = strlen(d->vector);
	if (has_suffix(d->vector, "_entry"))
		d->vector[n - 6] = '\0';
	else if (has_suffix(d->vector, "_exit"))
		d->vector[n - 5] = '\0';
	d->f[0] = tep_find_field(ev, "vector");
}

static void desc_init(struct ev_desc *d, struct tep_event *ev)
{
	const struct type_fields *k;
	int i, ft;

	d->state = -1;
	snprintf(d->name, sizeof(d->name), "%s:%s", ev->system, ev->name);
	for (k = known; k->system; k++) {
		if (strcmp(k->system, ev->system) || strcmp(k->name, ev->name))
			continue;
		d->type = k->type;
		for (i = 0; i < MAX_FIELDS && k->fields[i]; i++) {
			d->f[i] = tep_find_field(ev, k->fields[i]);
			if (!d->f[i] && i < k->required)
				return;
		}
		d->state = 1;
		return;
	}
	if (!strcmp(ev->system, "irq_vectors") &&
	    (has_suffix(ev->name, "_entry") || has_suffix(ev->name, "_exit"))) {
		d->type = has_suffix(ev->name, "_entry") ? TRACE_EV_IRQ_ENTRY :
							   TRACE_EV_IRQ_EXIT;
		desc_vector(d, ev);
		d->state = 1;
		return;
	}
	ft = feature_type(ev->system, ev->name);
	if (ft >= 0) {
		d->type = ft;
		d->f[0] = tep_find_field(ev, "pid");
		d->state = 1;
	}
}

static struct ev_desc *desc_get(struct decoder *dec, struct tep_event *ev)
{
	struct ev_desc *tmp;
	int n;

	if (ev->id < 0)
		return NULL;
	if (ev->id >= dec->nr_desc) {
		n = ev->id + 64;
		tmp = realloc(dec->desc, n * sizeof(*tmp));
		if (!tmp)
			return NULL;
		memset(tmp + dec->nr_desc, 0,
		       (n - dec->nr_desc) * sizeof(*tmp));
		dec->desc = tmp;
		dec->nr_desc = n;
	}
	if (!dec->desc[ev->id].state)
		desc_init(&dec->desc[ev->id], ev);
	return &dec->desc[ev->id];
}

static long long num(struct tep_format_field *f, struct tep_record *r,
		     long long fallback)
{
	unsigned long long v;

	if (!f || tep_read_number_field(f, r->data, &v))
		return fallback;
	/* Sign-extend signed fields narrower than 64 bits. */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 4)
		return (int)v;
	return (long long)v;
}

static void str(struct tep_format_field *f, struct tep_record *r, char *dst,
		size_t len)
{
	size_t n;

	dst[0] = '\0';
	if (!f || f->offset + f->size > r->size)
		return;
	n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;
	memcpy(dst, (char *)r->data + f->offset, n);
	dst[n] = '\0';
}

static void raw_str(struct tep_event *ev, struct tep_record *r,
		    const char *field, char *dst, size_t len)
{
	int n = 0;
	char *p;

	dst[0] = '\0';
	p = tep_get_field_raw(NULL, ev, field, r, &n, 0);
	if (!p || n <= 0)
		return;
	if ((size_t)n > len - 1)
		n = len - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
	/* Markers end with the writer's newline: drop it. */
	dst[strcspn(dst, "\n")] = '\0';
}

static void task(struct ev_desc *d, struct tep_record *r, int base,
		 struct trace_task *t)
{
	str(d->f[base], r, t->comm, sizeof(t->comm));
	t->pid = num(d->f[base + 1], r, -1);
	t->prio = num(d->f[base + 2], r, 120);
}

static void decode_fields(struct ev_desc *d, struct tep_event *ev,
			  struct tep_record *r, struct trace_ev *e)
{
	switch (d->type) {
	case TRACE_EV_SWITCH:
		task(d, r, 0, &e->sw.prev);
		e->sw.prev_state = num(d->f[3], r, 0);
		str(d->f[4], r, e->sw.next.comm, sizeof(e->sw.next.comm));
		e->sw.next.pid = num(d->f[5], r, -1);
		e->sw.next.prio = num(d->f[6], r, 120);
		break;
	case TRACE_EV_WAKING:
	case TRACE_EV_WAKEUP:
	case TRACE_EV_WAKEUP_NEW:
		task(d, r, 0, &e->wake.task);
		e->wake.target_cpu = num(d->f[3], r, -1);
		break;
	case TRACE_EV_MIGRATE:
		task(d, r, 0, &e->wake.task);
		e->wake.orig_cpu = num(d->f[3], r, -1);
		e->wake.target_cpu = num(d->f[4], r, -1);
		break;
	case TRACE_EV_IRQ_ENTRY:
	case TRACE_EV_IRQ_EXIT:
		if (d->vector[0]) {
			e->irq.irq = -1;
			snprintf(e->irq.name, sizeof(e->irq.name), "%s",
				 d->vector);
		} else {
			e->irq.irq = num(d->f[0], r, -1);
			if (d->type == TRACE_EV_IRQ_ENTRY)
				raw_str(ev, r, "name", e->irq.name,
					sizeof(e->irq.name));
		}
		break;
	case TRACE_EV_SOFTIRQ_ENTRY:
	case TRACE_EV_SOFTIRQ_EXIT:
		e->irq.irq = num(d->f[0], r, 0);
		snprintf(e->irq.name, sizeof(e->irq.name), "%s",
			 trace_softirq_name(e->irq.irq));
		break;
	case TRACE_EV_HRTIMER_START:
		e->hrt.timer = num(d->f[0], r, 0);
		e->hrt.function = num(d->f[1], r, 0);
		e->hrt.expires = num(d->f[2], r, 0);
		break;
	case TRACE_EV_HRTIMER_ENTRY:
		e->hrt.timer = num(d->f[0], r, 0);
		e->hrt.now = num(d->f[1], r, 0);
		e->hrt.function = num(d->f[2], r, 0);
		break;
	case TRACE_EV_HRTIMER_EXIT:
		e->hrt.timer = num(d->f[0], r, 0);
		break;
	case TRACE_EV_MARKER:
		raw_str(ev, r, "buf", e->text, sizeof(e->text));
		break;
	case TRACE_EV_EXT_GRANT:
	case TRACE_EV_EXT_END:
		snprintf(e->ext.event, sizeof(e->ext.event), "%s", d->name);
		e->ext.pid = d->f[0] ? num(d->f[0], r, e->pid) : e->pid;
		break;
	}
}

static struct decoder *decoder_for(struct read_ctx *rc,
				   struct tep_handle *tep)
{
	int i;

	for (i = 0; i < MAX_TEPS; i++) {
		if (rc->dec[i].tep == tep)
			return &rc->dec[i];
		if (!rc->dec[i].tep) {
			rc->dec[i].tep = tep;
			return &rc->dec[i];
		}
	}
	return NULL;
}

static int handle_record(struct read_ctx *rc, struct tep_handle *tep,
			 struct tep_record *r, int cpu)
{
	struct trace_file_info *info = rc->info;
	struct decoder *dec;
	struct tep_event *ev;
	struct ev_desc *d;
	struct trace_ev e;

	if (info) {
		info->nr_records++;
		if (!info->first_ts || r->ts < info->first_ts)
			info->first_ts = r->ts;
		if (r->ts > info->last_ts)
			info->last_ts = r->ts;
		if (r->missed_events > 0)
			info->missed += r->missed_events;
	}
	dec = decoder_for(rc, tep);
	ev = dec ? tep_find_event_by_record(tep, r) : NULL;
	d = ev ? desc_get(dec, ev) : NULL;
	if (!d || d->state != 1)
		return 0;
	memset(&e, 0, sizeof(e));
	e.ts = r->ts;
	e.cpu = cpu;
	e.type = d->type;
	e.pid = tep_data_pid(tep, r);
	e.missed = r->missed_events > 0 ? r->missed_events : 0;
	decode_fields(d, ev, r, &e);
	if (info) {
		info->nr_events++;
		info->per_type[e.type]++;
	}
	if (!rc->fn)
		return 0;
	rc->ret = rc->fn(&e, rc->ctx);
	return rc->ret;
}

static int file_cb(struct tracecmd_input *h, struct tep_record *r, int cpu,
		   void *data)
{
	return handle_record(data, tracecmd_get_tep(h), r, cpu);
}

static void read_ctx_free(struct read_ctx *rc)
{
	int i;

	for (i = 0; i < MAX_TEPS; i++)
		free(rc->dec[i].desc);
}

/* trace-cmd's files start with these bytes (trace-cmd.dat(5)). */
static int check_magic(const char *path)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g' };
	char buf[sizeof(magic)];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		pr_err("%s: %s", path, strerror(err));
		return -err;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(buf) || memcmp(buf, magic, sizeof(buf))) {
		pr_err("%s: byte 0: not a trace-cmd trace file (no "
		       "trace.dat header)", path);
		return -EINVAL;
	}
	return 0;
}

int trace_file_read(const char *path,
		    int (*fn)(const struct trace_ev *ev, void *ctx), void *ctx,
		    struct trace_file_info *info)
{
	struct tracecmd_input *handles[1 + 64];
	struct read_ctx rc = { .fn = fn, .ctx = ctx, .info = info };
	int i, nr, ret;

	if (info)
		memset(info, 0, sizeof(*info));
	ret = check_magic(path);
	if (ret)
		return ret;
	/* libtracecmd's own messages would not name the file: ours do. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handles[0] = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handles[0]) {
		pr_err("%s: cannot read the trace: the file is truncated or "
		       "corrupt", path);
		return -EINVAL;
	}
	nr = tracecmd_buffer_instances(handles[0]);
	if (nr > 64)
		nr = 64;
	for (i = 0; i < nr; i++) {
		handles[i + 1] = tracecmd_buffer_instance_handle(handles[0], i);
		if (!handles[i + 1]) {
			pr_err("%s: cannot read buffer instance %d: the file "
			       "is truncated or corrupt", path, i);
			nr = i;
			ret = -EINVAL;
			goto out;
		}
	}
	tracecmd_iterate_events_multi(handles, nr + 1, file_cb, &rc);
out:
	for (i = nr; i >= 0; i--)
		tracecmd_close(handles[i]);
	read_ctx_free(&rc);
	if (ret)
		return ret;
	return rc.ret < 0 ? rc.ret : 0;
}

int trace_file_check(const char *path, struct trace_file_info *info)
{
	struct trace_file_info local;

	return trace_file_read(path, NULL, NULL, info ? info : &local);
}

static int live_cb(struct tep_event *ev, struct tep_record *r, int cpu,
		   void *data)
{
	return handle_record(data, ev->tep, r, cpu);
}

int trace_session_read(struct trace_session *s,
		       int (*fn)(const struct trace_ev *ev, void *ctx),
		       void *ctx)
{
	static const char *const systems[] = { "sched", "irq", "timer",
					       "irq_vectors", "rseq", "ftrace",
					       NULL };
	struct read_ctx rc = { .fn = fn, .ctx = ctx };

	if (!s->inst)
		return -EINVAL;
	if (!s->tep) {
		s->tep = tracefs_local_events_system(NULL, systems);
		if (!s->tep) {
			pr_err("cannot read the kernel's event formats");
			return -EIO;
		}
	}
	tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, live_cb, &rc);
	read_ctx_free(&rc);
	return rc.ret < 0 ? rc.ret : 0;
}
