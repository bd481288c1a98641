/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Results out to the lab's systems: KernelCI's KCIDB (schema v5 JSON) and
 * LAVA (job definitions, and lava-test-case reports from inside a job).
 * Both read a results directory through the history store (an in-memory
 * database), so the mapping is written once. docs/nightly.md documents it.
 */
#ifndef RTGATE_EXPORT_H
#define RTGATE_EXPORT_H

#include <stdbool.h>
#include <stdio.h>
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

#define EXPORT_LAVA_MAX_LIST	16

struct export_lava_job_params {
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
	const char *board;		/* a device's tag: run on that board */
	/* Every --kernel and --suite given (`lava submit`: their product). */
	const char *kernels[EXPORT_LAVA_MAX_LIST];
	const char *suites[EXPORT_LAVA_MAX_LIST];
	unsigned int nr_kernels, nr_suites;
	unsigned int timeout_min;	/* the whole job */
	unsigned int priority;
	const char *output;		/* NULL: stdout */
};

int export_lava_job_build(const struct export_lava_job_params *p, cJSON **out);

/*
 * The markers around a job's results directory in its log: the job's
 * last step prints "BEGIN RUN_ID SHA256", the gzipped tar of the run in
 * base64, then "END" (export_lava.c writes the step, export_lava_log.c
 * reads it back).
 */
#define EXPORT_LAVA_BEGIN	"RTGATE-RESULTS-BEGIN"
#define EXPORT_LAVA_END		"RTGATE-RESULTS-END"

/*
 * A LAVA server's REST API (v0.2), export_lava_api.c. The token comes
 * from a file or the environment, never from a command line: @token_file,
 * else $RTGATE_LAVA_TOKEN, else the file $RTGATE_LAVA_TOKEN_FILE.
 */
struct export_lava_client {
	char url[512];			/* base URL, ending in '/' */
	char token[256];
	void *curl;			/* CURL * */
	long timeout_s;			/* one request */
};

/* 0, or -EINVAL (no URL or token: named on stderr) / -ENOMEM. */
int export_lava_client_init(struct export_lava_client *c, const char *url,
			    const char *token_file);
void export_lava_client_destroy(struct export_lava_client *c);
/*
 * GET api/v0.2/@path (or POST @json when not NULL): the HTTP status, with
 * the body in *body (NUL-terminated, the caller frees it); -EIO when the
 * server cannot be reached (named on stderr).
 */
int export_lava_request(struct export_lava_client *c, const char *path,
			const char *json, char **body, size_t *len);

/* A job as the API describes it (export_lava_log.c parses it). */
struct export_lava_job {
	long id;
	char state[16];			/* Submitted Scheduling Scheduled
					 * Running Canceling Finished */
	char health[16];		/* Unknown Complete Incomplete
					 * Canceled */
	char device[128];		/* actual_device, "" before scheduling */
	char device_type[64];
	char failure[512];		/* LAVA's failure_comment, or "" */
	char submit_time[32], start_time[32], end_time[32];
	char board[128];		/* from the definition's metadata */
	char suite[256];
	char kernel[512];
};

/*
 * Parses the JSON of GET jobs/ID/ into @job, and (when @definition is not
 * NULL) the job definition's metadata rtgate.board, .suite and .kernel.
 * -EINVAL when it is not a job.
 */
int export_lava_job_parse(const char *json, const char *definition,
			  struct export_lava_job *job);
/* Finished, whatever its health. */
bool export_lava_job_done(const struct export_lava_job *job);

/*
 * The results directory a job's log (GET jobs/ID/logs/, LAVA's YAML: one
 * {"dt", "lvl", "msg"} mapping a line) carries between the markers: the
 * run id and the archive, decoded and checked against its sha256
 * (*tgz malloc'ed). 0, -ENOENT when the log has no complete one, -EBADMSG
 * when it does not decode or its sha256 differs (named on stderr).
 */
int export_lava_log_results(const char *log, char *run_id, size_t len,
			    unsigned char **tgz, size_t *tgz_len);

/*
 * LAVA's reason a job failed, from its log (the "job" result's error type
 * and message, the first error line): 0, or -ENOENT when it has none.
 */
int export_lava_log_reason(const char *log, char *buf, size_t len);

/* What `rtgate lava submit` and the nightly submit: one job. */
int export_lava_submit(struct export_lava_client *c,
		       const struct export_lava_job_params *p, long *job_id);
/* Cancels a job that has not finished (GET jobs/ID/cancel/). */
int export_lava_cancel(struct export_lava_client *c, long job_id);
/* The job's state now, and its metadata (GET jobs/ID/). */
int export_lava_job_get(struct export_lava_client *c, long job_id,
			struct export_lava_job *job);
/*
 * Polls until every job finished or @budget_s passed (0: no limit); @jobs
 * holds their last state. Returns how many did not finish, or -errno.
 */
int export_lava_wait(struct export_lava_client *c, struct export_lava_job *jobs,
		     size_t n, unsigned int budget_s, unsigned int poll_s);

/*
 * Rebuilds a finished job's results directory under @results (its run id
 * suffixed with the board and the job id, so boards never collide), the
 * board as its host and LAVA's job in the manifest's "lava" object. A job
 * LAVA marks Incomplete or Canceled, or one whose log carries no results,
 * becomes a run with no scenarios, status incomplete (Canceled: aborted)
 * and LAVA's reason. @run_dir gets its path. 0 or -errno.
 */
int export_lava_fetch_run(struct export_lava_client *c,
			  const struct export_lava_job *job,
			  const char *results, char *run_dir, size_t len);

/* Writes @json as YAML (block style, strings double-quoted) to @f. */
int export_yaml_write(FILE *f, const cJSON *json);

int export_cmd_export(int argc, char **argv);
int export_cmd_lava(int argc, char **argv);

#endif
