// SPDX-License-Identifier: GPL-2.0-only
/*
 * Like with like (analyze/report/analyze_like.c): the settings read from a
 * manifest and compared. What the per-setting integration test
 * (tests/integration/analyze_like.sh) does not reach: the IRQ affinity's
 * shape rather than its count, a command line parameter excused by the
 * setting it sets, init's arguments and the kernel's own image left out,
 * a setting not recorded never compared, the clock never intended, and
 * the CPUs two sides measured, thread by thread.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"

static const char *base_json =
	"{\"suite\": {\"measure\": {\"tool\": \"cyclictest\", \"args\": "
	"[\"--smp\", \"-p95\"], \"histogram_us\": 2000}},"
	" \"tools\": {\"cyclictest\": \"2.40\"},"
	" \"host\": {\"governor\": \"performance\", \"smt\": \"on\"},"
	" \"kernel\": {\"cmdline\": \"BOOT_IMAGE=/vmlinuz-a root=/dev/sda "
	"isolcpus=3 -- init-arg\", \"isolcpus\": \"3\", \"nohz_full\": "
	"\"(null)\"},"
	" \"system\": {\"clocksource\": \"tsc\", \"cpu_dma_latency_us\": 20,"
	" \"cpuidle\": {\"driver\": \"intel_idle\", \"governor\": \"menu\","
	" \"states\": []}, \"smt_active\": true,"
	" \"irq_affinity\": {\"irqs\": 20, \"per_cpu\": {\"0\": 20, \"1\": 20,"
	" \"2\": 20, \"3\": 1}}}}";

struct pair {
	cJSON *a, *b;
	struct an_like la, lb;
	char why[1024];
};

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	p->a = cJSON_Parse(base_json);
	p->b = cJSON_Parse(base_json);
	*state = p;
	return p->a && p->b ? 0 : -1;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	cJSON_Delete(p->a);
	cJSON_Delete(p->b);
	free(p);
	return 0;
}

static int diff(struct pair *p, const char *intended)
{
	an_like_from_manifest(p->a, &p->la);
	an_like_from_manifest(p->b, &p->lb);
	return an_like_diff(&p->la, &p->lb, intended, p->why,
			    sizeof(p->why));
}

static cJSON *at(cJSON *o, const char *a, const char *b)
{
	cJSON *v = cJSON_GetObjectItem(o, a);

	return b ? cJSON_GetObjectItem(v, b) : v;
}

static void set_str(cJSON *o, const char *a, const char *b, const char *v)
{
	cJSON *parent = b ? at(o, a, NULL) : o;

	cJSON_ReplaceItemInObject(parent, b ? b : a, cJSON_CreateString(v));
}

static void test_alike(void **state)
{
	struct pair *p = *state;

	assert_int_equal(diff(p, NULL), 0);
	assert_string_equal(p->why, "");
	/* Read as the reports would say them. */
	assert_string_equal(p->la.value[AN_LIKE_TOOL],
			    "cyclictest --smp -p95 -h 2000");
	assert_string_equal(p->la.value[AN_LIKE_DMA], "20 us");
	assert_string_equal(p->la.value[AN_LIKE_NOHZ_FULL], "none");
	assert_string_equal(p->la.value[AN_LIKE_IRQ],
			    "every IRQ: CPUs 0-2; some: CPUs 3");
	assert_string_equal(p->la.value[AN_LIKE_CMDLINE],
			    "root=/dev/sda isolcpus=3");
}

/* A driver more on every CPU: the same shape, alike. */
static void test_irq_shape(void **state)
{
	struct pair *p = *state;
	cJSON *per = at(at(p->b, "system", "irq_affinity"), "per_cpu", NULL);

	cJSON_ReplaceItemInObject(at(p->b, "system", "irq_affinity"), "irqs",
				  cJSON_CreateNumber(21));
	cJSON_ReplaceItemInObject(per, "0", cJSON_CreateNumber(21));
	cJSON_ReplaceItemInObject(per, "1", cJSON_CreateNumber(21));
	cJSON_ReplaceItemInObject(per, "2", cJSON_CreateNumber(21));
	cJSON_ReplaceItemInObject(per, "3", cJSON_CreateNumber(2));
	assert_int_equal(diff(p, NULL), 0);
	/* CPU 3 now takes every IRQ: a difference. */
	cJSON_ReplaceItemInObject(per, "3", cJSON_CreateNumber(21));
	assert_int_equal(diff(p, NULL), 1);
	assert_non_null(strstr(p->why, "irq_affinity (the IRQ affinity): "
			       "'every IRQ: CPUs 0-2; some: CPUs 3' -> "
			       "'every IRQ: CPUs 0-3'"));
}

/* isolcpus= is the isolcpus setting's: intending one excuses both. */
static void test_cmdline_param(void **state)
{
	struct pair *p = *state;

	set_str(p->b, "kernel", "cmdline", "BOOT_IMAGE=/vmlinuz-b "
		"root=/dev/sda isolcpus=2-3 -- other-init-arg");
	set_str(p->b, "kernel", "isolcpus", "2-3");
	assert_int_equal(diff(p, NULL), 1);
	assert_non_null(strstr(p->why, "isolcpus (the isolated CPUs): "
			       "'3' -> '2-3'"));
	assert_non_null(strstr(p->why, "cmdline.isolcpus (the kernel "
			       "command line): 'isolcpus=3' -> "
			       "'isolcpus=2-3'"));
	/* Neither the image (the kernel under test) nor init's words. */
	assert_null(strstr(p->why, "BOOT_IMAGE"));
	assert_null(strstr(p->why, "init-arg"));
	assert_int_equal(diff(p, "isolcpus"), 0);
	/* cmdline.isolcpus alone leaves the setting itself. */
	assert_int_equal(diff(p, "cmdline.isolcpus"), 1);
	assert_null(strstr(p->why, "cmdline.isolcpus"));
	assert_int_equal(diff(p, "cmdline.isolcpus,isolcpus"), 0);
}

/* A parameter only one side has, and a setting one side did not record. */
static void test_absent(void **state)
{
	struct pair *p = *state;

	set_str(p->b, "kernel", "cmdline", "root=/dev/sda isolcpus=3 quiet");
	assert_int_equal(diff(p, NULL), 1);
	assert_string_equal(p->why, "cmdline.quiet (the kernel command "
			    "line): absent -> 'quiet'");
	assert_int_equal(diff(p, "cmdline"), 0);
	set_str(p->b, "kernel", "cmdline", "root=/dev/sda isolcpus=3");
	cJSON_DeleteItemFromObject(at(p->b, "system", NULL),
				   "cpu_dma_latency_us");
	cJSON_DeleteItemFromObject(at(p->b, "system", "cpuidle"), "governor");
	assert_int_equal(diff(p, NULL), 0);
	assert_false(p->lb.known[AN_LIKE_DMA]);
	assert_false(p->lb.known[AN_LIKE_IDLE_GOVERNOR]);
}

/* tsc-early is the TSC before its refinement (a boot's first seconds). */
static void test_tsc_early(void **state)
{
	struct pair *p = *state;

	set_str(p->b, "system", "clocksource", "tsc-early");
	assert_int_equal(diff(p, NULL), 0);
	set_str(p->b, "system", "clocksource", "hpet");
	assert_int_equal(diff(p, NULL), 1);
}

/* Different clocks are refused, whatever is intended. */
static void test_clock(void **state)
{
	struct pair *p = *state;
	cJSON *lab = cJSON_AddObjectToObject(p->b, "lab");

	cJSON_AddStringToObject(cJSON_AddObjectToObject(lab, "clock"), "name",
				"icount:3");
	assert_int_equal(diff(p, "tool,cmdline"), -EINVAL);
	assert_non_null(strstr(p->why, "clock host and in clock icount:3"));
}

static void test_names(void **state)
{
	char bad[64];

	(void)state;
	assert_int_equal(an_like_intended_check("smt,cmdline.quiet,tool",
						bad, sizeof(bad)), 0);
	assert_int_equal(an_like_intended_check("smt,clock", bad,
						sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "clock");
	assert_int_equal(an_like_intended_check("cmdline.", bad,
						sizeof(bad)), -EINVAL);
	assert_string_equal(an_like_name(AN_LIKE_IDLE_GOVERNOR),
			    "cpuidle.governor");
}

/* --intended's one rule: names join the list, a bad one leaves it be. */
static void test_intended_add(void **state)
{
	char list[24] = "", why[480];

	(void)state;
	assert_int_equal(an_like_intended_add(list, sizeof(list), "smt", why,
					      sizeof(why)), 0);
	assert_int_equal(an_like_intended_add(list, sizeof(list),
					      "tool,cmdline.quiet", why,
					      sizeof(why)), 0);
	assert_string_equal(list, "smt,tool,cmdline.quiet");
	assert_int_equal(an_like_intended_add(list, sizeof(list),
					      "smt,clock", why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(list, "smt,tool,cmdline.quiet");
	assert_non_null(strstr(why, "'clock' is no setting (tool, "));
	assert_int_equal(an_like_intended_add(list, sizeof(list), "smt", why,
					      sizeof(why)), -E2BIG);
	assert_string_equal(why, "'smt' is one too many");
	assert_string_equal(list, "smt,tool,cmdline.quiet");
}

/* A side of @nruns repetitions, thread j measured on cpus[j]. */
static struct an_side *side_on(const char *name, size_t nruns,
			       const int *cpus, size_t n)
{
	struct an_side *s = an_side_new(name);
	struct an_run *r;
	size_t i, j;

	assert_non_null(s);
	for (i = 0; i < nruns; i++) {
		r = an_side_add_run(s, name, n);
		assert_non_null(r);
		for (j = 0; j < n; j++)
			r->cpus[j].cpu = cpus[j];
	}
	return s;
}

/* issue 35: CPUs are paired by thread; "cpus" is a difference. */
static void test_cpus(void **state)
{
	static const int low[] = { 0, 1 }, high[] = { 5, 7 },
			 unknown[] = { -1, -1 };
	struct an_side *a = side_on("a", 2, low, 2);
	struct an_side *b = side_on("b", 2, high, 2);
	struct an_side *c = side_on("c", 1, unknown, 2);
	struct an_side *d = side_on("d", 1, low, 2);
	char why[512], bad[32];

	(void)state;
	assert_int_equal(an_like_cpus_diff(a, b, NULL, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "cpus (the CPUs measured, paired thread "
				    "by thread; thread 0 ran on CPU 0 in a, "
				    "on CPU 5 in b): '0 1' -> '5 7'"));
	assert_int_equal(an_like_cpus_diff(a, b, "smt,cpus", why,
					   sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(an_like_cpus_diff(a, d, NULL, why, sizeof(why)), 0);
	/* Not recorded (.hist, pasted lines): not compared. */
	assert_int_equal(an_like_cpus_diff(a, c, NULL, why, sizeof(why)), 0);
	/* A baseline's later repetition (a history's night) counts too. */
	b->runs[1].cpus[1].cpu = 1;
	b->runs[0].cpus[0].cpu = 0;
	b->runs[0].cpus[1].cpu = 1;
	assert_int_equal(an_like_cpus_diff(b, d, NULL, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "thread 0 ran on CPU 5 in b"));
	assert_int_equal(an_like_intended_check("cpus,smt", bad, sizeof(bad)),
			 0);
	an_side_free(a);
	an_side_free(b);
	an_side_free(c);
	an_side_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alike, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_shape, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cmdline_param, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tsc_early, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_clock, setup, teardown),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_intended_add),
		cmocka_unit_test(test_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
