// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measuring tools a scenario may name (`tool =`), one entry each: the
 * one table that knows a tool (analyze.h, struct an_tool). A new tool is
 * an entry here and, when it runs a program, its driver in
 * runner/measure/ (docs/design.md, "Where a change goes").
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "analyze/input/input.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"

/* ---- readers: a repetition's files into one run of one side ---- */

/* cyclictest.json (else .hist), and its latency over time when kept. */
static int ct_read(const struct an_tool *t, const char *rep_dir, size_t side,
		   uint32_t limit, struct an_run *run)
{
	char path[PATH_MAX];
	int ret;

	(void)t;
	(void)side;
	(void)limit;	/* the files say their own -h */
	rtpaths_fmt(path, sizeof(path), "%s/cyclictest.json", rep_dir);
	if (!fsio_exists(path))
		rtpaths_fmt(path, sizeof(path), "%s/cyclictest.hist", rep_dir);
	if (!fsio_exists(path)) {
		pr_err("%s: neither cyclictest.json nor cyclictest.hist (the "
		       "manifest says this repetition is ok)", rep_dir);
		return -EINVAL;
	}
	ret = an_parse_file(path, run);
	/* Latency over time, when the runner recorded it (not evidence). */
	rtpaths_fmt(path, sizeof(path), "%s/timeline.json", rep_dir);
	if (!ret && fsio_exists(path))
		an_parse_series(path, run);
	return ret;
}

/* NAME.txt: the histogram `rtla NAME hist` printed, the side's columns. */
static int rtla_read(const struct an_tool *t, const char *rep_dir,
		     size_t side, uint32_t limit, struct an_run *run)
{
	char path[PATH_MAX];

	rtpaths_fmt(path, sizeof(path), "%s/%s.txt", rep_dir, t->name);
	if (!fsio_exists(path)) {
		pr_err("%s: no %s.txt (the manifest says this repetition is "
		       "ok)", path, t->name);
		return -EINVAL;
	}
	return an_parse_rtla_file(path, t->name, t->sides[side].column, limit,
				  run);
}

/* ---- the table ---- */

static const char *const ct_owned_long[] = {
	"--duration", "--loops", "--histogram", "--histofall", "--histfile",
	"--json", "--quiet", "--verbose", "--oscope", NULL,
};

/*
 * rtla timerlat hist: the runner sets -d, -E and -b and reads both
 * latencies' summary (no -n, no --no-*), and no threshold may stop a
 * session early (a repetition's histogram would be cut short of the
 * others').
 */
static const char *const tl_owned_long[] = {
	"--duration", "--entries", "--bucket-size", "--nano", "--no-irq",
	"--no-thread", "--no-header", "--no-summary", "--no-index",
	"--with-zeros", "--quiet", "--trace", "--auto", "--irq", "--thread",
	"--help", NULL,
};

/*
 * rtla osnoise hist: the same, and no -s/-S stop threshold. Its -T (the
 * smallest noise that counts) is the suite's to choose.
 */
static const char *const os_owned_long[] = {
	"--duration", "--entries", "--bucket-size", "--no-header",
	"--no-summary", "--no-index", "--with-zeros", "--trace", "--auto",
	"--stop", "--stop-total", "--help", NULL,
};

/*
 * Since 6.16 rtla counts samples in a BPF map of 4096 buckets and drops,
 * uncounted, a sample beyond it while -E asks for more (timerlat.suite's
 * 100000: 7.3's rtla printed counts of 415 over a histogram holding 1);
 * through tracefs it keeps every bucket, as the rtla before BPF did.
 */
static const char *const rtla_env[] = { "RTLA_NO_BPF=1", NULL };

/* The first entry is the default: a suite that names no tool. */
static const struct an_tool an_tools[] = {
	{
		.name = "cyclictest",
		.program = "cyclictest",
		.title = "cyclictest",
		.args_key = "args",
		.owned_short = "DlhHqvo",
		.owned_long = ct_owned_long,
		.owned_why = "it adds -D/-l, -h, --histfile and --json itself, "
			     "-v -o for the timeline, and never -q",
		.sides = { { "", NULL, "latency" } },
		.read = ct_read,
	},
	{
		.name = "none",
		.title = "no measuring tool (the workloads measure)",
		.sides = { { "", NULL, "workload metrics" } },
	},
	{
		.name = "timerlat",
		.program = "rtla",
		.title = "rtla timerlat hist",
		.tracer = "timerlat",
		.env = rtla_env,
		.own_tracer = true,
		.auto_analysis = true,
		.needs_duration = true,
		.args_key = "timerlat_args",
		.owned_short = "dEbnqtaiTh",
		.owned_long = tl_owned_long,
		.owned_why = "it sets -d, -E and -b from duration and "
			     "histogram, reads both latencies' summary, and "
			     "never stops a session early: no -a, -i, -T, -t",
		.sides = {
			{ "", "Thr", "thread latency" },
			{ ".irq", "IRQ", "IRQ latency" },
		},
		.read = rtla_read,
	},
	{
		.name = "osnoise",
		.program = "rtla",
		.title = "rtla osnoise hist",
		.tracer = "osnoise",
		.env = rtla_env,
		.own_tracer = true,
		.needs_duration = true,
		.args_key = "osnoise_args",
		.owned_short = "dEbtasSh",
		.owned_long = os_owned_long,
		.owned_why = "it sets -d, -E and -b from duration and "
			     "histogram, reads the summary, and never stops a "
			     "session early: no -a, -s, -S, -t",
		.sides = { { "", "CPU", "noise" } },
		.read = rtla_read,
	},
};

#define NTOOLS	(sizeof(an_tools) / sizeof(an_tools[0]))
_Static_assert(NTOOLS <= AN_TOOL_MAX, "AN_TOOL_MAX is below the table");

const struct an_tool *an_tool_at(size_t i)
{
	return i < NTOOLS ? &an_tools[i] : NULL;
}

size_t an_tool_index(const struct an_tool *t)
{
	return (size_t)(t - an_tools);
}

const struct an_tool *an_tool_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NTOOLS; i++)
		if (!strcmp(an_tools[i].name, name))
			return &an_tools[i];
	return NULL;
}

void an_tool_names(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < NTOOLS && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 !i ? "" : i + 1 < NTOOLS ? ", " : " or ",
				 an_tools[i].name);
}

size_t an_tool_nsides(const struct an_tool *t)
{
	size_t n = 0;

	while (n < AN_TOOL_SIDES && t->sides[n].suffix)
		n++;
	return n;
}

const struct an_tool *an_tool_of(const cJSON *manifest, const cJSON *scen)
{
	const cJSON *suite = cJSON_GetObjectItemCaseSensitive(manifest,
							       "suite");
	const cJSON *measure = cJSON_GetObjectItemCaseSensitive(suite,
								 "measure");
	/* A manifest from before `tool` existed measured with cyclictest. */
	const char *name = json_get_str(measure, "tool", an_tools[0].name);

	/* A scenario may measure otherwise than its suite. */
	name = json_get_str(scen, "tool", name);
	return an_tool_find(name);
}

const char *an_tool_side_of(const char *side, char *base, size_t len)
{
	size_t i, k, n = strlen(side), m;

	for (i = 0; i < NTOOLS; i++)
		for (k = 1; k < an_tool_nsides(&an_tools[i]); k++) {
			const char *suffix = an_tools[i].sides[k].suffix;

			m = strlen(suffix);
			if (n > m && n - m < len &&
			    !strcmp(side + n - m, suffix)) {
				rtpaths_fmt(base, len, "%.*s", (int)(n - m),
					    side);
				return suffix;
			}
		}
	return NULL;
}

size_t an_tool_side_index(const struct an_tool *t, const char *suffix)
{
	size_t k;

	for (k = 0; k < an_tool_nsides(t); k++)
		if (!strcmp(t->sides[k].suffix, suffix))
			return k;
	return (size_t)-1;
}
