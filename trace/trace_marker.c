// SPDX-License-Identifier: GPL-2.0-only
/*
 * Markers from workloads into the runner's instance (RTGATE_TRACE_INSTANCE):
 * "lock taken", "extended", ... appear beside the scheduler events.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "trace.h"

int trace_marker_open(struct trace_marker *m)
{
	const char *name = getenv(TRACE_INSTANCE_ENV);

	m->inst = NULL;
	if (!name || !*name || strchr(name, '/') ||
	    !tracefs_instance_exists(name))
		return -ENOENT;
	m->inst = tracefs_instance_alloc(NULL, name);
	if (!m->inst)
		return -ENOMEM;
	if (tracefs_print_init(m->inst)) {
		tracefs_instance_free(m->inst);
		m->inst = NULL;
		return -EIO;
	}
	return 0;
}

void trace_marker_printf(struct trace_marker *m, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!m->inst)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* A marker is a diagnostic: a failed write changes nothing. */
	tracefs_printf(m->inst, "%s", buf);
}

void trace_marker_close(struct trace_marker *m)
{
	if (!m->inst)
		return;
	tracefs_print_close(m->inst);
	tracefs_instance_free(m->inst);
	m->inst = NULL;
}
