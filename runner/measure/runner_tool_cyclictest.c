// SPDX-License-Identifier: GPL-2.0-only
/*
 * cyclictest as a measuring tool: its command line, lines and results are
 * runner_cyclictest.c's; this file is its entry in the tool table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "runner/measure/measure.h"

static int ct_init(struct runner_tool_run *t,
		   const struct runner_suite_measure *m, double scale,
		   const char *dir, bool series)
{
	struct runner_ct_run *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	t->priv = c;
	ret = runner_ct_init(c, m, scale, dir, series);
	t->argv = c->argv;
	return ret;
}

static void ct_feed(struct runner_tool_run *t, const char *line,
		    struct runner_progress *pg)
{
	struct ctline l;

	if (runner_ct_feed(t->priv, line, &l))
		runner_progress_ctline(pg, &l);
}

static size_t ct_finals(const struct runner_tool_run *t, struct ctline *out,
			size_t max)
{
	const struct runner_ct_run *c = t->priv;
	size_t n = 0;
	int i;

	for (i = 0; c && i < c->nr_threads; i++) {
		if (!c->have[i])
			continue;
		if (n < max)
			out[n] = c->last[i];
		n++;
	}
	return n;
}

static int ct_worst_us(const struct runner_tool_run *t, unsigned long *us)
{
	const struct runner_ct_run *c = t->priv;
	bool any = false;
	int i;

	*us = 0;
	for (i = 0; c && i < c->nr_threads; i++) {
		if (!c->have[i])
			continue;
		any = true;
		if (c->last[i].max_us > 0 &&
		    (unsigned long)c->last[i].max_us > *us)
			*us = c->last[i].max_us;
	}
	return any ? 0 : -ENODATA;
}

static int ct_finish(struct runner_tool_run *t, bool complete,
		     double elapsed_s, char *why, size_t len)
{
	struct runner_ct_run *c = t->priv;
	unsigned long worst;
	int ret;

	c->elapsed_s = elapsed_s;
	ret = runner_ct_finish(c, complete, why, len);
	if (!ret && complete && ct_worst_us(t, &worst)) {
		snprintf(why, len, "cyclictest printed no T: line");
		return -ENODATA;
	}
	return ret;
}

static void ct_release(struct runner_tool_run *t)
{
	if (t->priv)
		runner_ct_free(t->priv);
	free(t->priv);
}

const struct runner_tool_ops runner_tool_cyclictest = {
	.init = ct_init,
	.feed = ct_feed,
	.finish = ct_finish,
	.finals = ct_finals,
	.worst_us = ct_worst_us,
	.release = ct_release,
};
