// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every fuzz target shares (input.h): the analyzer's logging quieted,
 * the fuzzer's bytes as a string or a file, and one parse.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "input.h"
#include "log.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_set_level(LOG_LEVEL_ERR);
	return fuzz_target_init ? fuzz_target_init() : 0;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, '\0', size))
		return NULL;
	s = malloc(size + 1);
	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("rtgate-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return NULL;
	return path;
}

int fuzz_parse(const uint8_t *data, size_t size,
	       int (*parse)(const char *buf, size_t len, struct an_run *run))
{
	struct an_run run = { 0 };
	char *buf = fuzz_string(data, size);
	size_t i;

	if (!buf)
		return 0;
	parse(buf, size, &run);
	for (i = 0; run.cpus && i < run.ncpus; i++)
		an_cpu_release(&run.cpus[i]);
	free(run.cpus);
	free(buf);
	return 0;
}
