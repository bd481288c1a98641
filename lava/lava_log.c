// SPDX-License-Identifier: GPL-2.0-only
/*
 * What LAVA's REST API answers, parsed: a job's state (GET jobs/ID/, JSON)
 * and the results directory its log carries (GET jobs/ID/logs/: one YAML
 * flow mapping a line, every scalar double-quoted, as lava_common's logger
 * writes them). Pure functions of text, so tests replay recorded answers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "lava.h"
#include "log.h"
#include "rtpaths.h"
#include "sha256.h"

static void copy_str(const cJSON *o, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	snprintf(buf, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/*
 * One of our metadata keys in the definition: a line `  "KEY": "VALUE"`
 * (rtgate writes the jobs, lava_yaml.c, so the form is its own).
 */
static void definition_meta(const char *def, const char *key, char *buf,
			    size_t len)
{
	char pat[96];
	const char *p, *q;
	size_t n;

	buf[0] = '\0';
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = def ? strstr(def, pat) : NULL;
	if (!p)
		return;
	p += strlen(pat);
	for (q = p; *q && *q != '\n' && !(*q == '"' && q[-1] != '\\'); q++)
		;
	n = (size_t)(q - p) < len ? (size_t)(q - p) : len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

int lava_job_parse(const char *json, const char *definition,
		   struct lava_job *job)
{
	cJSON *o = cJSON_Parse(json);
	const cJSON *id = cJSON_GetObjectItem(o, "id");
	const cJSON *dev;

	memset(job, 0, sizeof(*job));
	if (!o || !cJSON_IsNumber(id) || !cJSON_IsString(
		    cJSON_GetObjectItem(o, "state"))) {
		cJSON_Delete(o);
		return -EINVAL;
	}
	job->id = (long)id->valuedouble;
	copy_str(o, "state", job->state, sizeof(job->state));
	copy_str(o, "health", job->health, sizeof(job->health));
	dev = cJSON_GetObjectItem(o, "actual_device");
	snprintf(job->device, sizeof(job->device), "%s",
		 cJSON_IsString(dev) ? dev->valuestring : "");
	copy_str(o, "requested_device_type", job->device_type,
		 sizeof(job->device_type));
	copy_str(o, "failure_comment", job->failure, sizeof(job->failure));
	copy_str(o, "submit_time", job->submit_time, sizeof(job->submit_time));
	copy_str(o, "start_time", job->start_time, sizeof(job->start_time));
	copy_str(o, "end_time", job->end_time, sizeof(job->end_time));
	/* As submitted: LAVA's "definition" is its own re-dump. */
	if (!definition)
		definition = json_get_str(o, "original_definition", NULL);
	if (!definition)
		definition = json_get_str(o, "definition", NULL);
	definition_meta(definition, "rtgate.board", job->board,
			sizeof(job->board));
	definition_meta(definition, "rtgate.suite", job->suite,
			sizeof(job->suite));
	definition_meta(definition, "rtgate.kernel", job->kernel,
			sizeof(job->kernel));
	cJSON_Delete(o);
	return 0;
}

bool lava_job_done(const struct lava_job *job)
{
	return !strcmp(job->state, "Finished");
}

/*
 * The message of a target line of the log, or NULL: `- {"dt": …, "lvl":
 * "target", "msg": "…"}`. Only lines that are also JSON count (ours are:
 * markers and base64); any other line is the console's, not ours.
 */
static cJSON *target_line(const char *line, const char **msg)
{
	cJSON *o;

	if (line[0] == '-' && line[1] == ' ')
		line += 2;
	if (line[0] != '{' || !strstr(line, "\"target\""))
		return NULL;
	o = cJSON_Parse(line);
	if (!o)
		return NULL;
	*msg = json_get_str(o, "msg", NULL);
	if (!*msg || strcmp(json_get_str(o, "lvl", ""),
			    "target")) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static int b64_val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

struct b64 {
	unsigned char *out;
	size_t len, cap;
	unsigned int acc, bits;
	bool bad, ended;		/* a stray character; '=' seen */
};

/* Appends one base64 line; a line of anything else marks it bad. */
static void b64_line(struct b64 *b, const char *s)
{
	for (; *s; s++) {
		int v = b64_val((unsigned char)*s);

		if (*s == '=') {
			b->ended = true;
			continue;
		}
		if (*s == '\r' || *s == ' ')
			continue;
		if (v < 0 || b->ended) {
			b->bad = true;
			return;
		}
		b->acc = (b->acc << 6) | (unsigned int)v;
		b->bits += 6;
		if (b->bits >= 8) {
			if (b->len == b->cap) {
				size_t cap = b->cap ? b->cap * 2 : 65536;
				unsigned char *p = realloc(b->out, cap);

				if (!p) {
					b->bad = true;
					return;
				}
				b->out = p;
				b->cap = cap;
			}
			b->bits -= 8;
			b->out[b->len++] = (unsigned char)(b->acc >> b->bits);
			b->acc &= (1u << b->bits) - 1;
		}
	}
}

int lava_log_results(const char *log, char *run_id, size_t len,
		     unsigned char **tgz, size_t *tgz_len)
{
	const size_t nb = strlen(LAVA_RESULTS_BEGIN);
	char want[65] = "", got[65], *line = NULL;
	struct b64 b = { 0 };
	const char *p = log, *e, *msg;
	bool in = false, done = false;
	size_t cap = 0;

	while (p && *p && !done) {
		cJSON *o;
		size_t n;

		e = strchr(p, '\n');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n + 1 > cap) {
			char *q = realloc(line, n + 1);

			if (!q) {
				free(line);
				free(b.out);
				return -ENOMEM;
			}
			line = q;
			cap = n + 1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = e ? e + 1 : NULL;
		o = target_line(line, &msg);
		if (!o)
			continue;
		if (!strncmp(msg, LAVA_RESULTS_BEGIN " ", nb + 1)) {
			/* A later BEGIN starts over: the last one counts. */
			char id[256] = "";

			free(b.out);
			memset(&b, 0, sizeof(b));
			if (sscanf(msg + nb + 1, "%255s %64s", id, want) == 2 &&
			    strlen(want) == 64) {
				snprintf(run_id, len, "%s", id);
				in = true;
			}
		} else if (in && !strcmp(msg, LAVA_RESULTS_END)) {
			done = true;
		} else if (in && !(msg[0] == '+' && msg[1] == ' ')) {
			/* (not the shell's own trace of a step: set -x) */
			b64_line(&b, msg);
		}
		cJSON_Delete(o);
	}
	free(line);
	if (!done) {
		free(b.out);
		return -ENOENT;
	}
	if (b.bad || !b.len) {
		pr_err("lava: the results in the job's log do not decode as "
		       "base64");
		free(b.out);
		return -EBADMSG;
	}
	sha256_buf(b.out, b.len, got);
	if (strcmp(got, want)) {
		pr_err("lava: the results in the job's log are damaged (sha256 "
		       "%.12s…, the guest's %.12s…)", got, want);
		free(b.out);
		return -EBADMSG;
	}
	*tgz = b.out;
	*tgz_len = b.len;
	return 0;
}

/*
 * LAVA's reason for a job that failed, from its log: the lava "job" test
 * case's error_type and error_msg, and the first error line.
 */
int lava_log_reason(const char *log, char *buf, size_t len)
{
	char first[400] = "", type[64] = "", msg[400] = "", *line;
	const char *p = log, *e;

	buf[0] = '\0';
	while (p && *p) {
		cJSON *o, *m;
		const char *lvl;

		e = strchr(p, '\n');
		line = strndup(p, e ? (size_t)(e - p) : strlen(p));
		p = e ? e + 1 : NULL;
		if (!line)
			return -ENOMEM;
		o = cJSON_Parse(line[0] == '-' && line[1] == ' ' ? line + 2 :
				line);
		free(line);
		lvl = json_get_str(o, "lvl", NULL);
		m = cJSON_GetObjectItem(o, "msg");
		if (lvl && !strcmp(lvl, "error") && cJSON_IsString(m) &&
		    !first[0])
			snprintf(first, sizeof(first), "%s", m->valuestring);
		if (lvl && !strcmp(lvl, "results") && cJSON_IsObject(m) &&
		    !strcmp(json_get_str(m, "definition", ""), "lava") &&
		    !strcmp(json_get_str(m, "case", ""),
			    "job")) {
			snprintf(type, sizeof(type), "%s",
				 json_get_str(m, "error_type", ""));
			snprintf(msg, sizeof(msg), "%s",
				 json_get_str(m, "error_msg", ""));
		}
		cJSON_Delete(o);
	}
	if (type[0] || msg[0])
		rtpaths_fmt(buf, len, "%s%s%s%s%s%s", type, type[0] ? " error"
			    : "", type[0] && msg[0] ? ": " : "", msg,
			    first[0] ? "; " : "", first);
	else
		rtpaths_fmt(buf, len, "%s", first);
	return buf[0] ? 0 : -ENOENT;
}
