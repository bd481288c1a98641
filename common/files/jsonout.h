/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `--json`: a command's one JSON document (its report.json) on stdout and
 * nothing else (docs/exports.md). Between jsonout_begin() and
 * jsonout_end() file descriptor 1 is file descriptor 2: what the command,
 * and every process it starts, prints for people goes to stderr.
 *
 *	struct jsonout j;
 *
 *	argc = jsonout_strip(argc, argv, &want);
 *	if (want && jsonout_begin(&j)) ...
 *	code = the command;
 *	if (want && jsonout_end(&j, "RUN_DIR/report.json")) ...
 */
#ifndef RTGATE_JSONOUT_H
#define RTGATE_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>

struct jsonout {
	int saved;		/* the real stdout */
};

/* Takes every "--json" out of argv (before "--"); returns the new argc. */
int jsonout_strip(int argc, char **argv, bool *found);

/* Sends stdout to stderr until jsonout_end(). 0 or -errno. */
int jsonout_begin(struct jsonout *j);

/*
 * Restores stdout and copies the file @path to it (NULL: nothing, the
 * command failed before it had a document). 0; -ENOENT when @path does
 * not exist (named on stderr); -EIO when stdout cannot take it.
 */
int jsonout_end(struct jsonout *j, const char *path);

/* A private directory for a command's reports, and its removal. */
int jsonout_tmpdir(char *buf, size_t len);
void jsonout_tmpdir_remove(const char *dir);

#endif
