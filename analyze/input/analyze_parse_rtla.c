// SPDX-License-Identifier: GPL-2.0-only
/*
 * The histogram `rtla NAME hist` prints (timerlat, osnoise) into an_run
 * (input.h): one column kind of it, one an_cpu per CPU.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/input.h"
#include "fsio.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"

#define TL_MAX_COLS 512

/* What the text says, column by column (every IRQ/Thr/Usr/CPU column). */
struct tl_parse {
	const char *path;
	const char *tool;	/* "timerlat": its title and messages */
	unsigned int line;
	int ncols;
	int cpu[TL_MAX_COLS];
	bool mine[TL_MAX_COLS];	/* a column of the wanted kind */
	uint64_t *hist[TL_MAX_COLS];
	long over[TL_MAX_COLS], count[TL_MAX_COLS];
	long min[TL_MAX_COLS], avg[TL_MAX_COLS], max[TL_MAX_COLS];
	bool seen_over, seen_count, seen_min, seen_avg, seen_max;
	uint32_t limit;
};

static int tl_err(const struct tl_parse *t, const char *what)
{
	pr_err("%s:%u: %s", t->path, t->line, what);
	return -EINVAL;
}

static int tl_header(struct tl_parse *t, char *line, const char *column)
{
	char *tok, *save = NULL;
	uint64_t cpu;

	if (t->ncols)
		return tl_err(t, "a second Index row");
	strtok_r(line, " \t", &save);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (t->ncols == TL_MAX_COLS)
			return tl_err(t, "too many columns");
		if (strlen(tok) < 5 || tok[3] != '-' ||
		    (strncmp(tok, "IRQ", 3) && strncmp(tok, "Thr", 3) &&
		     strncmp(tok, "Usr", 3) && strncmp(tok, "CPU", 3)) ||
		    parse_u64_range(tok + 4, 0, 65535, &cpu))
			return tl_err(t, "the Index row has a column that is "
				      "not IRQ-NNN, Thr-NNN, Usr-NNN or "
				      "CPU-NNN");
		t->cpu[t->ncols] = (int)cpu;
		t->mine[t->ncols] = !strncmp(tok, column, 3);
		t->hist[t->ncols] = calloc(t->limit, sizeof(uint64_t));
		if (!t->hist[t->ncols])
			return -ENOMEM;
		t->ncols++;
	}
	if (!t->ncols)
		return tl_err(t, "the Index row names no CPU column");
	return 0;
}

/* ncols numbers after the first word into v ("-": no sample, -1). */
static int tl_numbers(struct tl_parse *t, char *rest, long *v)
{
	char *tok, *save = NULL;
	uint64_t n;
	int i;

	for (i = 0; i < t->ncols; i++) {
		tok = strtok_r(i ? NULL : rest, " \t", &save);
		if (!tok)
			return tl_err(t, "fewer values than the Index row has "
				      "columns (truncated?)");
		if (!strcmp(tok, "-")) {
			v[i] = -1;
			continue;
		}
		if (parse_u64_range(tok, 0, (uint64_t)1 << 62, &n))
			return tl_err(t, "a value is not a whole number");
		v[i] = (long)n;
	}
	if (strtok_r(NULL, " \t", &save))
		return tl_err(t, "more values than the Index row has columns");
	return 0;
}

static int tl_row(struct tl_parse *t, char *line)
{
	char *sp = line + strcspn(line, " \t");
	long v[TL_MAX_COLS];
	uint64_t idx;
	int i, ret;

	if (*sp)
		*sp++ = '\0';
	if (parse_u64_range(line, 0, UINT32_MAX, &idx))
		return tl_err(t, "not a histogram row (INDEX COUNT ...)");
	if (idx >= t->limit)
		return tl_err(t, "a bucket beyond the histogram's size (rtla "
			      "-E): was it run with other settings?");
	ret = tl_numbers(t, sp, v);
	if (ret)
		return ret;
	for (i = 0; i < t->ncols; i++)
		t->hist[i][idx] += (uint64_t)v[i];
	return 0;
}

static int tl_summary(struct tl_parse *t, char *line, bool *done)
{
	static const char *const keys[] = { "over:", "count:", "min:",
					    "avg:", "max:" };
	long *dst[] = { t->over, t->count, t->min, t->avg, t->max };
	bool *seen[] = { &t->seen_over, &t->seen_count, &t->seen_min,
			 &t->seen_avg, &t->seen_max };
	size_t k, n;

	for (k = 0; k < 5; k++) {
		n = strlen(keys[k]);
		if (strncmp(line, keys[k], n))
			continue;
		if (*seen[k])
			return tl_err(t, "a summary line given twice");
		*seen[k] = true;
		*done = k == 4;
		return tl_numbers(t, line + n, dst[k]);
	}
	pr_err("%s:%u: not a line of rtla %s hist's output", t->path, t->line,
	       t->tool);
	return -EINVAL;
}

static int tl_fill(struct tl_parse *t, struct an_run *run)
{
	size_t n = 0, k = 0;
	uint64_t sum;
	uint32_t b;
	int i, ret;

	for (i = 0; i < t->ncols; i++)
		n += t->mine[i];
	if (!n) {
		pr_err("%s: no column of this latency (run without "
		       "--no-irq/--no-thread)", t->path);
		return -EINVAL;
	}
	run->cpus = calloc(n, sizeof(*run->cpus));
	if (!run->cpus)
		return -ENOMEM;
	run->ncpus = n;
	for (i = 0; i < t->ncols; i++) {
		struct an_cpu *c = &run->cpus[k];

		if (!t->mine[i])
			continue;
		for (sum = 0, b = 0; b < t->limit; b++)
			sum += t->hist[i][b];
		if (sum + (uint64_t)t->over[i] != (uint64_t)t->count[i]) {
			pr_err("%s: CPU %d: the histogram holds %llu samples "
			       "and over: %ld, but count: says %ld", t->path,
			       t->cpu[i], (unsigned long long)sum, t->over[i],
			       t->count[i]);
			return -EINVAL;
		}
		*c = (struct an_cpu){
			.thread = (int)k, .cpu = t->cpu[i], .prio = -1,
			.act_us = -1, .cycles = (uint64_t)t->count[i],
			.min_us = t->min[i] < 0 ? 0 : t->min[i],
			.avg_us = t->avg[i] < 0 ? 0 : (double)t->avg[i],
			.max_us = t->max[i] < 0 ? 0 : t->max[i],
		};
		ret = an_cpu_set_hist(c, t->hist[i], t->limit, t->limit);
		if (ret)
			return ret;
		k++;
	}
	return 0;
}

int an_parse_rtla(const char *path, const char *buf, const char *tool,
		  const char *column, uint32_t limit, struct an_run *run)
{
	struct tl_parse *t = calloc(1, sizeof(*t));
	char *copy = strdup(buf), *line, *next, title[64], what[160];
	bool done = false, titled = false;
	int ret = 0, i;

	if (!t || !copy) {
		ret = -ENOMEM;
		goto out;
	}
	rtpaths_fmt(title, sizeof(title), "RTLA %s histogram", tool);
	t->path = path;
	t->tool = tool;
	t->limit = limit ? limit : 1;
	for (line = copy; line && !done && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		t->line++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			continue;
		if (*line == '#') {
			if (strstr(line, title))
				titled = true;
			if (!strncmp(line, "# Time unit is", 14) &&
			    !strstr(line, "microseconds")) {
				rtpaths_fmt(what, sizeof(what), "not in "
					    "microseconds (rtla %s hist was "
					    "run with -n)", tool);
				ret = tl_err(t, what);
			}
			continue;
		}
		if (!titled) {
			rtpaths_fmt(what, sizeof(what), "not rtla %s hist "
				    "output (no \"# %s\" title)", tool, title);
			ret = tl_err(t, what);
		} else if (!strncmp(line, "Index", 5)) {
			ret = tl_header(t, line, column);
		} else if (!t->ncols) {
			ret = tl_err(t, "data before the Index row");
		} else if (*line >= '0' && *line <= '9') {
			if (t->seen_over)
				ret = tl_err(t, "a histogram row after the "
					     "summary");
			else
				ret = tl_row(t, line);
		} else {
			ret = tl_summary(t, line, &done);
		}
	}
	if (ret)
		goto out;
	t->line++;
	if (!titled || !t->ncols) {
		rtpaths_fmt(what, sizeof(what), "not rtla %s hist output (no "
			    "title or no Index row)", tool);
		ret = tl_err(t, what);
	}
	else if (!t->seen_over || !t->seen_count || !t->seen_max)
		ret = tl_err(t, "truncated: the over:/count:/max: summary is "
			     "missing (did rtla stop early?)");
	else
		ret = tl_fill(t, run);
out:
	if (t)
		for (i = 0; i < t->ncols; i++)
			free(t->hist[i]);
	free(t);
	free(copy);
	return ret;
}

int an_parse_rtla_file(const char *path, const char *tool,
		       const char *column, uint32_t limit, struct an_run *run)
{
	char *buf;
	size_t len;
	int ret;

	ret = fsio_read_input(path, &buf, &len);
	if (ret) {
		pr_err("%s: %s", path, fsio_input_why(ret));
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	ret = an_parse_rtla(path, buf, tool, column, limit, run);
	free(buf);
	return ret;
}
