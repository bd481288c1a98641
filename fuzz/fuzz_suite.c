// SPDX-License-Identifier: GPL-2.0-only
/* The suite parser (runner_suite.c): any bytes, never a crash. */
#include "input.h"
#include "runner/suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct runner_suite_error err;
	struct runner_suite s;

	if (path && !runner_suite_load(path, &s, &err))
		runner_suite_free(&s);
	return 0;
}
