// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measuring tools a suite may name, one entry each (measure.h says
 * what an entry holds and how a repetition drives it). "none" has no
 * program: the workloads measure, and the repetition lasts as long as
 * they run.
 */
#include <string.h>

#include "runner/measure/measure.h"

static const struct runner_tool_ops runner_tool_none = {
	.name = "none",
	.id = SUITE_TOOL_NONE,
};

static const struct runner_tool_ops *const runner_tool_table[] = {
	&runner_tool_cyclictest,
	&runner_tool_none,
	&runner_tool_timerlat,
};

const struct runner_tool_ops *runner_tool_get(enum runner_suite_tool id)
{
	size_t i;

	for (i = 0; i < sizeof(runner_tool_table) /
			sizeof(runner_tool_table[0]); i++)
		if (runner_tool_table[i]->id == id)
			return runner_tool_table[i];
	return NULL;
}

const struct runner_ct_run *runner_tool_ct(const struct runner_tool_run *t)
{
	return t->ops == &runner_tool_cyclictest ? t->priv : NULL;
}

void runner_tool_release(struct runner_tool_run *t)
{
	if (t->ops && t->ops->release)
		t->ops->release(t);
	memset(t, 0, sizeof(*t));
}
