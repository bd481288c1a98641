// SPDX-License-Identifier: GPL-2.0-only
/*
 * One suite of the nightly: run it with `rtgate run` (or collect the runs a
 * lab sent into its import directory), store it, judge it against history.
 *
 * Before the runner starts, a placeholder run is stored as incomplete; it
 * is replaced by the real run in the same transaction that imports it. A
 * nightly killed mid-run therefore leaves the run in the database, marked
 * incomplete, never as a pass and never as a baseline.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include "exitcode.h"
#include "fsio.h"
#include "history/history.h"
#include "log.h"
#include "nightly/nightly.h"
#include "nightly/nightly_priv.h"
#include "stopsig.h"

static void read_latest(const char *results, char *buf, size_t len)
{
	char link[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "%.4000s/latest", results);
	n = readlink(link, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static int spawn_runner(const struct nightly_config *cfg,
			const struct nightly_suite *s, int *exit_code)
{
	char file[PATH_MAX];
	wordexp_t we = { 0 };
	char **av;
	size_t i, n;
	int status, ret;
	pid_t pid;

	/*
	 * Without a file, the suite by name: ./suites/NAME.suite, else
	 * rtgate's own (a clone's or the installed ones).
	 */
	snprintf(file, sizeof(file), "%s", s->file[0] ? s->file : s->name);
	if (s->args[0]) {
		ret = wordexp(s->args, &we, WRDE_NOCMD | WRDE_UNDEF);
		if (ret) {
			pr_err("%s: [suite %s] args = '%s' cannot be split "
			       "into words", cfg->path, s->name, s->args);
			return -EINVAL;
		}
	}
	n = we.we_wordc;
	av = calloc(n + 5, sizeof(*av));
	if (!av) {
		wordfree(&we);
		return -ENOMEM;
	}
	/* rtgate run takes its options before the suite. */
	av[0] = (char *)cfg->rtgate;
	av[1] = "run";
	/* The nightly stores the run itself (its placeholder, its token). */
	av[2] = "--no-history";
	for (i = 0; i < n; i++)
		av[3 + i] = we.we_wordv[i];
	av[3 + n] = file;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (!pid) {
		setenv("RTGATE_RESULTS_DIR", cfg->results, 1);
		execv(av[0], av);
		fprintf(stderr, "nightly: %s: %s\n", av[0], strerror(errno));
		_exit(EXITCODE_ENVIRONMENT);
	}
	/* A stop signal goes to the runner, which restores and stops. */
	stopsig_forward(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = -errno;
			stopsig_forward(0);
			goto out;
		}
	stopsig_forward(0);
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) :
		     EXITCODE_INCOMPLETE;
	ret = 0;
out:
	free(av);
	wordfree(&we);
	return ret;
}

static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len))
		snprintf(buf, len, "unknown");
	buf[len - 1] = '\0';
}

/* Runs the suite; *run_dir is the new results directory ("" if none). */
static int run_suite(struct nightly_ctx *c, const struct nightly_suite *s,
		     struct nightly_result *r)
{
	char before[PATH_MAX], after[PATH_MAX], token[128], host[128];
	char reason[256];
	time_t t = time(NULL);
	int ret;

	host_name(host, sizeof(host));
	snprintf(token, sizeof(token), "nightly-%lld-%d-%.64s",
		 (long long)t, (int)getpid(), s->name);
	ret = history_begin_pending(c->h, token, s->name, host,
				    "the nightly was running it");
	if (ret)
		return ret;
	read_latest(c->cfg->results, before, sizeof(before));
	ret = spawn_runner(c->cfg, s, &r->runner_exit);
	if (ret) {
		history_fail_pending(c->h, token, "rtgate run did not start");
		return ret;
	}
	read_latest(c->cfg->results, after, sizeof(after));
	if (!after[0] || !strcmp(before, after)) {
		snprintf(reason, sizeof(reason), "rtgate run exited %d without"
			 " a results directory", r->runner_exit);
		history_fail_pending(c->h, token, reason);
		snprintf(r->run_id, sizeof(r->run_id), "%s", token);
		snprintf(r->status, sizeof(r->status), "incomplete");
		snprintf(r->note, sizeof(r->note), "%s", reason);
		return 0;
	}
	snprintf(r->run_dir, sizeof(r->run_dir), "%.3000s/%.1000s",
		 c->cfg->results, after);
	ret = nightly_store(c, r->run_dir, token, r);
	if (ret)
		history_fail_pending(c->h, token, "its results could not be "
				     "stored");
	return ret;
}

/* Collects the runs a lab left in the import directory. */
static int import_suite(struct nightly_ctx *c, const struct nightly_suite *s,
			struct nightly_result *res, size_t *nres, size_t max)
{
	char sub[PATH_MAX];
	struct dirent **ents;
	int n, i, ret = 0;

	n = scandir(s->import, &ents, NULL, alphasort);
	if (n < 0) {
		ret = -errno;
		pr_err("%s: [suite %s] import = %s: %s", c->cfg->path,
		       s->name, s->import, strerror(errno));
		return ret;
	}
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		struct history_run old;

		snprintf(sub, sizeof(sub), "%.3000s/%.255s/manifest.json",
			 s->import, name);
		if (!ret && name[0] != '.' && fsio_exists(sub) &&
		    *nres < max && history_find_run(c->h, name, &old)) {
			struct nightly_result *r = &res[(*nres)++];

			memset(r, 0, sizeof(*r));
			snprintf(r->suite, sizeof(r->suite), "%s", s->name);
			snprintf(r->run_dir, sizeof(r->run_dir),
				 "%.3000s/%.255s", s->import, name);
			r->runner_exit = -1;
			ret = nightly_store(c, r->run_dir, NULL, r);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int nightly_suite_run(struct nightly_ctx *c, const struct nightly_suite *s,
		      struct nightly_result *res, size_t *nres, size_t max)
{
	struct nightly_result *r;

	if (s->import[0])
		return import_suite(c, s, res, nres, max);
	if (*nres >= max)
		return -ENOSPC;
	r = &res[(*nres)++];
	memset(r, 0, sizeof(*r));
	snprintf(r->suite, sizeof(r->suite), "%s", s->name);
	return run_suite(c, s, r);
}
