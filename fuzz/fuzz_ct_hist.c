// SPDX-License-Identifier: GPL-2.0-only
/* cyclictest --histfile / -h text (analyze_parse.c): any bytes, no crash. */
#include "analyze/input/input.h"
#include "input.h"

static int parse(const char *buf, size_t len, struct an_run *run)
{
	(void)len;
	return an_parse_histfile("fuzz.hist", buf, run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_parse(data, size, parse);
}
