/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the export/ files; not part of the contract. */
#ifndef RTGATE_EXPORT_PRIV_H
#define RTGATE_EXPORT_PRIV_H

#include <cjson/cJSON.h>

#include "history/history.h"
#include "jsonio.h"

/*
 * Reads a results directory into an in-memory history database (or into
 * the history database @db, where verdicts against history are kept): the
 * one reader of results directories, shared with `history import`. On success
 * the caller closes @h and deletes *manifest.
 */
int export_load_run(const char *run_dir, const char *db, struct history *h,
		    struct history_run *run, cJSON **manifest);

/* snprintf that truncates silently: names are cut, never overflow. */
void export_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void export_path_segment(const char *in, char *out, size_t len);

static inline const char *json_str(const cJSON *obj, const char *key)
{
	return json_get_str(obj, key, NULL);
}

#endif
