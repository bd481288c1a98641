// SPDX-License-Identifier: GPL-2.0-only
/*
 * Any cyclictest output (JSON, histfile or T: lines, found by content) as
 * the candidate of a comparison against a recorded baseline: the parsers
 * and the judgement together, as `rtgate compare BASE FILE` runs them.
 * The baseline is RTGATE_FUZZ_BASELINE, else the recorded A/A run
 * tests/fixtures/analyze/recorded/aa1/a (from the project's top).
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "input.h"

static struct an_side *base;

int fuzz_target_init(void)
{
	const char *path = getenv("RTGATE_FUZZ_BASELINE");

	if (!path)
		path = "tests/fixtures/analyze/recorded/aa1/a";
	if (an_input_read(path, &base)) {
		fprintf(stderr, "fuzz_ct_compare: cannot read the baseline "
			"%s\n", path);
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct an_side *cand = NULL;
	struct an_result res;
	struct an_gate gate;

	if (!path || an_input_read(path, &cand))
		return 0;
	an_gate_default(&gate);
	if (!an_compare(base, cand, &gate, &res))
		an_result_release(&res);
	an_side_free(cand);
	return 0;
}
