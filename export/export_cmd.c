// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate export kcidb RUN_DIR`: a run as KCIDB v5 JSON. `rtgate lava`
 * is lava/'s (lava/lava_cmd.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "export.h"
#include "export_priv.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "textfmt.h"

static int write_json_out(const char *path, const cJSON *doc)
{
	char *text, *fixed;
	int ret;

	if (path)
		return json_write_file(path, doc);
	text = cJSON_Print(doc);
	if (!text)
		return -ENOMEM;
	/* UTF-8 on stdout too (json_write_file()'s rule). */
	fixed = text_utf8_repair(text, strlen(text), NULL);
	free(text);
	if (!fixed)
		return -ENOMEM;
	ret = puts(fixed) < 0 ? -EIO : 0;
	free(fixed);
	return ret;
}

enum { OPT_ORIGIN = 0x100, OPT_CHECKOUT, OPT_BUILD, OPT_TREE, OPT_LOG_URL,
       OPT_GIT_URL, OPT_GIT_COMMIT };

static const struct argp_option kcidb_opts[] = {
	{ "origin", OPT_ORIGIN, "NAME", 0, "KCIDB origin, [a-z0-9_]+ (default "
	  "rtgate)", 0 },
	{ "checkout-id", OPT_CHECKOUT, "ID", 0, "an existing checkout (else "
	  "one of our own)", 0 },
	{ "build-id", OPT_BUILD, "ID", 0, "an existing build (else one of our "
	  "own)", 0 },
	{ "tree-name", OPT_TREE, "NAME", 0, "the checkout's tree name", 0 },
	{ "git-url", OPT_GIT_URL, "URL", 0, "the tree's repository (with a "
	  "commit: the build's, or --git-commit)", 0 },
	{ "git-commit", OPT_GIT_COMMIT, "HASH", 0, "the tree's commit (40 or "
	  "64 lower-case hex), where the build did not record one", 0 },
	{ "log-url", OPT_LOG_URL, "URL", 0, "where the results are served", 0 },
	{ 0 }
};

static error_t kcidb_parse(int key, char *arg, struct argp_state *state)
{
	struct export_kcidb_params *p = state->input;

	switch (key) {
	case OPT_ORIGIN: p->origin = arg; break;
	case OPT_CHECKOUT: p->checkout_id = arg; break;
	case OPT_BUILD: p->build_id = arg; break;
	case OPT_TREE: p->tree_name = arg; break;
	case OPT_GIT_URL: p->git_url = arg; break;
	case OPT_GIT_COMMIT:
		if ((strlen(arg) != 40 && strlen(arg) != 64) ||
		    strspn(arg, "0123456789abcdef") != strlen(arg))
			return cli_error(state, "--git-commit: '%s' is not a "
					 "40 or 64 digit lower-case hex hash",
					 arg);
		p->git_commit = arg;
		break;
	case OPT_LOG_URL: p->log_url = arg; break;
	case CLI_KEY_OUTPUT: p->output = arg; break;	/* shared (cli.h) */
	case CLI_KEY_DB: p->db = arg; break;
	case ARGP_KEY_ARG:
		if (p->run_dir)
			return cli_error(state, "one run at a time");
		p->run_dir = arg;
		break;
	case ARGP_KEY_END:
		if (!p->run_dir)
			return cli_error(state, "which run? (RUN_DIR)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child kcidb_children[] = {
	{ &cli_db_given_argp }, { &cli_output_argp }, { 0 }
};

static const struct argp kcidb_argp = {
	kcidb_opts, kcidb_parse, "RUN_DIR",
	"A run as KernelCI KCIDB v5 JSON: one checkout (the tree: repository "
	"and commit, or Debian's source version, and the patch sets' "
	"patchset_hash), one build (its config fragments), tests "
	"rtgate.SUITE.SCENARIO[.METRIC] with the verdict as it counts for the "
	"gate (a flagged positive control passes); with --db, the run's "
	"verdicts against history join the tests. docs/exports.md.",
	kcidb_children, NULL, NULL
};

static int export_kcidb(int argc, char **argv)
{
	struct export_kcidb_params p = { .origin = "rtgate" };
	cJSON *doc;
	int ret;

	ret = cli_parse("export kcidb", &kcidb_argp, argc, argv, 0, &p);
	if (ret)
		return cli_exit(ret);
	ret = export_kcidb_build(&p, &doc);
	if (ret)
		return ret == -ENOMEM || ret == -EIO ? EXITCODE_ENVIRONMENT :
		       EXITCODE_BAD_INPUT;
	ret = write_json_out(p.output, doc);
	cJSON_Delete(doc);
	if (ret) {
		pr_err("%s: %s", p.output ? p.output : "stdout", strerror(-ret));
		return EXITCODE_ENVIRONMENT;
	}
	return EXITCODE_PASS;
}

int export_cmd_export(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "kcidb", "[OPTION...] RUN_DIR",
		  "a run as KernelCI KCIDB v5 JSON", export_kcidb },
	};

	return cli_dispatch("export", "Results out to the lab's systems "
			    "(docs/nightly.md).", subs, 1, argc, argv);
}
