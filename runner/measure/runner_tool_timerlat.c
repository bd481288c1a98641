// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla timerlat hist as a measuring tool (runner_timerlat.c builds its
 * command line and keeps its output). RTLA_NO_BPF: since 6.16 rtla counts
 * samples in a BPF map of 4096 buckets and drops, uncounted, a sample
 * beyond it while -E asks for more (timerlat.suite's 100000: 7.3's rtla
 * printed counts of 415 over a histogram holding 1); through tracefs it
 * keeps every bucket, as the rtla before BPF did.
 */
#include <errno.h>
#include <stdlib.h>

#include "runner/measure/measure.h"

static const char *const rtla_env[] = { "RTLA_NO_BPF=1", NULL };

static int tl_init(struct runner_tool_run *t,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir, bool series)
{
	struct runner_tl_run *tl = calloc(1, sizeof(*tl));
	int ret;

	(void)series;	/* rtla prints no per-second maxima */
	if (!tl)
		return -ENOMEM;
	t->priv = tl;
	ret = runner_tl_init(tl, m, scale, dir);
	t->argv = tl->argv;
	return ret;
}

static void tl_feed(struct runner_tool_run *t, const char *line,
		    struct runner_progress *pg)
{
	(void)pg;	/* rtla prints its histogram at the end */
	runner_tl_feed(t->priv, line);
}

static int tl_finish(struct runner_tool_run *t, bool complete,
		     double elapsed_s, char *why, size_t len)
{
	(void)elapsed_s;
	return runner_tl_finish(t->priv, complete, why, len);
}

static int tl_worst_us(const struct runner_tool_run *t, unsigned long *us)
{
	return runner_tl_worst_us(t->priv, us) ? -ENODATA : 0;
}

static void tl_release(struct runner_tool_run *t)
{
	if (t->priv)
		runner_tl_free(t->priv);
	free(t->priv);
}

const struct runner_tool_ops runner_tool_timerlat = {
	.name = "timerlat",
	.id = SUITE_TOOL_TIMERLAT,
	.program = "rtla",
	.title = "rtla timerlat hist",
	.requires = "timerlat",
	.env = rtla_env,
	.own_tracer = true,
	.auto_analysis = true,
	.init = tl_init,
	.feed = tl_feed,
	.finish = tl_finish,
	.worst_us = tl_worst_us,
	.release = tl_release,
};
