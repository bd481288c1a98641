// SPDX-License-Identifier: GPL-2.0-only
/*
 * A results directory, read through the history store (in memory), and
 * whose scenario a verdict row is: what both exports read.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "export_priv.h"
#include "fsio.h"
#include "log.h"

/*
 * An export is derived from a judged report or it fails (docs/exports.md):
 * RUN/report.json is there, whole, rtgate's, and of this run.
 */
static int judged_report(const char *run_dir, const cJSON *manifest)
{
	struct json_error err;
	char path[PATH_MAX];
	const char *id;
	cJSON *rep;
	int ret = -EINVAL;

	if (snprintf(path, sizeof(path), "%s/report.json", run_dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	if (!fsio_exists(path)) {
		pr_err("%s: no report: the run was never judged, and an export "
		       "is made from a judged report only (`rtgate report %s` "
		       "judges it)", path, run_dir);
		return -ENOENT;
	}
	if (json_read_file(path, &rep, &err)) {
		pr_err("%s: nothing is exported from a report that cannot be "
		       "read", err.msg);
		return -EINVAL;
	}
	id = json_get_str(cJSON_GetObjectItemCaseSensitive(rep, "run"),
			  "run_id", NULL);
	if (strcmp(json_get_str(rep, "schema", ""), "rtgate-report/1"))
		pr_err("%s: schema: not rtgate-report/1", path);
	else if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(rep,
							"comparisons")))
		pr_err("%s: comparisons: not an array", path);
	else if (!id || strcmp(id, json_get_str(manifest, "run_id", "")))
		pr_err("%s: run.run_id: '%s' is not this run's ('%s')", path,
		       id ? id : "(none)", json_get_str(manifest, "run_id",
							""));
	else
		ret = 0;
	cJSON_Delete(rep);
	return ret;
}

int export_load_run(const char *run_dir, const char *db, struct history *h,
		    struct history_run *run, cJSON **manifest)
{
	struct history_import_stats stats = { 0 };
	struct json_error err;
	char path[PATH_MAX];
	int ret;

	if (snprintf(path, sizeof(path), "%s/manifest.json", run_dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = json_read_file(path, manifest, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return ret;
	}
	ret = an_manifest_check(path, *manifest);
	if (!ret)
		ret = judged_report(run_dir, *manifest);
	if (ret)
		goto fail_manifest;
	ret = history_open(h, db ? db : ":memory:");
	if (ret)
		goto fail;
	ret = history_import_run(h, run_dir, &stats);
	if (!ret)
		ret = history_find_run_host(h, json_get_str(*manifest,
				"run_id", ""), json_get_str(
				cJSON_GetObjectItemCaseSensitive(*manifest,
				"host"), "hostname", ""), run);
	if (!ret)
		return 0;
fail:
	history_close(h);
fail_manifest:
	cJSON_Delete(*manifest);
	*manifest = NULL;
	return ret;
}

/* The scenario side a verdict row is (export_priv.h). */
const char *export_side_of(const char *name, const char *scen)
{
	const char *suffix;
	char base[128];

	if (!strcmp(name, scen))
		return "";
	suffix = an_tool_side_of(name, base, sizeof(base));
	return suffix && !strcmp(base, scen) ? suffix : NULL;
}
