// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest that crashed or hung (lab_priv.h): the oops, BUG or panic read
 * from the console, written as crash.json and crash.txt beside the
 * results.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "jsonio.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"

#define OOPS_MAX_LINES	48

/* Lines that start a kernel crash report on the console. */
static const char *crash_start(const char *line)
{
	static const char *const marks[] = {
		"Oops:", "BUG:", "kernel BUG at", "general protection fault",
		"Unable to handle kernel", "Kernel panic", "watchdog: BUG:",
	};
	const char *hit;
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		hit = strstr(line, marks[i]);
		if (hit)
			return hit;
	}
	return NULL;
}

/*
 * The runner's progress: "[7/10] hrtick rep 4/5: start" (plain) or, on the
 * guest's console (a terminal), "[7/10] hrtick rep 4/5  3s left" redrawn
 * after "\r\033[K" and ended by "[7/10] hrtick rep 4/5: ok". Every
 * segment of @line is read; the last one that names a step wins.
 */
static void progress_steps(struct lab_crash *c, char *line)
{
	char *seg, *next, name[128];
	unsigned int i, n, r, rr;
	int used;

	for (seg = line; seg; seg = next) {
		next = strchr(seg, '\r');
		if (next)
			*next++ = '\0';
		while (*seg == '\033') {
			seg++;
			if (*seg == '[')
				while (*seg && !((*seg >= 'A' && *seg <= 'Z') ||
						 (*seg >= 'a' && *seg <= 'z')))
					seg++;
			if (*seg)
				seg++;
		}
		/* Plain lines start with the time: "12:00:01 [1/4] ...". */
		seg = strchr(seg, '[');
		if (!seg || sscanf(seg, "[%u/%u] %127s rep %u/%u%n", &i, &n,
				   name, &r, &rr, &used) != 5)
			continue;
		rtpaths_fmt(c->step, sizeof(c->step), "%.*s", used, seg);
		rtpaths_fmt(c->scenario, sizeof(c->scenario), "%s", name);
		c->rep = r;
		c->reps = rr;
		c->step_ended = seg[used] == ':' &&
				strncmp(seg + used, ": start", 7);
	}
}

bool lab_crash_read(const char *console, bool hung, struct lab_crash *c)
{
	char *buf, *line, *next, *out = NULL;
	size_t len, olen = 0;
	bool crashed = false, panic = false;
	int lines = 0;

	memset(c, 0, sizeof(*c));
	if (fsio_read_all(console, &buf, &len))
		return false;
	for (line = buf; line && *line; line = next) {
		const char *hit;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hit = crash_start(line);
		/* A tty progress line has no newline: the oops may follow. */
		if (!crashed && hit) {
			char *before = strndup(line, hit - line);

			if (before)
				progress_steps(c, before);
			free(before);
		} else if (!crashed) {
			progress_steps(c, line);
		}
		for (char *cr = strchr(line, '\r'); cr; cr = strchr(cr, '\r'))
			*cr = ' ';
		if (hit && !crashed) {
			crashed = true;
			rtpaths_fmt(c->headline, sizeof(c->headline), "%s", hit);
		}
		if (hit && strstr(hit, "Kernel panic"))
			panic = true;
		if (crashed && lines < OOPS_MAX_LINES) {
			size_t n = strlen(line);
			char *grown = realloc(out, olen + n + 2);

			if (!grown)
				break;
			out = grown;
			memcpy(out + olen, line, n);
			olen += n;
			out[olen++] = '\n';
			out[olen] = '\0';
			lines++;
		}
	}
	free(buf);
	if (!crashed && !hung)
		return false;
	c->oops = out;
	rtpaths_fmt(c->kind, sizeof(c->kind), "%s", panic ? "panic" :
		    crashed ? "oops" : "timeout");
	/*
	 * No crash on the console: the limit ran out. A guest that hung and
	 * one that was only slow (a loaded host, a long --repeat) look the
	 * same from here; lab_crash_last_sign() tells the reader how long
	 * the guest had been silent.
	 */
	if (!crashed)
		rtpaths_fmt(c->headline, sizeof(c->headline), "the lab's time "
			    "limit ran out and QEMU was killed: the guest hung "
			    "or was too slow for --timeout");
	return true;
}

void lab_crash_last_sign(struct lab_crash *c, long silent_s)
{
	size_t n = strlen(c->headline);

	if (strcmp(c->kind, "timeout") || silent_s < 0)
		return;
	snprintf(c->headline + n, sizeof(c->headline) - n, "; its last "
		 "output (console or share) came %ld s before", silent_s);
}

void lab_crash_tunables(struct lab_crash *c, const char *run_dir)
{
	char path[PATH_MAX + 32];
	struct json_error err;
	const cJSON *s;
	cJSON *m;

	if (!c->scenario[0] || !run_dir || !run_dir[0])
		return;
	rtpaths_fmt(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_read_file(path, &m, &err))
		return;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), c->scenario))
			c->tunables = cJSON_Duplicate(
				cJSON_GetObjectItem(s, "tunables"), 1);
	cJSON_Delete(m);
}

/* "kernel.x=1, HRTICK=HRTICK" or "none". */
static void tunables_text(const struct lab_crash *c, char *buf, size_t len)
{
	const cJSON *t;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(t, c->tunables)
		if (cJSON_IsString(t) && used < len)
			used += snprintf(buf + used, len - used, "%s%s = %s",
					 used ? ", " : "", t->string,
					 t->valuestring);
	if (!buf[0])
		rtpaths_fmt(buf, len, "none");
}

static void where_text(const struct lab_crash *c, char *buf, size_t len)
{
	if (!c->scenario[0])
		rtpaths_fmt(buf, len, "before the runner's first repetition");
	else
		rtpaths_fmt(buf, len, "%s scenario %s, repetition %u of %u",
			    c->step_ended ? "right after" : "during",
			    c->scenario, c->rep, c->reps);
}

cJSON *lab_crash_json(const struct lab_crash *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", c->kind);
	cJSON_AddStringToObject(o, "headline", c->headline);
	if (c->scenario[0]) {
		cJSON_AddStringToObject(o, "scenario", c->scenario);
		cJSON_AddNumberToObject(o, "repetition", c->rep);
		cJSON_AddNumberToObject(o, "repetitions", c->reps);
		cJSON_AddBoolToObject(o, "during", !c->step_ended);
	} else {
		cJSON_AddNullToObject(o, "scenario");
	}
	cJSON_AddItemToObject(o, "tunables", c->tunables ?
			      cJSON_Duplicate(c->tunables, 1) :
			      cJSON_CreateObject());
	if (c->oops)
		cJSON_AddStringToObject(o, "console", c->oops);
	else
		cJSON_AddNullToObject(o, "console");
	return o;
}

static int crash_text(const struct lab_crash *c, const char *kernel,
		      char **out, size_t *len)
{
	char where[256], tun[1024];
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	where_text(c, where, sizeof(where));
	tunables_text(c, tun, sizeof(tun));
	if (!strcmp(c->kind, "timeout"))
		fprintf(f, "guest stopped at the time limit on %s, %s\n",
			kernel, where);
	else
		fprintf(f, "guest crash (%s) on %s, %s\n", c->kind, kernel,
			where);
	fprintf(f, "  %s\n", c->headline);
	fprintf(f, "  tunables of that scenario: %s\n", tun);
	if (c->oops) {
		const char *p = c->oops;

		fputs("  console:\n", f);
		while (*p) {
			size_t n = strcspn(p, "\n");

			fprintf(f, "    %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	return fclose(f) ? -EIO : 0;
}

/* report.txt / report.md: the crash at the end, when they exist. */
static int append_to(const char *dir, const char *name, const char *pre,
		     const char *text, const char *post)
{
	char path[PATH_MAX + 32], *old, *buf;
	size_t olen;
	int ret;

	rtpaths_fmt(path, sizeof(path), "%s/%s", dir, name);
	if (fsio_read_all(path, &old, &olen))
		return 0;
	if (asprintf(&buf, "%s\n%s%s%s", old, pre, text, post) < 0) {
		free(old);
		return -ENOMEM;
	}
	ret = fsio_write_atomic(path, buf, strlen(buf));
	free(buf);
	free(old);
	return ret;
}

int lab_crash_write(const struct lab_crash *c, const char *dir,
		    const char *kernel)
{
	char path[PATH_MAX + 32], where[256], *text = NULL;
	size_t len = 0;
	cJSON *j;
	int ret;

	ret = crash_text(c, kernel, &text, &len);
	if (ret)
		return ret;
	rtpaths_fmt(path, sizeof(path), "%s/crash.txt", dir);
	ret = fsio_write_atomic(path, text, len);
	if (!ret) {
		j = lab_crash_json(c);
		rtpaths_fmt(path, sizeof(path), "%s/crash.json", dir);
		ret = json_write_file(path, j);
		cJSON_Delete(j);
	}
	if (!ret)
		ret = append_to(dir, "report.txt", "", text, "");
	if (!ret)
		ret = append_to(dir, "report.md", "## Guest crash\n\n```\n",
				text, "```\n");
	where_text(c, where, sizeof(where));
	if (!ret)
		ret = lab_crash_junit(c, dir, kernel, text, where);
	free(text);
	return ret;
}

void lab_crash_free(struct lab_crash *c)
{
	free(c->oops);
	cJSON_Delete(c->tunables);
	c->oops = NULL;
	c->tunables = NULL;
}
