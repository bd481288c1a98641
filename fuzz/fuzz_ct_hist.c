// SPDX-License-Identifier: GPL-2.0-only
/* cyclictest --histfile / -h text (analyze_parse.c): any bytes, never a crash. */
#include <stdlib.h>

#include "analyze/analyze_hist.h"
#include "analyze/analyze_input.h"
#include "input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_run run = { 0 };
	char *buf = fuzz_string(data, size);
	size_t i;

	if (!buf)
		return 0;
	an_parse_histfile("fuzz.hist", buf, &run);
	for (i = 0; run.cpus && i < run.ncpus; i++)
		an_cpu_release(&run.cpus[i]);
	free(run.cpus);
	free(buf);
	return 0;
}
