// SPDX-License-Identifier: GPL-2.0-only
/*
 * The nightly's configuration: an INI file read with inih, strict like a
 * suite file (an unknown section or key is FILE:LINE: an error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>

#include "fsio.h"
#include "log.h"
#include "nightly/nightly.h"
#include "parse.h"

struct cfg_parse {
	struct nightly_config *cfg;
	const char *file;
	char err[512];
	int line;			/* counts lines for the handler */
};

static int set_str(char *dst, size_t len, const char *val)
{
	return snprintf(dst, len, "%s", val) < (int)len;
}

static int nightly_key(struct cfg_parse *cp, const char *name,
		       const char *value)
{
	struct nightly_config *c = cp->cfg;
	uint64_t v;

	if (!strcmp(name, "results"))
		return set_str(c->results, sizeof(c->results), value);
	if (!strcmp(name, "database"))
		return set_str(c->database, sizeof(c->database), value);
	if (!strcmp(name, "summary"))
		return set_str(c->summary, sizeof(c->summary), value);
	if (!strcmp(name, "lock"))
		return set_str(c->lock, sizeof(c->lock), value);
	if (!strcmp(name, "dashboard"))
		return set_str(c->dashboard, sizeof(c->dashboard), value);
	if (!strcmp(name, "reference"))
		return set_str(c->reference, sizeof(c->reference), value);
	if (!strcmp(name, "report_url"))
		return set_str(c->report_url, sizeof(c->report_url), value);
	if (!strcmp(name, "rtgate"))
		return set_str(c->rtgate, sizeof(c->rtgate), value);
	if (!strcmp(name, "gate")) {
		if (strcmp(value, "history") && strcmp(value, "both")) {
			snprintf(cp->err, sizeof(cp->err), "gate = '%s': "
				 "history or both", value);
			return 0;
		}
		c->gate_run = !strcmp(value, "both");
		return 1;
	}
	if (!strcmp(name, "history")) {
		if (parse_u64_range(value, 1, 1000, &v)) {
			snprintf(cp->err, sizeof(cp->err),
				 "history = '%s': a number of runs, 1..1000",
				 value);
			return 0;
		}
		c->history = v;
		return 1;
	}
	snprintf(cp->err, sizeof(cp->err), "unknown key '%s' in [nightly]",
		 name);
	return 0;
}

static struct nightly_suite *find_suite(struct cfg_parse *cp, const char *name)
{
	struct nightly_config *c = cp->cfg;
	struct nightly_suite *s;
	size_t i;

	for (i = 0; i < c->nr_suites; i++)
		if (!strcmp(c->suites[i].name, name))
			return &c->suites[i];
	if (c->nr_suites == NIGHTLY_MAX_SUITES) {
		snprintf(cp->err, sizeof(cp->err), "more than %d suites",
			 NIGHTLY_MAX_SUITES);
		return NULL;
	}
	s = &c->suites[c->nr_suites++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

static int suite_key(struct cfg_parse *cp, const char *suite,
		     const char *name, const char *value)
{
	struct nightly_suite *s;
	const char *p;

	for (p = suite; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
			    "VWXYZ0123456789-_", *p))
			break;
	if (!*suite || *p) {
		snprintf(cp->err, sizeof(cp->err), "suite name '%s': letters, "
			 "digits, '-' and '_' only", suite);
		return 0;
	}
	s = find_suite(cp, suite);
	if (!s)
		return 0;
	if (!strcmp(name, "file"))
		return set_str(s->file, sizeof(s->file), value);
	if (!strcmp(name, "args"))
		return set_str(s->args, sizeof(s->args), value);
	if (!strcmp(name, "import"))
		return set_str(s->import, sizeof(s->import), value);
	snprintf(cp->err, sizeof(cp->err), "unknown key '%s' in [suite %s]",
		 name, suite);
	return 0;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct cfg_parse *cp = user;

	if (cp->err[0])
		return 1;	/* report the first error only */
	if (!strcmp(section, "nightly"))
		return nightly_key(cp, name, value);
	if (!strncmp(section, "suite ", 6))
		return suite_key(cp, section + 6, name, value);
	snprintf(cp->err, sizeof(cp->err), "unknown section [%s] (expected "
		 "[nightly] or [suite NAME])", section);
	return 0;
}

static void env_default(char *dst, size_t len, const char *env,
			const char *fallback)
{
	const char *v = getenv(env);

	snprintf(dst, len, "%s", v && *v ? v : fallback);
}

int nightly_config_load(struct nightly_config *cfg, const char *file)
{
	struct cfg_parse cp = { .cfg = cfg, .file = file };
	char state[PATH_MAX];
	int line;

	memset(cfg, 0, sizeof(*cfg));
	cfg->history = 7;
	if (file) {
		snprintf(cfg->path, sizeof(cfg->path), "%s", file);
		line = ini_parse(file, handler, &cp);
		if (line < 0) {
			pr_err("%s: cannot read: %s", file, strerror(errno));
			return -EINVAL;
		}
		if (line > 0 || cp.err[0]) {
			pr_err("%s:%d: %s", file, line, cp.err[0] ? cp.err :
			       "not an INI line ([section] or key = value)");
			return -EINVAL;
		}
	}
	if (!cfg->results[0])
		env_default(cfg->results, sizeof(cfg->results),
			    "RTGATE_RESULTS_DIR", "results");
	if (!cfg->database[0])
		snprintf(cfg->database, sizeof(cfg->database), "%.4000s/rtgate.db",
			 cfg->results);
	if (!cfg->summary[0])
		snprintf(cfg->summary, sizeof(cfg->summary), "%.4000s/nightly",
			 cfg->results);
	if (!cfg->lock[0]) {
		env_default(state, sizeof(state), "RTGATE_STATE_DIR",
			    "/var/lib/rtgate");
		snprintf(cfg->lock, sizeof(cfg->lock), "%.4000s/nightly.lock",
			 state);
	}
	if (!cfg->nr_suites) {
		/* No configuration: the quick suite, as ./run.sh does. */
		snprintf(cfg->suites[0].name, sizeof(cfg->suites[0].name),
			 "quick");
		cfg->nr_suites = 1;
	}
	return 0;
}

int nightly_config_print(const struct nightly_config *cfg, FILE *f)
{
	size_t i;

	fprintf(f, "%s: ok\n  results   %s\n  database  %s\n  summary   %s\n"
		"  lock      %s\n  dashboard %s\n  history   last %u runs%s%s\n"
		"  gate      %s\n", cfg->path[0] ? cfg->path : "(defaults)",
		cfg->results, cfg->database, cfg->summary, cfg->lock,
		cfg->dashboard[0] ? cfg->dashboard : "(none)", cfg->history,
		cfg->reference[0] ? " on kernels matching " : "",
		cfg->reference, cfg->gate_run ? "history and the runs' own "
		"comparisons" : "history");
	for (i = 0; i < cfg->nr_suites; i++) {
		const struct nightly_suite *s = &cfg->suites[i];

		if (s->import[0])
			fprintf(f, "  suite %-12s import runs from %s\n",
				s->name, s->import);
		else
			fprintf(f, "  suite %-12s rtgate run %s%s%s\n", s->name,
				s->args, s->args[0] ? " " : "",
				s->file[0] ? s->file : s->name);
	}
	return 0;
}
