/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the tracing layer: raw ring-buffer pages copied from the
 * instance's per_cpu/cpuN/trace_pipe_raw into one file per CPU, the input
 * of `trace-cmd restore`. Stream mode copies from a thread during the run;
 * ring mode copies once, when the session is saved.
 */
#ifndef RTGATE_TRACE_PRIV_H
#define RTGATE_TRACE_PRIV_H

#include "trace.h"

/* Opens the per-CPU files in params.spool_dir, or in dir when not NULL. */
int trace_spool_open(struct trace_session *s, const char *dir);
/* Stream mode: the spool exists from init. */
int trace_spool_create(struct trace_session *s);
int trace_spool_start(struct trace_session *s);
/* Joins the stream thread (if any) and copies what is left. */
void trace_spool_stop(struct trace_session *s);
/* One pass over every CPU, copying all that can be read now. */
int trace_spool_drain(struct trace_session *s);
/* The per-CPU file names, in CPU order; valid until trace_spool_free. */
int trace_spool_files(struct trace_session *s, const char ***files, int *nr);
const char *trace_spool_dir(struct trace_session *s);
unsigned long long trace_spool_bytes(struct trace_session *s);
/* Closes and deletes the per-CPU files (and the directory it made). */
void trace_spool_free(struct trace_session *s);
/* Removes default spool directories (in TMPDIR) of processes now gone. */
void trace_spool_clean_stale(void);

#endif
