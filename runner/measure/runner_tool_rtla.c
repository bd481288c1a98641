// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtla NAME hist` as a measuring tool's driver, for every tool of
 * analyze.h's table whose program is rtla (timerlat, osnoise):
 * runner_rtla.c builds its command line and keeps its output.
 */
#include <errno.h>
#include <stdlib.h>

#include "runner/measure/measure.h"

static int rtla_init(struct runner_tool_run *t,
		     const struct runner_suite_measure *m, double scale,
		     const char *dir, bool series)
{
	struct runner_rtla_run *r = calloc(1, sizeof(*r));
	int ret;

	(void)series;	/* rtla prints no per-second maxima */
	if (!r)
		return -ENOMEM;
	t->priv = r;
	ret = runner_rtla_init(r, t->tool, m, scale, dir);
	t->argv = r->argv;
	return ret;
}

static void rtla_feed(struct runner_tool_run *t, const char *line,
		      struct runner_progress *pg)
{
	(void)pg;	/* rtla prints its histogram at the end */
	runner_rtla_feed(t->priv, line);
}

static int rtla_finish(struct runner_tool_run *t, bool complete,
		       double elapsed_s, char *why, size_t len)
{
	(void)elapsed_s;
	return runner_rtla_finish(t->priv, complete, why, len);
}

static int rtla_worst_us(const struct runner_tool_run *t, unsigned long *us)
{
	return runner_rtla_worst_us(t->priv, us) ? -ENODATA : 0;
}

static void rtla_release(struct runner_tool_run *t)
{
	if (t->priv)
		runner_rtla_free(t->priv);
	free(t->priv);
}

const struct runner_tool_ops runner_tool_rtla = {
	.init = rtla_init,
	.feed = rtla_feed,
	.finish = rtla_finish,
	.worst_us = rtla_worst_us,
	.release = rtla_release,
};
