// SPDX-License-Identifier: GPL-2.0-only
/* A results directory, read through the history store (in memory). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "export_priv.h"
#include "log.h"

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
	ret = history_open(h, db ? db : ":memory:");
	if (ret)
		goto fail;
	ret = history_import_run(h, run_dir, &stats);
	if (!ret)
		ret = history_find_run(h, json_get_str(*manifest, "run_id", ""),
				       run);
	if (!ret)
		return 0;
	history_close(h);
fail:
	cJSON_Delete(*manifest);
	*manifest = NULL;
	return ret;
}

