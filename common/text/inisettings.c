// SPDX-License-Identifier: GPL-2.0-only
/*
 * libinih's process-wide run-time settings, back to the library's own
 * (inisettings.h).
 */
#include <ini.h>

#include "inisettings.h"

void inisettings_library_defaults(void)
{
	ini_allow_multiline = INI_ALLOW_MULTILINE;
	ini_allow_bom = INI_ALLOW_BOM;
	ini_start_comment_prefixes = INI_START_COMMENT_PREFIXES;
	ini_allow_inline_comments = INI_ALLOW_INLINE_COMMENTS;
	ini_inline_comment_prefixes = INI_INLINE_COMMENT_PREFIXES;
	ini_use_stack = INI_USE_STACK;
	ini_max_line = INI_MAX_LINE;
	ini_allow_realloc = INI_ALLOW_REALLOC;
	ini_initial_alloc = INI_INITIAL_ALLOC;
	ini_stop_on_first_error = INI_STOP_ON_FIRST_ERROR;
	ini_allow_no_value = INI_ALLOW_NO_VALUE;
}

void inisettings_strict(int max_line)
{
	/* The defaults' comments, BOM and no key without a value; then: */
	inisettings_library_defaults();
	ini_allow_multiline = false;
	ini_use_stack = false;
	ini_max_line = max_line;
	ini_initial_alloc = max_line;
	ini_stop_on_first_error = true;
}
