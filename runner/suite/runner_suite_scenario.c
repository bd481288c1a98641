// SPDX-License-Identifier: GPL-2.0-only
/*
 * The keys of [scenario] and [reference]: workloads, tunables, requirements,
 * expectations, the published numbers (docs/runner.md).
 */
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

static bool valid_path_chars(const char *s)
{
	if (!*s || *s == '/' || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_./:", *s))
			return false;
	return true;
}

/* "name=value" into a tunable; the name checked by the kind. */
static void add_tunable(struct runner_suite_parser *p,
			enum runner_tunable_kind kind, const char *key,
			const char *val)
{
	struct runner_suite_scenario *sc = runner_suite_cur_scenario(p);
	struct runner_suite_tunable *t;
	char *copy, *eq, *name, *value;
	size_t i;

	copy = strdup(val);
	if (!runner_suite_check_alloc(p, copy))
		return;
	if (kind == RUNNER_TUNABLE_SCHED_FEATURE) {
		const char *f = copy + (strncmp(copy, "NO_", 3) ? 0 : 3);

		name = (char *)f;
		value = copy;
		for (; *f; f++)
			if (!isupper((unsigned char)*f) &&
			    !isdigit((unsigned char)*f) && *f != '_')
				break;
		if (*f || !*name) {
			runner_suite_perr(p, p->line, "sched_feature: '%s' is not FEATURE "
					  "or NO_FEATURE (e.g. HRTICK, NO_HRTICK)", val);
			goto out;
		}
	} else if (kind == RUNNER_TUNABLE_BASE_SLICE) {
		uint64_t ns;

		name = "sched/base_slice_ns";
		value = copy;
		if (parse_u64_range(copy, 1, 1000000000ULL, &ns)) {
			runner_suite_perr(p, p->line, "base_slice_ns: '%s' is not a whole "
					  "number of ns", val);
			goto out;
		}
	} else {
		eq = strchr(copy, '=');
		if (!eq) {
			runner_suite_perr(p, p->line, "%s: expected NAME=VALUE, got '%s'",
					  key, val);
			goto out;
		}
		*eq = '\0';
		name = parse_strip(copy);
		value = parse_strip(eq + 1);
		if (!valid_path_chars(name) || !*value) {
			runner_suite_perr(p, p->line, "%s: '%s' is not NAME=VALUE with a "
					  "relative name of letters, digits, '-', '_', "
					  "'.', '/'", key, val);
			goto out;
		}
	}
	for (i = 0; i < sc->nr_tunables; i++)
		if (!strcmp(sc->tunables[i].name, name) &&
		    sc->tunables[i].kind == kind) {
			runner_suite_perr(p, p->line, "%s '%s' set twice in this scenario "
					  "(first at line %u)", key, name,
					  sc->tunables[i].line);
			goto out;
		}
	t = vec_push(&sc->tunables, &sc->nr_tunables, sizeof(*t));
	if (!runner_suite_check_alloc(p, t))
		goto out;
	t->kind = kind;
	t->line = p->line;
	t->name = strdup(name);
	t->value = strdup(value);
	runner_suite_check_alloc(p, t->name);
	runner_suite_check_alloc(p, t->value);
out:
	free(copy);
}

static void add_workload(struct runner_suite_parser *p, const char *val)
{
	struct runner_suite_scenario *sc = runner_suite_cur_scenario(p);
	struct runner_suite_workload *wl;
	char msg[256];
	size_t i;

	wl = vec_push(&sc->workloads, &sc->nr_workloads, sizeof(*wl));
	if (!runner_suite_check_alloc(p, wl))
		return;
	wl->line = p->line;
	if (runner_suite_workload_parse(wl, val, msg, sizeof(msg))) {
		runner_suite_perr(p, p->line, "workload: %s", msg);
		return;
	}
	if (!strcmp(wl->alias, "cyclictest")) {
		runner_suite_perr(p, p->line, "workload: the name 'cyclictest' is the "
				  "measurement's; choose another with as=");
		return;
	}
	for (i = 0; i + 1 < sc->nr_workloads; i++)
		if (!strcmp(sc->workloads[i].alias, wl->alias)) {
			runner_suite_perr(p, p->line, "workload: two workloads named '%s' "
					  "(the other at line %u); name one with as=",
					  wl->alias, sc->workloads[i].line);
			return;
		}
}

static void add_expect(struct runner_suite_parser *p, const char *val)
{
	static const struct {
		const char *s;
		enum runner_expect_op op;
	} ops[] = {	/* two-character operators first */
		{ ">=", RUNNER_EXPECT_GE }, { "<=", RUNNER_EXPECT_LE },
		{ "==", RUNNER_EXPECT_EQ }, { "!=", RUNNER_EXPECT_NE },
		{ ">", RUNNER_EXPECT_GT },  { "<", RUNNER_EXPECT_LT },
	};
	struct runner_suite_scenario *sc = runner_suite_cur_scenario(p);
	struct runner_suite_expect *e;
	char *copy, *pos = NULL, *lhs, *rhs, *dot, *why = NULL;
	size_t i, oplen = 0;
	double num;

	copy = strdup(val);
	if (!runner_suite_check_alloc(p, copy))
		return;
	/* "COND: WORDS": WORDS is the reason when COND is false. */
	why = strchr(copy, ':');
	if (why) {
		*why = '\0';
		why = parse_strip(why + 1);
		if (!*why)
			goto bad;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]) && !pos; i++) {
		pos = strstr(copy, ops[i].s);
		oplen = strlen(ops[i].s);
	}
	if (!pos)
		goto bad;
	i--;
	*pos = '\0';
	lhs = parse_strip(copy);
	rhs = parse_strip(pos + oplen);
	dot = strchr(lhs, '.');
	if (!dot || dot == lhs || !dot[1] || parse_double(rhs, &num))
		goto bad;
	*dot = '\0';
	if (!runner_suite_valid_name(lhs))
		goto bad;
	e = vec_push(&sc->expects, &sc->nr_expects, sizeof(*e));
	if (!runner_suite_check_alloc(p, e))
		goto out;
	e->line = p->line;
	e->op = ops[i].op;
	e->value = num;
	e->workload = strdup(lhs);
	e->key = strdup(dot + 1);
	if (asprintf(&e->text, "%s.%s %s %s", lhs, dot + 1, ops[i].s,
		     rhs) < 0)
		e->text = NULL;
	if (why) {
		e->why = strdup(why);
		runner_suite_check_alloc(p, e->why);
	}
	runner_suite_check_alloc(p, e->text);
	runner_suite_check_alloc(p, e->workload);
	runner_suite_check_alloc(p, e->key);
	goto out;
bad:
	runner_suite_perr(p, p->line, "expect: '%s' is not WORKLOAD.KEY OP NUMBER "
			  "[: REASON] (OP: > >= < <= == !=)", val);
out:
	free(copy);
}

void runner_suite_key_scenario(struct runner_suite_parser *p, const char *name,
			       const char *val)
{
	struct runner_suite_scenario *sc = runner_suite_cur_scenario(p);

	if (!strcmp(name, "workload"))
		return add_workload(p, val);
	if (!strcmp(name, "sysctl"))
		return add_tunable(p, RUNNER_TUNABLE_SYSCTL, name, val);
	if (!strcmp(name, "sched_feature"))
		return add_tunable(p, RUNNER_TUNABLE_SCHED_FEATURE, name, val);
	if (!strcmp(name, "debugfs"))
		return add_tunable(p, RUNNER_TUNABLE_DEBUGFS, name, val);
	if (!strcmp(name, "expect"))
		return add_expect(p, val);
	if (!runner_suite_note_key(p, name))
		return;
	if (!strcmp(name, "description")) {
		runner_suite_dup(p, &sc->description, val);
	} else if (!strcmp(name, "compare")) {
		sc->compare_line = p->line;
		if (!runner_suite_valid_name(val))
			runner_suite_perr(p, p->line, "compare: '%s' is not a scenario "
					  "name", val);
		else
			runner_suite_dup(p, &sc->compare, val);
	} else if (!strcmp(name, "control")) {
		sc->control_line = p->line;
		if (!strcmp(val, "positive"))
			sc->control = RUNNER_CONTROL_POSITIVE;
		else if (!strcmp(val, "negative"))
			sc->control = RUNNER_CONTROL_NEGATIVE;
		else
			runner_suite_perr(p, p->line, "control: '%s' is neither positive "
					  "nor negative", val);
	} else if (!strcmp(name, "base_slice_ns")) {
		add_tunable(p, RUNNER_TUNABLE_BASE_SLICE, name, val);
	} else if (!strcmp(name, "requires")) {
		runner_suite_parse_requires(p, &sc->requires, val);
	} else if (!strcmp(name, "tool")) {
		sc->has_tool = true;
		runner_suite_parse_tool(p, val, &sc->tool);
	} else if (!strcmp(name, "metric")) {
		if (!runner_suite_valid_metric(val))
			runner_suite_perr(p, p->line, "metric: '%s' is not "
					  AN_METRIC_NAMES, val);
		else
			runner_suite_dup(p, &sc->metric, val);
	} else {
		runner_suite_unknown_key(p, name, "description, compare, control, "
					 "workload, sysctl, sched_feature, base_slice_ns, "
					 "debugfs, requires, expect, tool, metric");
	}
}

void runner_suite_key_reference(struct runner_suite_parser *p, const char *name,
				const char *val)
{
	struct runner_suite_reference *ref = runner_suite_cur_reference(p);
	struct runner_suite_refvalue *rv;
	struct ctline ct;
	double v;

	if (!strcmp(name, "T")) {
		/*
		 * "T = T: 0 ( 4213) ..." keeps its "T:"; a pasted
		 * "T: 0 ( 4213) ..." was split by inih on the ':'.
		 */
		char line[SUITE_MAX_LINE + 8];

		snprintf(line, sizeof(line), "%s%s",
			 strncmp(val, "T:", 2) ? "T: " : "", val);
		if (!ctline_parse(line, &ct)) {
			runner_suite_perr(p, p->line, "T: not a cyclictest line "
					  "(T: 0 ( 4213) P:95 I:1000 C: 5163 Min: 3 "
					  "Act: 3 Avg: 3 Max: 12)");
			return;
		}
		if (vec_strv_push(&ref->T, line))
			runner_suite_check_alloc(p, NULL);
		return;
	}
	if (!runner_suite_note_key(p, name))
		return;
	if (!strcmp(name, "source")) {
		runner_suite_dup(p, &ref->source, val);
	} else if (!strncmp(name, "value.", 6) && runner_suite_valid_metric(name + 6)) {
		if (parse_double(val, &v)) {
			runner_suite_perr(p, p->line, "%s: '%s' is not a number", name, val);
			return;
		}
		rv = vec_push(&ref->values, &ref->nr_values, sizeof(*rv));
		if (!runner_suite_check_alloc(p, rv))
			return;
		rv->metric = strdup(name + 6);
		rv->value = v;
		runner_suite_check_alloc(p, rv->metric);
	} else {
		runner_suite_unknown_key(p, name, "source, T, value.METRIC");
	}
}
