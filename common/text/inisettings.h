/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libinih's run-time settings (ini_allow_multiline and the rest) are
 * process-wide, so a parser that sets its own leaves them set for the
 * next. Every ini_parse() of ours first sets what it needs: the suite
 * parser its strict ones (runner_suite.c), the others the library's own
 * defaults through this.
 */
#ifndef RTGATE_INISETTINGS_H
#define RTGATE_INISETTINGS_H

/*
 * inisettings_library_defaults() - libinih's compiled-in defaults:
 * multi-line values, a BOM, ";" and "#" comments at a line's start and
 * ";" inline, a 200-byte line on the stack, every error reported.
 */
void inisettings_library_defaults(void);

/*
 * inisettings_strict() - the suite parser's: no multi-line values, a BOM,
 * ";" and "#" comments at a line's start and ";" inline, no key without
 * a value, a heap line buffer of @max_line bytes that never grows (a
 * longer line is an error), parsing stopped at the first error.
 */
void inisettings_strict(int max_line);

#endif
