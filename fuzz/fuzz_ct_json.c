// SPDX-License-Identifier: GPL-2.0-only
/* cyclictest --json (analyze_parse.c): any bytes, never a crash. */
#include "analyze/input/input.h"
#include "input.h"

static int parse(const char *buf, size_t len, struct an_run *run)
{
	return an_parse_json("fuzz.json", buf, len, run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_parse(data, size, parse);
}
