// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's reports written into a directory, every format through a memory
 * stream and atomically: report.txt, .md, .json, .html and junit.xml.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/report.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "rtpaths.h"
#include "textfmt.h"

/* ---- writing ---- */

static int write_stream(const char *dir, const char *name,
			int (*fn)(const struct an_report *, FILE *),
			const struct an_report *r)
{
	struct fsio_stream s;
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	if (fsio_stream_open(&s))
		return -ENOMEM;
	rtpaths_fmt(path, sizeof(path), "%s/%s", dir, name);
	ret = fn(r, s.f);
	if (fclose(s.f) && !ret)
		ret = -EIO;
	/* Every report is UTF-8, whatever bytes a folder's name had. */
	text = ret ? NULL : text_utf8_repair(s.buf, s.len, &len);
	if (!ret && !text)
		ret = -ENOMEM;
	if (!ret)
		ret = fsio_write_atomic(path, text, len);
	free(text);
	free(s.buf);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	return ret;
}

static int write_json(const char *dir, const struct an_report *r)
{
	char path[PATH_MAX];
	cJSON *json = an_report_json(r);
	int ret;

	if (!json)
		return -ENOMEM;
	rtpaths_fmt(path, sizeof(path), "%s/report.json", dir);
	ret = json_write_file(path, json);
	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	cJSON_Delete(json);
	return ret;
}

int an_report_write(const struct an_report *r, const char *dir,
		    unsigned int formats)
{
	int ret = fsio_mkdir_p(dir, 0755);

	if (ret) {
		pr_err("%s: %s", dir, strerror(-ret));
		return ret;
	}
	if (!ret && (formats & AN_FMT_TXT))
		ret = write_stream(dir, "report.txt", an_report_txt, r);
	if (!ret && (formats & AN_FMT_MD))
		ret = write_stream(dir, "report.md", an_report_md, r);
	if (!ret && (formats & AN_FMT_JSON))
		ret = write_json(dir, r);
	if (!ret && (formats & AN_FMT_JUNIT))
		ret = write_stream(dir, "junit.xml", an_report_junit, r);
	if (!ret && (formats & AN_FMT_HTML))
		ret = write_stream(dir, "report.html", an_report_html, r);
	return ret;
}
