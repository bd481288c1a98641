/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtla's own auto-analysis of timerlat scenarios run with `--trace
 * spikes|on` (docs/tracing.md, "rtla auto-analysis"): after each
 * repetition's histogram the runner let `rtla timerlat top --aa-only US`
 * catch one wake-up of US or more and kept what rtla said about it as
 * rtla-aa.txt (the manifest's "rtla_aa" says with which threshold, and
 * whether one came). This module parses that text and gives the reports
 * one section per scenario: per repetition, the CPU, its latency and
 * rtla's breakdown (IRQ handler delay, IRQ duration, the blocking thread,
 * IRQ / softirq / thread interference), the largest part named first.
 *
 *	struct an_aa aa;
 *	if (!an_aa_parse("rtla-aa.txt", text, &aa))
 *		an_aa_describe(&aa.cpus[0], buf, sizeof(buf));
 */
#ifndef RTGATE_ANALYZE_RTLA_AA_H
#define RTGATE_ANALYZE_RTLA_AA_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "analyze_report.h"

#define AN_AA_MAX_CPUS	8

/* One "## CPU N hit stop tracing, analyzing it ##" block. */
struct an_aa_cpu {
	int cpu;
	bool irq;		/* the IRQ latency hit (else the thread's) */
	double total_us;	/* the "(100%)" line */
	double irq_latency_us;
	double irq_delay_us, irq_delay_pct;	/* "IRQ handler delay" */
	bool from_idle;		/* "(exit from idle)" */
	double irq_duration_us;	/* "Timerlat IRQ duration" */
	double blocking_us;	/* "Blocking thread" (thread hits only) */
	char blocking[64];	/* comm:pid of the blocking thread */
	double nmi_us, irq_if_us, softirq_if_us, thread_if_us;
};

struct an_aa {
	struct an_aa_cpu cpus[AN_AA_MAX_CPUS];
	int nr_cpus;
	bool stopped;		/* "... hit stop tracing" */
	double max_latency_us;	/* "Max latency was" (no hit); -1 absent */
	double idle_max_us;	/* "Max timerlat IRQ latency from idle"; -1 */
	int idle_cpu;
};

/*
 * Parses rtla's output (@name for messages). 0; -EINVAL, said with
 * @name:line, for an analysis block cut before its total line or a number
 * that does not read.
 */
int an_aa_parse(const char *name, const char *text, struct an_aa *aa);
/* "CPU 1, thread latency 20053.1 us: blocking thread inject:212 ..." */
void an_aa_describe(const struct an_aa_cpu *c, char *buf, size_t len);

/* The reports' sections; nothing when no repetition has an analysis. */
void an_aa_txt(const struct an_report *r, FILE *f);
void an_aa_md(const struct an_report *r, FILE *f);
void an_aa_html(const struct an_report *r, FILE *f);
/* The "rtla_aa" array of report.json (docs/report-schema.md). */
cJSON *an_aa_json(const struct an_report *r);

#endif
