// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every fuzz target shares (input.h): the analyzer's logging quieted,
 * the fuzzer's bytes as a string or a file, and one parse.
 */
#include <fcntl.h>
#include <limits.h>
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

static char run_dir[PATH_MAX];

/* The private directory goes with the process: links, manifest, itself. */
static void run_dir_remove(void)
{
	static const char *const names[] = { "idle", "inject", "rt-only",
					     "manifest.json", "report.json" };
	char path[PATH_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", run_dir, names[i]);
		unlink(path);
	}
	rmdir(run_dir);
}

const char *fuzz_run_dir(void)
{
	static const char *const scen[] = { "idle", "inject", "rt-only" };
	const char *from = getenv("RTGATE_FUZZ_RUN");
	char src[PATH_MAX], dst[PATH_MAX + 16], abs[PATH_MAX];
	size_t i;

	if (run_dir[0])
		return run_dir;
	if (!from)
		from = "tests/fixtures/analyze/run-inject";
	snprintf(run_dir, sizeof(run_dir), "%s/rtgate-fuzz-run.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(run_dir)) {
		run_dir[0] = '\0';
		return NULL;
	}
	atexit(run_dir_remove);
	for (i = 0; i < sizeof(scen) / sizeof(scen[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", from, scen[i]);
		snprintf(dst, sizeof(dst), "%s/%s", run_dir, scen[i]);
		if (realpath(src, abs))
			(void)!symlink(abs, dst);
	}
	return run_dir;
}

int fuzz_run_manifest(const uint8_t *data, size_t size)
{
	char path[PATH_MAX + 16];
	int fd, ret = 0;

	if (!fuzz_run_dir())
		return -1;
	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size)
		ret = -1;
	close(fd);
	return ret;
}
