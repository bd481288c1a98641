// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run of the nightly into the history: its manifest read, its own
 * comparisons judged (or the runner's verdict taken), imported in place of
 * its placeholder, then judged against the last runs of the history.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "exitcode.h"
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "nightly/nightly_priv.h"

static void kernel_of(const cJSON *m, char *buf, size_t len)
{
	const cJSON *k = cJSON_GetObjectItem(m, "kernel");

	snprintf(buf, len, "%s %s", json_get_str(k, "release", "?"),
		 json_get_str(k, "version", ""));
}

int nightly_store(struct nightly_ctx *c, const char *run_dir,
		  const char *token, struct nightly_result *r)
{
	struct history_import_stats stats = { 0 };
	struct history_judge_params jp = {
		.history = c->cfg->history,
		.reference = c->cfg->reference[0] ? c->cfg->reference : NULL,
		.intended = c->cfg->intended[0] ? c->cfg->intended : NULL,
		.store = true,
	};
	struct an_params ap;
	struct json_error err;
	char path[PATH_MAX];
	int ret, gate = EXITCODE_PASS;
	cJSON *m;

	snprintf(path, sizeof(path), "%.4000s/manifest.json", run_dir);
	ret = json_read_file(path, &m, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return ret;
	}
	snprintf(r->run_id, sizeof(r->run_id), "%s",
		 json_get_str(m, "run_id", "?"));
	snprintf(r->status, sizeof(r->status), "%s",
		 json_get_str(m, "status", "?"));
	snprintf(r->note, sizeof(r->note), "%s",
		 json_get_str(m, "status_reason", ""));
	kernel_of(m, r->kernel, sizeof(r->kernel));
	cJSON_Delete(m);
	/*
	 * The run's own comparisons: the runner's verdict when it ran here,
	 * else the analyzer's. The analyzer also writes the reports the
	 * summary and the dashboard link to, when nothing has yet.
	 */
	snprintf(path, sizeof(path), "%.4000s/report.json", run_dir);
	if (r->runner_exit < 0 || !fsio_exists(path)) {
		an_params_init(&ap);
		ap.quiet = true;
		gate = an_report_run(run_dir, &ap);
	}
	if (r->runner_exit >= 0)
		gate = r->runner_exit;
	ret = history_import_replacing(c->h, run_dir, token, &stats);
	if (ret)
		return ret;
	/*
	 * The night's gate is history; a run's comparisons of its scenarios
	 * with each other (a load against idle) count with gate = both.
	 */
	r->run_gate = gate;
	r->exit_code = c->cfg->gate_run ? gate : EXITCODE_PASS;
	if (strcmp(r->status, "complete")) {
		r->exit_code = exitcode_worse(r->exit_code,
					      EXITCODE_INCOMPLETE);
		return 0;
	}
	ret = history_judge_run(c->h, r->run_id, &jp, &r->judged,
				&r->nr_judged);
	if (ret)
		return ret;
	r->exit_code = exitcode_worse(r->exit_code,
				      history_judgements_exit(r->judged,
							      r->nr_judged));
	return 0;
}
