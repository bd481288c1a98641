/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text for terminals and reports: how wide the terminal is, and long
 * lines (a verdict's reason) word-wrapped under their row.
 */
#ifndef RTGATE_TEXTFMT_H
#define RTGATE_TEXTFMT_H

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

/* Writes s with XML/HTML special characters escaped (reports, JUnit). */
void text_xml_escape(FILE *f, const char *s);

#endif
