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
	case CONTROL_POSITIVE:
		return "positive";
	case CONTROL_NEGATIVE:
		return "negative";
	default:
		return NULL;
	}
}

bool runner_suite_uses_timerlat(const struct runner_suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].tool == SUITE_TOOL_TIMERLAT)
			return true;
	return false;
}

const char *runner_suite_tool_name(enum runner_suite_tool tool)
{
	switch (tool) {
	case SUITE_TOOL_NONE: return "none";
	case SUITE_TOOL_TIMERLAT: return "timerlat";
	default: return "cyclictest";
	}
}

bool runner_suite_uses_cyclictest(const struct runner_suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].tool == SUITE_TOOL_CYCLICTEST)
			return true;
	return false;
}

bool runner_suite_compares(const struct runner_suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].compare)
			return true;
	return false;
}

/*
 * The comparisons that share the suite's alpha, as the analyzer counts
 * them (an_suite_family()): controls check the gate and are not in it; a
 * timerlat pair is two, its thread and its IRQ latency.
 */
size_t runner_suite_family(const struct runner_suite *suite)
{
	const struct runner_suite_scenario *sc, *b;
	size_t i, k = 0;

	for (i = 0; i < suite->nr_scenarios; i++) {
		sc = &suite->scenarios[i];
		if (!sc->compare || sc->control)
			continue;
		k++;
		b = runner_suite_find(suite, sc->compare);
		k += b && sc->tool == SUITE_TOOL_TIMERLAT &&
		     b->tool == SUITE_TOOL_TIMERLAT;
	}
	return k ? k : 1;
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
	vec_strv_free(suite->measure.args);
	free(suite->measure.args_text);
	vec_strv_free(suite->measure.timerlat_args);
	free(suite->measure.timerlat_text);
	free(suite->gate.metric);
	free(suite->path);
	free(suite->name);
	free(suite->description);
	memset(suite, 0, sizeof(*suite));
}

const char *runner_suite_tunable_kind_name(enum runner_tunable_kind kind)
{
	switch (kind) {
	case TUNABLE_SYSCTL:
		return "sysctl";
	case TUNABLE_SCHED_FEATURE:
		return "sched_feature";
	case TUNABLE_BASE_SLICE:
		return "base_slice_ns";
	default:
		return "debugfs";
	}
}
