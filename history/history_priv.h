/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the history/ files; not part of the contract. */
#ifndef RTGATE_HISTORY_PRIV_H
#define RTGATE_HISTORY_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "history.h"

/* sqlite3_prepare_v2 with the error printed; 0 or -EIO. */
int history_prepare(struct history *h, const char *sql, sqlite3_stmt **st);
/*
 * Runs one statement with ?1 bound to @arg (NULL: SQL NULL). Returns 0 or
 * -EIO (a statement that does not prepare is said).
 */
int history_exec_bound(struct history *h, const char *sql, const char *arg);
/* Copies column @col as text into buf ("" for NULL). */
void history_col(sqlite3_stmt *st, int col, char *buf, size_t len);
/* The analyzer's verdicts of the run (report.json), inside the transaction. */
int history_import_verdicts(struct history *h, const char *run_dir,
			    long long run);

/* cyclictest's histogram object {"us": count} -> buckets[0..n), n <= limit. */
int history_hist_parse(const char *text, unsigned int limit, uint64_t **out,
		       size_t *n);

#endif
