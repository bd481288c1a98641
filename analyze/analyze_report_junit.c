// SPDX-License-Identifier: GPL-2.0-only
/*
 * JUnit XML for CI: one testcase per comparison. REGRESSION is a failure,
 * INCONCLUSIVE and INVALID are errors, SKIPPED is skipped; a run that did
 * not complete adds an error testcase of its own, so it never passes.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze_report.h"
#include "parse.h"

static void junit_body(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	char name[112], vals[64], adj[192], meas[160];
	size_t i;

	an_cmp_measured(meas, sizeof(meas), c);
	fputs("measured: ", f);
	an_xml_escape(f, meas);
	fputc('\n', f);
	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		an_line_label(name, sizeof(name), l);
		an_line_values(vals, sizeof(vals), l);
		an_line_adjusted(adj, sizeof(adj), l);
		fprintf(f, "%s: ", name);
		an_xml_escape(f, vals);
		if (adj[0]) {
			fputs(" (", f);
			an_xml_escape(f, adj);
			fputc(')', f);
		}
		fprintf(f, ", %s%s: ", an_line_verdict(l),
			(int)i == res->decisive ? " (the verdict rests on it)" :
			"");
		an_xml_escape(f, l->evidence);
		fputc('\n', f);
	}
	for (i = 0; i < res->nnotes; i++) {
		fputs("note: ", f);
		an_xml_escape(f, res->notes[i]);
		fputc('\n', f);
	}
}

static void junit_case(FILE *f, const char *classname, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	enum an_verdict counts = an_cmp_counts(c);
	const char *tag = NULL;

	fprintf(f, "    <testcase classname=\"");
	an_xml_escape(f, classname);
	fprintf(f, "\" name=\"");
	an_xml_escape(f, c->cand->name);
	fprintf(f, " vs ");
	an_xml_escape(f, c->base->name);
	/* A skipped comparison measured nothing of its own. */
	fprintf(f, "\" time=\"%.3f\">\n", res->verdict == AN_SKIPPED ? 0 :
		an_cmp_seconds(c));
	if (counts == AN_REGRESSION)
		tag = "failure";
	else if (counts == AN_INCONCLUSIVE || counts == AN_INVALID)
		tag = "error";
	if (res->verdict == AN_SKIPPED) {
		fprintf(f, "      <skipped message=\"");
		an_xml_escape(f, res->reason);
		fprintf(f, "\"/>\n");
	} else if (tag) {
		fprintf(f, "      <%s type=\"%s\" message=\"%s: ", tag,
			an_verdict_name(counts),
			an_verdict_name(res->verdict));
		an_xml_escape(f, res->reason);
		fprintf(f, "\">");
		junit_body(f, c);
		fprintf(f, "</%s>\n", tag);
	}
	fprintf(f, "      <system-out>%s", an_verdict_name(res->verdict));
	if (counts != res->verdict)
		fprintf(f, " (%s control: counts as %s)", c->control,
			an_verdict_name(counts));
	fputs(": ", f);
	an_xml_escape(f, res->reason);
	fputc('\n', f);
	junit_body(f, c);
	fprintf(f, "</system-out>\n    </testcase>\n");
}

static void property(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	an_xml_escape(f, value);
	fprintf(f, "\"/>\n");
}

/* Kernel, preemption model, suite hash: what a CI reader filters on. */
static void junit_properties(FILE *f, const struct an_report *r)
{
	const struct an_system *s = r->nsystems ?
				    &r->systems[r->nsystems - 1] : NULL;
	char buf[400];

	fprintf(f, "    <properties>\n");
	if (s) {
		property(f, "kernel", an_system_kernel(s, buf, sizeof(buf)));
		property(f, "kernel.release", s->release);
		property(f, "preemption_model",
			 an_system_preempt(s, buf, sizeof(buf)));
		property(f, "suite", s->suite);
		property(f, "suite_sha256", s->suite_sha256);
		property(f, "run_id", s->run_id);
		property(f, "cmdline", s->cmdline);
		property(f, "config_sha256", s->config_sha256);
		property(f, "cyclictest", s->cyclictest);
		property(f, "stress-ng", s->stress_ng);
		property(f, "clock", s->clock_statement[0] ? s->clock : "");
		property(f, "clock_statement", s->clock_statement);
	}
	property(f, "rtgate", RTGATE_VERSION);
	if (r->scale > 0) {
		an_sfmt(buf, sizeof(buf), "%g", r->scale);
		property(f, "duration_scale", buf);
	}
	property(f, "overall", r->ncmps ? an_verdict_name(r->worst) : "");
	an_sfmt(buf, sizeof(buf), "%d", r->exit_code);
	property(f, "exit_code", buf);
	fprintf(f, "    </properties>\n");
}

/*
 * When and where: the run's start (Ant's format, no zone; it is UTC) and
 * its host, else now and this machine (`compare` of plain files).
 */
static void junit_when_where(const struct an_report *r, char *ts, size_t tlen,
			     char *host, size_t hlen, double *seconds)
{
	const struct an_system *s = r->nsystems ? &r->systems[0] : NULL;
	time_t a = time(NULL), b;
	struct tm tm;

	*seconds = -1;
	if (s && !parse_utc_time(s->start_time, &a) &&
	    !parse_utc_time(s->end_time, &b) && b >= a)
		*seconds = difftime(b, a);
	gmtime_r(&a, &tm);
	strftime(ts, tlen, "%Y-%m-%dT%H:%M:%S", &tm);
	if (s && s->host[0])
		an_sfmt(host, hlen, "%s", s->host);
	else if (gethostname(host, hlen) || !host[0])
		an_sfmt(host, hlen, "localhost");
	host[hlen - 1] = '\0';
}

int an_report_junit(const struct an_report *r, FILE *f)
{
	size_t i, fail = 0, err = 0, skip = 0, n = r->ncmps;
	bool incomplete = r->status && strcmp(r->status, "complete");
	const char *id = r->run_id ? r->run_id : "compare";
	char ts[32], host[256], cls[200], counts[240];
	double secs, sum = 0;

	for (i = 0; i < r->ncmps; i++) {
		enum an_verdict v = an_cmp_counts(&r->cmps[i]);

		fail += v == AN_REGRESSION;
		err += v == AN_INCONCLUSIVE || v == AN_INVALID;
		skip += r->cmps[i].res.verdict == AN_SKIPPED;
		if (r->cmps[i].res.verdict != AN_SKIPPED)
			sum += an_cmp_seconds(&r->cmps[i]);
	}
	n += incomplete;
	err += incomplete;
	junit_when_where(r, ts, sizeof(ts), host, sizeof(host), &secs);
	if (secs < 0)
		secs = sum;
	an_sfmt(cls, sizeof(cls), "rtgate.%s", r->nsystems &&
		r->systems[0].suite[0] ? r->systems[0].suite : id);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"rtgate\" tests=\"%zu\" failures=\"%zu\""
		" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n", n, fail, err,
		skip, secs);
	fprintf(f, "  <testsuite name=\"rtgate.");
	an_xml_escape(f, id);
	fprintf(f, "\" package=\"");
	an_xml_escape(f, cls);
	fprintf(f, "\" id=\"0\" timestamp=\"%s\" hostname=\"", ts);
	an_xml_escape(f, host);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\" time=\"%.3f\">\n", n, fail, err, skip, secs);
	junit_properties(f, r);
	for (i = 0; i < r->ncmps; i++)
		junit_case(f, cls, &r->cmps[i]);
	if (incomplete) {
		fprintf(f, "    <testcase classname=\"");
		an_xml_escape(f, cls);
		fprintf(f, "\" name=\"run complete\" time=\"0\">\n"
			"      <error type=\"INCOMPLETE\" message=\"the run is "
			"%s: it never passes a gate\"/>\n    </testcase>\n",
			r->status);
	}
	fprintf(f, "    <system-out>rtgate: ");
	an_xml_escape(f, an_report_counts(r, counts, sizeof(counts)));
	fprintf(f, " (exit %d)</system-out>\n    <system-err></system-err>\n"
		"  </testsuite>\n</testsuites>\n", r->exit_code);
	return ferror(f) ? -1 : 0;
}
