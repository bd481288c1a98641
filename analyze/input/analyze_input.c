// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a side of `rtgate compare` can be: a results directory (the whole
 * run when it holds one scenario, a scenario directory inside it, or
 * DIR:SCENARIO), one cyclictest output file, or a directory of them, one
 * per repetition.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/input/input.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"

static bool has_manifest(const char *dir)
{
	char path[PATH_MAX];

	return !rtpaths_fmt(path, sizeof(path), "%s/manifest.json", dir) &&
	       fsio_exists(path);
}

static int results_side(const char *dir, const char *scenario,
			struct an_side **out)
{
	struct an_results res;
	const cJSON *all, *s;
	int ret, n = 0;
	char names[256] = "";

	ret = an_results_open(dir, &res);
	if (ret)
		return ret;
	if (!scenario) {
		all = cJSON_GetObjectItemCaseSensitive(res.manifest,
						       "scenarios");
		cJSON_ArrayForEach(s, all) {
			const char *name = json_get_str(s, "name", "?");

			if (!n++)
				scenario = name;
			if (strlen(names) + strlen(name) + 3 < sizeof(names))
				rtpaths_fmt(names + strlen(names),
					 sizeof(names) - strlen(names),
					 "%s%s", n > 1 ? ", " : "", name);
		}
		if (n != 1) {
			pr_err("%s holds %d scenarios (%s): name one as "
			       "%s:SCENARIO", dir, n, names, dir);
			an_results_close(&res);
			return -EINVAL;
		}
	}
	ret = an_results_side(&res, scenario, out);
	an_results_close(&res);
	return ret;
}

/*
 * What a measurement is, whatever file it was read from: per thread its
 * sample count, minimum, maximum and overflows (FNV-1a). The --json and
 * the --histfile of one cyclictest run give the same identity.
 */
static uint64_t run_ident(const struct an_run *run)
{
	uint64_t h = 1469598103934665603ULL;
	size_t j;

	for (j = 0; j < run->ncpus; j++) {
		const struct an_cpu *c = &run->cpus[j];
		uint64_t v[4] = { c->cycles, (uint64_t)c->min_us,
				  (uint64_t)c->max_us, c->overflows };
		const unsigned char *b = (const unsigned char *)v;
		size_t i;

		for (i = 0; i < sizeof(v); i++)
			h = (h ^ b[i]) * 1099511628211ULL;
	}
	return h;
}

/* How much a form says: a JSON (start time, histogram) beats the rest. */
static int run_richness(const struct an_run *run)
{
	return (run->start_time[0] ? 2 : 0) +
	       (run->ncpus && run->cpus[0].b ? 1 : 0);
}

static int by_start(const void *a, const void *b)
{
	const struct an_run *x = a, *y = b;

	return strcmp(x->start_time, y->start_time);
}

/*
 * Keeps one run per identity (the richest form) and, when every run
 * knows its start time, orders them by it: the execution order the drift
 * check needs, for plain files too.
 */
static void dedupe_and_order(struct an_side *side)
{
	size_t i, j, k;
	bool timed = side->nruns > 0;

	for (i = 0; i < side->nruns; i++)
		side->runs[i].ident = run_ident(&side->runs[i]);
	for (i = 0; i < side->nruns; i++)
		for (j = i + 1; j < side->nruns;) {
			if (side->runs[j].ident != side->runs[i].ident) {
				j++;
				continue;
			}
			if (run_richness(&side->runs[j]) >
			    run_richness(&side->runs[i])) {
				struct an_run t = side->runs[i];

				side->runs[i] = side->runs[j];
				side->runs[j] = t;
			}
			/* Drop run j: move the last run into its place. */
			k = side->nruns - 1;
			if (j != k) {
				struct an_run t = side->runs[j];

				side->runs[j] = side->runs[k];
				side->runs[k] = t;
			}
			an_side_drop_last(side);
		}
	for (i = 0; i < side->nruns; i++)
		timed &= side->runs[i].start_time[0] != '\0';
	if (!timed)
		return;
	qsort(side->runs, side->nruns, sizeof(*side->runs), by_start);
	for (i = 0; i < side->nruns; i++) {
		side->runs[i].order = i;
		side->runs[i].rep = i + 1;
	}
	side->order_known = true;
}

static int version_cmp(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int only_files(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/*
 * A directory of per-repetition files. A repetition is known by its
 * content, not its name: N.json and N.hist.txt of one run are one
 * repetition (the JSON is kept), and with start times (--json) the
 * repetitions are in execution order.
 */
static int dir_side(const char *dir, struct an_side *side)
{
	struct dirent **ents = NULL;
	char path[PATH_MAX];
	int n, i, ret = 0;

	n = scandir(dir, &ents, only_files, version_cmp);
	if (n < 0) {
		pr_err("%s: %s", dir, strerror(errno));
		return -EINVAL;
	}
	for (i = 0; i < n && !ret; i++) {
		struct an_run *run;
		struct stat st;

		if (rtpaths_fmt(path, sizeof(path), "%s/%s", dir,
				ents[i]->d_name) ||
		    stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		run = an_side_add_run(side, ents[i]->d_name, 0);
		ret = run ? an_parse_file(path, run) : -ENOMEM;
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	if (!ret && !side->nruns) {
		pr_err("%s: no cyclictest files in the directory", dir);
		ret = -EINVAL;
	}
	if (!ret)
		dedupe_and_order(side);
	return ret;
}

static int path_side(const char *spec, struct an_side **out)
{
	char copy[PATH_MAX], parent[PATH_MAX], *base;
	struct an_side *side;
	struct stat st;
	int ret;

	if (stat(spec, &st)) {
		pr_err("%s: %s", spec, strerror(errno));
		return -EINVAL;
	}
	if (S_ISDIR(st.st_mode) && has_manifest(spec))
		return results_side(spec, NULL, out);
	rtpaths_fmt(copy, sizeof(copy), "%s", spec);
	rtpaths_fmt(parent, sizeof(parent), "%s", dirname(copy));
	rtpaths_fmt(copy, sizeof(copy), "%s", spec);
	base = basename(copy);
	if (S_ISDIR(st.st_mode) && has_manifest(parent))
		return results_side(parent, base, out);
	side = an_side_new(base);
	if (!side)
		return -ENOMEM;
	/* "idle.txt" is scenario idle; a directory keeps its name. */
	if (!S_ISDIR(st.st_mode) && strrchr(side->name, '.') &&
	    strrchr(side->name, '.') != side->name)
		*strrchr(side->name, '.') = '\0';
	rtpaths_fmt(side->origin, sizeof(side->origin), "%s", spec);
	if (S_ISDIR(st.st_mode)) {
		ret = dir_side(spec, side);
	} else {
		struct an_run *run = an_side_add_run(side, base, 0);

		ret = run ? an_parse_file(spec, run) : -ENOMEM;
	}
	if (!ret)
		ret = an_side_check(side);
	if (ret) {
		an_side_free(side);
		return ret;
	}
	*out = side;
	return 0;
}

int an_input_read(const char *spec, struct an_side **out)
{
	char dir[PATH_MAX], *colon;
	int ret;

	*out = NULL;
	if (!*spec) {
		pr_err("an empty input name");
		return -EINVAL;
	}
	if (fsio_exists(spec))
		return path_side(spec, out);
	rtpaths_fmt(dir, sizeof(dir), "%s", spec);
	colon = strrchr(dir, ':');
	if (colon && colon[1]) {
		*colon = '\0';
		if (has_manifest(dir)) {
			ret = results_side(dir, colon + 1, out);
			if (!ret)
				ret = an_side_check(*out);
			return ret;
		}
	}
	pr_err("%s: no such file, directory or DIR:SCENARIO", spec);
	return -EINVAL;
}
