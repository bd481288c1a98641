/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text for terminals and reports: how wide the terminal is, and long
 * lines (a verdict's reason) word-wrapped under their row.
 */
#ifndef RTGATE_TEXTFMT_H
#define RTGATE_TEXTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Columns of the terminal on @fd; @fallback when it is not one. */
int text_columns(int fd, int fallback);
/* Writes @text word-wrapped to @width columns, each line indented. */
void text_wrap(FILE *f, const char *text, int indent, int width);
/*
 * The same after a prefix already written up to column @first_col: the
 * first line fills the rest of it, the others are indented by @indent.
 */
void text_wrap_hanging(FILE *f, const char *text, int first_col, int indent,
		       int width);

/*
 * Writes s with XML/HTML special characters escaped (reports, JUnit):
 * what XML 1.0 forbids (control characters, bytes that are not UTF-8)
 * becomes a space or U+FFFD, so the document stays well-formed whatever
 * a results directory named.
 */
void text_xml_escape(FILE *f, const char *s);

/*
 * Writes s as one gnuplot single-quoted string, the quotes included: a
 * quote doubled (the only escape gnuplot knows there), control
 * characters as spaces (a newline would end the command), bytes that are
 * not UTF-8 as '?'. Inside single quotes gnuplot substitutes nothing
 * (no `command`, no @macro); print it with noenhanced so that ^ _ @ { }
 * stay themselves. Every string a script gets from data goes through it.
 */
void text_gnuplot_quote(FILE *f, const char *s);

/*
 * Markdown (report.md, reproduce.md): text from data that must stay one
 * inline run -- a table cell, a heading, a list item -- and never turn
 * into markup. text_md_escape() writes s with '|' as \| (a bare pipe
 * ends a table cell), '\\', '<' before a letter, '/', '!' or '?' (raw
 * HTML; "p<0.05" stays), '`' (code), '[' and ']' (links)
 * backslash-escaped, control characters (newlines: they end the
 * cell, the heading, the table) as spaces, bytes that are not UTF-8 as
 * U+FFFD. text_md_code() writes s as one code span, its fence longer than
 * any run of backticks in s. text_md_fence_len(): the backticks a fenced
 * block needs around s (3, or one more than its longest run).
 */
void text_md_escape(FILE *f, const char *s);
void text_md_code(FILE *f, const char *s);
size_t text_md_fence_len(const char *s);

/*
 * Appends printf-style text to the string in @buf (@len bytes in all): a
 * long text is cut, never overflows; a full @buf stays as it is.
 */
void text_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Bytes of the UTF-8 character at s (1-4), 0 when it is not one. */
size_t text_utf8_char(const char *s, size_t len);
/* Whether s[0..len) is UTF-8 (no overlong forms, no surrogates). */
bool text_utf8_valid(const char *s, size_t len);
/*
 * A copy of s[0..len) with every byte that is not UTF-8 replaced by
 * U+FFFD, NUL-terminated (*outlen without it); NULL when out of memory.
 */
char *text_utf8_repair(const char *s, size_t len, size_t *outlen);

#endif
