// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate lava`: `job` writes a job definition, `report` (inside a job)
 * runs lava-test-case for each test case export/ maps the run to
 * (export_lava_cases()); `submit` and `fetch` talk to a server
 * (lava_server_cmd.c).
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
#include "export/export.h"
#include "fsio.h"
#include "lava.h"
#include "lava_priv.h"
#include "log.h"
#include "parse.h"

enum { OPT_EXIT_CODE = 0x100, OPT_PRINT };

/* The job's options (lava_opts.c), and -o: where it goes (cli.h). */
static error_t job_parse(int key, char *arg, struct argp_state *state)
{
	struct lava_job_params *p = state->input;

	if (key != CLI_KEY_OUTPUT)
		return ARGP_ERR_UNKNOWN;
	p->output = arg;
	return 0;
}

static const struct argp_child job_children[] = {
	{ &lava_job_argp }, { &cli_output_argp }, { 0 }
};

static const struct argp job_argp = {
	NULL, job_parse, NULL,
	"A LAVA job definition (YAML): deploy the kernel, boot it, run a suite "
	"with rtgate inside and report its comparisons as lava-test-case "
	"results. docs/nightly.md.", job_children, NULL, NULL
};

static int cmd_job(int argc, char **argv)
{
	struct lava_job_params p = { .prompt = "/ #", .priority = 50 };
	struct fsio_stream st;
	char name[256];
	cJSON *job;
	int ret;

	ret = cli_parse("lava job", &job_argp, argc, argv, 0, &p);
	if (ret)
		return cli_exit(ret);
	if (p.nr_kernels > 1 || p.nr_suites > 1)
		return cli_exit(cli_usage_error("lava job", "one --kernel and "
				"one --suite a job (`lava submit` takes "
				"several)"));
	if (!p.job_name) {
		snprintf(name, sizeof(name), "rtgate %s on %s",
			 p.suite ? p.suite : "?", p.device_type ?
			 p.device_type : "?");
		p.job_name = name;
	}
	ret = lava_job_build(&p, &job);
	if (ret)
		return EXITCODE_BAD_INPUT;
	/* Written whole, never through a link (as export kcidb -o). */
	if (p.output) {
		if (fsio_stream_open(&st)) {
			cJSON_Delete(job);
			return EXITCODE_ENVIRONMENT;
		}
		ret = fsio_stream_commit(&st, p.output,
					 lava_yaml_write(st.f, job));
	} else {
		ret = lava_yaml_write(stdout, job);
	}
	cJSON_Delete(job);
	if (ret) {
		pr_err("%s: %s", p.output ? p.output : "stdout", strerror(-ret));
		return EXITCODE_ENVIRONMENT;
	}
	return EXITCODE_PASS;
}

struct report_ctx {
	int print;			/* print the commands instead */
	unsigned int failed;
};

/* Runs lava-test-case (LAVA puts it on PATH inside a test shell). */
static int report_case(const struct export_lava_case *c, void *arg)
{
	struct report_ctx *ctx = arg;
	char meas[64];
	char *av[9];
	int n = 0, status;
	pid_t pid;

	av[n++] = "lava-test-case";
	av[n++] = (char *)c->name;
	av[n++] = "--result";
	av[n++] = (char *)c->result;
	if (!isnan(c->measurement)) {
		snprintf(meas, sizeof(meas), "%.3f", c->measurement);
		av[n++] = "--measurement";
		av[n++] = meas;
		av[n++] = "--units";
		av[n++] = (char *)c->units;
	}
	av[n] = NULL;
	if (!strcmp(c->result, "fail"))
		ctx->failed++;
	if (ctx->print) {
		for (int i = 0; i < n; i++)
			printf("%s%s", i ? " " : "", av[i]);
		putchar('\n');
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(av[0], av);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_err("lava-test-case %s failed (status %d)", c->name, status);
		return -EIO;
	}
	return 0;
}

static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096], *save = NULL, *dir, full[4200];

	if (!path)
		return 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(full, sizeof(full), "%s/%s", dir, prog);
		if (!access(full, X_OK))
			return 1;
	}
	return 0;
}

static const struct argp_option report_opts[] = {
	{ "print", OPT_PRINT, NULL, 0, "print the lava-test-case commands "
	  "instead of running them", 0 },
	{ "exit-code", OPT_EXIT_CODE, "N", 0, "`rtgate run`'s exit code: one "
	  "more case, rtgate.SUITE.exit, that fails unless it is 0", 0 },
	{ 0 }
};

struct lava_report_args {
	struct report_ctx *ctx;
	int exit_code;
	const char *run_dir;
};

static error_t report_parse(int key, char *arg, struct argp_state *state)
{
	struct lava_report_args *a = state->input;
	uint64_t v;

	switch (key) {
	case OPT_PRINT:
		a->ctx->print = 1;
		break;
	case OPT_EXIT_CODE:
		if (parse_u64_range(arg, 0, 255, &v))
			return cli_error(state, "--exit-code: '%s' is not "
					 "0..255", arg);
		a->exit_code = v;
		break;
	case ARGP_KEY_ARG:
		if (a->run_dir)
			return cli_error(state, "one run at a time");
		a->run_dir = arg;
		break;
	case ARGP_KEY_END:
		if (!a->run_dir)
			return cli_error(state, "which run? (RUN_DIR)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp lava_report_argp = {
	report_opts, report_parse, "RUN_DIR",
	"Inside a LAVA job: lava-test-case rtgate.SUITE (the suite's verdict, "
	"its exit code as the measurement), rtgate.SUITE.SCENARIO per "
	"comparison (as it counts for the gate: a flagged positive control "
	"passes, with the deciding line's value as its measurement), "
	"rtgate.SUITE.SCENARIO.max and .cpuN.max per measured scenario. "
	"docs/exports.md.", NULL, NULL, NULL
};

static int cmd_report(int argc, char **argv)
{
	struct report_ctx ctx = { 0 };
	struct lava_report_args a = { .ctx = &ctx, .exit_code = -1 };
	int ret;

	ret = cli_parse("lava report", &lava_report_argp, argc, argv, 0, &a);
	if (ret)
		return cli_exit(ret);
	if (!ctx.print && !on_path("lava-test-case")) {
		pr_warn("lava-test-case is not on PATH (not inside a LAVA "
			"job?): printing the cases");
		ctx.print = 1;
	}
	ret = export_lava_cases(a.run_dir, a.exit_code, report_case, &ctx);
	if (ret)
		return ret == -EINVAL || ret == -ENOENT ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	return EXITCODE_PASS;
}

int lava_cmd_lava(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "job", "--kernel URL --suite S --device-type T [OPTION...]",
		  "a LAVA job definition (YAML)", cmd_job },
		{ "report", "[--print] [--exit-code N] RUN_DIR",
		  "a run's lava-test-case results (inside a job)",
		  cmd_report },
		{ "submit", "[--url URL] [--token-file F] --board B... "
		  "[JOB OPTION...]", "submit one job per board × kernel × "
		  "suite to a LAVA server; prints the job ids",
		  lava_cmd_submit },
		{ "fetch", "[--wait] [--budget DUR] [--results DIR] [--db F] "
		  "JOB...", "wait for jobs, rebuild their results directories, "
		  "import them into history", lava_cmd_fetch },
	};

	return cli_dispatch("lava", "LAVA: job definitions for the lab, and "
			    "the test cases of a run (docs/nightly.md).",
			    subs, sizeof(subs) / sizeof(subs[0]), argc, argv);
}
