// SPDX-License-Identifier: GPL-2.0-only
/* A loaded suite: the names of its enums, lookups, freeing it. */
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

const char *runner_suite_control_name(enum runner_suite_control c)
{
	switch (c) {
	case RUNNER_CONTROL_POSITIVE:
		return "positive";
	case RUNNER_CONTROL_NEGATIVE:
		return "negative";
	default:
		return NULL;
	}
}

bool runner_suite_uses_program(const struct runner_suite *suite,
			       const char *program)
{
	const char *p;
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++) {
		p = suite->scenarios[i].tool->program;
		if (p && (!program || !strcmp(p, program)))
			return true;
	}
	return false;
}

const struct runner_suite_opts *
runner_suite_opts(const struct runner_suite_measure *m,
		  const struct an_tool *tool)
{
	return &m->opts[an_tool_index(tool)];
}

bool runner_suite_compares(const struct runner_suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].compare)
			return true;
	return false;
}

/* The comparisons that share the suite's alpha: the judge counts them. */
size_t runner_suite_family(const struct runner_suite *suite)
{
	struct an_family_member *m = calloc(suite->nr_scenarios + 1,
					    sizeof(*m));
	const struct runner_suite_scenario *sc, *b;
	size_t i, n = 0, k;

	if (!m)
		return suite->nr_scenarios ? suite->nr_scenarios : 1;
	for (i = 0; i < suite->nr_scenarios; i++) {
		sc = &suite->scenarios[i];
		if (!sc->compare)
			continue;
		b = runner_suite_find(suite, sc->compare);
		m[n].cand = sc->tool;
		m[n].base = b ? b->tool : NULL;
		m[n++].control = sc->control != RUNNER_CONTROL_NONE;
	}
	k = an_family(m, n);
	free(m);
	return k;
}

const struct runner_suite_scenario *
runner_suite_find(const struct runner_suite *suite, const char *name)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (!strcmp(suite->scenarios[i].name, name))
			return &suite->scenarios[i];
	return NULL;
}

static void free_scenario(struct runner_suite_scenario *sc)
{
	size_t i;

	for (i = 0; i < sc->nr_workloads; i++) {
		free(sc->workloads[i].text);
		free(sc->workloads[i].alias);
		free(sc->workloads[i].program);
		free(sc->workloads[i].cpus);
		free(sc->workloads[i].policy);
	}
	for (i = 0; i < sc->nr_tunables; i++) {
		free(sc->tunables[i].name);
		free(sc->tunables[i].value);
	}
	for (i = 0; i < sc->nr_expects; i++) {
		free(sc->expects[i].text);
		free(sc->expects[i].workload);
		free(sc->expects[i].key);
		free(sc->expects[i].why);
	}
	free(sc->workloads);
	free(sc->tunables);
	free(sc->expects);
	vec_strv_free(sc->requires);
	free(sc->name);
	free(sc->description);
	free(sc->compare);
	free(sc->metric);
}

void runner_suite_free(struct runner_suite *suite)
{
	size_t i, j;

	for (i = 0; i < suite->nr_scenarios; i++)
		free_scenario(&suite->scenarios[i]);
	for (i = 0; i < suite->nr_references; i++) {
		struct runner_suite_reference *ref = &suite->references[i];

		for (j = 0; j < ref->nr_values; j++)
			free(ref->values[j].metric);
		free(ref->values);
		vec_strv_free(ref->T);
		free(ref->scenario);
		free(ref->source);
	}
	free(suite->scenarios);
	free(suite->references);
	vec_strv_free(suite->requires);
	for (i = 0; i < AN_TOOL_MAX; i++) {
		vec_strv_free(suite->measure.opts[i].argv);
		free(suite->measure.opts[i].text);
	}
	free(suite->gate.metric);
	free(suite->path);
	free(suite->name);
	free(suite->description);
	memset(suite, 0, sizeof(*suite));
}

const char *runner_suite_tunable_kind_name(enum runner_tunable_kind kind)
{
	switch (kind) {
	case RUNNER_TUNABLE_SYSCTL:
		return "sysctl";
	case RUNNER_TUNABLE_SCHED_FEATURE:
		return "sched_feature";
	case RUNNER_TUNABLE_BASE_SLICE:
		return "base_slice_ns";
	default:
		return "debugfs";
	}
}
