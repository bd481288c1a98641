// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "rtpaths.h"
#include "runner_cyclictest.h"
#include "runner_timerlat.h"
#include "runner_util.h"

#define TL_OUT_MAX	(16 * 1024 * 1024)

int runner_tl_init(struct tl_run *t, const struct suite_measure *m, double scale,
		   const char *dir)
{
	char buf[64];
	size_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	ret = runner_strv_push(&t->argv, "rtla");
	if (!ret)
		ret = runner_strv_push(&t->argv, "timerlat");
	if (!ret)
		ret = runner_strv_push(&t->argv, "hist");
	for (i = 0; !ret && m->timerlat_args && m->timerlat_args[i]; i++)
		ret = runner_strv_push(&t->argv, m->timerlat_args[i]);
	snprintf(buf, sizeof(buf), "-d%us", runner_ct_duration_s(m, scale));
	if (!ret)
		ret = runner_strv_push(&t->argv, buf);
	snprintf(buf, sizeof(buf), "-E%u", m->histogram_us);
	if (!ret)
		ret = runner_strv_push(&t->argv, buf);
	if (!ret)
		ret = runner_strv_push(&t->argv, "-b1");
	if (ret)
		runner_tl_free(t);
	return ret;
}

void runner_tl_feed(struct tl_run *t, const char *line)
{
	size_t n = strlen(line);
	char *grown;

	if (t->len + n + 1 > TL_OUT_MAX)
		return;
	grown = realloc(t->out, t->len + n + 2);
	if (!grown)
		return;
	t->out = grown;
	memcpy(t->out + t->len, line, n);
	t->len += n;
	t->out[t->len++] = '\n';
	t->out[t->len] = '\0';
}

/* The histogram and its summary: the title through the max: line. */
static int tl_histogram(const struct tl_run *t, const char **start,
			size_t *len)
{
	const char *title, *max, *eol;

	if (!t->out)
		return -ENODATA;
	title = strstr(t->out, "# RTLA timerlat histogram");
	max = title ? strstr(title, "\nmax:") : NULL;
	if (!max)
		return -ENODATA;
	eol = strchr(max + 1, '\n');
	*start = title;
	*len = (eol ? eol + 1 : t->out + t->len) - title;
	return 0;
}

int runner_tl_finish(struct tl_run *t, bool complete, char *why, size_t len)
{
	char path[PATH_MAX + 32];
	const char *hist;
	size_t n;
	int ret;

	rtpaths_fmt(path, sizeof(path), "%s/timerlat.log", t->dir);
	ret = fsio_write_atomic(path, t->out ? t->out : "", t->len);
	if (ret) {
		snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!complete)
		return 0;
	if (tl_histogram(t, &hist, &n)) {
		snprintf(why, len, "rtla timerlat hist printed no histogram "
			 "summary (timerlat.log says what it did)");
		return -ENODATA;
	}
	rtpaths_fmt(path, sizeof(path), "%s/timerlat.txt", t->dir);
	ret = fsio_write_atomic(path, hist, n);
	if (ret)
		snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
	return ret;
}

void runner_tl_free(struct tl_run *t)
{
	runner_strv_free(t->argv);
	free(t->out);
	t->argv = NULL;
	t->out = NULL;
	t->len = 0;
}
