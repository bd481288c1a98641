// SPDX-License-Identifier: GPL-2.0-only
/* The keys of [suite], [measure] and [gate] (docs/runner.md). */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "analyze/analyze.h"
#include "ctline.h"
#include "parse.h"
#include "runner/suite/suite.h"
#include "runner/suite/suite_priv.h"
#include "vec.h"
#include "trace/trace.h"

/*
 * A suite's durations carry their unit: "duration = 15" could mean
 * seconds, loops or minutes to a reader, so it is refused, never taken
 * for seconds silently (the error says which units there are).
 */
static int suite_duration(struct runner_suite_parser *p, const char *name,
			  const char *val, uint64_t *v)
{
	if (*val && strspn(val, "0123456789.") == strlen(val)) {
		runner_suite_perr(p, p->line, "%s = %s: a duration needs its "
				  "unit (%ss, %sms, %sm or %sh): a bare number "
				  "is not taken for seconds", name, val, val,
				  val, val, val);
		return -EINVAL;
	}
	return parse_duration_ns(val, v);
}

void runner_suite_key_suite(struct runner_suite_parser *p, const char *name,
			    const char *val)
{
	struct runner_suite *s = p->suite;
	uint64_t v;

	if (!runner_suite_note_key(p, name))
		return;
	if (!strcmp(name, "name")) {
		if (!runner_suite_valid_name(val))
			runner_suite_perr(p, p->line, "name: '%s' is not a name of 1-64 "
					  "letters, digits, '-' and '_'", val);
		else
			runner_suite_dup(p, &s->name, val);
	} else if (!strcmp(name, "description")) {
		runner_suite_dup(p, &s->description, val);
	} else if (!strcmp(name, "repetitions")) {
		if (parse_u64_range(val, 1, 1000, &v))
			runner_suite_perr(p, p->line, "repetitions: '%s' is not a whole "
					  "number from 1 to 1000", val);
		else
			s->repetitions = (unsigned int)v;
	} else if (!strcmp(name, "order")) {
		if (!strcmp(val, "interleaved"))
			s->order = RUNNER_SUITE_ORDER_INTERLEAVED;
		else if (!strcmp(val, "blocked"))
			s->order = RUNNER_SUITE_ORDER_BLOCKED;
		else if (!strcmp(val, "randomized"))
			s->order = RUNNER_SUITE_ORDER_RANDOMIZED;
		else
			runner_suite_perr(p, p->line, "order: '%s' is not interleaved, "
					  "randomized or blocked", val);
	} else if (!strcmp(name, "requires")) {
		runner_suite_parse_requires(p, &s->requires, val);
	} else if (!strcmp(name, "lab_cpus")) {
		if (parse_u64_range(val, 1, SUITE_MAX_LAB_CPUS, &v))
			runner_suite_perr(p, p->line, "lab_cpus: '%s' is not a "
					  "whole number from 1 to %d", val,
					  SUITE_MAX_LAB_CPUS);
		else
			s->lab_cpus = (unsigned int)v;
	} else {
		runner_suite_unknown_key(p, name, "name, description, repetitions, order, "
					 "requires, lab_cpus");
	}
}

/*
 * Whether @arg is one of the options the runner gives @tool itself (its
 * table entry's owned_short and owned_long; suites/README.md, [measure]),
 * as getopt_long() reads it: any unambiguous abbreviation of a long option
 * (--loo=100 is --loops=100) and any cluster of flags (-Smq) count.
 * Returns the option it is, or NULL.
 */
static const char *runner_owned(const struct an_tool *tool, const char *arg)
{
	const char *const *l;
	size_t n = strcspn(arg, "=");
	const char *c;

	if (!strncmp(arg, "--", 2) && n > 2) {
		for (l = tool->owned_long; l && *l; l++)
			if (n <= strlen(*l) && !strncmp(arg, *l, n))
				return *l;
		return NULL;
	}
	if (arg[0] != '-' || arg[1] == '-' || !tool->owned_short)
		return NULL;
	/* A cluster of flags such as -Smq; stops at an option's value. */
	for (c = arg + 1; isalpha((unsigned char)*c); c++)
		if (strchr(tool->owned_short, *c))
			return arg;
	return NULL;
}

/* `tool =` in [measure] or a scenario: a name of analyze.h's table. */
void runner_suite_parse_tool(struct runner_suite_parser *p, const char *val,
			     const struct an_tool **tool)
{
	char names[128];

	*tool = an_tool_find(val);
	if (*tool)
		return;
	*tool = an_tool_at(0);
	an_tool_names(names, sizeof(names));
	runner_suite_perr(p, p->line, "tool: '%s' is not %s", val, names);
}

/*
 * A tool's options (`cyclictest =`, `timerlat =`): split as a shell would,
 * without expansion, refusing the ones the runner owns (the tool's
 * owned_why says why).
 */
static void tool_args(struct runner_suite_parser *p, const struct an_tool *t,
		      const char *val, struct runner_suite_opts *o)
{
	const char *key = t->name, *why = t->owned_why;
	char ***argv = &o->argv, **text = &o->text;
	const char *own;
	wordexp_t we;
	size_t i;
	int ret;

	if (strpbrk(val, "$`")) {
		runner_suite_perr(p, p->line, "%s: '$' and '`' are not expanded; remove "
				  "them", key);
		return;
	}
	ret = wordexp(val, &we, WRDE_NOCMD | WRDE_UNDEF);
	if (ret) {
		if (ret == WRDE_NOSPACE)
			wordfree(&we);
		runner_suite_perr(p, p->line, "%s: cannot split the options (unbalanced "
				  "quotes or an unquoted | & ; < > ( ) { })", key);
		return;
	}
	*argv = calloc(1, sizeof(char *));
	if (!runner_suite_check_alloc(p, *argv))
		goto out;
	for (i = 0; i < we.we_wordc; i++) {
		own = runner_owned(t, we.we_wordv[i]);
		if (own) {
			char ab[64] = "";

			if (own != we.we_wordv[i] &&
			    strncmp(we.we_wordv[i], own, strlen(own)))
				snprintf(ab, sizeof(ab), " (to %s, an "
					 "abbreviation of %s)", key, own);
			runner_suite_perr(p, p->line, "%s: '%s'%s is the runner's (%s)", key,
					  we.we_wordv[i], ab, why);
			goto out;
		}
		if (vec_strv_push(argv, we.we_wordv[i])) {
			runner_suite_check_alloc(p, NULL);
			goto out;
		}
	}
	runner_suite_dup(p, text, val);
out:
	wordfree(&we);
}

void runner_suite_key_measure(struct runner_suite_parser *p, const char *name,
			      const char *val)
{
	struct runner_suite_measure *m = &p->suite->measure;
	const struct an_tool *t = an_tool_find(name);
	char keys[256];
	size_t i;
	uint64_t v;

	if (!runner_suite_note_key(p, name))
		return;
	if (t && t->program) {		/* `NAME =`: the tool's options */
		tool_args(p, t, val, &m->opts[an_tool_index(t)]);
	} else if (!strcmp(name, "duration")) {
		if (suite_duration(p, name, val, &v) || v == 0)
			runner_suite_perr(p, p->line, "duration: '%s' is not a duration "
					  "(e.g. 20s, 500ms, 2m)", val);
		m->duration_ns = v;
		p->has_duration = true;
	} else if (!strcmp(name, "loops")) {
		if (parse_u64_range(val, 1, 1000000000000ULL, &v))
			runner_suite_perr(p, p->line, "loops: '%s' is not a whole number "
					  "≥ 1", val);
		m->loops = v;
		p->has_loops = true;
	} else if (!strcmp(name, "histogram")) {
		if (parse_u64_range(val, 1, 1000000, &v))
			runner_suite_perr(p, p->line, "histogram: '%s' is not a whole "
					  "number of us from 1 to 1000000", val);
		m->histogram_us = (unsigned int)v;
	} else if (!strcmp(name, "tool")) {
		runner_suite_parse_tool(p, val, &m->tool);
	} else if (!strcmp(name, "timeout")) {
		if (suite_duration(p, name, val, &v) || v == 0)
			runner_suite_perr(p, p->line, "timeout: '%s' is not a duration "
					  "(e.g. 10m)", val);
		m->timeout_ns = v;
	} else if (!strcmp(name, "ready_timeout")) {
		if (suite_duration(p, name, val, &v) || v == 0)
			runner_suite_perr(p, p->line, "ready_timeout: '%s' is not a "
					  "duration (e.g. 15m)", val);
		m->ready_timeout_ns = v;
	} else if (!strcmp(name, "watchdog")) {
		if (suite_duration(p, name, val, &v) || v < 1000000000ULL)
			runner_suite_perr(p, p->line, "watchdog: '%s' is not a "
					  "duration of 1s or more (e.g. 30s)",
					  val);
		m->watchdog_ns = v;
	} else if (!strcmp(name, "trace")) {
		enum trace_capture c;

		if (trace_capture_parse(val, &c))
			runner_suite_perr(p, p->line, "trace: '%s' is not off, spikes or "
					  "on", val);
		else
			m->trace = c;
	} else if (!strcmp(name, "timeline")) {
		if (!strcmp(val, "on") || !strcmp(val, "off"))
			m->timeline_off = !strcmp(val, "off");
		else
			runner_suite_perr(p, p->line, "timeline: '%s' is not on "
					  "or off", val);
	} else {
		keys[0] = '\0';
		for (i = 0; (t = an_tool_at(i)); i++)
			if (t->program)
				snprintf(keys + strlen(keys),
					 sizeof(keys) - strlen(keys), "%s, ",
					 t->name);
		snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys),
			 "duration, loops, histogram, tool, timeout, "
			 "watchdog, trace, timeline");
		runner_suite_unknown_key(p, name, keys);
	}
}

bool runner_suite_valid_metric(const char *s)
{
	return an_metric_kind(s) != AN_METRIC_UNKNOWN;
}

static void gate_number(struct runner_suite_parser *p, const char *name,
			const char *val, double lo, double hi, double *out)
{
	double v;

	if (parse_double(val, &v) || v < lo || v > hi)
		runner_suite_perr(p, p->line, "%s: '%s' is not a number from %g to %g",
				  name, val, lo, hi);
	else
		*out = v;
}

/* max_us, p99_us, p99.9_us ...: a budget key. */
static bool budget_key(const char *name)
{
	size_t n = strlen(name);
	char metric[16];

	if (n < 4 || n >= sizeof(metric) + 3 || strcmp(name + n - 3, "_us"))
		return false;
	snprintf(metric, sizeof(metric), "%.*s", (int)(n - 3), name);
	return an_metric_kind(metric) == AN_METRIC_MAX ||
	       an_metric_kind(metric) == AN_METRIC_QUANTILE;
}

static void gate_budget(struct runner_suite_parser *p, const char *name,
			const char *val)
{
	struct runner_suite_gate *g = &p->suite->gate;
	struct runner_suite_budget *b;

	if (g->nr_budgets == SUITE_MAX_BUDGETS) {
		runner_suite_perr(p, p->line, "%s: at most %d budgets", name,
				  SUITE_MAX_BUDGETS);
		return;
	}
	b = &g->budgets[g->nr_budgets];
	snprintf(b->metric, sizeof(b->metric), "%.*s",
		 (int)(strlen(name) - 3), name);
	gate_number(p, name, val, 1, 1e9, &b->us);
	if (b->us >= 1)
		g->nr_budgets++;
}

void runner_suite_key_gate(struct runner_suite_parser *p, const char *name,
			   const char *val)
{
	struct runner_suite_gate *g = &p->suite->gate;

	if (!runner_suite_note_key(p, name))
		return;
	if (!strcmp(name, "metric")) {
		if (!runner_suite_valid_metric(val))
			runner_suite_perr(p, p->line, "metric: '%s' is not "
					  AN_METRIC_NAMES, val);
		else
			runner_suite_dup(p, &g->metric, val);
	} else if (!strcmp(name, "alpha")) {
		gate_number(p, name, val, 1e-9, 0.5, &g->alpha);
	} else if (!strcmp(name, "min_increase_us")) {
		gate_number(p, name, val, 0, 1e9, &g->min_increase_us);
	} else if (!strcmp(name, "min_increase_pct")) {
		gate_number(p, name, val, 0, 1e6, &g->min_increase_pct);
	} else if (!strcmp(name, "until_decided")) {
		uint64_t v;

		if (suite_duration(p, name, val, &v) || v == 0)
			runner_suite_perr(p, p->line, "until_decided: '%s' is not a time "
					  "budget (e.g. 10m)", val);
		else
			g->until_decided_ns = v;
	} else if (budget_key(name)) {
		gate_budget(p, name, val);
	} else {
		runner_suite_unknown_key(p, name, "metric, alpha, min_increase_us, "
					 "min_increase_pct, until_decided, max_us, pNN_us");
	}
}
