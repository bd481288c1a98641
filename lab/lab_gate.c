// SPDX-License-Identifier: GPL-2.0-only
/* The comparisons of a lab gate (lab.h). */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "lab_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "toolrun.h"

/*
 * What the gate judges a scenario on, for the log line: `rtgate compare
 * A:S B:S` reads the suite's [gate] and the scenario's own `metric` from
 * A's manifest itself (a --metric here would override every scenario's).
 */
struct gate_opts {
	char metric[96], min_us[32], min_pct[32];
	char family[16];	/* the comparisons of this gate */
	const char *intended;	/* compare --intended; NULL none */
};

static void gate_opts_from(const cJSON *manifest, const cJSON *scen,
			   struct gate_opts *g)
{
	struct an_gate gate;

	an_gate_of_manifest(manifest, &gate);
	rtpaths_fmt(g->metric, sizeof(g->metric), "%s",
		    json_get_str(scen, "metric", gate.metric));
	rtpaths_fmt(g->min_us, sizeof(g->min_us), "%g", gate.min_increase_us);
	rtpaths_fmt(g->min_pct, sizeof(g->min_pct), "%g",
		    gate.min_increase_pct);
}

/*
 * rtgate compare A:S B:S, reports into out/S: the analyzer's verdict, at
 * alpha / family (the gate's comparisons share alpha, as a suite's do).
 */
static int compare_scenario(const char *a, const char *b, const char *scen,
			    const struct gate_opts *g, const char *out)
{
	char self[PATH_MAX], exe[PATH_MAX + 16], sa[PATH_MAX + 80];
	char sb[PATH_MAX + 80], dir[PATH_MAX + 80];
	char *argv[] = { exe, "compare", sa, sb, "--report",
			 "txt,md,json,junit,html", "--out", dir, "--family",
			 (char *)g->family, g->intended ? "--intended" : NULL,
			 (char *)g->intended, NULL };
	struct toolrun r = { .argv = argv, .inherit = true };
	int ret, status;

	if (fsio_self_dir(self, sizeof(self)))
		return EXITCODE_ENVIRONMENT;
	rtpaths_fmt(exe, sizeof(exe), "%s/rtgate", self);
	rtpaths_fmt(sa, sizeof(sa), "%s:%s", a, scen);
	rtpaths_fmt(sb, sizeof(sb), "%s:%s", b, scen);
	rtpaths_fmt(dir, sizeof(dir), "%s/%s", out, scen);
	if (fsio_mkdir_p(dir, 0755))
		return EXITCODE_ENVIRONMENT;
	pr_info("lab gate: rtgate compare %s %s (gate %s, floor %s us and "
		"%s%%, alpha shared by %s comparisons)", sa, sb, g->metric,
		g->min_us, g->min_pct, g->family);
	ret = toolrun(&r, &status);
	if (ret)
		return exitcode_of_errno(ret);
	return status;
}

/* A scenario, and each further latency its tool measures (timerlat's IRQ). */
static int compare_one(const cJSON *m, const cJSON *scen, const char *a,
		       const char *b, const char *name, int family,
		       const char *intended, const char *out)
{
	const struct an_tool *t = an_tool_of(m, scen);
	struct gate_opts g;
	char side[192];
	size_t k;
	int code;

	gate_opts_from(m, scen, &g);
	g.intended = intended;
	rtpaths_fmt(g.family, sizeof(g.family), "%d", family);
	code = compare_scenario(a, b, name, &g, out);
	for (k = 1; t && k < an_tool_nsides(t); k++) {
		rtpaths_fmt(side, sizeof(side), "%s%s", name,
			    t->sides[k].suffix);
		code = exitcode_worse(code, compare_scenario(a, b, side, &g,
							     out));
	}
	return code;
}

static const cJSON *scenario_named(const cJSON *m, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

void lab_gate_append_intended(const char *a, const char *b,
			      const char *given, char *out, size_t len)
{
	const char *lines[2] = { a ? a : "", b ? b : "" }, *p;
	size_t k, key, used;
	int side;

	rtpaths_fmt(out, len, "%s", given ? given : "");
	/* A word of one line, with its value, that the other lacks. */
	for (side = 0; side < 2; side++)
		for (p = lines[side]; *p;
		     p += k, p += strspn(p, PARSE_CMDLINE_BLANKS)) {
			k = strcspn(p, PARSE_CMDLINE_BLANKS);
			key = strcspn(p, "=" PARSE_CMDLINE_BLANKS);
			if (!k || parse_cmdline_find(lines[!side], p, k,
						     PARSE_CMDLINE_WORD))
				continue;
			used = strlen(out);
			rtpaths_fmt(out + used, len - used, "%scmdline.%.*s",
				    used ? "," : "", (int)key, p);
		}
}

int lab_gate_compare(const char *a, const char *b,
		     const char *const *scenarios, int nr_scenarios,
		     const char *intended, const char *out)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	const cJSON *s;
	cJSON *m;
	int code = EXITCODE_PASS, n = 0, i, family;
	size_t made;

	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", a);
	if (json_read_file(path, &m, &err)) {
		pr_err("%s", err.msg);
		return EXITCODE_BAD_INPUT;
	}
	/* How many comparisons share alpha, before the first is judged. */
	family = (int)an_gate_family(m, scenarios, nr_scenarios, &made);
	if ((size_t)family > made)
		pr_info("lab gate: %zu comparison%s here, judged at the suite's "
			"share of alpha (alpha over its %d, as rtgate run "
			"judges them)", made, made == 1 ? "" : "s", family);
	if (nr_scenarios) {
		for (i = 0; i < nr_scenarios; i++)
			code = exitcode_worse(code, compare_one(m,
					scenario_named(m, scenarios[i]), a, b,
					scenarios[i], family, intended, out));
		n = 1;
	} else {
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios")) {
			const char *name = json_get_str(s, "name", NULL);

			if (!name)
				continue;
			code = exitcode_worse(code, compare_one(m, s, a, b,
							name, family, intended,
							out));
			n++;
		}
	}
	cJSON_Delete(m);
	if (!n) {
		pr_err("%s: no scenarios to compare", path);
		return EXITCODE_BAD_INPUT;
	}
	return code;
}


int lab_gate_compare_aba(const char *a, const char *b, const char *a2,
			 const char *labels, const char *out)
{
	char self[PATH_MAX], exe[PATH_MAX + 16];
	char *argv[] = { exe, "compare", (char *)a, (char *)b, (char *)a2,
			 "--labels", (char *)labels, "--report",
			 "txt,md,json,junit,html", "--out", (char *)out, "-q",
			 NULL };
	struct toolrun r = { .argv = argv, .inherit = true };
	int ret, status;

	if (!a2)	/* A against B: the arguments close up */
		memmove(&argv[4], &argv[5], 8 * sizeof(argv[0]));
	ret = fsio_self_dir(self, sizeof(self));
	if (!ret)
		ret = fsio_mkdir_p(out, 0755);
	if (ret)
		return ret;
	rtpaths_fmt(exe, sizeof(exe), "%s/rtgate", self);
	ret = toolrun(&r, &status);
	return ret ? ret : status;
}
