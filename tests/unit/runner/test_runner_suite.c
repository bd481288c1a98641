// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite parser: the shipped suites and a complete file parse; every
 * class of bad file is refused with "FILE:LINE: ..." naming the right line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsio.h"
#include "runner/suite/suite.h"
#include "vec.h"
#include "trace/trace.h"

static char tmpdir[] = "/tmp/rtgate-unit-suite.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static const char *write_suite(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.suite", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

#define HEAD "[suite]\nrepetitions = 2\n[measure]\nduration = 2s\n"

static const char complete[] =
	"; a complete suite\n"
	"[suite]\n"
	"name = full\n"
	"description = everything ; an inline comment\n"
	"repetitions = 4\n"
	"order = blocked\n"
	"requires = root, cpus>=1\n"
	"lab_cpus = 1\n"
	"\n"
	"[measure]\n"
	"cyclictest = --smp -p95 -m -i 1000\n"
	"duration = 20s\n"
	"histogram = 3000\n"
	"trace = spikes\n"
	"\n"
	"[gate]\n"
	"metric = p99.9\n"
	"alpha = 0.01\n"
	"min_increase_us = 3\n"
	"min_increase_pct = 7.5\n"
	"max_us = 100\n"
	"p99.9_us = 40\n"
	"until_decided = 5m\n"
	"\n"
	"[scenario idle]\n"
	"description = alone\n"
	"\n"
	"[scenario load]\n"
	"compare = idle\n"
	"workload = cpus=0-1 policy=fifo:10 nice=0 as=hb "
	"hackbench-loop --groups 2 --loops scaled(200)\n"
	"workload = inject --cpu 1 --width-us 300 \"--name=a b\"\n"
	"sysctl = kernel.sched_rr_timeslice_ms=10\n"
	"sysctl = kernel/sched_rt_runtime_us = 950000\n"
	"sched_feature = NO_HRTICK\n"
	"base_slice_ns = 3000000\n"
	"debugfs = sched/migration_cost_ns=500000\n"
	"requires = sched-features, sysctl:kernel.sched_rr_timeslice_ms\n"
	"expect = hb.work_done > 0\n"
	"expect = inject.spins >= 10\n"
	"expect = inject.spins>0 : the spinner never spun \n"
	"expect = rseq-stats.sgrant > 0: no grant in rseq/stats\n"
	"\n"
	"[reference idle]\n"
	"source = somewhere\n"
	"T = T: 0 ( 4213) P:95 I:1000 C:   5163 Min:      3 Act:    3 "
	"Avg:    3 Max:      12\n"
	"T: 1 ( 4214) P:95 I:1500 C:   3444 Min:      3 Act:    4 Avg:    3 "
	"Max:       9\n"
	"value.inject.width_avg_us = 300.5\n";

static void test_complete(void **state)
{
	const struct runner_suite_scenario *load;
	struct runner_suite_error err;
	struct runner_suite s;
	char **argv;
	char msg[128];

	(void)state;
	assert_int_equal(runner_suite_load(write_suite("full", complete), &s, &err),
			 0);
	assert_string_equal(s.name, "full");
	assert_string_equal(s.description, "everything");
	assert_int_equal(s.repetitions, 4);
	assert_int_equal(s.order, RUNNER_SUITE_ORDER_BLOCKED);
	assert_int_equal(vec_strv_len(s.requires), 2);
	assert_int_equal(s.lab_cpus, 1);
	assert_int_equal(vec_strv_len(runner_suite_opts(&s.measure,
				an_tool_find("cyclictest"))->argv), 5);
	assert_true(s.measure.duration_ns == 20000000000ULL);
	assert_int_equal(s.measure.histogram_us, 3000);
	assert_int_equal(s.measure.trace, TRACE_CAPTURE_SPIKES);
	assert_string_equal(s.gate.metric, "p99.9");
	assert_true(s.gate.min_increase_pct == 7.5);
	assert_int_equal(s.gate.nr_budgets, 2);
	assert_string_equal(s.gate.budgets[0].metric, "max");
	assert_true(s.gate.budgets[0].us == 100);
	assert_string_equal(s.gate.budgets[1].metric, "p99.9");
	assert_true(s.gate.until_decided_ns == 300000000000ULL);
	assert_int_equal(s.nr_scenarios, 2);
	assert_null(s.scenarios[0].compare);
	assert_non_null(s.scenarios[0].reference);
	assert_int_equal(vec_strv_len(s.scenarios[0].reference->T), 2);
	assert_int_equal(s.scenarios[0].reference->nr_values, 1);
	load = runner_suite_find(&s, "load");
	assert_non_null(load);
	assert_string_equal(load->compare, "idle");
	assert_int_equal(load->nr_workloads, 2);
	assert_string_equal(load->workloads[0].alias, "hb");
	assert_string_equal(load->workloads[0].program, "hackbench-loop");
	assert_int_equal(load->workloads[0].sched_prio, 10);
	assert_string_equal(load->workloads[0].cpus, "0-1");
	assert_string_equal(load->workloads[1].alias, "inject");
	assert_int_equal(load->nr_tunables, 5);
	assert_string_equal(load->tunables[1].name,
			    "kernel/sched_rt_runtime_us");
	assert_string_equal(load->tunables[1].value, "950000");
	assert_int_equal(load->tunables[2].kind, RUNNER_TUNABLE_SCHED_FEATURE);
	assert_string_equal(load->tunables[2].name, "HRTICK");
	assert_string_equal(load->tunables[2].value, "NO_HRTICK");
	assert_int_equal(load->tunables[3].kind, RUNNER_TUNABLE_BASE_SLICE);
	/* The suite's requirements are every scenario's too. */
	assert_int_equal(vec_strv_len(load->requires), 4);
	assert_int_equal(load->nr_expects, 4);
	assert_int_equal(load->expects[1].op, RUNNER_EXPECT_GE);
	assert_null(load->expects[1].why);
	/* "COND: WORDS": the condition, normalised, and its reason. */
	assert_string_equal(load->expects[2].text, "inject.spins > 0");
	assert_string_equal(load->expects[2].why, "the spinner never spun");
	/* The kernel's rseq counters are no workload, yet may be expected. */
	assert_string_equal(load->expects[3].workload, "rseq-stats");
	assert_string_equal(load->expects[3].key, "sgrant");
	assert_string_equal(load->expects[3].why, "no grant in rseq/stats");

	/* scaled(N) follows the duration scale, rounded, at least 1. */
	assert_int_equal(runner_suite_workload_argv(&load->workloads[0], 0.1, &argv,
						    msg, sizeof(msg)), 0);
	assert_int_equal(vec_strv_len(argv), 5);
	assert_string_equal(argv[0], "hackbench-loop");
	assert_string_equal(argv[4], "20");
	vec_strv_free(argv);
	assert_int_equal(runner_suite_workload_argv(&load->workloads[0], 0.0001,
						    &argv, msg, sizeof(msg)), 0);
	assert_string_equal(argv[4], "1");
	vec_strv_free(argv);
	/* Quotes group words, as in a shell. */
	assert_int_equal(runner_suite_workload_argv(&load->workloads[1], 1, &argv,
						    msg, sizeof(msg)), 0);
	assert_string_equal(argv[5], "--name=a b");
	vec_strv_free(argv);
	runner_suite_free(&s);
}

/* The annotated example of suites/README.md must be a valid suite. */
static void test_readme_example(void **state)
{
	struct runner_suite_error err;
	char *text, *start, *end;
	struct runner_suite s;
	size_t len;
	int ret;

	(void)state;
	assert_int_equal(fsio_read_all("suites/README.md", &text, &len), 0);
	start = strstr(text, "```ini\n");
	assert_non_null(start);
	start += strlen("```ini\n");
	end = strstr(start, "```");
	assert_non_null(end);
	*end = '\0';
	ret = runner_suite_load(write_suite("readme", start), &s, &err);
	if (ret)
		print_error("%s\n", err.msg);
	assert_int_equal(ret, 0);
	assert_int_equal(s.nr_scenarios, 4);
	assert_non_null(runner_suite_find(&s, "inject")->expects);
	runner_suite_free(&s);
	free(text);
}

static void test_shipped_suites(void **state)
{
	static const char *const shipped[] = {
		"suites/quick.suite", "suites/smoke.suite",
		"suites/slice-ext.suite", "suites/rt-sysctl.suite",
		"suites/setparam.suite", "suites/hrtick.suite",
		"suites/stress.suite", "suites/lab-control.suite",
		"suites/lab-control-icount.suite",
	};
	struct runner_suite_error err;
	struct runner_suite s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		int ret = runner_suite_load(shipped[i], &s, &err);

		if (ret)
			print_error("%s\n", err.msg);
		assert_int_equal(ret, 0);
		/* lab-control: idle only, the lab compares kernels */
		assert_true(s.nr_scenarios >= 1);
		/* kbuild's first start extracts a tree: slice-ext waits */
		assert_true(s.measure.ready_timeout_ns ==
			    (strstr(shipped[i], "slice-ext") ? 900 :
			     READY_TIMEOUT_DEFAULT_S) * 1000000000ULL);
		runner_suite_free(&s);
	}
}

struct bad_case {
	const char *name;
	const char *text;
	unsigned int line;
	const char *says;	/* part of the message */
};

static const struct bad_case bad_cases[] = {
	{ "syntax", HEAD "[scenario a]\nno equals sign here\n", 6,
	  "expected [section]" },
	{ "unterminated-section", HEAD "[scenario a\n", 5, "expected" },
	{ "outside-section", "repetitions = 2\n[suite]\n", 1,
	  "outside any section" },
	{ "unknown-section", HEAD "[scenarios a]\n", 5, "unknown section" },
	{ "unknown-key", HEAD "[scenario a]\nworkloads = x\n", 6,
	  "unknown key 'workloads'" },
	{ "unknown-suite-key", "[suite]\nrepetition = 3\n", 2, "unknown key" },
	{ "bad-number", "[suite]\nrepetitions = three\n", 2,
	  "repetitions: 'three'" },
	{ "zero-repetitions", "[suite]\nrepetitions = 0\n", 2,
	  "repetitions" },
	{ "bad-duration", "[measure]\nduration = 20x\n", 2, "duration" },
	{ "bad-trace", "[measure]\nduration = 2s\ntrace = full\n", 3,
	  "trace: 'full' is not off, spikes or on" },
	{ "bad-ready-timeout", "[measure]\nduration = 2s\nready_timeout = 0s\n",
	  3, "ready_timeout: '0s'" },
	/* issue 35: a duration without its unit is refused, said so. */
	{ "bare-duration", "[measure]\nduration = 15\n",
	  2, "duration = 15: a duration needs its unit (15s" },
	{ "bad-alpha", HEAD "[gate]\nalpha = 2\n", 6, "alpha" },
	{ "bad-metric", HEAD "[gate]\nmetric = fastest\n", 6, "metric" },
	/* strtod() would read these as p10 and p16: the list says no. */
	{ "bad-metric-exp", HEAD "[gate]\nmetric = p1e1\n", 6,
	  "metric: 'p1e1' is not max, avg, pN" },
	{ "bad-metric-hex", HEAD "[gate]\nmetric = p0x10\n", 6, "metric" },
	{ "bad-metric-100", HEAD "[gate]\nmetric = p100\n", 6, "metric" },
	{ "bad-scenario-tool", HEAD "[scenario a]\ntool = perf\n", 6,
	  "tool: 'perf'" },
	{ "bad-scenario-metric", HEAD "[scenario a]\nmetric = x\n", 6,
	  "metric: 'x'" },
	{ "cyclictest-scenario-no-duration",
	  "[measure]\ntool = none\n[scenario a]\ntool = cyclictest\n", 1,
	  "needs duration" },
	{ "duplicate-key", HEAD "[scenario a]\ncompare = b\ncompare = c\n", 7,
	  "duplicate key 'compare' (first at line 6)" },
	{ "duplicate-scenario", HEAD "[scenario a]\n[scenario a]\n", 6,
	  "duplicate scenario 'a' (first at line 5)" },
	{ "duplicate-section", HEAD "[suite]\n", 5, "duplicate section" },
	{ "bad-scenario-name", HEAD "[scenario a/b]\n", 5, "name" },
	{ "no-scenario", HEAD, 4, "no [scenario NAME]" },
	{ "no-baseline", HEAD "[scenario a]\ncompare = b\n[scenario b]\n"
	  "compare = a\n", 5, "no baseline" },
	{ "unknown-compare", HEAD "[scenario a]\n[scenario b]\ncompare = c\n",
	  7, "unknown scenario 'c'" },
	{ "compare-itself", HEAD "[scenario a]\n[scenario b]\ncompare = b\n",
	  7, "against itself" },
	{ "no-program", HEAD "[scenario a]\nworkload = cpus=1\n", 6,
	  "no program" },
	{ "bad-cpus", HEAD "[scenario a]\nworkload = cpus=3-1 inject\n", 6,
	  "cpus=3-1" },
	{ "bad-policy", HEAD "[scenario a]\nworkload = policy=fifo inject\n", 6,
	  "policy=fifo" },
	{ "bad-nice", HEAD "[scenario a]\nworkload = nice=40 inject\n", 6,
	  "nice=40" },
	{ "expansion", HEAD "[scenario a]\nworkload = inject --x $HOME\n", 6,
	  "would be expanded" },
	{ "glob", HEAD "[scenario a]\nworkload = inject *\n", 6,
	  "would be expanded" },
	{ "unbalanced-quote", HEAD "[scenario a]\nworkload = inject \"x\n", 6,
	  "unbalanced quotes" },
	{ "bad-scaled", HEAD "[scenario a]\nworkload = inject scaled(x)\n", 6,
	  "scaled(N)" },
	{ "duplicate-alias", HEAD "[scenario a]\nworkload = inject\n"
	  "workload = inject\n", 7, "two workloads named 'inject'" },
	{ "reserved-alias", HEAD "[scenario a]\nworkload = as=cyclictest x\n",
	  6, "'cyclictest'" },
	{ "bad-sysctl", HEAD "[scenario a]\nsysctl = kernel.x\n", 6,
	  "NAME=VALUE" },
	{ "sysctl-escape", HEAD "[scenario a]\nsysctl = ../x=1\n", 6,
	  "NAME=VALUE" },
	{ "bad-feature", HEAD "[scenario a]\nsched_feature = hrtick\n", 6,
	  "FEATURE" },
	{ "same-tunable", HEAD "[scenario a]\nsysctl = a.b=1\nsysctl = a.b=2\n",
	  7, "set twice" },
	{ "bad-requirement", HEAD "[scenario a]\nrequires = gpu\n", 6,
	  "unknown requirement 'gpu'" },
	{ "bad-expect", HEAD "[scenario a]\nworkload = inject\n"
	  "expect = inject.spins about 3\n", 7, "WORKLOAD.KEY OP NUMBER" },
	{ "expect-unknown-workload", HEAD "[scenario a]\nworkload = inject\n"
	  "expect = hb.runs > 0\n", 7, "no workload named 'hb'" },
	{ "expect-empty-reason", HEAD "[scenario a]\nworkload = inject\n"
	  "expect = inject.spins > 0:  \n", 7, "[: REASON]" },
	{ "expect-reason-no-number", HEAD "[scenario a]\nworkload = inject\n"
	  "expect = inject.spins > : none\n", 7, "WORKLOAD.KEY OP NUMBER" },
	{ "runner-option", "[measure]\ncyclictest = -p95 -q\n", 2,
	  "'-q' is the runner's" },
	{ "runner-option-json", "[measure]\ncyclictest = --json=x\n", 2,
	  "the runner's" },
	{ "runner-option-abbrev", "[measure]\ncyclictest = -p95 --loo=100\n",
	  2, "'--loo=100' (to cyclictest, an abbreviation of --loops)" },
	{ "runner-option-abbrev-json", "[measure]\ncyclictest = --jso=x\n", 2,
	  "abbreviation of --json" },
	{ "runner-option-abbrev-histfile",
	  "[measure]\ncyclictest = --histf=x\n", 2,
	  "abbreviation of --histfile" },
	{ "runner-option-abbrev-duration", "[measure]\ncyclictest = --du 5\n",
	  2, "abbreviation of --duration" },
	{ "runner-option-abbrev-quiet", "[measure]\ncyclictest = --qu\n", 2,
	  "abbreviation of --quiet" },
	{ "hex-duration", "[measure]\nduration = 0x10s\n", 2,
	  "duration: '0x10s'" },
	{ "exponent-duration", "[measure]\nduration = 1e3s\n", 2,
	  "duration: '1e3s'" },
	{ "hex-alpha", HEAD "[gate]\nalpha = 0x0.1p0\n", 6, "alpha" },
	{ "compare-cycle", HEAD "[scenario base]\n[scenario a]\ncompare = b\n"
	  "[scenario b]\ncompare = a\n", 7, "compare cycle: a -> b -> a" },
	{ "duration-and-loops", "[measure]\nduration = 2s\nloops = 10\n"
	  "[scenario a]\n", 1, "both duration and loops" },
	{ "no-duration", "[measure]\nhistogram = 100\n[scenario a]\n", 1,
	  "needs duration" },
	{ "bad-T", HEAD "[scenario a]\n[reference a]\nT = T: zero\n", 7,
	  "not a cyclictest line" },
	{ "reference-unknown", HEAD "[scenario a]\n[reference b]\n"
	  "source = x\n", 6, "no scenario 'b'" },
	{ "bad-value", HEAD "[scenario a]\n[reference a]\n"
	  "value.inject.spins = many\n", 7, "not a number" },
	{ "nul-byte", HEAD "[scenario a]\ndescription = a\0b\n", 6, "NUL" },
	{ "lab-cpus-zero", "[suite]\nlab_cpus = 0\n", 2,
	  "lab_cpus: '0' is not a whole number from 1 to 64" },
	{ "lab-cpus-many", "[suite]\nlab_cpus = 65\n", 2, "lab_cpus: '65'" },
	{ "lab-cpus-word", "[suite]\nlab_cpus = one\n", 2, "lab_cpus: 'one'" },
	{ "bad-order", "[suite]\norder = shuffled\n", 2,
	  "not interleaved, randomized or blocked" },
	{ "bad-budget", "[gate]\np99_us = fast\n", 2, "not a number" },
	{ "bad-budget-metric", "[gate]\np200_us = 5\n", 2, "unknown key" },
	{ "bad-until", "[gate]\nuntil_decided = soon\n", 2,
	  "not a time budget" },
};

static void test_bad_files(void **state)
{
	struct runner_suite_error err;
	char want[512];
	struct runner_suite s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		const char *path;
		size_t len = strlen(c->text);
		FILE *f;
		int ret;

		/* The NUL case needs the bytes after the NUL too. */
		if (!strcmp(c->name, "nul-byte"))
			len += strlen(c->text + len + 1) + 1;
		path = write_suite(c->name, "");
		f = fopen(path, "w");
		fwrite(c->text, 1, len, f);
		fclose(f);
		ret = runner_suite_load(path, &s, &err);
		snprintf(want, sizeof(want), "%s:%u: ", path, c->line);
		if (ret != -EINVAL || strncmp(err.msg, want, strlen(want)) ||
		    !strstr(err.msg, c->says))
			fail_msg("%s: got %d \"%s\", want \"%s...%s...\"",
				 c->name, ret, err.msg, want, c->says);
	}
}

/* A scenario's own tool and gate metric (a suite of two parts). */
static void test_scenario_tool(void **state)
{
	struct runner_suite_error err;
	struct runner_suite s;
	int ret;

	(void)state;
	ret = runner_suite_load(write_suite("mixed", HEAD
		"[scenario bench]\ntool = none\n"
		"metric = sysctl-read.ns_per_read\n"
		"[scenario idle]\n"), &s, &err);
	if (ret)
		print_error("%s\n", err.msg);
	assert_int_equal(ret, 0);
	assert_ptr_equal(runner_suite_find(&s, "bench")->tool,
			 an_tool_find("none"));
	assert_string_equal(runner_suite_find(&s, "bench")->metric,
			    "sysctl-read.ns_per_read");
	assert_ptr_equal(runner_suite_find(&s, "idle")->tool,
			 an_tool_find("cyclictest"));
	assert_null(runner_suite_find(&s, "idle")->metric);
	assert_true(runner_suite_uses_program(&s, "cyclictest"));
	runner_suite_free(&s);
	/* Every scenario a microbenchmark: no cyclictest, no duration. */
	ret = runner_suite_load(write_suite("benches", "[scenario a]\ntool = none\n"),
				&s, &err);
	assert_int_equal(ret, 0);
	assert_false(runner_suite_uses_program(&s, "cyclictest"));
	assert_false(runner_suite_uses_program(&s, NULL));
	runner_suite_free(&s);
}

/* The family that shares alpha, as the analyzer counts it. */
static void test_family(void **state)
{
	struct runner_suite_error err;
	struct runner_suite s;

	(void)state;
	assert_int_equal(runner_suite_load(write_suite("fam", HEAD
		"[scenario idle]\n"
		"[scenario load]\ncompare = idle\n"
		"[scenario tl-idle]\ntool = timerlat\n"
		"[scenario tl-load]\ntool = timerlat\ncompare = tl-idle\n"
		"[scenario mixed]\ntool = timerlat\ncompare = idle\n"
		"[scenario inject]\ncompare = idle\ncontrol = positive\n"),
		&s, &err), 0);
	/* load 1, the timerlat pair 2 (thread and IRQ), mixed 1, no control */
	assert_int_equal(runner_suite_family(&s), 4);
	runner_suite_free(&s);
	assert_int_equal(runner_suite_load(write_suite("none", HEAD
		"[scenario idle]\n"), &s, &err), 0);
	assert_int_equal(runner_suite_family(&s), 1);
	runner_suite_free(&s);
}

static void test_long_line(void **state)
{
	struct runner_suite_error err;
	struct runner_suite s;
	char *text;
	size_t n = 6000;

	(void)state;
	text = malloc(n + 64);
	assert_non_null(text);
	strcpy(text, "[suite]\ndescription = ");
	memset(text + strlen(text), 'x', n);
	strcpy(text + n + 22, "\n");
	assert_int_equal(runner_suite_load(write_suite("long", text), &s, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, ":2: line too long"));
	free(text);
}

static void test_missing_file(void **state)
{
	struct runner_suite_error err;
	struct runner_suite s;

	(void)state;
	assert_int_equal(runner_suite_load("/nonexistent/x.suite", &s, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/x.suite"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_shipped_suites),
		cmocka_unit_test(test_readme_example),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_scenario_tool),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
