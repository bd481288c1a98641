// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sharing alpha (analyze.h, judge.h): which comparisons a suite's family
 * holds, and the level each is judged at -- alone, with the looks of
 * --until-decided, or by `compare`'s --family. Every rule of it is here;
 * the commands, the runner and the lab gate ask.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "analyze/judge/judge.h"
#include "jsonio.h"
#include "rtpaths.h"

double an_alpha_share(double alpha, size_t family)
{
	return alpha / (family ? family : 1);
}

double an_gate_share(const struct an_gate *gate)
{
	return gate->level > 0 ? gate->level : gate->alpha;
}

double an_line_level(double share, size_t lines)
{
	return share / 2 / (lines ? lines : 1);
}

size_t an_pair_comparisons(const struct an_tool *cand,
			   const struct an_tool *base)
{
	size_t k, n = 1;

	for (k = 1; cand && base && k < an_tool_nsides(cand); k++)
		n += an_tool_side_index(base, cand->sides[k].suffix) !=
		     (size_t)-1;
	return n;
}

/*
 * Controls (positive and negative) test the gate, not the kernel: they are
 * judged at the same share and do not count in the family.
 */
size_t an_family(const struct an_family_member *m, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!m[i].control)
			k += an_pair_comparisons(m[i].cand, m[i].base);
	return k ? k : 1;
}

static const cJSON *scenario_named(const cJSON *manifest, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(manifest,
							       "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

size_t an_suite_family(const cJSON *manifest)
{
	const cJSON *all, *s, *b;
	struct an_family_member m[256];
	size_t n = 0;

	all = cJSON_GetObjectItemCaseSensitive(manifest, "scenarios");
	cJSON_ArrayForEach(s, all) {
		const char *base = json_get_str(s, "compare", NULL);

		if (!base || n == sizeof(m) / sizeof(m[0]))
			continue;
		b = scenario_named(manifest, base);
		m[n].cand = an_tool_of(manifest, s);
		m[n].base = b ? an_tool_of(manifest, b) : NULL;
		m[n].control = *json_get_str(s, "control", "") != '\0';
		n++;
	}
	return an_family(m, n);
}

size_t an_gate_family(const cJSON *manifest, const char *const *only,
		      size_t n, size_t *made)
{
	const cJSON *s;
	const struct an_tool *t;
	size_t i, suite;

	*made = 0;
	for (i = 0; i < n; i++) {
		t = an_tool_of(manifest, scenario_named(manifest, only[i]));
		*made += t ? an_tool_nsides(t) : 1;
	}
	if (!n)
		cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(
				manifest, "scenarios")) {
			if (!json_get_str(s, "name", NULL))
				continue;
			t = an_tool_of(manifest, s);
			*made += t ? an_tool_nsides(t) : 1;
		}
	suite = an_suite_family(manifest);
	return *made > suite ? *made : suite;
}

void an_share_alpha(const struct an_results *res, const char *cand,
		    size_t family, struct an_gate *gate)
{
	double look = an_results_look_level(res, cand, gate->alpha);

	gate->level = an_alpha_share(look, family);
	gate->nlooks = an_results_look_schedule(res, cand, gate->look_t,
						AN_MAX_LOOKS);
	gate->look_share = an_alpha_share(gate->alpha, family);
	if (family > 1 && look < gate->alpha)
		rtpaths_fmt(gate->level_why, sizeof(gate->level_why), "alpha %g "
			"shared by %zu comparisons and the looks of "
			"--until-decided", gate->alpha, family);
	else if (family > 1)
		rtpaths_fmt(gate->level_why, sizeof(gate->level_why), "alpha %g "
			"shared by the suite's %zu comparisons", gate->alpha,
			family);
	else if (look < gate->alpha)
		rtpaths_fmt(gate->level_why, sizeof(gate->level_why), "alpha %g "
			"shared by the looks of --until-decided", gate->alpha);
}

void an_share_alpha_among(struct an_gate *gate, size_t family,
			  const char *among)
{
	if (family <= 1)
		return;
	gate->level = an_alpha_share(gate->alpha, family);
	rtpaths_fmt(gate->level_why, sizeof(gate->level_why), "alpha %g shared by "
		"%s", gate->alpha, among);
}

void an_share_alpha_given(struct an_gate *gate, size_t suite,
			  unsigned int given)
{
	size_t family = given ? given : suite;
	char among[sizeof(gate->level_why)];

	rtpaths_fmt(among, sizeof(among), "%zu comparisons (%s)", family, given ?
		"--family" : "the suite's, as rtgate run judges them");
	an_share_alpha_among(gate, family, among);
}
