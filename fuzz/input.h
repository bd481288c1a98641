/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets share: the input as a NUL-terminated string, or as
 * a file (a memfd behind /proc/self/fd/N) for readers that take a path.
 */
#ifndef RTGATE_FUZZ_INPUT_H
#define RTGATE_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* A NUL-terminated copy (the caller frees); NULL for an embedded NUL. */
char *fuzz_string(const uint8_t *data, size_t size);
/* Puts the input in the target's file; its path, or NULL. */
const char *fuzz_file(const uint8_t *data, size_t size);
/* Bad input is the expected case: only its errors are said. */
void fuzz_quiet(void);

#endif
