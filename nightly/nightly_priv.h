/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the nightly/ files; not part of the contract. */
#ifndef RTGATE_NIGHTLY_PRIV_H
#define RTGATE_NIGHTLY_PRIV_H

#include <dirent.h>
#include <stdio.h>

#include "history/history.h"
#include "nightly/nightly.h"

/* One run the nightly handled, and what it concluded about it. */
struct nightly_result {
	char suite[128];
	char run_id[128];
	char run_dir[PATH_MAX];
	char status[16];		/* complete | incomplete | aborted */
	char note[512];
	char kernel[400];
	int runner_exit;		/* rtgate run's exit; -1 not run here */
	int run_gate;			/* the run's own comparisons */
	int exit_code;			/* this run's contribution */
	struct history_judgement *judged;
	size_t nr_judged;
};

struct nightly_ctx {
	const struct nightly_config *cfg;
	struct history *h;
	char started[32];		/* UTC, ISO 8601 */
};

int nightly_suite_run(struct nightly_ctx *c, const struct nightly_suite *s,
		      struct nightly_result *res, size_t *nres, size_t max);
/*
 * The suites on the LAVA boards (nightly_lava.c): submit, wait within the
 * budget, fetch, store and judge. Appends one result per job.
 */
int nightly_lava_run(struct nightly_ctx *c, struct nightly_result *res,
		     size_t *nres, size_t max);
/* Imports a results directory (replacing placeholder @token) and judges it. */
int nightly_store(struct nightly_ctx *c, const char *run_dir,
		  const char *token, struct nightly_result *r);

/* The dashboard's table of hosts side by side (nightly_boards.c). */
int nightly_boards_html(struct history *h, FILE *f);

int nightly_summary_write(const struct nightly_ctx *c,
			  const struct nightly_result *res, size_t n,
			  int exit_code, FILE *text_out);

#endif
