// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jobs to a LAVA server and their progress: submit one definition (POST
 * jobs/ with "definition"), read a job's state, cancel it, and wait for a
 * set of jobs within a time budget.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonio.h"
#include "lava.h"
#include "log.h"
#include "stopsig.h"

/* The job definition as YAML text (what a lab would keep in a file). */
static int job_yaml(const struct lava_job_params *p, char **text)
{
	cJSON *job;
	size_t len;
	FILE *f;
	int ret;

	ret = lava_job_build(p, &job);
	if (ret)
		return ret;
	f = open_memstream(text, &len);
	if (!f) {
		cJSON_Delete(job);
		return -ENOMEM;
	}
	ret = lava_yaml_write(f, job);
	if (fclose(f) && !ret)
		ret = -EIO;
	cJSON_Delete(job);
	return ret;
}

/* LAVA's message of a refused request, for the error line. */
static void server_message(const char *body, char *buf, size_t len)
{
	cJSON *o = cJSON_Parse(body);
	const char *m = json_get_str(o, "message", NULL);

	if (!m)
		m = json_get_str(o, "detail", NULL);
	snprintf(buf, len, "%s", m ? m : body);
	cJSON_Delete(o);
}

int lava_submit(struct lava_client *c,
		const struct lava_job_params *p, long *job_id)
{
	char *def = NULL, *json = NULL, *body = NULL, msg[512];
	const cJSON *ids;
	cJSON *req, *resp = NULL;
	int code, ret;

	ret = job_yaml(p, &def);
	if (ret)
		return ret;
	req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "definition", def);
	json = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	free(def);
	if (!json)
		return -ENOMEM;
	code = lava_request(c, "jobs/", json, &body, NULL);
	free(json);
	if (code < 0)
		return code;
	if (code != 201) {
		server_message(body, msg, sizeof(msg));
		pr_err("lava: %s refused the job (HTTP %d): %s", c->url, code,
		       msg);
		free(body);
		return code == 401 || code == 403 ? -EACCES : -EINVAL;
	}
	resp = cJSON_Parse(body);
	ids = cJSON_GetObjectItem(resp, "job_ids");
	if (!cJSON_IsArray(ids) || !cJSON_IsNumber(cJSON_GetArrayItem(ids, 0))) {
		pr_err("lava: the server accepted the job but named no id: "
		       "%.200s", body);
		ret = -EBADMSG;
	} else {
		*job_id = (long)cJSON_GetArrayItem(ids, 0)->valuedouble;
	}
	cJSON_Delete(resp);
	free(body);
	return ret;
}

int lava_job_get(struct lava_client *c, long job_id,
		 struct lava_job *job)
{
	char path[64], *body = NULL;
	int code, ret;

	snprintf(path, sizeof(path), "jobs/%ld/", job_id);
	code = lava_request(c, path, NULL, &body, NULL);
	if (code < 0)
		return code;
	if (code != 200) {
		pr_err("lava: job %ld: HTTP %d from %s", job_id, code, c->url);
		free(body);
		return code == 404 ? -ENOENT : -EIO;
	}
	ret = lava_job_parse(body, NULL, job);
	if (ret)
		pr_err("lava: job %ld: the server's answer is not a job",
		       job_id);
	free(body);
	return ret;
}

int lava_cancel(struct lava_client *c, long job_id)
{
	char path[64], *body = NULL;
	int code;

	snprintf(path, sizeof(path), "jobs/%ld/cancel/", job_id);
	code = lava_request(c, path, NULL, &body, NULL);
	free(body);
	if (code < 0)
		return code;
	return code == 200 ? 0 : -EIO;
}

int lava_wait(struct lava_client *c, struct lava_job *jobs,
	      size_t n, unsigned int budget_s, unsigned int poll_s)
{
	time_t start = time(NULL);
	size_t i, open;
	char last[sizeof(jobs[0].state)];
	int ret;

	if (!poll_s)
		poll_s = 10;
	for (;;) {
		open = 0;
		for (i = 0; i < n; i++) {
			if (lava_job_done(&jobs[i]))
				continue;
			snprintf(last, sizeof(last), "%s", jobs[i].state);
			ret = lava_job_get(c, jobs[i].id, &jobs[i]);
			if (ret)
				return ret;
			if (strcmp(last, jobs[i].state))
				pr_info("lava: job %ld: %s%s%s", jobs[i].id,
					jobs[i].state,
					jobs[i].device[0] ? " on " : "",
					jobs[i].device);
			if (!lava_job_done(&jobs[i]))
				open++;
		}
		if (!open || stopsig_requested())
			return (int)open;
		if (budget_s && time(NULL) - start >= (time_t)budget_s)
			return (int)open;
		sleep(poll_s);
	}
}
