/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the history/ files; not part of the contract. */
#ifndef RTGATE_HISTORY_PRIV_H
#define RTGATE_HISTORY_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "analyze/analyze.h"
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

/*
 * A night is the unit (history_nights.c): @nights holds one an_run a
 * night, oldest first, tonight last. The change among the last @window
 * nights, on any line (a CPU's p99, its max, its p99 against the other
 * CPUs', the gate's workload metric), judged against the @kpre nights
 * before it at the scenario's share of alpha (gate->level) over the
 * lines, both directions and the window. @out->found: 0 none, HELD
 * (tonight alone), STEP (two nights or more since the split).
 */
enum { HISTORY_NIGHTS_NONE, HISTORY_NIGHTS_HELD, HISTORY_NIGHTS_STEP };
struct history_night_step {
	int found;
	size_t tau;		/* the split: index of its first night */
	size_t npre, npost;
	int dir;		/* +1 worse (a REGRESSION), -1 better */
	double p, level;
	char line[96];
	char words[400];
};
int history_nights_judge(const struct an_side *nights,
			 const struct an_gate *gate, unsigned int kpre,
			 size_t window, struct history_night_step *out);

#endif
