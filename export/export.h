/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Results out to the lab's systems: KernelCI's KCIDB (schema v5 JSON) and
 * LAVA (job definitions, and lava-test-case reports from inside a job).
 * Both read a results directory through the history store (an in-memory
 * database), so the mapping is written once. docs/nightly.md documents it.
 */
#ifndef RTGATE_EXPORT_H
#define RTGATE_EXPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct kcidb_params {
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
int export_kcidb_build(const struct kcidb_params *p, cJSON **out);

/* One lava-test-case of a run: name, result, measurement. */
struct lava_case {
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
		      int (*fn)(const struct lava_case *c, void *arg), void *arg);

struct lava_job_params {
	const char *job_name;
	const char *device_type;	/* qemu, or a board's device type */
	const char *kernel;		/* URLs */
	const char *dtb;
	const char *ramdisk;
	const char *modules;
	const char *rootfs;
	const char *suite;		/* suite name or file inside the image */
	const char *rtgate_args;	/* extra arguments for `rtgate run` */
	const char *kernel_args;	/* qemu: the kernel command line */
	const char *prompt;		/* the shell prompt of the image */
	const char *arch;		/* qemu: amd64, arm64, … */
	const char *boot_method;	/* qemu | u-boot | … (default by type) */
	const char *boot_commands;	/* u-boot: ramdisk | nfs | … */
	const char *visibility;		/* public (default) | personal */
	unsigned int timeout_min;	/* the whole job */
	unsigned int priority;
	const char *output;		/* NULL: stdout */
};

int export_lava_job_build(const struct lava_job_params *p, cJSON **out);

/* Writes @json as YAML (block style, strings double-quoted) to @f. */
int export_yaml_write(FILE *f, const cJSON *json);

int export_cmd_export(int argc, char **argv);
int export_cmd_lava(int argc, char **argv);

#endif
