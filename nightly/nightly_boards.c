// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dashboard's boards side by side: per suite, one column per host
 * (a LAVA board, or the machine itself) with its latest run — complete or
 * not, and why — and each scenario's verdict, in its latest complete run,
 * against that host's own history. A lab admin reads in one table which board got worse tonight
 * and which did not come back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history.h"
#include "nightly/nightly_priv.h"
#include "textfmt.h"

#define MAX_HOSTS	32

/* The verdict against history of @scenario in run @id, or NULL. */
static const char *verdict_of(struct history_verdict_row *v, size_t n,
			      const char *scenario, const char **reason)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].source, "history") &&
		    !strcmp(v[i].scenario, scenario)) {
			*reason = v[i].reason;
			return v[i].verdict;
		}
	return NULL;
}

static void suite_table(FILE *f, struct history *h, const char *suite,
			const struct history_run *runs, size_t n)
{
	const struct history_run *latest[MAX_HOSTS];
	const struct history_run *measured[MAX_HOSTS] = { 0 };
	struct history_verdict_row *v[MAX_HOSTS] = { 0 };
	struct history_scenario *sc = NULL;
	size_t nv[MAX_HOSTS] = { 0 }, nh = 0, nsc = 0, i, j;

	/* The newest run of each host (runs are oldest first). */
	for (i = 0; i < n; i++) {
		if (strcmp(runs[i].suite, suite))
			continue;
		for (j = 0; j < nh; j++)
			if (!strcmp(latest[j]->host, runs[i].host))
				break;
		if (j == nh && nh == MAX_HOSTS)
			continue;
		latest[j] = &runs[i];
		if (j == nh)
			measured[nh++] = NULL;
		if (!strcmp(runs[i].status, "complete"))
			measured[j] = &runs[i];
	}
	/* Side by side in name order: rtgate-qemu-01 before -02. */
	for (i = 1; i < nh; i++)
		for (j = i; j > 0 && strcmp(latest[j - 1]->host,
					    latest[j]->host) > 0; j--) {
			const struct history_run *t = latest[j];
			const struct history_run *tm = measured[j];

			latest[j] = latest[j - 1];
			measured[j] = measured[j - 1];
			latest[j - 1] = t;
			measured[j - 1] = tm;
		}
	fprintf(f, "<h3>suite ");
	text_xml_escape(f, suite);
	fputs("</h3>\n<table class=\"boards\">\n<tr><th></th>", f);
	for (j = 0; j < nh; j++) {
		fputs("<th>", f);
		text_xml_escape(f, latest[j]->host);
		fputs("</th>", f);
	}
	fputs("</tr>\n<tr><th>latest run</th>", f);
	/* (then per scenario: the verdict of its latest complete run) */
	for (j = 0; j < nh; j++) {
		const struct history_run *r = latest[j];

		fprintf(f, "<td class=\"%s\" title=\"", r->status);
		text_xml_escape(f, r->status_reason);
		fputs("\">", f);
		text_xml_escape(f, r->run_id);
		fputs("<br>", f);
		text_xml_escape(f, r->status);
		if (strcmp(r->status, "complete")) {
			fputs(": ", f);
			text_xml_escape(f, r->status_reason);
		} else {
			fputs(" · ", f);
			text_xml_escape(f, r->kernel_release);
		}
		fputs("</td>", f);
		/* The verdicts: of its latest run that measured. */
		if (!measured[j])
			continue;
		history_verdicts(h, measured[j]->id, &v[j], &nv[j]);
		if (!sc)
			history_scenarios(h, measured[j]->id, &sc, &nsc);
	}
	fputs("</tr>\n", f);
	for (i = 0; i < nsc; i++) {
		fputs("<tr><th>", f);
		text_xml_escape(f, sc[i].name);
		fputs("</th>", f);
		for (j = 0; j < nh; j++) {
			const char *reason = "";
			const char *verdict = verdict_of(v[j], nv[j],
							 sc[i].name, &reason);

			if (!verdict)
				verdict = measured[j] ? "not judged" :
					  "never measured";
			fprintf(f, "<td title=\"");
			text_xml_escape(f, reason);
			fputs("\">", f);
			text_xml_escape(f, verdict);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (j = 0; j < nh; j++)
		free(v[j]);
	free(sc);
}

int nightly_boards_html(struct history *h, FILE *f)
{
	struct history_run *runs = NULL;
	size_t n = 0, i, j;
	int ret;

	ret = history_runs(h, NULL, &runs, &n);
	if (ret)
		return ret;
	if (n)
		fputs("<h2>Hosts side by side</h2>\n<p>Per suite, the latest "
		      "run of every host (a LAVA board, or this machine): "
		      "whether it completed (and why not), and each "
		      "scenario's verdict in its latest complete run against "
		      "that host's own history.</p>\n", f);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(runs[j].suite, runs[i].suite))
				break;
		if (j == i)
			suite_table(f, h, runs[i].suite, runs, n);
	}
	free(runs);
	return 0;
}
