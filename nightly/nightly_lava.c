// SPDX-License-Identifier: GPL-2.0-only
/*
 * The night on a LAVA lab's boards (`rtgate nightly --lava URL`, or [lava]
 * url =): in order of business,
 *
 *   1. submit one job per suite × kernel × board (a kernel's boards =
 *      limits it), each leaving a placeholder run in the history (the
 *      board as its host), so a nightly killed while the boards work
 *      leaves them visible, incomplete;
 *   2. wait until every job finished, or the budget is spent: a job still
 *      queued or running then is canceled and stays incomplete, saying so;
 *   3. fetch each finished job (export/: its results directory rebuilt
 *      under the board's name, or an incomplete run with LAVA's reason)
 *      and store it in place of its placeholder, judged against the same
 *      board's history (nightly_store()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "lava/lava.h"
#include "log.h"
#include "nightly/nightly_priv.h"
#include "stopsig.h"

struct lava_job_ref {
	const struct nightly_suite *suite;
	const struct nightly_kernel *kernel;
	const struct nightly_board *board;
	struct lava_job job;
	char token[64];
};

static bool kernel_on(const struct nightly_kernel *k, const char *board)
{
	const char *p = k->boards;
	size_t n = strlen(board);

	if (!p[0])
		return true;
	while ((p = strstr(p, board))) {
		if ((p == k->boards || p[-1] == ' ' || p[-1] == ',') &&
		    (!p[n] || p[n] == ' ' || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

/* The suite's file inside the image: file =, else the installed one. */
static void suite_in_image(const struct nightly_suite *s, char *buf,
			   size_t len)
{
	if (s->file[0])
		snprintf(buf, len, "%s", s->file);
	else
		snprintf(buf, len, "/opt/rtgate/suites/%.200s.suite", s->name);
}

static void result_failed(struct nightly_result *r, const char *suite,
			  const char *run_id, const char *note)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->suite, sizeof(r->suite), "%s", suite);
	snprintf(r->run_id, sizeof(r->run_id), "%s", run_id);
	snprintf(r->status, sizeof(r->status), "incomplete");
	snprintf(r->note, sizeof(r->note), "%s", note);
	r->runner_exit = -1;
	r->exit_code = EXITCODE_INCOMPLETE;
}

static int submit_one(struct nightly_ctx *c, struct lava_client *cl,
		      struct lava_job_ref *j)
{
	const struct nightly_lava *l = &c->cfg->lava;
	char suite[PATH_MAX], name[512], why[256];
	struct lava_job_params p = {
		.device_type = j->board->device_type[0] ?
			       j->board->device_type : l->device_type,
		.kernel = j->kernel->url,
		.ramdisk = j->kernel->ramdisk[0] ? j->kernel->ramdisk :
			   l->ramdisk[0] ? l->ramdisk : NULL,
		.suite = suite,
		.rtgate_args = j->suite->args[0] ? j->suite->args : NULL,
		.kernel_args = l->kernel_args[0] ? l->kernel_args : NULL,
		.prompt = l->prompt,
		.board = j->board->name,
		.job_name = name,
		.timeout_min = l->timeout_min,
		.priority = 50,
	};
	long id = 0;
	int ret;

	suite_in_image(j->suite, suite, sizeof(suite));
	snprintf(name, sizeof(name), "rtgate nightly %.100s on %.100s "
		 "(kernel %.100s)", j->suite->name, j->board->name,
		 j->kernel->name);
	ret = lava_submit(cl, &p, &id);
	if (ret)
		return ret;
	j->job.id = id;
	snprintf(j->job.state, sizeof(j->job.state), "Submitted");
	snprintf(j->token, sizeof(j->token), "lava-%ld", id);
	snprintf(why, sizeof(why), "LAVA job %ld of the nightly (kernel %.100s)"
		 " had not come back", id, j->kernel->name);
	pr_info("nightly: LAVA job %ld: %s on %s, kernel %s", id,
		j->suite->name, j->board->name, j->kernel->name);
	return history_begin_pending(c->h, j->token, j->suite->name,
				     j->board->name, why);
}

/* Step 3 for one job: fetched and stored, or left incomplete. */
static int collect_one(struct nightly_ctx *c, struct lava_client *cl,
		       struct lava_job_ref *j, struct nightly_result *r)
{
	char run_dir[PATH_MAX], note[512];
	int ret;

	if (!lava_job_done(&j->job)) {
		lava_cancel(cl, j->job.id);
		snprintf(note, sizeof(note), "LAVA job %ld still %s on %s when "
			 "the nightly's budget of %u min was spent: canceled",
			 j->job.id, j->job.state, j->board->name,
			 c->cfg->lava.budget_s / 60);
		history_fail_pending(c->h, j->token, note);
		result_failed(r, j->suite->name, j->token, note);
		return 0;
	}
	ret = lava_fetch_run(cl, &j->job, c->cfg->results, run_dir,
			     sizeof(run_dir));
	if (ret) {
		snprintf(note, sizeof(note), "LAVA job %ld (%s) could not be "
			 "fetched", j->job.id, j->job.health);
		history_fail_pending(c->h, j->token, note);
		result_failed(r, j->suite->name, j->token, note);
		return ret;
	}
	memset(r, 0, sizeof(*r));
	snprintf(r->suite, sizeof(r->suite), "%s", j->suite->name);
	snprintf(r->run_dir, sizeof(r->run_dir), "%s", run_dir);
	r->runner_exit = -1;
	ret = nightly_store(c, run_dir, j->token, r);
	if (ret)
		history_fail_pending(c->h, j->token, "its results could not be "
				     "stored");
	return ret;
}

int nightly_lava_run(struct nightly_ctx *c, struct nightly_result *res,
		     size_t *nres, size_t max)
{
	const struct nightly_config *cfg = c->cfg;
	const struct nightly_lava *l = &cfg->lava;
	struct lava_client cl;
	struct lava_job *jobs = NULL;
	struct lava_job_ref *refs;
	size_t s, k, b, n = 0, i;
	int ret, worst = 0, open;

	if (!l->nr_boards || !l->nr_kernels) {
		pr_err("%s: a LAVA nightly needs [board NAME] and [kernel NAME] "
		       "sections", cfg->path[0] ? cfg->path : "nightly");
		return -EINVAL;
	}
	ret = lava_client_init(&cl, l->url, l->token_file[0] ?
			       l->token_file : NULL);
	if (ret)
		return ret;
	refs = calloc(cfg->nr_suites * l->nr_kernels * l->nr_boards,
		      sizeof(*refs));
	if (!refs) {
		lava_client_destroy(&cl);
		return -ENOMEM;
	}
	for (s = 0; s < cfg->nr_suites; s++) {
		if (cfg->suites[s].import[0])
			continue;	/* collected by nightly_suite_run() */
		for (k = 0; k < l->nr_kernels; k++) {
			for (b = 0; b < l->nr_boards; b++) {
				struct lava_job_ref *j = &refs[n];

				if (!kernel_on(&l->kernels[k],
					       l->boards[b].name))
					continue;
				j->suite = &cfg->suites[s];
				j->kernel = &l->kernels[k];
				j->board = &l->boards[b];
				ret = submit_one(c, &cl, j);
				if (ret && !j->job.id) {
					/* never submitted: nothing to wait */
					if (*nres < max)
						result_failed(&res[(*nres)++],
							j->suite->name,
							j->board->name,
							"LAVA refused the job");
					worst = ret;
					continue;
				}
				n++;
			}
		}
	}
	jobs = calloc(n ? n : 1, sizeof(*jobs));
	if (!jobs) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		jobs[i] = refs[i].job;
	pr_info("nightly: %zu LAVA job(s) submitted; waiting at most %u min",
		n, l->budget_s / 60);
	open = n ? lava_wait(&cl, jobs, n, l->budget_s, l->poll_s) : 0;
	if (open < 0)
		worst = open;	/* the server went away: all incomplete */
	for (i = 0; i < n && *nres < max; i++) {
		refs[i].job = jobs[i];
		ret = collect_one(c, &cl, &refs[i], &res[(*nres)++]);
		if (ret)
			worst = ret;
	}
	ret = worst;
out:
	free(jobs);
	free(refs);
	lava_client_destroy(&cl);
	return ret;
}
