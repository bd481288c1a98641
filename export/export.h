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

/* Builds the KCIDB v5 document of a run; *out is the caller's to free. */
int export_kcidb_build(const struct export_kcidb_params *p, cJSON **out);

/* One lava-test-case of a run: name, result, measurement. */
struct export_lava_case {
	char name[128];			/* [A-Za-z0-9_.-]+ */
	const char *result;		/* pass | fail | skip | unknown */
	double measurement;		/* NAN: none */
	const char *units;
};

/*
 * Calls @fn for every test case a run reports to LAVA (export_lava.c);
 * @exit_code >= 0 is `rtgate run`'s own, one more case.
 */
int export_lava_cases(const char *run_dir, int exit_code,
		      int (*fn)(const struct export_lava_case *c, void *arg),
		      void *arg);

/*
 * @in as one segment of a test's dotted path, KCIDB's and LAVA's alike:
 * [a-zA-Z0-9_-]+, anything else becomes '_' ("_" for an empty @in).
 */
void export_path_segment(const char *in, char *out, size_t len);

int export_cmd_export(int argc, char **argv);

#endif
