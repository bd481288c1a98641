/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports of a set of comparisons: text (cyclictest's T: layout, then the
 * comparison table), Markdown, JSON (docs/report-schema.md), JUnit XML and
 * a self-contained HTML page with gnuplot's SVG plots.
 */
#ifndef RTGATE_ANALYZE_REPORT_H
#define RTGATE_ANALYZE_REPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "analyze.h"
#include "analyze_util.h"

struct an_cmp {
	const struct an_side *base, *cand;
	struct an_result res;
	char control[12];	/* "positive", "negative", "shown" or "" */
};

/*
 * The verdict a comparison counts as for the gate: its own, except for a
 * positive control, which passes when it is flagged (the gate can see a
 * known latency here) and is INCONCLUSIVE when it is not (then nothing
 * this run says can be trusted). A comparison "shown" beside a positive
 * control (a timerlat control's IRQ latency) counts only when its data is
 * unusable (SKIPPED, INVALID).
 */
enum an_verdict an_cmp_counts(const struct an_cmp *c);
/* Says in the reason what a control's verdict means. */
void an_cmp_apply_control(struct an_cmp *c);

struct an_report {
	char title[160];	/* "suite quick, run ID" or "compare" */
	const char *run_dir;	/* NULL for `rtgate compare` */
	const char *run_id;
	const char *status;	/* the run's status; NULL for compare */
	struct an_gate gate;
	struct an_side **sides;	/* every scenario / input, in order */
	size_t nsides;
	struct an_cmp *cmps;
	size_t ncmps;
	enum an_verdict worst;
	int exit_code;
	double scale;		/* the run's --duration-scale; 0 unknown */
	/* Sides made for one comparison (a candidate stopped early). */
	struct an_side **views;
	size_t nviews;
};

/* The summary of one side's CPU over all its runs (a T: line). */
struct an_cpu_summary {
	int thread, prio;
	long interval_us, tid, act_us;
	unsigned long long cycles, overflows;
	long min_us, max_us;
	double avg_us;
};
void an_side_summary(const struct an_side *s, size_t j,
		     struct an_cpu_summary *out);

/* Formats "12", ">=2000", "-" (NAN); returns buf. */
const char *an_fmt_val(char *buf, size_t len, double v, bool ge);
const char *an_fmt_p(char *buf, size_t len, double p);
/* cyclictest's T: lines of a side (all runs pooled), published beneath. */
void an_report_tlines(FILE *f, const struct an_side *s);
const char *an_line_cpu(char *buf, size_t len, const struct an_line *l);
/* Writes s with XML/HTML special characters escaped. */
void an_xml_escape(FILE *f, const char *s);
/* Lines the tables show: all with few CPUs, else the telling ones. */
bool an_line_shown(const struct an_result *res, size_t i, size_t ncpus);
/* "5 us and 10%", or "10%" for a workload metric (not in us). */
const char *an_fmt_floor(char *buf, size_t len, const struct an_gate *g);
/* The verdict column: "-" for a line that neither decides nor tests. */
const char *an_line_verdict(const struct an_line *l);
/* The published value beside a line, NAN when none. */
double an_ref_value(const struct an_side *s, const struct an_line *l);

int an_report_txt(const struct an_report *r, FILE *f);
int an_report_md(const struct an_report *r, FILE *f);
cJSON *an_report_json(const struct an_report *r);
int an_report_junit(const struct an_report *r, FILE *f);
int an_report_html(const struct an_report *r, FILE *f);
/* The verdict table printed at the end of `rtgate report` and runs. */
void an_report_table(const struct an_report *r, FILE *f);

/* "scaled run: durations and loop counts x 0.05 ..." (scale != 1). */
const char *an_report_scale_note(const struct an_report *r, char *buf,
				 size_t len);

/*
 * What each workload of a side did per repetition (work done, errors) and
 * its metrics pooled: text lines for the txt, md and html reports, and the
 * "workloads" array of report.json.
 */
void an_report_workloads(FILE *f, const struct an_side *s);
cJSON *an_workloads_json(const struct an_side *s);

/* Writes the requested formats into dir (report.txt ... junit.xml). */
int an_report_write(const struct an_report *r, const char *dir,
		    unsigned int formats);

#endif
