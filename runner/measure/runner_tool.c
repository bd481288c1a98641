// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which driver runs each measuring tool's program (measure.h): one line a
 * tool of analyze.h's table that has a program. "none" has no program:
 * the workloads measure, and the repetition lasts as long as they run.
 */
#include <string.h>

#include "runner/measure/measure.h"

static const struct {
	const char *tool;		/* its an_tool's name */
	const struct runner_tool_ops *ops;
} runner_tool_table[] = {
	{ "cyclictest", &runner_tool_cyclictest },
	{ "timerlat", &runner_tool_rtla },
	{ "osnoise", &runner_tool_rtla },
};

const struct runner_tool_ops *runner_tool_get(const struct an_tool *tool)
{
	size_t i;

	for (i = 0; tool && tool->program && i < sizeof(runner_tool_table) /
			sizeof(runner_tool_table[0]); i++)
		if (!strcmp(runner_tool_table[i].tool, tool->name))
			return runner_tool_table[i].ops;
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
