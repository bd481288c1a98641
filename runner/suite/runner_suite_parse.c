// SPDX-License-Identifier: GPL-2.0-only
/* What every key handler of the suite parser shares (suite_priv.h). */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "ctline.h"
#include "parse.h"
#include "runner/suite/suite.h"
#include "runner/suite/suite_priv.h"
#include "vec.h"
#include "trace/trace.h"

void runner_suite_perr(struct runner_suite_parser *p, unsigned int line,
		       const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	n = snprintf(p->err->msg, sizeof(p->err->msg), "%s:%u: ", p->file,
		     line);
	if (n >= sizeof(p->err->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(p->err->msg + n, sizeof(p->err->msg) - n, fmt, ap);
	va_end(ap);
}

/* The one character set of names (parse_name(), docs/results.md). */
bool runner_suite_valid_name(const char *s)
{
	return parse_name(s);
}

bool runner_suite_check_alloc(struct runner_suite_parser *p, const void *ptr)
{
	if (!ptr)
		runner_suite_perr(p, p->line, "out of memory");
	return ptr != NULL;
}

int runner_suite_dup(struct runner_suite_parser *p, char **dst, const char *val)
{
	free(*dst);
	*dst = strdup(val);
	return runner_suite_check_alloc(p, *dst) ? 0 : -ENOMEM;
}

struct runner_suite_scenario *
runner_suite_cur_scenario(struct runner_suite_parser *p)
{
	return &p->suite->scenarios[p->cur];
}

struct runner_suite_reference *
runner_suite_cur_reference(struct runner_suite_parser *p)
{
	return &p->suite->references[p->cur];
}

/* Single-valued keys may appear once per section. */
bool runner_suite_note_key(struct runner_suite_parser *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr_seen; i++)
		if (!strcmp(p->seen[i].name, name)) {
			runner_suite_perr(p, p->line, "duplicate key '%s' (first at line "
					  "%u)", name, p->seen[i].line);
			return false;
		}
	if (p->nr_seen < SUITE_MAX_SEEN) {
		snprintf(p->seen[p->nr_seen].name, sizeof(p->seen[0].name),
			 "%s", name);
		p->seen[p->nr_seen++].line = p->line;
	}
	return true;
}

void runner_suite_unknown_key(struct runner_suite_parser *p, const char *name,
			      const char *known)
{
	runner_suite_perr(p, p->line, "unknown key '%s' in [%s] (known: %s)", name,
			  p->secname, known);
}

int runner_suite_parse_requires(struct runner_suite_parser *p, char ***out,
				const char *val)
{
	char *copy = strdup(val), *tok, *save = NULL;
	int ret = 0;

	if (!runner_suite_check_alloc(p, copy))
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		tok = parse_strip(tok);
		if (!runner_req_valid(tok)) {
			runner_suite_perr(p, p->line, "requires: unknown requirement '%s' "
					  "(known: root, tracefs, debugfs, sched-features, "
					  "base-slice, preempt-rt, slice-extension, "
					  "sysctl:NAME, file:PATH, cpus>=N)", tok);
			ret = -EINVAL;
		} else if (vec_strv_push(out, tok)) {
			ret = -ENOMEM;
			runner_suite_check_alloc(p, NULL);
		}
	}
	free(copy);
	return ret;
}
