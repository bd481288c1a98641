// SPDX-License-Identifier: GPL-2.0-only
/*
 * JUnit XML for CI: one testcase per comparison. REGRESSION is a failure,
 * INCONCLUSIVE and INVALID are errors, SKIPPED is skipped; a run that did
 * not complete adds an error testcase of its own, so it never passes.
 */
#include <stdio.h>
#include <string.h>

#include "analyze_report.h"

void an_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		switch (ch) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 forbids most control characters. */
			if (ch < 0x20 && ch != '\n' && ch != '\t')
				fputc(' ', f);
			else
				fputc(ch, f);
		}
	}
}

static void junit_body(FILE *f, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	size_t i;

	for (i = 0; i < res->nlines; i++) {
		const struct an_line *l = &res->lines[i];
		char cpu[16];

		if (l->cpu < 0)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "CPU %d", l->cpu);
		fprintf(f, "%s %s: %g -> %g %s (%s): ", l->metric, cpu,
			l->base, l->cand, l->unit, an_verdict_name(l->verdict));
		an_xml_escape(f, l->evidence);
		fputc('\n', f);
	}
	for (i = 0; i < res->nnotes; i++) {
		fputs("note: ", f);
		an_xml_escape(f, res->notes[i]);
		fputc('\n', f);
	}
}

static void junit_case(FILE *f, const char *suite, const struct an_cmp *c)
{
	const struct an_result *res = &c->res;
	enum an_verdict counts = an_cmp_counts(c);
	const char *tag = NULL;

	fprintf(f, "    <testcase classname=\"rtgate.");
	an_xml_escape(f, suite);
	fprintf(f, "\" name=\"");
	an_xml_escape(f, c->cand->name);
	fprintf(f, " vs ");
	an_xml_escape(f, c->base->name);
	fprintf(f, "\" time=\"0\">\n");
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
	fprintf(f, "      <system-out>%s: ", an_verdict_name(res->verdict));
	an_xml_escape(f, res->reason);
	fputc('\n', f);
	junit_body(f, c);
	fprintf(f, "</system-out>\n    </testcase>\n");
}

int an_report_junit(const struct an_report *r, FILE *f)
{
	size_t i, fail = 0, err = 0, skip = 0, n = r->ncmps;
	bool incomplete = r->status && strcmp(r->status, "complete");
	const char *suite = r->run_id ? r->run_id : "compare";

	for (i = 0; i < r->ncmps; i++) {
		enum an_verdict v = an_cmp_counts(&r->cmps[i]);

		fail += v == AN_REGRESSION;
		err += v == AN_INCONCLUSIVE || v == AN_INVALID;
		skip += v == AN_SKIPPED;
	}
	n += incomplete;
	err += incomplete;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"rtgate\" tests=\"%zu\" failures=\"%zu\""
		" errors=\"%zu\" skipped=\"%zu\">\n", n, fail, err, skip);
	fprintf(f, "  <testsuite name=\"rtgate.");
	an_xml_escape(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\">\n", n, fail, err, skip);
	for (i = 0; i < r->ncmps; i++)
		junit_case(f, suite, &r->cmps[i]);
	if (incomplete) {
		fprintf(f, "    <testcase classname=\"rtgate.");
		an_xml_escape(f, suite);
		fprintf(f, "\" name=\"run complete\" time=\"0\">\n"
			"      <error type=\"INCOMPLETE\" message=\"the run is "
			"%s: it never passes a gate\"/>\n    </testcase>\n",
			r->status);
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return ferror(f) ? -1 : 0;
}
