/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside suite/: the parser's state, shared by the files that read
 * the suite's sections.
 */
#ifndef RTGATE_RUNNER_SUITE_PRIV_H
#define RTGATE_RUNNER_SUITE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runner/suite/suite.h"

/* Internals of the suite parser shared by its files (not a contract). */

#define SUITE_MAX_LINE	4096
#define SUITE_MAX_SEEN	64
/* inih copies section names into a 50-byte buffer and cuts the rest. */
#define INIH_MAX_SECTION 50

enum runner_suite_section {
	RUNNER_SEC_NONE,
	RUNNER_SEC_SUITE,
	RUNNER_SEC_MEASURE,
	RUNNER_SEC_GATE,
	RUNNER_SEC_SCENARIO,
	RUNNER_SEC_REFERENCE,
};

struct runner_seen_key {
	char name[64];
	unsigned int line;
};

struct runner_suite_parser {
	struct runner_suite *suite;
	const char *file;
	FILE *f;
	char *buf;
	size_t cap;
	unsigned int line;
	enum runner_suite_section sec;
	char secname[INIH_MAX_SECTION + 16];
	size_t cur;			/* scenario or reference index */
	struct runner_seen_key seen[SUITE_MAX_SEEN];
	size_t nr_seen;
	unsigned int sec_lines[RUNNER_SEC_REFERENCE + 1];
	bool failed;
	bool has_measure_tool, has_duration, has_loops;
	struct runner_suite_error *err;
};

/*
 * The parser's files: runner_suite.c reads the file and checks the whole
 * (the entry, runner_suite_load), runner_suite_keys.c takes the keys of [suite],
 * [measure] and [gate], runner_suite_scenario.c those of [scenario] and
 * [reference] (a workload line: runner_suite_workload.c); all call down
 * into runner_suite_parse.c. runner_suite_model.c answers questions about
 * a loaded suite and frees it.
 */

/* runner_suite_parse.c: what every key handler shares */
/* The first error, "FILE:LINE: ..." into the suite_error; later ones are
 * dropped (the parse stops at the first). */
void runner_suite_perr(struct runner_suite_parser *p, unsigned int line,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A scenario or gate name: letters, digits, '-' and '_'. */
bool runner_suite_valid_name(const char *s);
/* False (and "out of memory" said) for a NULL @ptr. */
bool runner_suite_check_alloc(struct runner_suite_parser *p, const void *ptr);
/* *dst = a copy of @val (the old one freed); 0 or -ENOMEM. */
int runner_suite_dup(struct runner_suite_parser *p, char **dst,
		     const char *val);
struct runner_suite_scenario *
runner_suite_cur_scenario(struct runner_suite_parser *p);
struct runner_suite_reference *
runner_suite_cur_reference(struct runner_suite_parser *p);
/* Single-valued keys may appear once per section: false after saying so. */
bool runner_suite_note_key(struct runner_suite_parser *p, const char *name);
void runner_suite_unknown_key(struct runner_suite_parser *p, const char *name,
			      const char *known);
/* "requires = a, b" into a NULL-terminated list. */
int runner_suite_parse_requires(struct runner_suite_parser *p, char ***out,
				const char *val);

/* runner_suite_keys.c: also for a scenario's own tool and metric */
void runner_suite_parse_tool(struct runner_suite_parser *p, const char *val,
			     const struct an_tool **tool);
/* max, avg, pNN[.N...], or WORKLOAD.METRIC */
bool runner_suite_valid_metric(const char *s);

/* The keys of each section (the suite_handler() dispatch). */
void runner_suite_key_suite(struct runner_suite_parser *p, const char *name,
			    const char *val);
void runner_suite_key_measure(struct runner_suite_parser *p, const char *name,
			      const char *val);
void runner_suite_key_gate(struct runner_suite_parser *p, const char *name,
			   const char *val);
void runner_suite_key_scenario(struct runner_suite_parser *p, const char *name,
			       const char *val);
void runner_suite_key_reference(struct runner_suite_parser *p, const char *name,
				const char *val);

/* Parses a workload line into @wl (options, program, alias). */
int runner_suite_workload_parse(struct runner_suite_workload *wl,
				const char *text, char *err, size_t len);

#endif
