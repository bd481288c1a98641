// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a run's parts are: the suite a name means (and, for a typo, the
 * suites there are), each workload's program, the measurement tools in
 * PATH, the tunable a suite line names, and the vCPUs a suite asks the
 * lab for (runner.h). runner_run.c and runner_rep.c call down into this
 * file.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "cli.h"
#include "fsio.h"
#include "log.h"
#include "rtpaths.h"
#include "runner/machine/machine.h"
#include "runner/runner.h"
#include "runner/runner_priv.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Where a suite NAME is looked for: ./suites, then rtgate's own (the
 * clone's, or an installed rtgate's PREFIX/share/rtgate/suites).
 */
static void suite_dirs(char dirs[2][PATH_MAX])
{
	snprintf(dirs[0], PATH_MAX, "suites");
	if (rtpaths_in_top(dirs[1], PATH_MAX, "suites"))
		dirs[1][0] = '\0';
}

/* The suites NAME can find, for the message of one that is not there. */
static void list_suites(char dirs[2][PATH_MAX], const char *arg)
{
	const char *names[128], *near;
	size_t nn = 0, i, k;
	struct dirent *e;
	char *n;
	DIR *d;

	for (k = 0; k < 2; k++) {
		d = dirs[k][0] ? opendir(dirs[k]) : NULL;
		while (d && (e = readdir(d)) && nn < 128) {
			size_t len = strlen(e->d_name);

			if (len <= 6 || strcmp(e->d_name + len - 6, ".suite"))
				continue;
			n = strndup(e->d_name, len - 6);
			for (i = 0; n && i < nn && strcmp(names[i], n); i++)
				;
			if (n && i == nn)
				names[nn++] = n;
			else
				free(n);
		}
		if (d)
			closedir(d);
	}
	qsort(names, nn, sizeof(names[0]), cmp_str);
	near = cli_nearest(arg, names, nn);
	if (near)
		fprintf(stderr, "Did you mean '%s'? ", near);
	fprintf(stderr, "Suites: ");
	for (i = 0; i < nn; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
	fprintf(stderr, "%s\n", nn ? "" : "none found");
	for (i = 0; i < nn; i++)
		free((char *)names[i]);
}

int runner_resolve_suite(const char *arg, char *buf, size_t len)
{
	char dirs[2][PATH_MAX];
	size_t n = strlen(arg), k;

	if (strchr(arg, '/') || (n > 6 && !strcmp(arg + n - 6, ".suite"))) {
		snprintf(buf, len, "%s", arg);
		return 0;
	}
	suite_dirs(dirs);
	for (k = 0; k < 2; k++) {
		if (!dirs[k][0] ||
		    rtpaths_fmt(buf, len, "%s/%s.suite", dirs[k], arg))
			continue;
		if (fsio_exists(buf))
			return 0;
	}
	pr_err("no suite '%s': neither ./suites/%s.suite nor %s/%s.suite "
	       "exists", arg, arg, dirs[1][0] ? dirs[1] : "rtgate's suites",
	       arg);
	list_suites(dirs, arg);
	return -ENOENT;
}

void runner_program_path(const struct runner *r, const char *program,
			 char *buf, size_t len)
{
	if (strchr(program, '/'))
		snprintf(buf, len, "%s", program);
	else
		rtpaths_fmt(buf, len, "%s/%s", r->bin_dir, program);
}

static int find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int ret = -ENOENT;

	copy = strdup(path && *path ? path : "/usr/local/sbin:/usr/local/bin:"
		      "/usr/sbin:/usr/bin:/sbin:/bin");
	if (!copy)
		return -ENOMEM;
	for (dir = strtok_r(copy, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", dir, name);
		if (!access(buf, X_OK)) {
			ret = 0;
			break;
		}
	}
	free(copy);
	return ret;
}

/*
 * Whether PATH's rtla is older than the running kernel (major.minor) and
 * rtgate's own is newer than it: bookworm's rtla 6.1 prints an empty
 * histogram on a 7.x kernel, so there rtgate's own measures.
 */
static bool path_rtla_too_old(const char *path_rtla, const char *own)
{
	unsigned int pm, pn, om, on, km, kn;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &km, &kn) != 2)
		return false;
	if (runner_env_rtla_version(path_rtla, &pm, &pn) ||
	    runner_env_rtla_version(own, &om, &on))
		return false;
	if (pm > km || (pm == km && pn >= kn))
		return false;
	if (om < pm || (om == pm && on <= pn))
		return false;
	pr_info("rtla %u.%u in PATH is older than this kernel (%u.%u): "
		"timerlat measures with rtgate's own rtla %u.%u (%s)", pm, pn,
		km, kn, om, on, own);
	return true;
}

/*
 * The histogram is measured by the rtla in PATH (the distribution's, as
 * before: its measurement did not change) unless it is older than the
 * kernel and rtgate's own is newer; the auto-analysis by rtgate's own
 * build (`rtgate kernel tools`) when there is one; either serves for
 * both when it is the only one (docs/tracing.md, "Which rtla").
 */
static int find_rtla(struct runner *r)
{
	bool own = !rtpaths_tool(r->rtla_aa_path, sizeof(r->rtla_aa_path),
				 "rtla");

	if (find_in_path("rtla", r->rtla, sizeof(r->rtla))) {
		if (!own) {
			pr_err("rtla is not installed: timerlat scenarios "
			       "measure with rtla timerlat hist (Debian: "
			       "apt-get install rtla; or build the kernel "
			       "tree's: rtgate kernel tools)");
			return -ENOENT;
		}
		snprintf(r->rtla, sizeof(r->rtla), "%s", r->rtla_aa_path);
	}
	if (!own)
		snprintf(r->rtla_aa_path, sizeof(r->rtla_aa_path), "%s",
			 r->rtla);
	else if (strcmp(r->rtla, r->rtla_aa_path) &&
		 path_rtla_too_old(r->rtla, r->rtla_aa_path))
		snprintf(r->rtla, sizeof(r->rtla), "%s", r->rtla_aa_path);
	return 0;
}

/* Missing programs are a broken installation: exit 4 before any change. */
/*
 * The path of a measuring tool's program as runner_check_tools() found it:
 * the one place that knows which of the run's program paths a tool's
 * program is (rtla's is chosen with its version checks, find_rtla()).
 */
const char *runner_tool_path(const struct runner *r,
			     const struct an_tool *tool)
{
	if (!tool->program)
		return NULL;
	return strcmp(tool->program, "rtla") ? r->cyclictest : r->rtla;
}

int runner_check_tools(struct runner *r)
{
	char path[PATH_MAX];
	size_t i, j;

	if (runner_suite_uses_program(&r->suite, "cyclictest") &&
	    find_in_path("cyclictest", r->cyclictest, sizeof(r->cyclictest))) {
		pr_err("cyclictest is not installed (Debian: apt-get install "
		       "rt-tests; Fedora: dnf install rt-tests)");
		return -ENOENT;
	}
	if (runner_suite_uses_program(&r->suite, "rtla") && find_rtla(r))
		return -ENOENT;
	for (i = 0; i < r->suite.nr_scenarios; i++) {
		const struct runner_suite_scenario *sc = &r->suite.scenarios[i];

		for (j = 0; j < sc->nr_workloads; j++) {
			runner_program_path(r, sc->workloads[j].program, path,
					    sizeof(path));
			if (!access(path, X_OK))
				continue;
			pr_err("%s:%u: workload program %s: %s (build it: "
			       "make)", r->suite.path, sc->workloads[j].line,
			       path, strerror(errno));
			return -ENOENT;
		}
	}
	return 0;
}

struct runner_tunable *runner_tunable_lookup(struct runner *r,
			       const struct runner_suite_tunable *st)
{
	struct runner_tunable t;
	size_t i;

	if (runner_tunable_init(&t, st, r->debugfs[0] ? r->debugfs : NULL))
		return NULL;
	for (i = 0; i < r->nr_tunables; i++)
		if (!strcmp(r->tunables[i].key, t.key))
			return &r->tunables[i];
	return NULL;
}

int runner_suite_lab_cpus(const char *path, unsigned int *cpus, char *err,
			  size_t len)
{
	struct runner_suite s;
	struct runner_suite_error e;
	int ret = runner_suite_load(path, &s, &e);

	*cpus = 0;
	if (ret) {
		snprintf(err, len, "%s", e.msg);
		return ret;
	}
	*cpus = s.lab_cpus;
	runner_suite_free(&s);
	return 0;
}
