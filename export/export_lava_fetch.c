// SPDX-License-Identifier: GPL-2.0-only
/*
 * A finished LAVA job back home as a results directory:
 *
 *   1. GET jobs/ID/logs/: the job's log; its last step printed the run's
 *      results directory (a gzipped tar in base64, export_lava_log.c);
 *   2. the directory is unpacked as results/<guest run id>-<board>-lava<ID>,
 *      and its manifest names the board as the host (the guest's own name
 *      is kept as host.guest_hostname) and says which LAVA job it was;
 *   3. a job LAVA marks Incomplete or Canceled, or one whose log carries no
 *      results, becomes a run with no scenarios: status incomplete
 *      (Canceled: aborted) and LAVA's own reason. Never a pass.
 *
 * The log itself (lava-log.yaml) and LAVA's test cases (lava-tests.json)
 * are kept beside the manifest. The caller imports the directory.
 *
 * What the server sends is checked where it enters (issue 35): the board,
 * the guest's run id and the suite are names (docs/results.md, "Names"),
 * since they become the folder's name and the manifest's; the archive
 * holds files and folders only. Anything else: -EINVAL, nothing written.
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "export_priv.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"
#include "textfmt.h"
#include "timefmt.h"
#include "toolrun.h"

static void rm_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	int st;

	toolrun_simple(argv, NULL, NULL, &st);
}

/* The job as the manifest's "lava" object. */
static cJSON *lava_object(const struct export_lava_client *c,
			  const struct export_lava_job *job)
{
	cJSON *o = cJSON_CreateObject();
	char url[1024];

	snprintf(url, sizeof(url), "%sscheduler/job/%ld", c->url, job->id);
	cJSON_AddStringToObject(o, "server", c->url);
	cJSON_AddNumberToObject(o, "job_id", (double)job->id);
	cJSON_AddStringToObject(o, "job_url", url);
	cJSON_AddStringToObject(o, "device", job->device);
	cJSON_AddStringToObject(o, "device_type", job->device_type);
	cJSON_AddStringToObject(o, "state", job->state);
	cJSON_AddStringToObject(o, "health", job->health);
	cJSON_AddStringToObject(o, "failure_comment", job->failure);
	cJSON_AddStringToObject(o, "kernel", job->kernel);
	cJSON_AddStringToObject(o, "submit_time", job->submit_time);
	cJSON_AddStringToObject(o, "start_time", job->start_time);
	cJSON_AddStringToObject(o, "end_time", job->end_time);
	return o;
}

static const char *board_of(const struct export_lava_job *job)
{
	if (job->board[0])
		return job->board;
	return job->device[0] ? job->device : "lava";
}

/* The suite's name from a suite path: /opt/rtgate/suites/smoke.suite. */
static void suite_name(const char *suite, char *buf, size_t len)
{
	const char *slash = strrchr(suite, '/');
	char *dot;

	rtpaths_fmt(buf, len, "%s", slash ? slash + 1 : suite);
	dot = strstr(buf, ".suite");
	if (dot && !dot[6])
		*dot = '\0';
	if (!buf[0])
		snprintf(buf, len, "unknown");
}

/* The names the job gives, each checked; -EINVAL after one message. */
static int check_names(const struct export_lava_job *job, const char *guest)
{
	static const char host_set[] = "1-128 letters, digits, '.', '-' and "
				       "'_', from a letter or digit";
	char suite[128];

	if (!parse_host_name(board_of(job))) {
		pr_err("lava: job %ld: its board '%s' is not a board name (%s)",
		       job->id, board_of(job), host_set);
		return -EINVAL;
	}
	/* The folder's name: a "../" would leave the results directory. */
	if (guest[0] && !parse_host_name(guest)) {
		pr_err("lava: job %ld: the run id its log names, '%s', is not "
		       "a run id (%s)", job->id, guest, host_set);
		return -EINVAL;
	}
	suite_name(job->suite, suite, sizeof(suite));
	if (!parse_name(suite)) {
		pr_err("lava: job %ld: its suite '%s' is not a suite name "
		       "(1-64 letters, digits, '-' and '_')", job->id, suite);
		return -EINVAL;
	}
	return 0;
}

/* nftw() has no argument of its own: the unpacked folder and the job. */
static const char *unpacked_dir;
static long unpacked_job;

static int only_files(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	size_t n = strlen(unpacked_dir);

	(void)st;
	(void)ftw;
	if (type == FTW_F || type == FTW_D)
		return 0;
	pr_err("lava: job %ld: %s: %s: the results of a job are files and "
	       "folders only", unpacked_job, path + n + (path[n] == '/'),
	       type == FTW_SL || type == FTW_SLN ? "a link, not a file" :
	       "not a file or folder");
	return -EINVAL;
}

/* The unpacked archive holds files and folders, never a link. */
static int check_unpacked(const struct export_lava_job *job, const char *dir)
{
	unpacked_dir = dir;
	unpacked_job = job->id;
	return nftw(dir, only_files, 16, FTW_PHYS) ? -EINVAL : 0;
}

/* LAVA's times are ISO 8601 with microseconds; ours without. */
static void lava_time(const char *in, char *buf, size_t len)
{
	const char *dot = strchr(in, '.');

	if (!in[0]) {
		timefmt_iso8601_now(buf, len);
		return;
	}
	if (dot)
		snprintf(buf, len, "%.*sZ", (int)(dot - in), in);
	else
		snprintf(buf, len, "%s", in);
}

/* A run that never measured: the job did not finish as LAVA Complete. */
static int write_failed_run(const struct export_lava_client *c,
			    const struct export_lava_job *job,
			    const char *why, const char *dir,
			    const char *run_id)
{
	char suite[128], path[PATH_MAX], reason[800], start[40], end[40];
	cJSON *m = cJSON_CreateObject(), *o;
	int ret;

	suite_name(job->suite, suite, sizeof(suite));
	lava_time(job->start_time[0] ? job->start_time : job->submit_time,
		  start, sizeof(start));
	lava_time(job->end_time, end, sizeof(end));
	snprintf(reason, sizeof(reason), "LAVA job %ld %s on %s: %s", job->id,
		 job->health, job->device[0] ? job->device : board_of(job),
		 why);
	cJSON_AddStringToObject(m, "schema", "rtgate-manifest/1");
	cJSON_AddStringToObject(m, "run_id", run_id);
	o = cJSON_AddObjectToObject(m, "suite");
	cJSON_AddStringToObject(o, "name", suite);
	cJSON_AddStringToObject(o, "file", job->suite);
	o = cJSON_AddObjectToObject(m, "host");
	cJSON_AddStringToObject(o, "hostname", board_of(job));
	cJSON_AddStringToObject(m, "start_time", start);
	cJSON_AddStringToObject(m, "end_time", end);
	cJSON_AddStringToObject(m, "status", strcmp(job->health, "Canceled") ?
				"incomplete" : "aborted");
	cJSON_AddStringToObject(m, "status_reason", reason);
	cJSON_AddItemToObject(m, "lava", lava_object(c, job));
	cJSON_AddArrayToObject(m, "scenarios");
	snprintf(path, sizeof(path), "%.4000s/manifest.json", dir);
	ret = json_write_file(path, m);
	cJSON_Delete(m);
	return ret;
}

/* The guest's manifest, made the board's and the job's. */
static int adopt_manifest(const struct export_lava_client *c,
			  const struct export_lava_job *job, const char *dir,
			  const char *run_id)
{
	char path[PATH_MAX];
	struct json_error err;
	cJSON *m, *host, *v;
	int ret;

	snprintf(path, sizeof(path), "%.4000s/manifest.json", dir);
	ret = json_read_file(path, &m, &err);
	if (ret) {
		pr_err("lava: job %ld: the results carry no readable "
		       "manifest.json", job->id);
		return -EBADMSG;
	}
	host = cJSON_GetObjectItem(m, "host");
	if (!cJSON_IsObject(host)) {
		host = cJSON_CreateObject();
		cJSON_ReplaceItemInObject(m, "host", host);
		if (!cJSON_GetObjectItem(m, "host"))
			cJSON_AddItemToObject(m, "host", host);
	}
	v = cJSON_GetObjectItem(host, "hostname");
	if (cJSON_IsString(v))
		cJSON_AddStringToObject(host, "guest_hostname", v->valuestring);
	cJSON_DeleteItemFromObject(host, "hostname");
	cJSON_AddStringToObject(host, "hostname", board_of(job));
	v = cJSON_GetObjectItem(m, "run_id");
	if (cJSON_IsString(v))
		cJSON_AddStringToObject(m, "guest_run_id", v->valuestring);
	cJSON_DeleteItemFromObject(m, "run_id");
	cJSON_AddStringToObject(m, "run_id", run_id);
	cJSON_DeleteItemFromObject(m, "lava");
	cJSON_AddItemToObject(m, "lava", lava_object(c, job));
	ret = json_write_file(path, m);
	cJSON_Delete(m);
	return ret;
}

/*
 * The server's answer kept beside the run, as UTF-8 (bytes that are not
 * become U+FFFD): lava-log.yaml as it came, lava-tests.json printed again
 * from what it parsed to (strict JSON), or not kept when it is not JSON.
 */
static int save(const char *dir, const char *name, const char *buf,
		size_t len)
{
	char path[PATH_MAX], *text;
	cJSON *json = NULL;
	int ret = 0;

	snprintf(path, sizeof(path), "%.4000s/%s", dir, name);
	text = text_utf8_repair(buf, len, &len);
	if (!text)
		return -ENOMEM;
	if (strstr(name, ".json")) {
		json = cJSON_Parse(text);
		free(text);
		text = json ? cJSON_Print(json) : NULL;
		cJSON_Delete(json);
		if (!text) {
			pr_warn("lava: %s: the server's answer is not JSON: "
				"not kept", name);
			return 0;
		}
		len = strlen(text);
	}
	ret = fsio_write_atomic(path, text, len);
	free(text);
	return ret;
}

/* Unpacks the archive into @dir (tar, which the host has). */
static int unpack(const unsigned char *tgz, size_t len, const char *dir)
{
	char path[PATH_MAX], log[PATH_MAX];
	char *argv[] = { "tar", "-xzf", path, "-C", (char *)dir,
			 "--no-same-owner", NULL };
	int ret, st;

	snprintf(path, sizeof(path), "%.4000s/.results.tgz", dir);
	snprintf(log, sizeof(log), "%.4000s/.tar.log", dir);
	ret = fsio_write_atomic(path, tgz, len);
	if (!ret)
		ret = toolrun_simple(argv, NULL, log, &st);
	if (!ret && st) {
		pr_err("lava: tar could not unpack the job's results (%s)", log);
		ret = -EBADMSG;
	}
	unlink(path);
	if (!ret)
		unlink(log);
	return ret;
}

int export_lava_fetch_run(struct export_lava_client *c,
			  const struct export_lava_job *job,
			  const char *results, char *run_dir, size_t len)
{
	char run_id[256] = "", guest[256] = "", tmp[PATH_MAX], why[600];
	char stamp[32], seg[160];
	unsigned char *tgz = NULL;
	char *log = NULL, *tests = NULL;
	size_t log_len = 0, tgz_len = 0, tests_len = 0;
	bool measured = false;
	int code, ret;

	if (!export_lava_job_done(job))
		return -EAGAIN;
	snprintf(tmp, sizeof(tmp), "jobs/%ld/logs/", job->id);
	code = export_lava_request(c, tmp, NULL, &log, &log_len);
	if (code < 0)
		return code;
	if (code != 200) {	/* a job that never started has no log */
		free(log);
		log = NULL;
		log_len = 0;
	}
	export_path_segment(board_of(job), seg, sizeof(seg));
	if (job->failure[0])
		snprintf(why, sizeof(why), "%s", job->failure);
	else if (!log || export_lava_log_reason(log, why, sizeof(why)))
		snprintf(why, sizeof(why), "LAVA gave no reason");
	if (!strcmp(job->health, "Complete") && log) {
		ret = export_lava_log_results(log, guest, sizeof(guest), &tgz,
					      &tgz_len);
		if (!ret)
			measured = true;
		else if (ret == -ENOENT)
			snprintf(why, sizeof(why), "the job's log carries no "
				 "results (rtgate did not finish inside)");
		else
			snprintf(why, sizeof(why), "the results in the job's "
				 "log are damaged");
	}
	ret = check_names(job, measured ? guest : "");
	if (ret)
		goto out;
	if (measured) {
		snprintf(run_id, sizeof(run_id), "%.120s-%.80s-lava%ld", guest,
			 seg, job->id);
	} else {
		char start[40];

		lava_time(job->submit_time, start, sizeof(start));
		/* 2026-12-02T18:25:31Z -> 20261202-182531, as run ids */
		snprintf(stamp, sizeof(stamp), "%.4s%.2s%.2s-%.2s%.2s%.2s",
			 start, start + 5, start + 8, start + 11, start + 14,
			 start + 17);
		snprintf(run_id, sizeof(run_id), "%s-lava%ld-%.80s", stamp,
			 job->id, seg);
	}
	snprintf(run_dir, len, "%.3000s/%.255s", results, run_id);
	if (fsio_exists(run_dir)) {	/* fetched before: as it was */
		ret = 0;
		goto out;
	}
	ret = fsio_mkdir_p(results, 0755);
	snprintf(tmp, sizeof(tmp), "%.3000s/.lava-%ld-XXXXXX", results,
		 job->id);
	if (!ret && !mkdtemp(tmp))
		ret = -errno;
	if (ret) {
		pr_err("lava: cannot write under %s: %s", results,
		       strerror(-ret));
		goto out;
	}
	chmod(tmp, 0755);
	if (measured)
		ret = unpack(tgz, tgz_len, tmp);
	if (measured && !ret)
		ret = check_unpacked(job, tmp);
	if (measured && !ret)
		ret = adopt_manifest(c, job, tmp, run_id);
	if (!measured)
		ret = write_failed_run(c, job, why, tmp, run_id);
	if (!ret && log)
		ret = save(tmp, "lava-log.yaml", log, log_len);
	snprintf(why, sizeof(why), "jobs/%ld/tests/?limit=1000", job->id);
	if (!ret && export_lava_request(c, why, NULL, &tests, &tests_len) ==
	    200)
		ret = save(tmp, "lava-tests.json", tests, tests_len);
	if (!ret && rename(tmp, run_dir))
		ret = -errno;
	if (ret)
		rm_tree(tmp);
out:
	free(tests);
	free(log);
	free(tgz);
	return ret;
}
