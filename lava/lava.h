/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How rtgate talks to a LAVA server (the engine KernelCI's and Linaro's
 * labs run boards with): the job definition a lab runs (deploy a kernel,
 * boot it, run a suite with rtgate inside, report its test cases, print
 * the results directory), written as YAML; the server's REST API; jobs
 * submitted, waited for and canceled; a finished job's log read back into
 * a results directory; and `rtgate lava`. The test cases a job reports
 * are export/'s (export_lava_cases()), a run in LAVA's format as KCIDB's
 * is in KernelCI's. docs/nightly.md ("Many boards") documents it.
 */
#ifndef RTGATE_LAVA_H
#define RTGATE_LAVA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#define LAVA_MAX_LIST	16

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
	const char *board;		/* a device's tag: run on that board */
	/* Every --kernel and --suite given (`lava submit`: their product). */
	const char *kernels[LAVA_MAX_LIST];
	const char *suites[LAVA_MAX_LIST];
	unsigned int nr_kernels, nr_suites;
	unsigned int timeout_min;	/* the whole job */
	unsigned int priority;
	const char *output;		/* NULL: stdout */
};

int lava_job_build(const struct lava_job_params *p, cJSON **out);

/*
 * The markers around a job's results directory in its log: the job's
 * last step prints "BEGIN RUN_ID SHA256", the gzipped tar of the run in
 * base64, then "END" (lava_job.c writes the step, lava_log.c reads it
 * back).
 */
#define LAVA_RESULTS_BEGIN	"RTGATE-RESULTS-BEGIN"
#define LAVA_RESULTS_END	"RTGATE-RESULTS-END"

/*
 * A LAVA server's REST API (v0.2), lava_api.c. The token comes
 * from a file or the environment, never from a command line: @token_file,
 * else $RTGATE_LAVA_TOKEN, else the file $RTGATE_LAVA_TOKEN_FILE.
 */
struct lava_client {
	char url[512];			/* base URL, ending in '/' */
	char token[256];
	void *curl;			/* CURL * */
	long timeout_s;			/* one request */
};

/* 0, or -EINVAL (no URL or token: named on stderr) / -ENOMEM. */
int lava_client_init(struct lava_client *c, const char *url,
		     const char *token_file);
void lava_client_destroy(struct lava_client *c);
/*
 * GET api/v0.2/@path (or POST @json when not NULL): the HTTP status, with
 * the body in *body (NUL-terminated, the caller frees it); -EIO when the
 * server cannot be reached (named on stderr).
 */
int lava_request(struct lava_client *c, const char *path,
		 const char *json, char **body, size_t *len);

/* A job as the API describes it (lava_log.c parses it). */
struct lava_job {
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
int lava_job_parse(const char *json, const char *definition,
		   struct lava_job *job);
/* Finished, whatever its health. */
bool lava_job_done(const struct lava_job *job);

/*
 * The results directory a job's log (GET jobs/ID/logs/, LAVA's YAML: one
 * {"dt", "lvl", "msg"} mapping a line) carries between the markers: the
 * run id and the archive, decoded and checked against its sha256
 * (*tgz malloc'ed). 0, -ENOENT when the log has no complete one, -EBADMSG
 * when it does not decode or its sha256 differs (named on stderr).
 */
int lava_log_results(const char *log, char *run_id, size_t len,
		     unsigned char **tgz, size_t *tgz_len);

/*
 * LAVA's reason a job failed, from its log (the "job" result's error type
 * and message, the first error line): 0, or -ENOENT when it has none.
 */
int lava_log_reason(const char *log, char *buf, size_t len);

/* What `rtgate lava submit` and the nightly submit: one job. */
int lava_submit(struct lava_client *c,
		const struct lava_job_params *p, long *job_id);
/* Cancels a job that has not finished (GET jobs/ID/cancel/). */
int lava_cancel(struct lava_client *c, long job_id);
/* The job's state now, and its metadata (GET jobs/ID/). */
int lava_job_get(struct lava_client *c, long job_id,
		 struct lava_job *job);
/*
 * Polls until every job finished or @budget_s passed (0: no limit); @jobs
 * holds their last state. Returns how many did not finish, or -errno.
 */
int lava_wait(struct lava_client *c, struct lava_job *jobs,
	      size_t n, unsigned int budget_s, unsigned int poll_s);

/*
 * Rebuilds a finished job's results directory under @results (its run id
 * suffixed with the board and the job id, so boards never collide), the
 * board as its host and LAVA's job in the manifest's "lava" object. A job
 * LAVA marks Incomplete or Canceled, or one whose log carries no results,
 * becomes a run with no scenarios, status incomplete (Canceled: aborted)
 * and LAVA's reason. @run_dir gets its path. 0 or -errno.
 */
int lava_fetch_run(struct lava_client *c,
		   const struct lava_job *job,
		   const char *results, char *run_dir, size_t len);

/* Writes @json as YAML (block style, strings double-quoted) to @f. */
int lava_yaml_write(FILE *f, const cJSON *json);

int lava_cmd_lava(int argc, char **argv);

#endif
