// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate history import PATH` and `rtgate history list`: the store from a
 * terminal. The database is --db FILE, else $RTGATE_DB, else
 * $RTGATE_RESULTS_DIR/rtgate.db, else results/rtgate.db.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "fsio.h"
#include "history.h"
#include "log.h"

struct history_params {
	const char *db;
	const char *suite;
	const char *path;
	char db_buf[PATH_MAX];
};

int history_resolve_db(const char *opt, char *buf, size_t len)
{
	const char *env = getenv("RTGATE_DB");
	const char *res = getenv("RTGATE_RESULTS_DIR");

	if (opt || (env && *env))
		return snprintf(buf, len, "%s", opt ? opt : env) >= (int)len ?
		       -ENAMETOOLONG : 0;
	if (!res || !*res)
		res = "results";
	if (fsio_mkdir_p(res, 0755))
		return -errno;
	return history_default_path(res, buf, len);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rtgate history import [--db FILE] RESULTS_DIR...\n"
		"       rtgate history list [--db FILE] [--suite NAME]\n"
		"       rtgate history changepoints [--db FILE] [--suite NAME]"
		" [--history K]\n"
		"                                   [--reference GLOB]"
		" [--rejudge]\n"
		"RESULTS_DIR is one run (it has manifest.json) or a directory of"
		" runs.\n");
}

static int parse_args(int argc, char **argv, struct history_params *p)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "suite", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			p->db = optarg;
			break;
		case 's':
			p->suite = optarg;
			break;
		default:
			usage();
			return -EINVAL;
		}
	}
	if (history_resolve_db(p->db, p->db_buf, sizeof(p->db_buf))) {
		pr_err("cannot place the history database");
		return -EINVAL;
	}
	return 0;
}

static int do_import(struct history *h, int argc, char **argv)
{
	struct history_import_stats stats = { 0 };
	int i, bad = 0;

	if (argc < 1) {
		usage();
		return EXIT_BAD_INPUT;
	}
	for (i = 0; i < argc; i++)
		if (history_import_path(h, argv[i], &stats) == -ENOENT)
			bad = 1;
	printf("imported %u run(s), %u unchanged, %u failed into %s\n",
	       stats.imported, stats.unchanged, stats.failed, h->path);
	return stats.failed || bad ? EXIT_BAD_INPUT : EXIT_PASS;
}

static int do_list(struct history *h, const char *suite)
{
	struct history_run *runs;
	size_t n, i;

	if (history_runs(h, suite, &runs, &n))
		return EXIT_ENVIRONMENT;
	printf("%-28s %-12s %-12s %-20s %-10s %s\n", "RUN", "SUITE", "HOST",
	       "KERNEL", "STATUS", "START");
	for (i = 0; i < n; i++)
		printf("%-28s %-12s %-12s %-20s %-10s %s\n", runs[i].run_id,
		       runs[i].suite, runs[i].host, runs[i].kernel_release,
		       runs[i].status, runs[i].start_time);
	free(runs);
	return EXIT_PASS;
}

int cmd_history(int argc, char **argv)
{
	struct history_params p = { 0 };
	struct history h;
	const char *sub;
	int ret;

	if (argc < 2) {
		usage();
		return EXIT_BAD_INPUT;
	}
	sub = argv[1];
	if (!strcmp(sub, "changepoints"))
		return history_cmd_changepoints(argc - 1, argv + 1);
	if (parse_args(argc - 1, argv + 1, &p))
		return EXIT_BAD_INPUT;
	if (strcmp(sub, "import") && strcmp(sub, "list")) {
		pr_err("history: unknown subcommand '%s'", sub);
		usage();
		return EXIT_BAD_INPUT;
	}
	if (history_open(&h, p.db_buf))
		return EXIT_ENVIRONMENT;
	argc -= optind + 1;
	argv += optind + 1;
	if (!strcmp(sub, "import"))
		ret = do_import(&h, argc, argv);
	else
		ret = do_list(&h, p.suite);
	history_close(&h);
	return ret;
}
