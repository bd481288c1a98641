// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run as LAVA test cases, the report a LAVA job makes inside itself
 * (`rtgate lava report`, lava/lava_cmd.c; the job is lava/lava_job.c's):
 * every comparison becomes one lava-test-case with its result and its
 * measurement.
 *
 * Case names (LAVA accepts [-_a-zA-Z0-9.]+), one prefix, the same paths
 * as KCIDB's tests (export_kcidb.c):
 *   rtgate.SUITE                    the suite's verdict: the run's outcome,
 *                                   measurement = the exit code it makes
 *   rtgate.SUITE.SCENARIO           the comparison's verdict as it counts
 *                                   for the gate; measurement = the
 *                                   candidate's value of the line the
 *                                   verdict rests on, in its unit
 *   rtgate.SUITE.SCENARIO.max       pass, measurement = max over CPUs and
 *                                   repetitions (us)
 *   rtgate.SUITE.SCENARIO.cpuN.max  pass, the same per CPU
 *   rtgate.SUITE.exit               `rtgate run`'s own exit code
 *                                   (--exit-code): fail unless 0
 * Results come from the outcome table (common/cmd/outcome.h, docs/exports.md):
 * what does not exit 0 is "fail", never "unknown", which no gate counts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "exitcode.h"
#include "export.h"
#include "export_priv.h"
#include "fsio.h"
#include "history/history.h"
#include "log.h"
#include "outcome.h"
#include "rtpaths.h"

struct cases_ctx {
	struct history *h;
	const struct history_run *run;
	char prefix[160];		/* rtgate.SUITE */
	struct outcome_tally tally;
	int (*fn)(const struct export_lava_case *c, void *arg);
	void *arg;
};

static int emit(struct cases_ctx *x, const char *result, double measurement,
		const char *units, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int emit(struct cases_ctx *x, const char *result, double measurement,
		const char *units, const char *fmt, ...)
{
	struct export_lava_case c = { .result = result,
				      .measurement = measurement,
				      .units = units };
	size_t n;
	va_list ap;

	n = (size_t)snprintf(c.name, sizeof(c.name), "%s", x->prefix);
	va_start(ap, fmt);
	if (n < sizeof(c.name))
		vsnprintf(c.name + n, sizeof(c.name) - n, fmt, ap);
	va_end(ap);
	return x->fn(&c, x->arg);
}

/* The measured maxima: over CPUs and repetitions, and per CPU. */
static int scenario_maxima(struct cases_ctx *x, const char *scen,
			   const char *name)
{
	struct history_rep *reps;
	double max = NAN, cpu_max[1024];
	size_t n, i, j;
	int ncpu = 0, ret;

	ret = history_load_reps(x->h, x->run->id, name, &reps, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i].nr_cpus; j++) {
			const struct history_cpu *cpu = &reps[i].cpus[j];

			if (isnan(max) || cpu->max_us > max)
				max = cpu->max_us;
			if (cpu->cpu < 0 || cpu->cpu >= 1024)
				continue;
			while (ncpu <= cpu->cpu)
				cpu_max[ncpu++] = NAN;
			if (isnan(cpu_max[cpu->cpu]) ||
			    cpu->max_us > cpu_max[cpu->cpu])
				cpu_max[cpu->cpu] = cpu->max_us;
		}
	}
	history_free_reps(reps, n);
	if (isnan(max))
		return 0;
	ret = emit(x, "pass", max, "us", ".%s.max", scen);
	for (i = 0; !ret && i < (size_t)ncpu; i++)
		if (!isnan(cpu_max[i]))
			ret = emit(x, "pass", cpu_max[i], "us",
				   ".%s.cpu%zu.max", scen, i);
	return ret;
}

static int scenario_cases(struct cases_ctx *x, const struct history_scenario *s,
			  const struct history_verdict_row *v, size_t nv)
{
	const struct outcome *o;
	const char *side;
	char scen[128];
	int judged = 0, ret;
	size_t i;

	export_path_segment(s->name, scen, sizeof(scen));
	/* Its own comparison and its further sides' (S.irq), a case each. */
	for (i = 0; i < nv; i++) {
		side = export_side_of(v[i].scenario, s->name);
		if (!side || strcmp(v[i].source, "run"))
			continue;
		o = outcome_get(outcome_of_comparison(v[i].verdict,
				v[i].counts_as, v[i].control, v[i].reason));
		outcome_tally_add(&x->tally, o->kind);
		ret = emit(x, o->lava, v[i].candidate, *v[i].unit ?
			   v[i].unit : "us", ".%s%s", scen, side);
		if (ret)
			return ret;
		judged |= !*side;
	}
	if (!judged) {
		/* No verdict of its own: a baseline, or not judged. */
		if (!strcmp(s->status, "skipped"))
			o = outcome_get(OUTCOME_SKIPPED);
		else if (!strcmp(s->status, "invalid") || *s->compare)
			/* A comparison with no verdict is never a pass. */
			o = outcome_get(OUTCOME_INVALID);
		else
			o = outcome_get(OUTCOME_NOT_JUDGED);
		if (*s->compare && o->kind == OUTCOME_INVALID)
			outcome_tally_add(&x->tally, o->kind);
		ret = emit(x, o->lava, NAN, "us", ".%s", scen);
		if (ret)
			return ret;
	}
	return scenario_maxima(x, scen, s->name);
}

int export_lava_cases(const char *run_dir, int exit_code,
		      int (*fn)(const struct export_lava_case *c, void *arg),
		      void *arg)
{
	struct history_verdict_row *v = NULL;
	struct history_scenario *sc = NULL;
	struct cases_ctx x = { .fn = fn, .arg = arg };
	const struct outcome *o;
	struct history_run run;
	struct history h;
	size_t ns = 0, nv = 0, i;
	char report[PATH_MAX], suite[128];
	cJSON *m;
	int ret;

	/* Inside a job nothing has judged the run yet: the analyzer does. */
	snprintf(report, sizeof(report), "%.4000s/report.json", run_dir);
	if (!fsio_exists(report)) {
		struct an_params ap;
		int code;

		an_params_init(&ap);
		ap.quiet = true;
		code = an_report_run(run_dir, &ap);
		/* Not judged, no case: a pass would come from nothing. */
		if (code == EXITCODE_BAD_INPUT ||
		    code == EXITCODE_ENVIRONMENT) {
			pr_err("%s: the run could not be judged (exit %d): no "
			       "test case is reported", run_dir, code);
			return code == EXITCODE_BAD_INPUT ? -EINVAL : -EIO;
		}
	}
	ret = export_load_run(run_dir, NULL, &h, &run, &m);
	if (ret)
		return ret;
	x.h = &h;
	x.run = &run;
	export_path_segment(run.suite, suite, sizeof(suite));
	rtpaths_fmt(x.prefix, sizeof(x.prefix), "rtgate.%s", suite);
	ret = history_scenarios(&h, run.id, &sc, &ns);
	if (!ret)
		ret = history_verdicts(&h, run.id, &v, &nv);
	for (i = 0; !ret && i < ns; i++)
		ret = scenario_cases(&x, &sc[i], v, nv);
	if (!ret) {
		o = outcome_get(outcome_tally_run(&x.tally,
					!strcmp(run.status, "complete")));
		ret = emit(&x, o->lava, o->exit_code, "exit", "%s", "");
	}
	if (!ret && exit_code >= 0)
		ret = emit(&x, exit_code ? "fail" : "pass", exit_code, "exit",
			   ".exit");
	free(sc);
	free(v);
	cJSON_Delete(m);
	history_close(&h);
	return ret;
}
