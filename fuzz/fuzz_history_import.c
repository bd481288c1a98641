// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history import (issue 35): any manifest.json, its repetitions linked
 * to a recorded run (fuzz_run_dir()), stored into an in-memory history
 * database the way `rtgate history import` stores it -- the manifest
 * check, the run, scenarios, repetitions, CPUs and quantiles, the report's
 * verdicts -- then read back as the exports read it. Never a crash; the
 * database is emptied after each input.
 */
#include <stdlib.h>

#include "history/history.h"
#include "input.h"

static struct history h;

int fuzz_target_init(void)
{
	if (!fuzz_run_dir() || history_open(&h, ":memory:"))
		exit(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct history_import_stats stats = { 0 };
	struct history_run *runs;
	struct history_scenario *sc;
	size_t n, ns, i;

	if (fuzz_run_manifest(data, size))
		return 0;
	history_import_run(&h, fuzz_run_dir(), &stats);
	if (!history_runs(&h, NULL, &runs, &n)) {
		for (i = 0; i < n; i++)
			if (!history_scenarios(&h, runs[i].id, &sc, &ns))
				free(sc);
		free(runs);
	}
	history_exec(&h, "DELETE FROM runs");
	return 0;
}
