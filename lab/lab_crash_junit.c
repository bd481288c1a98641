// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest crash in junit.xml, in the form the analyzer writes it
 * (analyze/report/analyze_report_junit.c: Ant's JUnit schema, rtgate's strict
 * one): an error testcase "guest crash: SCENARIO rep R".
 *
 * When the reports were rendered before the crash was found, the testcase
 * goes into the run's own suite, after its testcases and before its
 * <system-out> (the schema's order), and the suite's tests and errors
 * counts go up by one. Otherwise (no junit.xml, or not one of ours) the
 * file is the crash's alone: a suite "rtgate.lab" with every attribute
 * and element the schema requires.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "lab_priv.h"
#include "rtpaths.h"
#include "textfmt.h"

#define SUITE_OUT "    <system-out>"

static const char *const counts[] = { " tests=\"", " errors=\"" };

/*
 * In the first <testsuite> tag before @end: where the numbers of tests=""
 * and errors="" start (at[i], for counts[i]). 0, or -EINVAL.
 */
static int find_counts(const char *old, const char *end, const char *at[2])
{
	const char *tag = strstr(old, "<testsuite "), *gt;
	size_t i;

	if (!tag || tag > end)
		return -EINVAL;
	gt = strchr(tag, '>');
	for (i = 0; i < 2; i++) {
		at[i] = strstr(tag, counts[i]);
		if (!at[i] || !gt || at[i] > gt)
			return -EINVAL;
		at[i] += strlen(counts[i]);
	}
	return 0;
}

/* old[0, end) with the counts at at[] one higher. */
static void copy_counted(FILE *f, const char *old, const char *end,
			 const char *at[2])
{
	size_t first = at[0] < at[1] ? 0 : 1, k;
	const char *p = old;
	char *num_end;

	for (k = 0; k < 2; k++) {
		const char *a = at[k ? !first : first];
		unsigned long n = strtoul(a, &num_end, 10);

		fwrite(p, 1, a - p, f);
		fprintf(f, "%lu", n + 1);
		p = num_end;
	}
	fwrite(p, 1, end - p, f);
}

static void own_head(FILE *f, const char *kernel)
{
	char ts[32], host[256];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	if (gethostname(host, sizeof(host)) || !host[0])
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites>\n"
		"  <testsuite name=\"rtgate.lab\" package=\"rtgate.lab\" "
		"id=\"0\" timestamp=\"%s\" hostname=\"", ts);
	text_xml_escape(f, host);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
	      "time=\"0\">\n    <properties>\n"
	      "      <property name=\"kernel\" value=\"", f);
	text_xml_escape(f, kernel);
	fprintf(f, "\"/>\n      <property name=\"rtgate\" value=\"%s\"/>\n"
		"    </properties>\n", RTGATE_VERSION);
}

static void own_tail(FILE *f, const char *text)
{
	fputs(SUITE_OUT, f);
	text_xml_escape(f, text);
	fputs("</system-out>\n    <system-err></system-err>\n"
	      "  </testsuite>\n</testsuites>\n", f);
}

static void testcase(FILE *f, const struct lab_crash *c, const char *text,
		     const char *where)
{
	fputs("    <testcase classname=\"rtgate.lab\" name=\"guest crash: ",
	      f);
	text_xml_escape(f, c->scenario[0] ? c->scenario : "boot");
	if (c->scenario[0])
		fprintf(f, " rep %u", c->rep);
	fputs("\" time=\"0\">\n      <error type=\"crash\" message=\"", f);
	text_xml_escape(f, c->headline);
	fputs(" (", f);
	text_xml_escape(f, where);
	fputs(")\">", f);
	text_xml_escape(f, text);
	fputs("</error>\n    </testcase>\n", f);
}

int lab_crash_junit(const struct lab_crash *c, const char *dir,
		    const char *kernel, const char *text, const char *where)
{
	char path[PATH_MAX + 32], *old = NULL, *buf = NULL;
	const char *end = NULL, *at[2];
	size_t olen = 0, len = 0;
	FILE *f;
	int ret;

	rtpaths_fmt(path, sizeof(path), "%s/junit.xml", dir);
	if (!fsio_read_all(path, &old, &olen)) {
		end = strstr(old, SUITE_OUT);
		if (end && find_counts(old, end, at))
			end = NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		free(old);
		return -ENOMEM;
	}
	if (end)
		copy_counted(f, old, end, at);
	else
		own_head(f, kernel);
	testcase(f, c, text, where);
	if (end)
		fputs(end, f);
	else
		own_tail(f, text);
	ret = fclose(f) ? -EIO : 0;
	if (!ret)
		ret = fsio_write_atomic(path, buf, len);
	free(buf);
	free(old);
	return ret;
}
