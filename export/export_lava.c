// SPDX-License-Identifier: GPL-2.0-only
/*
 * LAVA: the job definition a lab submits (deploy the kernel, boot it, run
 * a suite with rtgate inside, report), and the report itself, run inside
 * the job: every comparison becomes one lava-test-case with its result
 * and its measurement.
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

struct lava_ctx {
	struct history *h;
	const struct history_run *run;
	char prefix[160];		/* rtgate.SUITE */
	struct outcome_tally tally;
	int (*fn)(const struct export_lava_case *c, void *arg);
	void *arg;
};

static int emit(struct lava_ctx *x, const char *result, double measurement,
		const char *units, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int emit(struct lava_ctx *x, const char *result, double measurement,
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
static int scenario_maxima(struct lava_ctx *x, const char *scen,
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

/*
 * Whose comparison verdict row @name is: scenario @scen's own (""), one
 * of its further sides (timerlat's IRQ latency: ".irq"), or not (NULL).
 */
static const char *side_of(const char *name, const char *scen)
{
	const char *suffix;
	char base[128];

	if (!strcmp(name, scen))
		return "";
	suffix = an_tool_side_of(name, base, sizeof(base));
	return suffix && !strcmp(base, scen) ? suffix : NULL;
}

static int scenario_cases(struct lava_ctx *x, const struct history_scenario *s,
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
		side = side_of(v[i].scenario, s->name);
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
	struct lava_ctx x = { .fn = fn, .arg = arg };
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

/* --- job definitions --- */

static cJSON *timeout_min(unsigned int minutes)
{
	cJSON *t = cJSON_CreateObject();

	cJSON_AddNumberToObject(t, "minutes", minutes);
	return t;
}

static void add_url(cJSON *obj, const char *key, const char *url)
{
	cJSON *o;

	if (!url)
		return;
	o = cJSON_AddObjectToObject(obj, key);
	cJSON_AddStringToObject(o, "url", url);
}

/* The compression LAVA must undo to add its overlay, by file name. */
static const char *compression_of(const char *url)
{
	static const char *const map[][2] = {
		{ ".gz", "gz" }, { ".xz", "xz" }, { ".zst", "zstd" },
		{ ".bz2", "bz2" },
	};
	size_t i, n = strlen(url), m;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		m = strlen(map[i][0]);
		if (n > m && !strcmp(url + n - m, map[i][0]))
			return map[i][1];
	}
	return NULL;
}

/*
 * QEMU: kernel and initramfs on tmpfs, booted by LAVA's qemu method. The
 * LAVA overlay (the test shell) is appended to the initramfs, so the guest
 * needs no disk and no network.
 */
static cJSON *deploy_qemu(const struct export_lava_job_params *p)
{
	cJSON *d = cJSON_CreateObject(), *img, *k, *ov;
	char arg[1024];

	cJSON_AddStringToObject(d, "to", "tmpfs");
	cJSON_AddItemToObject(d, "timeout", timeout_min(10));
	img = cJSON_AddObjectToObject(d, "images");
	k = cJSON_AddObjectToObject(img, "kernel");
	snprintf(arg, sizeof(arg), "-kernel {kernel} -append \"%s\"",
		 p->kernel_args ? p->kernel_args : "console=ttyS0,115200");
	cJSON_AddStringToObject(k, "image_arg", arg);
	cJSON_AddStringToObject(k, "url", p->kernel);
	if (p->ramdisk) {
		k = cJSON_AddObjectToObject(img, "initrd");
		cJSON_AddStringToObject(k, "image_arg", "-initrd {initrd}");
		cJSON_AddStringToObject(k, "url", p->ramdisk);
		if (compression_of(p->ramdisk))
			cJSON_AddStringToObject(k, "compression",
						compression_of(p->ramdisk));
		cJSON_AddStringToObject(k, "format", "cpio.newc");
		ov = cJSON_AddObjectToObject(k, "overlays");
		cJSON_AddBoolToObject(ov, "lava", 1);
	}
	if (p->rootfs) {
		k = cJSON_AddObjectToObject(img, "rootfs");
		cJSON_AddStringToObject(k, "image_arg",
					"-drive format=raw,file={rootfs}");
		cJSON_AddStringToObject(k, "url", p->rootfs);
	}
	return d;
}

/* A board: kernel, dtb, modules and ramdisk over TFTP, the overlay in it. */
static cJSON *deploy_tftp(const struct export_lava_job_params *p)
{
	cJSON *d = cJSON_CreateObject(), *o;

	cJSON_AddStringToObject(d, "to", "tftp");
	cJSON_AddItemToObject(d, "timeout", timeout_min(10));
	add_url(d, "kernel", p->kernel);
	add_url(d, "dtb", p->dtb);
	add_url(d, "modules", p->modules);
	if (p->ramdisk) {
		o = cJSON_AddObjectToObject(d, "ramdisk");
		cJSON_AddStringToObject(o, "url", p->ramdisk);
		cJSON_AddBoolToObject(o, "install_overlay", 1);
		cJSON_AddBoolToObject(o, "install_modules", p->modules != NULL);
	}
	if (p->rootfs)
		add_url(d, "nfsrootfs", p->rootfs);
	return d;
}

static cJSON *boot_action(const struct export_lava_job_params *p,
			  const char *method)
{
	cJSON *b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "method", method);
	cJSON_AddItemToObject(b, "timeout", timeout_min(10));
	if (!strcmp(method, "qemu"))
		cJSON_AddStringToObject(b, "media", "tmpfs");
	else
		cJSON_AddStringToObject(b, "commands", p->boot_commands ?
					p->boot_commands : "ramdisk");
	cJSON_AddItemToObject(b, "prompts", cJSON_CreateStringArray(
				      (const char *[]){ p->prompt }, 1));
	return b;
}

/*
 * The test: run the suite, then turn its results into test cases. rtgate
 * run's exit code is itself a case, and never stops the report.
 */
static cJSON *test_action(const struct export_lava_job_params *p,
			  unsigned int minutes)
{
	cJSON *t = cJSON_CreateObject(), *defs, *def, *repo, *md, *steps;
	char name[160], step[1024], base[128], *dot;
	const char *slash = strrchr(p->suite, '/');

	/* The definition's name: the suite's, in LAVA's [-_a-zA-Z0-9.]. */
	snprintf(base, sizeof(base), "%s", slash ? slash + 1 : p->suite);
	dot = strstr(base, ".suite");
	if (dot && !dot[6])
		*dot = '\0';
	export_path_segment(base, step, sizeof(step));
	snprintf(name, sizeof(name), "rtgate-%.120s", step);
	cJSON_AddItemToObject(t, "timeout", timeout_min(minutes));
	defs = cJSON_AddArrayToObject(t, "definitions");
	def = cJSON_CreateObject();
	cJSON_AddItemToArray(defs, def);
	cJSON_AddStringToObject(def, "from", "inline");
	cJSON_AddStringToObject(def, "name", name);
	cJSON_AddStringToObject(def, "path", "inline/rtgate.yaml");
	repo = cJSON_AddObjectToObject(def, "repository");
	md = cJSON_AddObjectToObject(repo, "metadata");
	cJSON_AddStringToObject(md, "format", "Lava-Test Test Definition 1.0");
	cJSON_AddStringToObject(md, "name", name);
	cJSON_AddStringToObject(md, "description",
				"rtgate latency suite; one test case per "
				"comparison");
	steps = cJSON_AddArrayToObject(cJSON_AddObjectToObject(repo, "run"),
				       "steps");
	cJSON_AddItemToArray(steps, cJSON_CreateString(
		"export RTGATE_RESULTS_DIR=/tmp/rtgate-results"));
	/* LAVA runs the steps under set -e: a verdict's exit must not end them. */
	snprintf(step, sizeof(step), "rc=0; rtgate run %s%s%s || rc=$?",
		 p->suite, p->rtgate_args ? " " : "",
		 p->rtgate_args ? p->rtgate_args : "");
	cJSON_AddItemToArray(steps, cJSON_CreateString(step));
	cJSON_AddItemToArray(steps, cJSON_CreateString(
		"rtgate lava report --exit-code $rc "
		"\"$RTGATE_RESULTS_DIR/latest\""));
	/*
	 * The results directory itself, for `rtgate lava fetch`: a gzipped
	 * tar of what the history and the reports read (the JSON files, the
	 * suite, report.txt and junit.xml; not the text histograms, logs or
	 * traces) in base64 between two markers in the job's log, the first
	 * naming the run and the archive's sha256 (export_lava_log.c). The
	 * kernel's console messages are silenced first, so that none lands
	 * inside a line of it.
	 */
	cJSON_AddItemToArray(steps, cJSON_CreateString(
		"d=$(readlink -f \"$RTGATE_RESULTS_DIR/latest\"); cd \"$d\" && "
		"tar -czf /tmp/rtgate-run.tgz $(find . -type f \\( -name "
		"'*.json' -o -name '*.suite' -o -name report.txt -o -name "
		"junit.xml \\)) && cd / && { dmesg -n 1 || true; } && "
		"echo \"" EXPORT_LAVA_BEGIN " ${d##*/} "
		"$(sha256sum </tmp/rtgate-run.tgz | cut -d' ' -f1)\" && "
		"base64 /tmp/rtgate-run.tgz && echo " EXPORT_LAVA_END));
	return t;
}

static cJSON *wrap(const char *key, cJSON *action)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, key, action);
	return o;
}

int export_lava_job_build(const struct export_lava_job_params *p, cJSON **out)
{
	const char *method = p->boot_method;
	unsigned int total = p->timeout_min ? p->timeout_min : 60;
	cJSON *job, *t, *acts;
	int qemu;

	if (!p->kernel || !p->suite || !p->device_type) {
		pr_err("lava job: --kernel, --suite and --device-type are "
		       "required");
		return -EINVAL;
	}
	if (total < 30) {
		pr_err("lava job: --timeout must leave 20 minutes for deploy "
		       "and boot (at least 30)");
		return -EINVAL;
	}
	qemu = !strcmp(p->device_type, "qemu");
	if (!method)
		method = qemu ? "qemu" : "u-boot";
	job = cJSON_CreateObject();
	cJSON_AddStringToObject(job, "device_type", p->device_type);
	cJSON_AddStringToObject(job, "job_name", p->job_name);
	t = cJSON_AddObjectToObject(job, "timeouts");
	cJSON_AddItemToObject(t, "job", timeout_min(total));
	cJSON_AddItemToObject(t, "connection", timeout_min(2));
	cJSON_AddNumberToObject(job, "priority", p->priority);
	cJSON_AddStringToObject(job, "visibility", p->visibility ?
				p->visibility : "public");
	if (qemu) {
		t = cJSON_AddObjectToObject(job, "context");
		cJSON_AddStringToObject(t, "arch", p->arch ? p->arch : "amd64");
	} else if (p->kernel_args) {
		/* a board's device type adds them to its kernel command line
		 * (x86's ipxe, u-boot's bootargs: extra_kernel_args) */
		t = cJSON_AddObjectToObject(job, "context");
		cJSON_AddStringToObject(t, "extra_kernel_args", p->kernel_args);
	}
	if (p->board)	/* the device's tag of its own name: this board */
		cJSON_AddItemToObject(job, "tags", cJSON_CreateStringArray(
					      &p->board, 1));
	t = cJSON_AddObjectToObject(job, "metadata");
	cJSON_AddStringToObject(t, "rtgate.suite", p->suite);
	if (p->board)
		cJSON_AddStringToObject(t, "rtgate.board", p->board);
	cJSON_AddStringToObject(t, "rtgate.kernel", p->kernel);
	acts = cJSON_AddArrayToObject(job, "actions");
	cJSON_AddItemToArray(acts, wrap("deploy", qemu && !strcmp(method,
				"qemu") ? deploy_qemu(p) : deploy_tftp(p)));
	cJSON_AddItemToArray(acts, wrap("boot", boot_action(p, method)));
	cJSON_AddItemToArray(acts, wrap("test", test_action(p, total - 20)));
	*out = job;
	return 0;
}
