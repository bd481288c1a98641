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

/**
 * lava_job_build() - a LAVA job definition
 * @p: what to boot where, the suite, the timeouts; kernel, suite and
 *     device type are required, the timeout at least 30 minutes
 * @out: gets the definition as JSON (lava_yaml_write() writes it as
 *       LAVA reads it), the caller's to cJSON_Delete()
 *
 * Return: 0, or -EINVAL after a message.
 */
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

/**
 * lava_client_init() - a client of a LAVA server
 * @c: filled
 * @url: the server's base URL; NULL or "": $RTGATE_LAVA_URL
 * @token_file: a file holding the token; NULL: $RTGATE_LAVA_TOKEN, else
 *              the file $RTGATE_LAVA_TOKEN_FILE
 *
 * Return: 0 (end it with lava_client_destroy()); -EINVAL (no URL
 * or token: named on stderr); -ENOENT (said) without libcurl; -ENOMEM.
 */
int lava_client_init(struct lava_client *c, const char *url,
		     const char *token_file);
/**
 * lava_client_destroy() - ends a client; its token is wiped
 * @c: the client
 */
void lava_client_destroy(struct lava_client *c);
/**
 * lava_request() - one request of the REST API
 * @c: the client
 * @path: under api/v0.2/: "jobs/42/"
 * @json: POST this; NULL: GET
 * @body: gets the answer's body, NUL-terminated (free it)
 * @len: gets its length; may be NULL
 *
 * Return: the HTTP status; -EIO when the server cannot be reached (named
 * on stderr); -ENOMEM.
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

/**
 * lava_job_parse() - a job as the API describes it
 * @json: the answer of GET jobs/ID/
 * @definition: the job definition whose metadata (rtgate.board, .suite,
 *              .kernel) to read; NULL: the one in @json
 * @job: filled
 *
 * Return: 0, or -EINVAL when @json is not a job.
 */
int lava_job_parse(const char *json, const char *definition,
		   struct lava_job *job);
/**
 * lava_job_done() - whether a job has finished
 * @job: the job
 *
 * Return: true once it is Finished, whatever its health.
 */
bool lava_job_done(const struct lava_job *job);

/**
 * lava_log_results() - the results directory a job's log carries
 * @log: GET jobs/ID/logs/: LAVA's YAML, one {"dt", "lvl", "msg"} mapping a
 *       line; the last complete block between the markers counts
 * @run_id: gets the run's id
 * @len: its size
 * @tgz: gets the archive, decoded and checked against its sha256 (free
 *       it)
 * @tgz_len: gets its length
 *
 * Return: 0; -ENOENT when the log has no complete block; -EBADMSG when it
 * does not decode or its sha256 differs (named on stderr); -ENOMEM.
 */
int lava_log_results(const char *log, char *run_id, size_t len,
		     unsigned char **tgz, size_t *tgz_len);

/**
 * lava_log_reason() - LAVA's reason a job failed, from its log
 * @log: GET jobs/ID/logs/
 * @buf: gets the "job" result's error type and message, and the first
 *       error line
 * @len: its size
 *
 * Return: 0; -ENOENT when the log has none; -ENOMEM.
 */
int lava_log_reason(const char *log, char *buf, size_t len);

/**
 * lava_submit() - submits one job
 * @c: the client
 * @p: the job (lava_job_build())
 * @job_id: gets the server's id of it
 *
 * What `rtgate lava submit` and the nightly submit.
 *
 * Return: 0; -EINVAL for a job the server refused, -EACCES for a token it
 * refused, -EBADMSG for an answer with no id (each said); -EIO, -ENOMEM.
 */
int lava_submit(struct lava_client *c,
		const struct lava_job_params *p, long *job_id);
/**
 * lava_cancel() - cancels a job that has not finished
 * @c: the client
 * @job_id: the job (GET jobs/ID/cancel/)
 *
 * Return: 0, or -EIO when the server did not cancel it.
 */
int lava_cancel(struct lava_client *c, long job_id);
/**
 * lava_job_get() - a job's state now, and its metadata
 * @c: the client
 * @job_id: the job (GET jobs/ID/)
 * @job: filled
 *
 * Return: 0; -ENOENT for no such job; -EINVAL for an answer that is no
 * job; -EIO (each said).
 */
int lava_job_get(struct lava_client *c, long job_id,
		 struct lava_job *job);
/**
 * lava_wait() - waits for jobs to finish
 * @c: the client
 * @jobs: the jobs; they get their last state
 * @n: how many
 * @budget_s: wait at most this long; 0: no limit (a stop signal ends the
 *            wait too)
 * @poll_s: between polls; 0: 10 s
 *
 * Return: how many did not finish, or the first error of
 * lava_job_get().
 */
int lava_wait(struct lava_client *c, struct lava_job *jobs,
	      size_t n, unsigned int budget_s, unsigned int poll_s);

/**
 * lava_fetch_run() - rebuilds a finished job's results directory
 * @c: the client
 * @job: the job, finished
 * @results: the folder the run goes under; its run id is suffixed with
 *           the board and the job id, so boards never collide
 * @run_dir: gets the run's path (one fetched before stays as it was)
 * @len: its size
 *
 * The board becomes the run's host and LAVA's job the manifest's "lava"
 * object. A job LAVA marks Incomplete or Canceled, or one whose log
 * carries no results, becomes a run with no scenarios, status incomplete
 * (Canceled: aborted) and LAVA's reason.
 *
 * Return: 0; -EAGAIN for a job not finished; -errno.
 */
int lava_fetch_run(struct lava_client *c,
		   const struct lava_job *job,
		   const char *results, char *run_dir, size_t len);

/**
 * lava_yaml_write() - writes JSON as YAML
 * @f: where
 * @json: the document: block style, strings double-quoted
 *
 * Return: 0, -ENOMEM, or -EIO when it cannot be written.
 */
int lava_yaml_write(FILE *f, const cJSON *json);

/**
 * lava_cmd_lava() - `rtgate lava job|report|submit|fetch`
 * @argc: the number of arguments
 * @argv: "lava", a subcommand and its arguments (docs/nightly.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int lava_cmd_lava(int argc, char **argv);

#endif
