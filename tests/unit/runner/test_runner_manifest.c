// SPDX-License-Identifier: GPL-2.0-only
/*
 * The manifest writer: a run model built by hand is written atomically
 * and reads back with the schema of docs/results.md (statuses, the copied
 * gate and reference, processes and their exits, the order).
 */
#include <dirent.h>
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
#include "jsonio.h"
#include "runner/runner_priv.h"
#include "vec.h"
#include "sha256.h"

static char tmpdir[] = "/tmp/rtgate-unit-manifest.XXXXXX";

static const char suite_text[] =
	"[suite]\nname = m\nrepetitions = 2\n"
	"[measure]\ncyclictest = --smp -p95\nduration = 10s\n"
	"[gate]\nmin_increase_us = 4\n"
	"[scenario idle]\n"
	"[scenario load]\ncompare = idle\nworkload = hackbench-loop\n"
	"sysctl = kernel.sched_rr_timeslice_ms=10\n"
	"[scenario feat]\ncompare = idle\nsched_feature = NO_HRTICK\n"
	"[scenario never]\ncompare = idle\n"
	"[reference idle]\nsource = a thread\n"
	"T = T: 0 ( 4213) P:95 I:1000 C: 5163 Min: 3 Act: 3 Avg: 3 Max: 12\n"
	"value.max = 12\n";

struct fixture {
	struct runner_suite suite;
	struct runner_run run;
};

static void add_rep(struct runner_scen_result *sr, unsigned int rep,
		    enum runner_rep_status st, const char *reason)
{
	struct runner_rep_result *rr =
		vec_push(&sr->reps, &sr->nr_reps, sizeof(*rr));
	static char *ct_argv[] = { "cyclictest", "--smp", "-D10", NULL };
	struct runner_rep_proc *p;

	assert_non_null(rr);
	rr->rep = rep;
	rr->status = st;
	rr->reason = reason ? strdup(reason) : NULL;
	snprintf(rr->dir, sizeof(rr->dir), "%s/%u", sr->sc->name, rep);
	rr->start.tv_sec = 1790000000 + rep;
	rr->end.tv_sec = 1790000010 + rep;
	p = vec_push(&rr->procs, &rr->nr_procs, sizeof(*p));
	p->name = strdup("cyclictest");
	p->argv = vec_strv_dup(ct_argv);
	p->pid = 1000 + rep;
	p->exited = true;
	p->ready_s = -1;
	rr->finals = calloc(1, sizeof(*rr->finals));
	rr->finals[0].max_us = 40;
	rr->nr_finals = 1;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct runner_suite_error err;
	struct runner_rep_proc *p;
	struct runner_run *run;
	char path[300];
	FILE *f;

	if (!fx || !mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/m.suite", tmpdir);
	f = fopen(path, "w");
	fputs(suite_text, f);
	fclose(f);
	if (runner_suite_load(path, &fx->suite, &err)) {
		print_error("%s\n", err.msg);
		return -1;
	}
	run = &fx->run;
	run->suite = &fx->suite;
	snprintf(run->id, sizeof(run->id), "20261130-194100-m");
	snprintf(run->dir, sizeof(run->dir), "%s", tmpdir);
	sha256_buf(suite_text, strlen(suite_text), run->suite_sha256);
	run->scale = 0.5;
	run->repetitions = 2;
	run->duration_s = 5;
	run->status = RUNNER_RUN_ABORTED;
	snprintf(run->reason, sizeof(run->reason), "interrupted by SIGINT");
	run->start.tv_sec = 1790000000;
	run->tunables_before = cJSON_CreateObject();
	cJSON_AddStringToObject(run->tunables_before,
				"kernel.sched_rr_timeslice_ms", "100");
	run->scens = calloc(4, sizeof(*run->scens));
	for (size_t i = 0; i < 4; i++)
		run->scens[i].sc = &fx->suite.scenarios[i];
	add_rep(&run->scens[0], 1, RUNNER_REP_OK, NULL);
	add_rep(&run->scens[1], 1, RUNNER_REP_OK, NULL);
	add_rep(&run->scens[0], 2, RUNNER_REP_INVALID,
		"cyclictest exited with code 1");
	add_rep(&run->scens[1], 2, RUNNER_REP_ABORTED,
		"the run was interrupted");
	run->scens[2].skipped = true;
	run->scens[2].reason = strdup("requires sched-features: EPERM");
	/* A workload in load/1 that crashed, with its summary. */
	p = vec_push(&run->scens[1].reps[0].procs,
			      &run->scens[1].reps[0].nr_procs, sizeof(*p));
	p->name = strdup("hackbench-loop");
	p->argv = vec_strv_dup((char *[]){ "hackbench-loop", NULL });
	p->pid = 2000;
	p->workload = true;
	p->cpus = strdup("0-1");
	p->ready_s = 0.25;
	p->exited = true;
	p->sig = 11;
	run->scens[1].reps[0].workloads = cJSON_Parse(
		"{\"hackbench-loop\":{\"work_done\":3}}");
	run->scens[1].tunables = cJSON_CreateObject();
	cJSON_AddStringToObject(run->scens[1].tunables,
				"kernel.sched_rr_timeslice_ms", "10");
	run->order = calloc(4, sizeof(*run->order));
	run->order[0] = (struct runner_step){ 0, 1 };
	run->order[1] = (struct runner_step){ 1, 1 };
	run->order[2] = (struct runner_step){ 0, 2 };
	run->order[3] = (struct runner_step){ 1, 2 };
	run->nr_order = 4;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	runner_run_model_free(&fx->run);
	runner_suite_free(&fx->suite);
	free(fx);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static const cJSON *at(const cJSON *obj, const char *path)
{
	char buf[256], *part, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, "/", &save); part && obj;
	     part = strtok_r(NULL, "/", &save)) {
		if (cJSON_IsArray(obj))
			obj = cJSON_GetArrayItem(obj, atoi(part));
		else
			obj = cJSON_GetObjectItemCaseSensitive(obj, part);
	}
	assert_non_null(obj);
	return obj;
}

static const char *str_at(const cJSON *obj, const char *path)
{
	const cJSON *v = at(obj, path);

	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static double num_at(const cJSON *obj, const char *path)
{
	const cJSON *v = at(obj, path);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static void test_written_and_read_back(void **state)
{
	struct fixture *fx = *state;
	struct json_error err;
	struct dirent *de;
	char path[300];
	cJSON *m;
	DIR *d;

	assert_int_equal(runner_manifest_write(&fx->run), 0);
	snprintf(path, sizeof(path), "%s/manifest.json", tmpdir);
	assert_int_equal(json_read_file(path, &m, &err), 0);
	/* Atomic: no temporary file is left beside it. */
	d = opendir(tmpdir);
	while ((de = readdir(d)))
		assert_null(strstr(de->d_name, ".tmp"));
	closedir(d);

	assert_string_equal(str_at(m, "schema"), "rtgate-manifest/1");
	assert_string_equal(str_at(m, "run_id"), "20261130-194100-m");
	assert_string_equal(str_at(m, "status"), "aborted");
	assert_string_equal(str_at(m, "status_reason"),
			    "interrupted by SIGINT");
	assert_string_equal(str_at(m, "start_time"), "2026-09-21T14:13:20Z");
	assert_null(cJSON_GetObjectItem(m, "end_time"));
	assert_string_equal(str_at(m, "suite/name"), "m");
	assert_int_equal(strlen(str_at(m, "suite/sha256")), 64);
	assert_true(num_at(m, "suite/duration_scale") == 0.5);
	assert_true(num_at(m, "suite/measure/duration_s") == 5);
	assert_true(cJSON_IsNull(at(m, "suite/measure/loops")));
	assert_string_equal(str_at(m, "suite/measure/args/1"), "-p95");
	assert_string_equal(str_at(m, "suite/gate/metric"), "max");
	assert_true(num_at(m, "suite/gate/min_increase_us") == 4);
	assert_string_equal(str_at(m, "tunables_before/"
			   "kernel.sched_rr_timeslice_ms"), "100");
	assert_string_equal(str_at(m, "order/2/0"), "idle");
	assert_true(num_at(m, "order/3/1") == 2);

	/* Scenario statuses: partial, ok (aborted reps do not count),
	 * skipped with its reason, not_run. */
	assert_string_equal(str_at(m, "scenarios/0/status"), "partial");
	assert_true(cJSON_IsNull(at(m, "scenarios/0/compare")));
	assert_string_equal(str_at(m, "scenarios/1/status"), "ok");
	assert_string_equal(str_at(m, "scenarios/1/compare"), "idle");
	assert_string_equal(str_at(m, "scenarios/2/status"), "skipped");
	assert_string_equal(str_at(m, "scenarios/2/reason"),
			    "requires sched-features: EPERM");
	assert_string_equal(str_at(m, "scenarios/3/status"), "not_run");

	/* The reference is copied: readers need no suite parser. */
	assert_string_equal(str_at(m, "scenarios/0/reference/source"),
			    "a thread");
	assert_non_null(strstr(str_at(m, "scenarios/0/reference/T/0"),
			       "Max: 12"));
	assert_true(num_at(m, "scenarios/0/reference/values/max") == 12);
	assert_true(cJSON_IsNull(at(m, "scenarios/1/reference")));

	assert_string_equal(str_at(m, "scenarios/0/repetitions/1/status"),
			    "invalid");
	assert_string_equal(str_at(m, "scenarios/0/repetitions/1/reason"),
			    "cyclictest exited with code 1");
	assert_string_equal(str_at(m, "scenarios/1/repetitions/1/status"),
			    "aborted");
	assert_string_equal(str_at(m, "scenarios/1/repetitions/0/dir"),
			    "load/1");
	assert_string_equal(str_at(m, "scenarios/1/tunables/"
			   "kernel.sched_rr_timeslice_ms"), "10");
	assert_true(num_at(m, "scenarios/1/repetitions/0/"
			   "processes/0/exit/code") == 0);
	assert_string_equal(str_at(m, "scenarios/1/repetitions/0/"
			   "processes/1/cpus"), "0-1");
	assert_true(num_at(m, "scenarios/1/repetitions/0/"
			   "processes/1/exit/signal") == 11);
	assert_true(cJSON_IsFalse(at(m, "scenarios/1/repetitions/0/"
			   "processes/1/exit/by_runner")));
	assert_true(num_at(m, "scenarios/1/repetitions/0/"
			   "processes/1/ready_s") == 0.25);
	assert_true(num_at(m, "scenarios/1/repetitions/0/"
			   "workloads/hackbench-loop/work_done") == 3);
	cJSON_Delete(m);
}

static void test_complete_run(void **state)
{
	struct fixture *fx = *state;
	struct json_error err;
	char path[300];
	cJSON *m;

	fx->run.status = RUNNER_RUN_COMPLETE;
	fx->run.ended = true;
	fx->run.end.tv_sec = 1790000100;
	fx->run.tunables_after = cJSON_Duplicate(fx->run.tunables_before, 1);
	assert_int_equal(runner_manifest_write(&fx->run), 0);
	snprintf(path, sizeof(path), "%s/manifest.json", tmpdir);
	assert_int_equal(json_read_file(path, &m, &err), 0);
	assert_string_equal(str_at(m, "status"), "complete");
	assert_null(cJSON_GetObjectItem(m, "status_reason"));
	assert_non_null(cJSON_GetObjectItem(m, "end_time"));
	assert_string_equal(str_at(m, "tunables_after/"
			   "kernel.sched_rr_timeslice_ms"), "100");
	cJSON_Delete(m);
}

static void test_unwritable(void **state)
{
	struct fixture *fx = *state;
	char saved[PATH_MAX];

	snprintf(saved, sizeof(saved), "%s", fx->run.dir);
	snprintf(fx->run.dir, sizeof(fx->run.dir), "%s/missing/dir", tmpdir);
	assert_int_equal(runner_manifest_write(&fx->run), -ENOENT);
	snprintf(fx->run.dir, sizeof(fx->run.dir), "%s", saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_and_read_back),
		cmocka_unit_test(test_complete_run),
		cmocka_unit_test(test_unwritable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
