// SPDX-License-Identifier: GPL-2.0-only
/*
 * A results directory's manifest.json (issue 35): any bytes through the
 * analyzer's reading of a run -- an_manifest_check(), the gate, every
 * scenario's side with its repetitions (linked to a recorded run, see
 * fuzz_run_dir()) -- and the report of the whole run, never a crash.
 */
#include <stdlib.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"
#include "input.h"
#include "jsonio.h"

int fuzz_target_init(void)
{
	return fuzz_run_dir() ? 0 : (exit(1), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_results res;
	const cJSON *s;
	struct an_side *side;
	struct an_gate gate;

	if (fuzz_run_manifest(data, size) ||
	    an_results_open(fuzz_run_dir(), &res))
		return 0;
	an_results_gate(&res, &gate);
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(res.manifest,
							       "scenarios"))
		if (!an_results_side(&res, json_get_str(s, "name", ""), &side))
			an_side_free(side);
	an_results_close(&res);
	return 0;
}
