// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate export kcidb RUN_DIR`, `rtgate lava job ...` and
 * `rtgate lava report RUN_DIR` (the last one runs inside a LAVA job).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

static int export_kcidb(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "origin", required_argument, NULL, 'O' },
		{ "checkout-id", required_argument, NULL, 'c' },
		{ "build-id", required_argument, NULL, 'b' },
		{ "tree-name", required_argument, NULL, 't' },
		{ "log-url", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ 0 }
	};
	struct kcidb_params p = { .origin = "rtgate" };
	cJSON *doc;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'O': p.origin = optarg; break;
		case 'c': p.checkout_id = optarg; break;
		case 'b': p.build_id = optarg; break;
		case 't': p.tree_name = optarg; break;
		case 'l': p.log_url = optarg; break;
		case 'o': p.output = optarg; break;
		case 'd': p.db = optarg; break;
		default: return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: rtgate export kcidb [--origin NAME] "
			"[--checkout-id ID] [--build-id ID] [--tree-name NAME]\n"
			"       [--log-url URL] [--db HISTORY_DB] [-o FILE] "
			"RUN_DIR\n");
		return EXIT_BAD_INPUT;
	}
	p.run_dir = argv[optind];
	ret = kcidb_build(&p, &doc);
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

int cmd_export(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "kcidb"))
		return export_kcidb(argc - 1, argv + 1);
	fprintf(stderr, "usage: rtgate export kcidb [OPTIONS] RUN_DIR\n");
	return EXIT_BAD_INPUT;
}

/* --- lava --- */

static int lava_job(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "dtb", required_argument, NULL, 'd' },
		{ "ramdisk", required_argument, NULL, 'r' },
		{ "modules", required_argument, NULL, 'm' },
		{ "rootfs", required_argument, NULL, 'R' },
		{ "suite", required_argument, NULL, 's' },
		{ "device-type", required_argument, NULL, 't' },
		{ "job-name", required_argument, NULL, 'n' },
		{ "rtgate-args", required_argument, NULL, 'a' },
		{ "kernel-args", required_argument, NULL, 'K' },
		{ "prompt", required_argument, NULL, 'p' },
		{ "arch", required_argument, NULL, 'A' },
		{ "boot-method", required_argument, NULL, 'B' },
		{ "boot-commands", required_argument, NULL, 'C' },
		{ "visibility", required_argument, NULL, 'V' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "priority", required_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ 0 }
	};
	struct lava_job_params p = { .prompt = "/ #", .priority = 50 };
	char name[256];
	uint64_t v;
	cJSON *job;
	FILE *f;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'k': p.kernel = optarg; break;
		case 'd': p.dtb = optarg; break;
		case 'r': p.ramdisk = optarg; break;
		case 'm': p.modules = optarg; break;
		case 'R': p.rootfs = optarg; break;
		case 's': p.suite = optarg; break;
		case 't': p.device_type = optarg; break;
		case 'n': p.job_name = optarg; break;
		case 'a': p.rtgate_args = optarg; break;
		case 'K': p.kernel_args = optarg; break;
		case 'p': p.prompt = optarg; break;
		case 'A': p.arch = optarg; break;
		case 'B': p.boot_method = optarg; break;
		case 'C': p.boot_commands = optarg; break;
		case 'V': p.visibility = optarg; break;
		case 'o': p.output = optarg; break;
		case 'T':
		case 'P':
			if (parse_u64_range(optarg, c == 'T' ? 1 : 0,
					    c == 'T' ? 10080 : 100, &v)) {
				pr_err("--%s: '%s' is not a number in range",
				       c == 'T' ? "timeout" : "priority",
				       optarg);
				return EXIT_BAD_INPUT;
			}
			if (c == 'T')
				p.timeout_min = v;
			else
				p.priority = v;
			break;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc) {
		pr_err("lava job: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (!p.job_name) {
		snprintf(name, sizeof(name), "rtgate %s on %s",
			 p.suite ? p.suite : "?", p.device_type ?
			 p.device_type : "?");
		p.job_name = name;
	}
	ret = lava_job_build(&p, &job);
	if (ret)
		return EXIT_BAD_INPUT;
	f = p.output ? fopen(p.output, "w") : stdout;
	if (!f) {
		pr_err("%s: %s", p.output, strerror(errno));
		cJSON_Delete(job);
		return EXIT_ENVIRONMENT;
	}
	ret = yaml_write(f, job);
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

static int lava_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "exit-code", required_argument, NULL, 'e' },
		{ "print", no_argument, NULL, 'p' },
		{ 0 }
	};
	struct report_ctx ctx = { 0 };
	struct lava_case ec = { .measurement = NAN };
	int c, ret, exit_code = -1;
	uint64_t v;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p') {
			ctx.print = 1;
		} else if (c == 'e' && !parse_u64_range(optarg, 0, 255, &v)) {
			exit_code = v;
		} else {
			fprintf(stderr, "usage: rtgate lava report [--print] "
				"[--exit-code N] RUN_DIR\n");
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: rtgate lava report [--print] "
			"[--exit-code N] RUN_DIR\n");
		return EXIT_BAD_INPUT;
	}
	if (!ctx.print && !on_path("lava-test-case")) {
		pr_warn("lava-test-case is not on PATH (not inside a LAVA "
			"job?): printing the cases");
		ctx.print = 1;
	}
	ret = lava_cases(argv[optind], report_case, &ctx);
	if (exit_code >= 0) {
		snprintf(ec.name, sizeof(ec.name), "rtgate.exit");
		ec.result = exit_code ? "fail" : "pass";
		ec.measurement = exit_code;
		ec.units = "code";
		if (!ret)
			ret = report_case(&ec, &ctx);
	}
	if (ret)
		return ret == -EINVAL || ret == -ENOENT ? EXIT_BAD_INPUT :
		       EXIT_ENVIRONMENT;
	return EXIT_PASS;
}

int cmd_lava(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "job"))
		return lava_job(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return lava_report(argc - 1, argv + 1);
	fprintf(stderr,
		"usage: rtgate lava job --kernel URL [--ramdisk URL] [--dtb URL]"
		" [--modules URL]\n"
		"                       [--rootfs URL] --suite S --device-type T"
		" [--job-name N]\n"
		"                       [--rtgate-args ARGS] [--kernel-args A]"
		" [--prompt P] [--arch A]\n"
		"                       [--boot-method M]"
		" [--boot-commands C] [--timeout MIN]"
		" [--priority N] [-o FILE]\n"
		"       rtgate lava report [--print] [--exit-code N] RUN_DIR\n");
	return EXIT_BAD_INPUT;
}
