/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * manifest.json (schema rtgate-manifest/1, docs/results.md): rewritten
 * atomically after every repetition, so an interrupted run leaves one that
 * says how far it got. It copies each scenario's [reference] and the
 * suite's gate, so readers never need the suite parser.
 */
#ifndef RTGATE_RUNNER_MANIFEST_H
#define RTGATE_RUNNER_MANIFEST_H

#include <cjson/cJSON.h>

#include "runner_model.h"

#define MANIFEST_SCHEMA "rtgate-manifest/1"

/* Writes <run->dir>/manifest.json; 0 or -errno. */
int runner_manifest_write(const struct runner_run *run);

#endif
