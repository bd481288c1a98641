// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace capture of a repetition (measure.h, docs/tracing.md).
 *
 * spikes: the ring buffer's tail. A traceoff trigger in the instance stops
 * it in the kernel when a measuring thread of our cyclictest exits: at its
 * break (-b) when the suite asks for one, else at the end of the
 * measurement. on: the whole repetition, streamed into the repetition's
 * directory, capped.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"
#include "runner/measure/measure.h"
#include "clocks.h"
#include "trace/trace.h"

#define ARM_TICK_NS	10000000L	/* 10 ms */
#define ARM_MAX_TICKS	500		/* 5 s */
#define ARM_STABLE	20		/* 200 ms without a new thread */
#define MAX_TIDS	256

int runner_trace_prepare(enum trace_capture mode, struct runner_state *st)
{
	char prefix[64];
	int ret;

	if (mode == TRACE_CAPTURE_OFF)
		return 0;
	ret = trace_instance_owner_prefix(prefix, sizeof(prefix));
	if (ret)
		return ret;
	return runner_state_add_undo(st, STATE_UNDO_TRACEFS, prefix, NULL);
}

static void info_error(struct runner_rep_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void info_error(struct runner_rep_trace *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pr_warn("trace: %s", buf);
	if (!cJSON_GetObjectItemCaseSensitive(t->info, "error"))
		cJSON_AddStringToObject(t->info, "error", buf);
}

static void add_words(cJSON *o, const char *key, const char *text)
{
	cJSON *arr = cJSON_AddArrayToObject(o, key);
	char *copy = strdup(text), *tok, *save = NULL;

	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; tok;
	     tok = strtok_r(NULL, " ", &save))
		cJSON_AddItemToArray(arr, cJSON_CreateString(tok));
	free(copy);
}

void runner_trace_begin(struct runner_rep_trace *t, enum trace_capture mode,
			const char *dir)
{
	struct trace_params tp = {
		.mode = mode == TRACE_CAPTURE_ON ? TRACE_MODE_STREAM :
						   TRACE_MODE_RING,
		.events = TRACE_EVENTS_LATENCY,
		.spool_dir = dir,
	};
	char why[512];

	memset(t, 0, sizeof(*t));
	t->mode = mode;
	if (mode == TRACE_CAPTURE_OFF)
		return;
	t->info = cJSON_CreateObject();
	cJSON_AddStringToObject(t->info, "mode", trace_capture_name(mode));
	if (trace_available(why, sizeof(why))) {
		info_error(t, "tracing unavailable: %s", why);
		return;
	}
	if (trace_session_init(&t->s, &tp)) {
		info_error(t, "the tracefs instance could not be set up");
		return;
	}
	t->active = true;
	cJSON_AddStringToObject(t->info, "instance", t->s.name);
	add_words(t->info, "features", t->s.features);
	add_words(t->info, "missing_events", t->s.missing);
	if (trace_session_start(&t->s)) {
		info_error(t, "tracing could not be started");
		return;
	}
	setenv(TRACE_INSTANCE_ENV, t->s.name, 1);
}

void runner_trace_before_cyclictest(struct runner_rep_trace *t)
{
	if (!t->active || t->mode != TRACE_CAPTURE_SPIKES)
		return;
	if (trace_session_stop_on_exit_comm(&t->s, "cyclictest"))
		info_error(t, "the buffer cannot be stopped at cyclictest's "
			   "end: the tail may miss it");
}

/*
 * Every thread of cyclictest (a measuring thread that broke early is no
 * longer RT). Searched at SCHED_FIFO 1, below any measuring thread, so
 * that a loaded machine does not delay the search past an early break.
 */
void runner_trace_arm(struct runner_rep_trace *t, int pid)
{
	struct sched_param rt = { .sched_priority = 1 }, other = { 0 };
	struct timespec tick = { 0, ARM_TICK_NS };
	int tids[MAX_TIDS], n, stable = 0, i, policy;
	bool raised;

	if (!t->active || t->mode != TRACE_CAPTURE_SPIKES || pid <= 0)
		return;
	policy = sched_getscheduler(0);
	raised = policy == SCHED_OTHER &&
		 !sched_setscheduler(0, SCHED_FIFO, &rt);
	for (i = 0; i < ARM_MAX_TICKS && stable < ARM_STABLE; i++) {
		nanosleep(&tick, NULL);
		n = trace_proc_threads(pid, tids, MAX_TIDS);
		if (n < 0)
			break;		/* cyclictest is gone already */
		if (n > t->nr_armed) {
			if (trace_session_stop_on_exit(&t->s, tids, n))
				break;
			t->nr_armed = n;
			stable = 0;
		} else if (t->nr_armed > 1) {
			/* cyclictest's main thread and a measuring one */
			stable++;
		}
	}
	if (raised)
		sched_setscheduler(0, SCHED_OTHER, &other);
	cJSON_AddNumberToObject(t->info, "stop_armed_threads", t->nr_armed);
}

void runner_trace_stop(struct runner_rep_trace *t)
{
	if (t->active)
		trace_session_stop(&t->s);
}

/* cyclictest's "# Break thread: N" and "# Break value: N". */
static bool find_break(const struct runner_ct_run *ctr, int *tid,
		       unsigned long *us)
{
	const char *texts[] = { ctr ? ctr->notes : NULL,
				ctr ? ctr->header : NULL };
	const char *p, *q;
	size_t i;

	for (i = 0; i < 2; i++) {
		if (!texts[i])
			continue;
		p = strstr(texts[i], "# Break thread:");
		q = strstr(texts[i], "# Break value:");
		if (p && q && sscanf(p, "# Break thread: %d", tid) == 1 &&
		    sscanf(q, "# Break value: %lu", us) == 1)
			return true;
	}
	return false;
}

static void attribute(struct runner_rep_trace *t, const char *dir,
		      const char *path, const struct runner_ct_run *ctr,
		      const struct ctline *finals, size_t nr_finals)
{
	struct trace_attr_params ap = { .top_n = RTRACE_TOP };
	struct trace_attr_result res;
	int tids[MAX_TIDS];
	char out[PATH_MAX];
	cJSON *arr, *json, *b;
	size_t i;

	arr = cJSON_AddArrayToObject(t->info, "measured_tids");
	for (i = 0; i < nr_finals && i < MAX_TIDS; i++) {
		tids[ap.nr_tids++] = finals[i].tid;
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(finals[i].tid));
	}
	if (ap.nr_tids)
		ap.tids = tids;
	if (find_break(ctr, &ap.break_tid, &ap.break_us)) {
		b = cJSON_AddObjectToObject(t->info, "break");
		cJSON_AddNumberToObject(b, "tid", ap.break_tid);
		cJSON_AddNumberToObject(b, "us", ap.break_us);
	}
	cJSON_AddStringToObject(t->info, "stopped_at", ap.break_tid ?
				"break" : t->mode == TRACE_CAPTURE_SPIKES ?
				"end of the measurement" : "end");
	if (trace_attr_file(path, &ap, &res)) {
		info_error(t, "%s could not be attributed", path);
		return;
	}
	cJSON_AddNumberToObject(t->info, "span_s", res.last_ts > res.first_ts ?
				(res.last_ts - res.first_ts) / 1e9 : 0);
	cJSON_AddNumberToObject(t->info, "wakeups", res.nr_wakeups);
	cJSON_AddNumberToObject(t->info, "events_lost", res.missed);
	if (ap.break_tid)
		cJSON_AddBoolToObject(t->info, "break_found",
				      res.break_idx >= 0);
	json = trace_attr_to_json(&res);
	rtpaths_fmt(out, sizeof(out), "%s/" RTRACE_ATTR_FILE, dir);
	if (!json || json_write_file(out, json))
		info_error(t, "%s: cannot write it", out);
	else
		cJSON_AddStringToObject(t->info, "attribution",
					RTRACE_ATTR_FILE);
	cJSON_Delete(json);
	trace_attr_result_free(&res);
}

static void save(struct runner_rep_trace *t, const char *dir,
		 const struct runner_ct_run *ctr, const struct ctline *finals,
		 size_t nr_finals)
{
	struct trace_stats st;
	char path[PATH_MAX];
	double t0 = clocks_mono_s();

	trace_session_stats(&t->s, &st);
	cJSON_AddNumberToObject(t->info, "overrun", st.overrun);
	cJSON_AddBoolToObject(t->info, "truncated", st.truncated);
	rtpaths_fmt(path, sizeof(path), "%s/" RTRACE_FILE, dir);
	if (trace_session_save(&t->s, path)) {
		info_error(t, "%s could not be saved", path);
		return;
	}
	cJSON_AddStringToObject(t->info, "file", RTRACE_FILE);
	cJSON_AddNumberToObject(t->info, "save_s",
				(long)((clocks_mono_s() - t0) * 10) / 10.0);
	attribute(t, dir, path, ctr, finals, nr_finals);
}

void runner_trace_finish(struct runner_rep_trace *t, const char *dir,
			 bool do_save, const struct runner_ct_run *ctr,
			 const struct ctline *finals, size_t nr_finals,
			 cJSON **info)
{
	if (t->mode == TRACE_CAPTURE_OFF)
		return;
	if (t->active) {
		trace_session_stop(&t->s);
		if (do_save)
			save(t, dir, ctr, finals, nr_finals);
		else
			info_error(t, "not saved: the run was interrupted");
		trace_session_destroy(&t->s);
		t->active = false;
	}
	unsetenv(TRACE_INSTANCE_ENV);
	cJSON_Delete(*info);
	*info = t->info;
	t->info = NULL;
}
