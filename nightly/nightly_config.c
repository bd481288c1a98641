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

#include "analyze/analyze.h"
#include "fsio.h"
#include "inisettings.h"
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
	if (!strcmp(name, "intended")) {
		char why[480];

		if (an_like_intended_add(c->intended, sizeof(c->intended),
					 value, why, sizeof(why))) {
			snprintf(cp->err, sizeof(cp->err), "intended = %s",
				 why);
			return 0;
		}
		return 1;
	}
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

static int set_duration(struct cfg_parse *cp, const char *key,
			const char *value, unsigned int *out)
{
	char unit[8] = "";
	unsigned long v;
	int n = sscanf(value, "%lu%7s", &v, unit);

	if (n >= 1 && (!unit[0] || !strcmp(unit, "s") || !strcmp(unit, "m") ||
		       !strcmp(unit, "h")) && v > 0 && v < 1000000) {
		*out = v * (unit[0] == 'h' ? 3600 : unit[0] == 'm' ? 60 : 1);
		return 1;
	}
	snprintf(cp->err, sizeof(cp->err), "%s = '%s': a duration (90s, 30m, "
		 "2h)", key, value);
	return 0;
}

static int lava_key(struct cfg_parse *cp, const char *name, const char *value)
{
	struct nightly_lava *l = &cp->cfg->lava;
	uint64_t v;

	if (!strcmp(name, "url"))
		return set_str(l->url, sizeof(l->url), value);
	if (!strcmp(name, "token_file"))
		return set_str(l->token_file, sizeof(l->token_file), value);
	if (!strcmp(name, "device_type"))
		return set_str(l->device_type, sizeof(l->device_type), value);
	if (!strcmp(name, "ramdisk"))
		return set_str(l->ramdisk, sizeof(l->ramdisk), value);
	if (!strcmp(name, "kernel_args"))
		return set_str(l->kernel_args, sizeof(l->kernel_args), value);
	if (!strcmp(name, "prompt"))
		return set_str(l->prompt, sizeof(l->prompt), value);
	if (!strcmp(name, "budget"))
		return set_duration(cp, name, value, &l->budget_s);
	if (!strcmp(name, "poll"))
		return set_duration(cp, name, value, &l->poll_s);
	if (!strcmp(name, "timeout")) {
		if (parse_u64_range(value, 30, 10080, &v)) {
			snprintf(cp->err, sizeof(cp->err), "timeout = '%s': "
				 "a job's minutes, 30..10080", value);
			return 0;
		}
		l->timeout_min = v;
		return 1;
	}
	if (!strcmp(name, "token")) {
		snprintf(cp->err, sizeof(cp->err), "[lava] token: the token "
			 "goes in a file (token_file =) or $RTGATE_LAVA_TOKEN, "
			 "never in the configuration");
		return 0;
	}
	snprintf(cp->err, sizeof(cp->err), "unknown key '%s' in [lava]", name);
	return 0;
}

static int board_key(struct cfg_parse *cp, const char *board,
		     const char *name, const char *value)
{
	struct nightly_lava *l = &cp->cfg->lava;
	struct nightly_board *b = NULL;
	size_t i;

	for (i = 0; i < l->nr_boards; i++)
		if (!strcmp(l->boards[i].name, board))
			b = &l->boards[i];
	if (!b && !parse_host_name(board)) {
		snprintf(cp->err, sizeof(cp->err), "[board %s]: a name of "
			 "1-128 letters, digits, '.', '-' and '_', from a "
			 "letter or digit, is needed (docs/results.md, Names)",
			 board);
		return 0;
	}
	if (!b && l->nr_boards == NIGHTLY_MAX_BOARDS) {
		snprintf(cp->err, sizeof(cp->err), "more than %d boards",
			 NIGHTLY_MAX_BOARDS);
		return 0;
	}
	if (!b) {
		b = &l->boards[l->nr_boards++];
		set_str(b->name, sizeof(b->name), board);
	}
	if (!name)		/* the section alone */
		return 1;
	if (!strcmp(name, "device_type"))
		return set_str(b->device_type, sizeof(b->device_type), value);
	snprintf(cp->err, sizeof(cp->err), "unknown key '%s' in [board %s]",
		 name, board);
	return 0;
}

static int kernel_key(struct cfg_parse *cp, const char *kernel,
		      const char *name, const char *value)
{
	struct nightly_lava *l = &cp->cfg->lava;
	struct nightly_kernel *k = NULL;
	size_t i;

	for (i = 0; i < l->nr_kernels; i++)
		if (!strcmp(l->kernels[i].name, kernel))
			k = &l->kernels[i];
	if (!k && l->nr_kernels == NIGHTLY_MAX_KERNELS) {
		snprintf(cp->err, sizeof(cp->err), "more than %d kernels",
			 NIGHTLY_MAX_KERNELS);
		return 0;
	}
	if (!k) {
		k = &l->kernels[l->nr_kernels++];
		set_str(k->name, sizeof(k->name), kernel);
	}
	if (!name)
		return 1;
	if (!strcmp(name, "url"))
		return set_str(k->url, sizeof(k->url), value);
	if (!strcmp(name, "ramdisk"))
		return set_str(k->ramdisk, sizeof(k->ramdisk), value);
	if (!strcmp(name, "boards"))
		return set_str(k->boards, sizeof(k->boards), value);
	snprintf(cp->err, sizeof(cp->err), "unknown key '%s' in [kernel %s]",
		 name, kernel);
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
	if (!strcmp(section, "lava"))
		return lava_key(cp, name, value);
	if (!strncmp(section, "board ", 6))
		return board_key(cp, section + 6, name, value);
	if (!strncmp(section, "kernel ", 7))
		return kernel_key(cp, section + 7, name, value);
	snprintf(cp->err, sizeof(cp->err), "unknown section [%s] (expected "
		 "[nightly], [suite NAME], [lava], [board NAME] or "
		 "[kernel NAME])", section);
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
		inisettings_library_defaults();
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
	if (!cfg->lava.device_type[0])
		set_str(cfg->lava.device_type, sizeof(cfg->lava.device_type),
			"qemu");
	if (!cfg->lava.prompt[0])
		set_str(cfg->lava.prompt, sizeof(cfg->lava.prompt), "/ #");
	if (!cfg->lava.budget_s)
		cfg->lava.budget_s = 2 * 3600;
	if (!cfg->lava.poll_s)
		cfg->lava.poll_s = 10;
	if (!cfg->lava.timeout_min)
		cfg->lava.timeout_min = 60;
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
		"  gate      %s\n%s%s%s", cfg->path[0] ? cfg->path : "(defaults)",
		cfg->results, cfg->database, cfg->summary, cfg->lock,
		cfg->dashboard[0] ? cfg->dashboard : "(none)", cfg->history,
		cfg->reference[0] ? " on kernels matching " : "",
		cfg->reference, cfg->gate_run ? "history and the runs' own "
		"comparisons" : "history", cfg->intended[0] ?
		"  intended  " : "", cfg->intended, cfg->intended[0] ? "\n" :
		"");
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
	if (!cfg->lava.url[0] && !cfg->lava.nr_boards)
		return 0;
	fprintf(f, "  lava      %s (%s; wait at most %u min)\n",
		cfg->lava.url[0] ? cfg->lava.url : "(no url: the suites run "
		"here unless --lava URL)", cfg->lava.device_type,
		cfg->lava.budget_s / 60);
	for (i = 0; i < cfg->lava.nr_boards; i++)
		fprintf(f, "  board %s\n", cfg->lava.boards[i].name);
	for (i = 0; i < cfg->lava.nr_kernels; i++)
		fprintf(f, "  kernel %-11s %s%s%s\n", cfg->lava.kernels[i].name,
			cfg->lava.kernels[i].url, cfg->lava.kernels[i].boards[0]
			? " on " : "", cfg->lava.kernels[i].boards);
	return 0;
}
