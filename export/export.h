/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run in the lab systems' formats: KernelCI's KCIDB (schema v5 JSON) and
 * LAVA's test cases (the lava-test-case results a job reports from inside
 * itself). Both read a results directory through the history store (an
 * in-memory database), so the mapping is written once; docs/exports.md
 * documents it. Talking to a LAVA server is lava/'s (lava/lava.h).
 */
#ifndef RTGATE_EXPORT_H
#define RTGATE_EXPORT_H

#include <stddef.h>
#include <cjson/cJSON.h>

struct export_kcidb_params {
	const char *run_dir;
	const char *db;			/* history database; NULL: none */
	const char *origin;		/* KCIDB origin, [a-z0-9_]+ */
	const char *checkout_id;	/* an existing checkout (else our own) */
	const char *build_id;		/* an existing build (else our own) */
	const char *tree_name;
	const char *git_url;		/* the tree's repository */
	const char *git_commit;		/* where no record has it */
	const char *log_url;		/* where the results are served */
	const char *output;		/* NULL: stdout */
};

/**
 * export_kcidb_build() - the KCIDB v5 document of a run
 * @p: the run, its history, the origin ([a-z0-9_]+) and the tree's
 *     identity where the records do not have it
 * @out: gets the document, the caller's to cJSON_Delete()
 *
 * Return: 0; -EINVAL (said) for a bad origin, a manifest or report that
 * cannot be read; -errno of the history.
 */
int export_kcidb_build(const struct export_kcidb_params *p, cJSON **out);

/* One lava-test-case of a run: name, result, measurement. */
struct export_lava_case {
	char name[128];			/* [A-Za-z0-9_.-]+ */
	const char *result;		/* pass | fail | skip | unknown */
	double measurement;		/* NAN: none */
	const char *units;
};

/**
 * export_lava_cases() - every test case a run reports to LAVA
 * @run_dir: the results directory; judged first when it has no
 *           report.json (inside a job nothing has judged it yet)
 * @exit_code: `rtgate run`'s own, one more case; < 0: none
 * @fn: called for each case (export_lava.c); a non-zero return stops
 * @arg: @fn's
 *
 * Return: 0; -EINVAL or -EIO (said) when the run could not be judged (no
 * case is reported: a pass would come from nothing); -errno of the
 * history; @fn's non-zero return.
 */
int export_lava_cases(const char *run_dir, int exit_code,
		      int (*fn)(const struct export_lava_case *c, void *arg),
		      void *arg);

/**
 * export_path_segment() - a name as one segment of a test's dotted path
 * @in: the name (a scenario, a board)
 * @out: gets it as [a-zA-Z0-9_-]+, anything else '_' ("_" for an empty
 *       @in), KCIDB's and LAVA's alike
 * @len: the size of @out
 */
void export_path_segment(const char *in, char *out, size_t len);

/**
 * export_cmd_export() - `rtgate export kcidb`
 * @argc: the number of arguments
 * @argv: "export", a subcommand and its arguments (docs/nightly.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int export_cmd_export(int argc, char **argv);

#endif
