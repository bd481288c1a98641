/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict parsers for numbers, durations and CPU lists given on command
 * lines and in suite files. All return 0 or -EINVAL/-ERANGE and never
 * accept trailing garbage, empty strings or a sign where none is allowed.
 * And the one search of a kernel command line's words.
 */
#ifndef RTGATE_PARSE_H
#define RTGATE_PARSE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

int parse_u64(const char *s, uint64_t *out);
int parse_s64(const char *s, int64_t *out);
int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_double(const char *s, double *out);
int parse_bool(const char *s, bool *out);

/* "10", "10s", "500ms", "2m", "1h" -> nanoseconds. A bare number is seconds. */
int parse_duration_ns(const char *s, uint64_t *out_ns);

/* "2026-11-30T20:03:53Z" (UTC, as manifests write it) -> seconds. */
int parse_utc_time(const char *s, time_t *out);

/* "0-3,5,7-8" -> set; rejects CPUs >= CPU_SETSIZE and reversed ranges. */
int parse_cpulist(const char *s, cpu_set_t *set);
/* Writes "0-3,5" into buf; returns the length or -ENOSPC. */
int parse_cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/*
 * The names rtgate files results by and prints everywhere (docs/results.md,
 * "Names"): a suite or scenario name is 1-64 of [A-Za-z0-9_-]; a host,
 * board or run id 1-128 of [A-Za-z0-9._-] starting with a letter or a
 * digit (and "(none)", the kernel's hostname when nobody set one). No
 * quote, space, markup or byte beyond ASCII: a name can be pasted into
 * any report, script or path as it is.
 */
#define PARSE_NAME_MAX		64
#define PARSE_HOST_NAME_MAX	128
bool parse_name(const char *s);
bool parse_host_name(const char *s);

/* Trims leading and trailing whitespace in place; returns s. */
char *parse_strip(char *s);

/*
 * A kernel command line's words (/proc/cmdline, QEMU's -append, a
 * manifest's host.cmdline) are apart by blanks; a word is a flag
 * ("quiet") or a parameter "KEY=VALUE" ("isolcpus=3").
 */
#define PARSE_CMDLINE_BLANKS	" \t\n"

/* What parse_cmdline_find() looks for. */
enum parse_cmdline_match {
	PARSE_CMDLINE_WORD,	/* the word itself: "quiet", "rtgate.lab=x" */
	PARSE_CMDLINE_KEY,	/* KEY, or KEY=VALUE: whatever sets KEY */
	PARSE_CMDLINE_VALUE,	/* KEY=VALUE only: KEY given a value */
};

/**
 * parse_cmdline_find() - a word of a kernel command line
 * @cmdline: the command line; NULL has no words
 * @word: the word to find (PARSE_CMDLINE_WORD) or a parameter's key;
 *        its first @n bytes count
 * @n: their number, at least 1
 * @how: the word itself, the key with or without a value, or the key
 *       with a value
 *
 * Return: the first matching word in @cmdline (it ends at a blank or the
 * string's end; for PARSE_CMDLINE_VALUE its value starts @n + 1 bytes
 * on), or NULL when there is none.
 */
const char *parse_cmdline_find(const char *cmdline, const char *word,
			       size_t n, enum parse_cmdline_match how);

#endif
