/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets share (docs/fuzzing.md): their initialisation,
 * the input as a string or as a file (a memfd behind /proc/self/fd/N) for
 * readers that take a path, and the run a cyclictest parser fills.
 */
#ifndef RTGATE_FUZZ_INPUT_H
#define RTGATE_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/analyze.h"

/*
 * input.c's LLVMFuzzerInitialize() keeps bad input quiet (errors only;
 * run with -close_fd_mask=2 to discard those too), then calls the
 * target's own fuzz_target_init() if it has one (0, or it exits).
 */
int fuzz_target_init(void) __attribute__((weak));

/* A NUL-terminated copy (the caller frees); NULL for an embedded NUL. */
char *fuzz_string(const uint8_t *data, size_t size);
/* Puts the input in the target's file; its path, or NULL. */
const char *fuzz_file(const uint8_t *data, size_t size);
/*
 * A private results directory whose scenario folders (idle, inject,
 * rt-only) are links to the recorded run RTGATE_FUZZ_RUN, else
 * tests/fixtures/analyze/run-inject (from the project's top), so that a
 * manifest's repetitions find real files. Its path, or NULL; then
 * fuzz_run_manifest() puts the input in its manifest.json (0 or -1).
 */
const char *fuzz_run_dir(void);
int fuzz_run_manifest(const uint8_t *data, size_t size);
/* The input, as a string, through a cyclictest parser; the run freed. */
int fuzz_parse(const uint8_t *data, size_t size,
	       int (*parse)(const char *buf, size_t len, struct an_run *run));

#endif
