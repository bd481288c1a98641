// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate export kcidb RUN_DIR`, `rtgate lava job ...` and
 * `rtgate lava report RUN_DIR` (the last one runs inside a LAVA job).
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
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"

static int write_json_out(const char *path, const cJSON *doc)
{
	char *text;
	int ret;

	if (path)
		return json_write_file(path, doc);
	text = cJSON_Print(doc);
	if (!text)
		return -ENOMEM;
	ret = puts(text) < 0 ? -EIO : 0;
	free(text);
	return ret;
}

enum { OPT_ORIGIN = 0x100, OPT_CHECKOUT, OPT_BUILD, OPT_TREE, OPT_LOG_URL,
       OPT_DB, OPT_DTB, OPT_RAMDISK, OPT_MODULES, OPT_ROOTFS, OPT_SUITE,
       OPT_DEVICE_TYPE, OPT_JOB_NAME, OPT_RTGATE_ARGS, OPT_KERNEL_ARGS,
       OPT_PROMPT, OPT_ARCH, OPT_BOOT_METHOD, OPT_BOOT_COMMANDS,
       OPT_VISIBILITY, OPT_TIMEOUT, OPT_PRIORITY, OPT_KERNEL, OPT_EXIT_CODE,
       OPT_PRINT, OPT_GIT_URL, OPT_GIT_COMMIT };

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
	{ "db", OPT_DB, "HISTORY_DB", 0, "a history database (its verdicts "
	  "against history join the tests)", 0 },
	{ "output", 'o', "FILE", 0, "write here (default stdout)", 0 },
	{ 0 }
};

static error_t kcidb_parse(int key, char *arg, struct argp_state *state)
{
	struct kcidb_params *p = state->input;

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
	case 'o': p->output = arg; break;
	case OPT_DB: p->db = arg; break;
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

static const struct argp kcidb_argp = {
	kcidb_opts, kcidb_parse, "RUN_DIR",
	"A run as KernelCI KCIDB v5 JSON: one checkout (the tree: repository "
	"and commit, or Debian's source version, and the patch sets' "
	"patchset_hash), one build (its config fragments), tests "
	"rtgate.SUITE.SCENARIO[.METRIC] with the verdict as it counts for the "
	"gate (a flagged positive control passes). docs/exports.md.",
	NULL, NULL, NULL
};

static int export_kcidb(int argc, char **argv)
{
	struct kcidb_params p = { .origin = "rtgate" };
	cJSON *doc;
	int ret;

	ret = cli_parse("export kcidb", &kcidb_argp, argc, argv, 0, &p);
	if (ret)
		return cli_exit(ret);
	ret = export_kcidb_build(&p, &doc);
	if (ret)
		return ret == -ENOMEM || ret == -EIO ? EXIT_ENVIRONMENT :
		       EXIT_BAD_INPUT;
	ret = write_json_out(p.output, doc);
	cJSON_Delete(doc);
	if (ret) {
		pr_err("%s: %s", p.output ? p.output : "stdout", strerror(-ret));
		return EXIT_ENVIRONMENT;
	}
	return EXIT_PASS;
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

/* --- lava --- */

static const struct argp_option job_opts[] = {
	{ "kernel", OPT_KERNEL, "URL", 0, "the kernel image (required)", 0 },
	{ "dtb", OPT_DTB, "URL", 0, "the device tree (boards)", 0 },
	{ "ramdisk", OPT_RAMDISK, "URL", 0, "the initramfs carrying rtgate", 0 },
	{ "modules", OPT_MODULES, "URL", 0, "a modules tarball", 0 },
	{ "rootfs", OPT_ROOTFS, "URL", 0, "a root file system", 0 },
	{ "suite", OPT_SUITE, "S", 0, "the suite to run inside (required)", 0 },
	{ "device-type", OPT_DEVICE_TYPE, "T", 0, "qemu, or a board's LAVA "
	  "device type (required)", 0 },
	{ "job-name", OPT_JOB_NAME, "N", 0, "default: rtgate SUITE on TYPE", 0 },
	{ "rtgate-args", OPT_RTGATE_ARGS, "ARGS", 0, "extra `rtgate run` "
	  "arguments", 0 },
	{ "kernel-args", OPT_KERNEL_ARGS, "A", 0, "qemu: the kernel command "
	  "line", 0 },
	{ "prompt", OPT_PROMPT, "P", 0, "the image's shell prompt (default "
	  "\"/ #\")", 0 },
	{ "arch", OPT_ARCH, "A", 0, "qemu: amd64, arm64, ...", 0 },
	{ "boot-method", OPT_BOOT_METHOD, "M", 0, "qemu, u-boot, ... (default "
	  "by device type)", 0 },
	{ "boot-commands", OPT_BOOT_COMMANDS, "C", 0, "u-boot: ramdisk, nfs, "
	  "...", 0 },
	{ "visibility", OPT_VISIBILITY, "V", 0, "public (default) or "
	  "personal", 0 },
	{ "timeout", OPT_TIMEOUT, "MIN", 0, "the whole job, in minutes", 0 },
	{ "priority", OPT_PRIORITY, "N", 0, "0..100 (default 50)", 0 },
	{ "output", 'o', "FILE", 0, "write here (default stdout)", 0 },
	{ 0 }
};

static error_t job_parse(int key, char *arg, struct argp_state *state)
{
	struct lava_job_params *p = state->input;
	uint64_t v;

	switch (key) {
	case OPT_KERNEL: p->kernel = arg; break;
	case OPT_DTB: p->dtb = arg; break;
	case OPT_RAMDISK: p->ramdisk = arg; break;
	case OPT_MODULES: p->modules = arg; break;
	case OPT_ROOTFS: p->rootfs = arg; break;
	case OPT_SUITE: p->suite = arg; break;
	case OPT_DEVICE_TYPE: p->device_type = arg; break;
	case OPT_JOB_NAME: p->job_name = arg; break;
	case OPT_RTGATE_ARGS: p->rtgate_args = arg; break;
	case OPT_KERNEL_ARGS: p->kernel_args = arg; break;
	case OPT_PROMPT: p->prompt = arg; break;
	case OPT_ARCH: p->arch = arg; break;
	case OPT_BOOT_METHOD: p->boot_method = arg; break;
	case OPT_BOOT_COMMANDS: p->boot_commands = arg; break;
	case OPT_VISIBILITY: p->visibility = arg; break;
	case 'o': p->output = arg; break;
	case OPT_TIMEOUT:
	case OPT_PRIORITY:
		if (parse_u64_range(arg, key == OPT_TIMEOUT ? 1 : 0,
				    key == OPT_TIMEOUT ? 10080 : 100, &v))
			return cli_error(state, "--%s: '%s' is not a number in "
					 "range", key == OPT_TIMEOUT ?
					 "timeout" : "priority", arg);
		if (key == OPT_TIMEOUT)
			p->timeout_min = v;
		else
			p->priority = v;
		break;
	case ARGP_KEY_ARG:
		return cli_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp job_argp = {
	job_opts, job_parse, NULL,
	"A LAVA job definition (YAML): deploy the kernel, boot it, run a suite "
	"with rtgate inside and report its comparisons as lava-test-case "
	"results. docs/nightly.md.", NULL, NULL, NULL
};

static int lava_job(int argc, char **argv)
{
	struct lava_job_params p = { .prompt = "/ #", .priority = 50 };
	char name[256];
	cJSON *job;
	FILE *f;
	int ret;

	ret = cli_parse("lava job", &job_argp, argc, argv, 0, &p);
	if (ret)
		return cli_exit(ret);
	if (!p.job_name) {
		snprintf(name, sizeof(name), "rtgate %s on %s",
			 p.suite ? p.suite : "?", p.device_type ?
			 p.device_type : "?");
		p.job_name = name;
	}
	ret = export_lava_job_build(&p, &job);
	if (ret)
		return EXIT_BAD_INPUT;
	f = p.output ? fopen(p.output, "w") : stdout;
	if (!f) {
		pr_err("%s: %s", p.output, strerror(errno));
		cJSON_Delete(job);
		return EXIT_ENVIRONMENT;
	}
	ret = export_yaml_write(f, job);
	if (p.output && fclose(f) && !ret)
		ret = -errno;
	cJSON_Delete(job);
	if (ret) {
		pr_err("%s: %s", p.output ? p.output : "stdout", strerror(-ret));
		return EXIT_ENVIRONMENT;
	}
	return EXIT_PASS;
}

struct report_ctx {
	int print;			/* print the commands instead */
	unsigned int failed;
};

/* Runs lava-test-case (LAVA puts it on PATH inside a test shell). */
static int report_case(const struct lava_case *c, void *arg)
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

static int lava_report(int argc, char **argv)
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
		return ret == -EINVAL || ret == -ENOENT ? EXIT_BAD_INPUT :
		       EXIT_ENVIRONMENT;
	return EXIT_PASS;
}

int export_cmd_lava(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "job", "--kernel URL --suite S --device-type T [OPTION...]",
		  "a LAVA job definition (YAML)", lava_job },
		{ "report", "[--print] [--exit-code N] RUN_DIR",
		  "a run's lava-test-case results (inside a job)",
		  lava_report },
	};

	return cli_dispatch("lava", "LAVA: job definitions for the lab, and "
			    "the test cases of a run (docs/nightly.md).",
			    subs, 2, argc, argv);
}
