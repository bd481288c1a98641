// SPDX-License-Identifier: GPL-2.0-only
/*
 * JUnit XML for CI: one testcase per comparison, as the outcome table
 * (common/cmd/outcome.h, docs/exports.md) says: a REGRESSION is a failure,
 * INCONCLUSIVE and INVALID are errors, SKIPPED is skipped. A run whose
 * outcome no comparison carries (it did not complete, or every
 * comparison was SKIPPED) adds an error testcase "suite verdict", so the
 * file never passes where the exit code does not.
 *
 * The strictest common form: valid against Apache Ant's JUnit schema as
 * Windy Road publishes it (tests/schemas/junit-ant.xsd) and against
 * tests/schemas/junit-strict.xsd -- no attributes on <testsuites>, no
 * <system-out> inside a <testcase>: each comparison's evidence is in the
 * suite's <system-out> (and in its <failure>/<error>).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/report/report.h"
#include "outcome.h"
#include "parse.h"
#include "rtpaths.h"
#include "textfmt.h"

static void junit_body(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	char name[112], vals[64], adj[192], meas[160];
	size_t i;

	an_cmp_measured(meas, sizeof(meas), c);
	fputs("measured: ", f);
	text_xml_escape(f, meas);
	fputc('\n', f);
	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];

		an_line_label(name, sizeof(name), l);
		an_line_values(vals, sizeof(vals), l);
		an_line_adjusted(adj, sizeof(adj), l);
		fprintf(f, "%s: ", name);
		text_xml_escape(f, vals);
		if (adj[0]) {
			fputs(" (", f);
			text_xml_escape(f, adj);
			fputc(')', f);
		}
		fprintf(f, ", %s%s: ", an_line_verdict(l),
			(int)i == res->decisive ? " (the verdict rests on it)" :
			"");
		text_xml_escape(f, l->evidence);
		fputc('\n', f);
	}
	for (i = 0; i < res->nnotes; i++) {
		fputs("note: ", f);
		text_xml_escape(f, res->notes[i]);
		fputc('\n', f);
	}
}

static const struct outcome *junit_outcome(const struct an_cmp *c)
{
	return outcome_get(outcome_of_comparison(
		an_verdict_name(c->res.verdict),
		an_verdict_name(an_cmp_counts(c)), c->control, c->res.reason));
}

static void junit_case(FILE *f, const char *classname, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	const struct outcome *o = junit_outcome(c);

	fprintf(f, "    <testcase classname=\"");
	text_xml_escape(f, classname);
	fprintf(f, "\" name=\"");
	text_xml_escape(f, c->cand->name);
	fprintf(f, " vs ");
	text_xml_escape(f, c->base->name);
	/* A skipped comparison measured nothing of its own. */
	fprintf(f, "\" time=\"%.3f\"", res->verdict == AN_SKIPPED ? 0 :
		an_cmp_seconds(c));
	if (!*o->junit) {
		fprintf(f, "/>\n");
		return;
	}
	fprintf(f, ">\n");
	if (!strcmp(o->junit, "skipped")) {
		fprintf(f, "      <skipped message=\"");
		text_xml_escape(f, res->reason);
		fprintf(f, "\"/>\n");
	} else {
		fprintf(f, "      <%s type=\"%s\" message=\"%s: ", o->junit,
			o->name, an_verdict_name(res->verdict));
		text_xml_escape(f, res->reason);
		fprintf(f, "\">");
		junit_body(f, c);
		fprintf(f, "</%s>\n", o->junit);
	}
	fprintf(f, "    </testcase>\n");
}

/* Every comparison's verdict and evidence, in the suite's <system-out>. */
static void junit_system_out(FILE *f, const struct an_report *r)
{
	char counts[240];
	size_t i;

	fprintf(f, "    <system-out>rtgate: ");
	text_xml_escape(f, an_report_counts(r, counts, sizeof(counts)));
	fprintf(f, " (exit %d)\n", r->exit_code);
	for (i = 0; i < r->ncmps; i++) {
		const struct an_cmp *c = &r->cmps[i];
		enum an_verdict counted = an_cmp_counts(c);

		fputc('\n', f);
		text_xml_escape(f, c->cand->name);
		fputs(" vs ", f);
		text_xml_escape(f, c->base->name);
		fprintf(f, ": %s", an_verdict_name(c->res.verdict));
		if (counted != c->res.verdict)
			fprintf(f, " (%s control: counts as %s)", c->control,
				an_verdict_name(counted));
		fputs(": ", f);
		text_xml_escape(f, c->res.reason);
		fputc('\n', f);
		junit_body(f, &r->cmps[i]);
	}
	fprintf(f, "</system-out>\n");
}

static void property(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	text_xml_escape(f, value);
	fprintf(f, "\"/>\n");
}

/* The system facts, as the reports' header words them, when recorded. */
static void junit_facts(FILE *f, const struct an_system *s)
{
	if (s->facts) {
		property(f, "machine", s->machine);
		property(f, "topology", s->topology);
		property(f, "clocksource", s->clocksource);
		property(f, "cpuidle", s->cpuidle);
		property(f, "rt_throttle", s->rt_throttle);
		property(f, "irqs", s->irqs);
		property(f, "thp", s->thp);
	}
	if (s->isolation[0])
		property(f, "isolation", s->isolation);
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
		junit_facts(f, s);
	}
	property(f, "rtgate", RTGATE_VERSION);
	if (r->scale > 0) {
		rtpaths_fmt(buf, sizeof(buf), "%g", r->scale);
		property(f, "duration_scale", buf);
	}
	property(f, "overall", r->ncmps ? an_verdict_name(r->worst) : "");
	rtpaths_fmt(buf, sizeof(buf), "%d", r->exit_code);
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
		rtpaths_fmt(host, hlen, "%s", s->host);
	else if (gethostname(host, hlen) || !host[0])
		rtpaths_fmt(host, hlen, "localhost");
	host[hlen - 1] = '\0';
}

int an_report_junit(const struct an_report *r, FILE *f)
{
	size_t i, fail = 0, err = 0, skip = 0, n = r->ncmps;
	bool complete = !r->status || !strcmp(r->status, "complete");
	const char *id = r->run_id ? r->run_id : "compare";
	struct outcome_tally tally = { 0 };
	const struct outcome *run;
	char ts[32], host[256], cls[200];
	double secs, sum = 0;
	bool own_case;

	for (i = 0; i < r->ncmps; i++) {
		const struct outcome *o = junit_outcome(&r->cmps[i]);

		outcome_tally_add(&tally, o->kind);
		fail += !strcmp(o->junit, "failure");
		err += !strcmp(o->junit, "error");
		skip += !strcmp(o->junit, "skipped");
		if (r->cmps[i].res.verdict != AN_SKIPPED)
			sum += an_cmp_seconds(&r->cmps[i]);
	}
	/* The run's own outcome, where no comparison carries it. */
	run = outcome_get(outcome_tally_run(&tally, complete));
	own_case = run->kind == OUTCOME_INCOMPLETE ||
		   run->kind == OUTCOME_NOTHING_MEASURED;
	n += own_case;
	err += own_case;
	junit_when_where(r, ts, sizeof(ts), host, sizeof(host), &secs);
	if (secs < 0)
		secs = sum;
	rtpaths_fmt(cls, sizeof(cls), "rtgate.%s", r->nsystems &&
		    r->systems[0].suite[0] ? r->systems[0].suite : id);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites>\n");
	fprintf(f, "  <testsuite name=\"rtgate.");
	text_xml_escape(f, id);
	fprintf(f, "\" package=\"");
	text_xml_escape(f, cls);
	fprintf(f, "\" id=\"0\" timestamp=\"%s\" hostname=\"", ts);
	text_xml_escape(f, host);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\" time=\"%.3f\">\n", n, fail, err, skip, secs);
	junit_properties(f, r);
	for (i = 0; i < r->ncmps; i++)
		junit_case(f, cls, &r->cmps[i]);
	if (own_case) {
		fprintf(f, "    <testcase classname=\"");
		text_xml_escape(f, cls);
		fprintf(f, "\" name=\"suite verdict\" time=\"0\">\n"
			"      <error type=\"%s\" message=\"", run->name);
		if (run->kind == OUTCOME_INCOMPLETE)
			fprintf(f, "the run is %s: it never passes a gate",
				r->status);
		else
			fprintf(f, "every comparison was SKIPPED: a gate that "
				"measured nothing has not passed");
		fprintf(f, "\"/>\n    </testcase>\n");
	}
	junit_system_out(f, r);
	fprintf(f, "    <system-err></system-err>\n  </testsuite>\n"
		"</testsuites>\n");
	return ferror(f) ? -1 : 0;
}
