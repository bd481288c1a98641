// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite parser: inih does the INI syntax, this file the meaning.
 *
 * Debian's libinih is built without INI_HANDLER_LINENO, so the handler is
 * not told the line number. We feed inih through ini_parse_stream() with
 * our own reader, which counts lines (inih calls the handler for a line
 * before it reads the next one, so the reader's count is the handler's
 * line), refuses lines longer than inih's buffer instead of letting inih
 * split them silently, and sees section headers itself so that empty and
 * duplicate sections are caught too.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "ctline.h"
#include "parse.h"
#include "runner_req.h"
#include "runner_suite.h"
#include "runner_suite_priv.h"
#include "runner_util.h"
#include "trace/trace.h"

#define SUITE_MAX_LINE	4096
#define SUITE_MAX_SEEN	64
/* inih copies section names into a 50-byte buffer and cuts the rest. */
#define INIH_MAX_SECTION 50

enum suite_section { SEC_NONE, SEC_SUITE, SEC_MEASURE, SEC_GATE,
		     SEC_SCENARIO, SEC_REFERENCE };

struct seen_key {
	char name[64];
	unsigned int line;
};

struct suite_parser {
	struct suite *suite;
	const char *file;
	FILE *f;
	char *buf;
	size_t cap;
	unsigned int line;
	enum suite_section sec;
	char secname[INIH_MAX_SECTION + 16];
	size_t cur;			/* scenario or reference index */
	struct seen_key seen[SUITE_MAX_SEEN];
	size_t nr_seen;
	unsigned int sec_lines[SEC_REFERENCE + 1];
	bool failed;
	bool has_measure_tool, has_duration, has_loops;
	struct suite_error *err;
};

static void __attribute__((format(printf, 3, 4)))
perr(struct suite_parser *p, unsigned int line, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	n = snprintf(p->err->msg, sizeof(p->err->msg), "%s:%u: ", p->file,
		     line);
	if (n >= sizeof(p->err->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(p->err->msg + n, sizeof(p->err->msg) - n, fmt, ap);
	va_end(ap);
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return false;
	return true;
}

static bool check_alloc(struct suite_parser *p, const void *ptr)
{
	if (!ptr)
		perr(p, p->line, "out of memory");
	return ptr != NULL;
}

static int dup_to(struct suite_parser *p, char **dst, const char *val)
{
	free(*dst);
	*dst = strdup(val);
	return check_alloc(p, *dst) ? 0 : -ENOMEM;
}

/* ---- sections ------------------------------------------------------------ */

static struct suite_scenario *cur_scenario(struct suite_parser *p)
{
	return &p->suite->scenarios[p->cur];
}

static struct suite_reference *cur_reference(struct suite_parser *p)
{
	return &p->suite->references[p->cur];
}

static void open_named(struct suite_parser *p, enum suite_section sec,
		       const char *kind, const char *name)
{
	struct suite *s = p->suite;
	size_t i;

	if (!valid_name(name)) {
		perr(p, p->line, "[%s %s]: a name of letters, digits, '-' and "
		     "'_' is needed", kind, name);
		return;
	}
	if (sec == SEC_SCENARIO) {
		struct suite_scenario *sc;

		for (i = 0; i < s->nr_scenarios; i++)
			if (!strcmp(s->scenarios[i].name, name)) {
				perr(p, p->line, "duplicate scenario '%s' "
				     "(first at line %u)", name,
				     s->scenarios[i].line);
				return;
			}
		sc = array_push(&s->scenarios, &s->nr_scenarios, sizeof(*sc));
		if (!check_alloc(p, sc))
			return;
		sc->line = p->line;
		sc->name = strdup(name);
		check_alloc(p, sc->name);
		p->cur = s->nr_scenarios - 1;
	} else {
		struct suite_reference *ref;

		for (i = 0; i < s->nr_references; i++)
			if (!strcmp(s->references[i].scenario, name)) {
				perr(p, p->line, "duplicate [reference %s] "
				     "(first at line %u)", name,
				     s->references[i].line);
				return;
			}
		ref = array_push(&s->references, &s->nr_references,
				 sizeof(*ref));
		if (!check_alloc(p, ref))
			return;
		ref->line = p->line;
		ref->scenario = strdup(name);
		ref->T = calloc(1, sizeof(char *));
		check_alloc(p, ref->scenario);
		check_alloc(p, ref->T);
		p->cur = s->nr_references - 1;
	}
}

static void open_section(struct suite_parser *p, const char *raw)
{
	static const char *const plain[] = {
		[SEC_SUITE] = "suite", [SEC_MEASURE] = "measure",
		[SEC_GATE] = "gate",
	};
	char text[INIH_MAX_SECTION + 16];
	char *name, *arg;
	int sec;

	p->nr_seen = 0;
	if (strlen(raw) >= INIH_MAX_SECTION - 1) {
		perr(p, p->line, "section name too long (at most %d "
		     "characters)", INIH_MAX_SECTION - 2);
		return;
	}
	snprintf(text, sizeof(text), "%s", raw);
	snprintf(p->secname, sizeof(p->secname), "%s", raw);
	name = str_strip(text);
	arg = name + strcspn(name, " \t");
	if (*arg) {
		*arg++ = '\0';
		arg = str_strip(arg);
	}
	for (sec = SEC_SUITE; sec <= SEC_GATE; sec++) {
		if (strcmp(name, plain[sec]))
			continue;
		if (*arg) {
			perr(p, p->line, "[%s] takes no name", name);
			return;
		}
		if (p->sec_lines[sec]) {
			perr(p, p->line, "duplicate section [%s] (first at "
			     "line %u)", name, p->sec_lines[sec]);
			return;
		}
		p->sec_lines[sec] = p->line;
		p->sec = sec;
		return;
	}
	if (!strcmp(name, "scenario") || !strcmp(name, "reference")) {
		p->sec = !strcmp(name, "scenario") ? SEC_SCENARIO :
			 SEC_REFERENCE;
		open_named(p, p->sec, name, arg);
		return;
	}
	perr(p, p->line, "unknown section [%s] (expected [suite], [measure], "
	     "[gate], [scenario NAME] or [reference NAME])", raw);
}

/* ---- the reader inih pulls lines from ------------------------------------ */

static char *suite_reader(char *str, int num, void *stream)
{
	struct suite_parser *p = stream;
	char *line, *end;
	ssize_t n;

	if (p->failed)
		return NULL;
	n = getline(&p->buf, &p->cap, p->f);
	if (n < 0)
		return NULL;
	p->line++;
	line = p->buf;
	if (p->line == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
		line += 3, n -= 3;
	if ((size_t)n != strlen(line)) {
		perr(p, p->line, "NUL byte in the file (not a text file?)");
		return NULL;
	}
	/* inih needs room for "\r\n\0" after the text. */
	if (n + 3 > num) {
		perr(p, p->line, "line too long (%zd characters; at most %d)",
		     n, num - 3);
		return NULL;
	}
	memcpy(str, line, n + 1);
	while (isspace((unsigned char)*line))
		line++;
	if (*line == '[') {
		end = strchr(line, ']');
		if (end) {
			*end = '\0';
			open_section(p, line + 1);
		}
	}
	return p->failed ? NULL : str;
}

/* ---- keys ---------------------------------------------------------------- */

/* Single-valued keys may appear once per section. */
static bool note_key(struct suite_parser *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr_seen; i++)
		if (!strcmp(p->seen[i].name, name)) {
			perr(p, p->line, "duplicate key '%s' (first at line "
			     "%u)", name, p->seen[i].line);
			return false;
		}
	if (p->nr_seen < SUITE_MAX_SEEN) {
		snprintf(p->seen[p->nr_seen].name, sizeof(p->seen[0].name),
			 "%s", name);
		p->seen[p->nr_seen++].line = p->line;
	}
	return true;
}

static void unknown_key(struct suite_parser *p, const char *name,
			const char *known)
{
	perr(p, p->line, "unknown key '%s' in [%s] (known: %s)", name,
	     p->secname, known);
}

static int parse_requires(struct suite_parser *p, char ***out,
			  const char *val)
{
	char *copy = strdup(val), *tok, *save = NULL;
	int ret = 0;

	if (!check_alloc(p, copy))
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		tok = str_strip(tok);
		if (!req_valid(tok)) {
			perr(p, p->line, "requires: unknown requirement '%s' "
			     "(known: root, tracefs, debugfs, sched-features, "
			     "base-slice, preempt-rt, slice-extension, "
			     "sysctl:NAME, file:PATH, cpus>=N)", tok);
			ret = -EINVAL;
		} else if (strv_push(out, tok)) {
			ret = -ENOMEM;
			check_alloc(p, NULL);
		}
	}
	free(copy);
	return ret;
}

static void suite_key(struct suite_parser *p, const char *name,
		      const char *val)
{
	struct suite *s = p->suite;
	uint64_t v;

	if (!note_key(p, name))
		return;
	if (!strcmp(name, "name")) {
		if (!valid_name(val))
			perr(p, p->line, "name: '%s' is not a name of "
			     "letters, digits, '-' and '_'", val);
		else
			dup_to(p, &s->name, val);
	} else if (!strcmp(name, "description")) {
		dup_to(p, &s->description, val);
	} else if (!strcmp(name, "repetitions")) {
		if (parse_u64_range(val, 1, 1000, &v))
			perr(p, p->line, "repetitions: '%s' is not a whole "
			     "number from 1 to 1000", val);
		else
			s->repetitions = (unsigned int)v;
	} else if (!strcmp(name, "order")) {
		if (!strcmp(val, "interleaved"))
			s->order = SUITE_ORDER_INTERLEAVED;
		else if (!strcmp(val, "blocked"))
			s->order = SUITE_ORDER_BLOCKED;
		else if (!strcmp(val, "randomized"))
			s->order = SUITE_ORDER_RANDOMIZED;
		else
			perr(p, p->line, "order: '%s' is not interleaved, "
			     "randomized or blocked", val);
	} else if (!strcmp(name, "requires")) {
		parse_requires(p, &s->requires, val);
	} else {
		unknown_key(p, name, "name, description, repetitions, order, "
			    "requires");
	}
}

/*
 * Options that the runner adds itself (suites/README.md, [measure]).
 * cyclictest's getopt_long() takes any unambiguous abbreviation of a long
 * option (--loo=100 is --loops=100): every prefix of these is refused.
 */
static const char *runner_owned(const char *arg)
{
	static const char *const longs[] = {
		"--duration", "--loops", "--histogram", "--histofall",
		"--histfile", "--json", "--quiet",
	};
	size_t i, n = strcspn(arg, "=");
	const char *c;

	if (!strncmp(arg, "--", 2) && n > 2) {
		for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
			if (n <= strlen(longs[i]) && !strncmp(arg, longs[i], n))
				return longs[i];
		return NULL;
	}
	if (arg[0] != '-' || arg[1] == '-')
		return NULL;
	/* A cluster of flags such as -Smq; stops at an option's value. */
	for (c = arg + 1; isalpha((unsigned char)*c); c++)
		if (strchr("DlhHq", *c))
			return arg;
	return NULL;
}

/* `tool =` in [measure] or a scenario. */
static void parse_tool(struct suite_parser *p, const char *val,
		       enum suite_tool *tool)
{
	if (!strcmp(val, "cyclictest"))
		*tool = SUITE_TOOL_CYCLICTEST;
	else if (!strcmp(val, "none"))
		*tool = SUITE_TOOL_NONE;
	else if (!strcmp(val, "timerlat"))
		*tool = SUITE_TOOL_TIMERLAT;
	else
		perr(p, p->line, "tool: '%s' is not cyclictest, timerlat or "
		     "none", val);
}

/*
 * rtla timerlat hist options the runner sets itself (-d, -E, -b, and the
 * output it parses), and those that stop the session early (a threshold
 * would cut one repetition's histogram short of the others').
 */
static const char *timerlat_owned(const char *arg)
{
	static const char *const own[] = {
		"-d", "--duration", "-E", "--entries", "-b", "--bucket-size",
		"-n", "--nano", "--no-irq", "--no-thread", "--no-header",
		"--no-summary", "--no-index", "--with-zeros", "-q", "--quiet",
		"-t", "--trace", "-a", "--auto", "-i", "--irq", "-T",
		"--thread", "-h", "--help",
	};
	size_t i, n;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		n = strlen(own[i]);
		if (!strncmp(arg, own[i], n) &&
		    (!arg[n] || arg[n] == '=' || (own[i][1] != '-' && n == 2)))
			return own[i];
	}
	return NULL;
}

/*
 * A tool's options (`cyclictest =`, `timerlat =`): split as a shell would,
 * without expansion, refusing the ones the runner owns (@why says why).
 */
static void tool_args(struct suite_parser *p, const char *key,
		      const char *val, const char *(*owned)(const char *),
		      const char *why, char ***argv, char **text)
{
	const char *own;
	wordexp_t we;
	size_t i;
	int ret;

	if (strpbrk(val, "$`")) {
		perr(p, p->line, "%s: '$' and '`' are not expanded; remove "
		     "them", key);
		return;
	}
	ret = wordexp(val, &we, WRDE_NOCMD | WRDE_UNDEF);
	if (ret) {
		if (ret == WRDE_NOSPACE)
			wordfree(&we);
		perr(p, p->line, "%s: cannot split the options (unbalanced "
		     "quotes or an unquoted | & ; < > ( ) { })", key);
		return;
	}
	*argv = calloc(1, sizeof(char *));
	if (!check_alloc(p, *argv))
		goto out;
	for (i = 0; i < we.we_wordc; i++) {
		own = owned(we.we_wordv[i]);
		if (own) {
			char ab[64] = "";

			if (own != we.we_wordv[i] &&
			    strncmp(we.we_wordv[i], own, strlen(own)))
				snprintf(ab, sizeof(ab), " (to %s, an "
					 "abbreviation of %s)", key, own);
			perr(p, p->line, "%s: '%s'%s is the runner's (%s)", key,
			     we.we_wordv[i], ab, why);
			goto out;
		}
		if (strv_push(argv, we.we_wordv[i])) {
			check_alloc(p, NULL);
			goto out;
		}
	}
	dup_to(p, text, val);
out:
	wordfree(&we);
}

static void measure_key(struct suite_parser *p, const char *name,
			const char *val)
{
	struct suite_measure *m = &p->suite->measure;
	uint64_t v;

	if (!note_key(p, name))
		return;
	if (!strcmp(name, "cyclictest")) {
		tool_args(p, name, val, runner_owned, "it adds -D/-l, -h, "
			  "--histfile and --json itself and never -q",
			  &m->args, &m->args_text);
	} else if (!strcmp(name, "duration")) {
		if (parse_duration_ns(val, &v) || v == 0)
			perr(p, p->line, "duration: '%s' is not a duration "
			     "(e.g. 20s, 500ms, 2m)", val);
		m->duration_ns = v;
		p->has_duration = true;
	} else if (!strcmp(name, "loops")) {
		if (parse_u64_range(val, 1, 1000000000000ULL, &v))
			perr(p, p->line, "loops: '%s' is not a whole number "
			     "≥ 1", val);
		m->loops = v;
		p->has_loops = true;
	} else if (!strcmp(name, "histogram")) {
		if (parse_u64_range(val, 1, 1000000, &v))
			perr(p, p->line, "histogram: '%s' is not a whole "
			     "number of us from 1 to 1000000", val);
		m->histogram_us = (unsigned int)v;
	} else if (!strcmp(name, "tool")) {
		parse_tool(p, val, &m->tool);
	} else if (!strcmp(name, "timerlat")) {
		tool_args(p, name, val, timerlat_owned, "it sets -d, -E and "
			  "-b from duration and histogram, reads both "
			  "latencies' summary, and never stops a session "
			  "early: no -a, -i, -T, -t", &m->timerlat_args,
			  &m->timerlat_text);
	} else if (!strcmp(name, "timeout")) {
		if (parse_duration_ns(val, &v) || v == 0)
			perr(p, p->line, "timeout: '%s' is not a duration "
			     "(e.g. 10m)", val);
		m->timeout_ns = v;
	} else if (!strcmp(name, "ready_timeout")) {
		if (parse_duration_ns(val, &v) || v == 0)
			perr(p, p->line, "ready_timeout: '%s' is not a "
			     "duration (e.g. 15m)", val);
		m->ready_timeout_ns = v;
	} else if (!strcmp(name, "trace")) {
		enum trace_capture c;

		if (trace_capture_parse(val, &c))
			perr(p, p->line, "trace: '%s' is not off, spikes or "
			     "on", val);
		else
			m->trace = c;
	} else {
		unknown_key(p, name, "cyclictest, timerlat, duration, loops, "
			    "histogram, tool, timeout, trace");
	}
}

static bool valid_metric(const char *s)
{
	static const char *const builtin[] = {
		"max", "avg", "p50", "p99", "p99.9", "p99.99", "p99.999",
	};
	const char *dot = strchr(s, '.');
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (!strcmp(s, builtin[i]))
			return true;
	/* WORKLOAD.METRIC */
	if (!dot || dot == s || !dot[1])
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

static void gate_number(struct suite_parser *p, const char *name,
			const char *val, double lo, double hi, double *out)
{
	double v;

	if (parse_double(val, &v) || v < lo || v > hi)
		perr(p, p->line, "%s: '%s' is not a number from %g to %g",
		     name, val, lo, hi);
	else
		*out = v;
}

/* max_us, p99_us, p99.9_us ...: a budget key. */
static bool budget_key(const char *name)
{
	size_t n = strlen(name);
	char metric[16];

	if (n < 4 || n >= sizeof(metric) + 3 || strcmp(name + n - 3, "_us"))
		return false;
	snprintf(metric, sizeof(metric), "%.*s", (int)(n - 3), name);
	return !strcmp(metric, "max") || (metric[0] == 'p' &&
					  valid_metric(metric));
}

static void gate_budget(struct suite_parser *p, const char *name,
			const char *val)
{
	struct suite_gate *g = &p->suite->gate;
	struct suite_budget *b;

	if (g->nr_budgets == SUITE_MAX_BUDGETS) {
		perr(p, p->line, "%s: at most %d budgets", name,
		     SUITE_MAX_BUDGETS);
		return;
	}
	b = &g->budgets[g->nr_budgets];
	snprintf(b->metric, sizeof(b->metric), "%.*s",
		 (int)(strlen(name) - 3), name);
	gate_number(p, name, val, 1, 1e9, &b->us);
	if (b->us >= 1)
		g->nr_budgets++;
}

static void gate_key(struct suite_parser *p, const char *name,
		     const char *val)
{
	struct suite_gate *g = &p->suite->gate;

	if (!note_key(p, name))
		return;
	if (!strcmp(name, "metric")) {
		if (!valid_metric(val))
			perr(p, p->line, "metric: '%s' is not max, avg, p50, "
			     "p99, p99.9, p99.99, p99.999 or WORKLOAD.METRIC",
			     val);
		else
			dup_to(p, &g->metric, val);
	} else if (!strcmp(name, "alpha")) {
		gate_number(p, name, val, 1e-9, 0.5, &g->alpha);
	} else if (!strcmp(name, "min_increase_us")) {
		gate_number(p, name, val, 0, 1e9, &g->min_increase_us);
	} else if (!strcmp(name, "min_increase_pct")) {
		gate_number(p, name, val, 0, 1e6, &g->min_increase_pct);
	} else if (!strcmp(name, "until_decided")) {
		uint64_t v;

		if (parse_duration_ns(val, &v) || v == 0)
			perr(p, p->line, "until_decided: '%s' is not a time "
			     "budget (e.g. 10m)", val);
		else
			g->until_decided_ns = v;
	} else if (budget_key(name)) {
		gate_budget(p, name, val);
	} else {
		unknown_key(p, name, "metric, alpha, min_increase_us, "
			    "min_increase_pct, until_decided, max_us, pNN_us");
	}
}

/* ---- scenario keys ------------------------------------------------------- */

static bool valid_path_chars(const char *s)
{
	if (!*s || *s == '/' || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_./:", *s))
			return false;
	return true;
}

/* "name=value" into a tunable; the name checked by the kind. */
static void add_tunable(struct suite_parser *p, enum tunable_kind kind,
			const char *key, const char *val)
{
	struct suite_scenario *sc = cur_scenario(p);
	struct suite_tunable *t;
	char *copy, *eq, *name, *value;
	size_t i;

	copy = strdup(val);
	if (!check_alloc(p, copy))
		return;
	if (kind == TUNABLE_SCHED_FEATURE) {
		const char *f = copy + (strncmp(copy, "NO_", 3) ? 0 : 3);

		name = (char *)f;
		value = copy;
		for (; *f; f++)
			if (!isupper((unsigned char)*f) &&
			    !isdigit((unsigned char)*f) && *f != '_')
				break;
		if (*f || !*name) {
			perr(p, p->line, "sched_feature: '%s' is not FEATURE "
			     "or NO_FEATURE (e.g. HRTICK, NO_HRTICK)", val);
			goto out;
		}
	} else if (kind == TUNABLE_BASE_SLICE) {
		uint64_t ns;

		name = "sched/base_slice_ns";
		value = copy;
		if (parse_u64_range(copy, 1, 1000000000ULL, &ns)) {
			perr(p, p->line, "base_slice_ns: '%s' is not a whole "
			     "number of ns", val);
			goto out;
		}
	} else {
		eq = strchr(copy, '=');
		if (!eq) {
			perr(p, p->line, "%s: expected NAME=VALUE, got '%s'",
			     key, val);
			goto out;
		}
		*eq = '\0';
		name = str_strip(copy);
		value = str_strip(eq + 1);
		if (!valid_path_chars(name) || !*value) {
			perr(p, p->line, "%s: '%s' is not NAME=VALUE with a "
			     "relative name of letters, digits, '-', '_', "
			     "'.', '/'", key, val);
			goto out;
		}
	}
	for (i = 0; i < sc->nr_tunables; i++)
		if (!strcmp(sc->tunables[i].name, name) &&
		    sc->tunables[i].kind == kind) {
			perr(p, p->line, "%s '%s' set twice in this scenario "
			     "(first at line %u)", key, name,
			     sc->tunables[i].line);
			goto out;
		}
	t = array_push(&sc->tunables, &sc->nr_tunables, sizeof(*t));
	if (!check_alloc(p, t))
		goto out;
	t->kind = kind;
	t->line = p->line;
	t->name = strdup(name);
	t->value = strdup(value);
	check_alloc(p, t->name);
	check_alloc(p, t->value);
out:
	free(copy);
}

static void add_workload(struct suite_parser *p, const char *val)
{
	struct suite_scenario *sc = cur_scenario(p);
	struct suite_workload *wl;
	char msg[256];
	size_t i;

	wl = array_push(&sc->workloads, &sc->nr_workloads, sizeof(*wl));
	if (!check_alloc(p, wl))
		return;
	wl->line = p->line;
	if (suite_workload_parse(wl, val, msg, sizeof(msg))) {
		perr(p, p->line, "workload: %s", msg);
		return;
	}
	if (!strcmp(wl->alias, "cyclictest")) {
		perr(p, p->line, "workload: the name 'cyclictest' is the "
		     "measurement's; choose another with as=");
		return;
	}
	for (i = 0; i + 1 < sc->nr_workloads; i++)
		if (!strcmp(sc->workloads[i].alias, wl->alias)) {
			perr(p, p->line, "workload: two workloads named '%s' "
			     "(the other at line %u); name one with as=",
			     wl->alias, sc->workloads[i].line);
			return;
		}
}

static void add_expect(struct suite_parser *p, const char *val)
{
	static const struct {
		const char *s;
		enum expect_op op;
	} ops[] = {	/* two-character operators first */
		{ ">=", EXPECT_GE }, { "<=", EXPECT_LE }, { "==", EXPECT_EQ },
		{ "!=", EXPECT_NE }, { ">", EXPECT_GT },  { "<", EXPECT_LT },
	};
	struct suite_scenario *sc = cur_scenario(p);
	struct suite_expect *e;
	char *copy, *pos = NULL, *lhs, *rhs, *dot;
	size_t i, oplen = 0;
	double num;

	copy = strdup(val);
	if (!check_alloc(p, copy))
		return;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]) && !pos; i++) {
		pos = strstr(copy, ops[i].s);
		oplen = strlen(ops[i].s);
	}
	if (!pos)
		goto bad;
	i--;
	*pos = '\0';
	lhs = str_strip(copy);
	rhs = str_strip(pos + oplen);
	dot = strchr(lhs, '.');
	if (!dot || dot == lhs || !dot[1] || parse_double(rhs, &num))
		goto bad;
	*dot = '\0';
	if (!valid_name(lhs))
		goto bad;
	e = array_push(&sc->expects, &sc->nr_expects, sizeof(*e));
	if (!check_alloc(p, e))
		goto out;
	e->line = p->line;
	e->op = ops[i].op;
	e->value = num;
	e->text = strdup(val);
	e->workload = strdup(lhs);
	e->key = strdup(dot + 1);
	check_alloc(p, e->text);
	check_alloc(p, e->workload);
	check_alloc(p, e->key);
	goto out;
bad:
	perr(p, p->line, "expect: '%s' is not WORKLOAD.KEY OP NUMBER "
	     "(OP: > >= < <= == !=)", val);
out:
	free(copy);
}

static void scenario_key(struct suite_parser *p, const char *name,
			 const char *val)
{
	struct suite_scenario *sc = cur_scenario(p);

	if (!strcmp(name, "workload"))
		return add_workload(p, val);
	if (!strcmp(name, "sysctl"))
		return add_tunable(p, TUNABLE_SYSCTL, name, val);
	if (!strcmp(name, "sched_feature"))
		return add_tunable(p, TUNABLE_SCHED_FEATURE, name, val);
	if (!strcmp(name, "debugfs"))
		return add_tunable(p, TUNABLE_DEBUGFS, name, val);
	if (!strcmp(name, "expect"))
		return add_expect(p, val);
	if (!note_key(p, name))
		return;
	if (!strcmp(name, "description")) {
		dup_to(p, &sc->description, val);
	} else if (!strcmp(name, "compare")) {
		sc->compare_line = p->line;
		if (!valid_name(val))
			perr(p, p->line, "compare: '%s' is not a scenario "
			     "name", val);
		else
			dup_to(p, &sc->compare, val);
	} else if (!strcmp(name, "control")) {
		sc->control_line = p->line;
		if (!strcmp(val, "positive"))
			sc->control = CONTROL_POSITIVE;
		else if (!strcmp(val, "negative"))
			sc->control = CONTROL_NEGATIVE;
		else
			perr(p, p->line, "control: '%s' is neither positive "
			     "nor negative", val);
	} else if (!strcmp(name, "base_slice_ns")) {
		add_tunable(p, TUNABLE_BASE_SLICE, name, val);
	} else if (!strcmp(name, "requires")) {
		parse_requires(p, &sc->requires, val);
	} else if (!strcmp(name, "tool")) {
		sc->has_tool = true;
		parse_tool(p, val, &sc->tool);
	} else if (!strcmp(name, "metric")) {
		if (!valid_metric(val))
			perr(p, p->line, "metric: '%s' is not max, avg, p50, "
			     "p99, p99.9, p99.99, p99.999 or WORKLOAD.METRIC",
			     val);
		else
			dup_to(p, &sc->metric, val);
	} else {
		unknown_key(p, name, "description, compare, control, "
			    "workload, sysctl, sched_feature, base_slice_ns, "
			    "debugfs, requires, expect, tool, metric");
	}
}

static void reference_key(struct suite_parser *p, const char *name,
			  const char *val)
{
	struct suite_reference *ref = cur_reference(p);
	struct suite_refvalue *rv;
	struct ctline ct;
	double v;

	if (!strcmp(name, "T")) {
		/*
		 * "T = T: 0 ( 4213) ..." keeps its "T:"; a pasted
		 * "T: 0 ( 4213) ..." was split by inih on the ':'.
		 */
		char line[SUITE_MAX_LINE + 8];

		snprintf(line, sizeof(line), "%s%s",
			 strncmp(val, "T:", 2) ? "T: " : "", val);
		if (!ctline_parse(line, &ct)) {
			perr(p, p->line, "T: not a cyclictest line "
			     "(T: 0 ( 4213) P:95 I:1000 C: 5163 Min: 3 "
			     "Act: 3 Avg: 3 Max: 12)");
			return;
		}
		if (strv_push(&ref->T, line))
			check_alloc(p, NULL);
		return;
	}
	if (!note_key(p, name))
		return;
	if (!strcmp(name, "source")) {
		dup_to(p, &ref->source, val);
	} else if (!strncmp(name, "value.", 6) && valid_metric(name + 6)) {
		if (parse_double(val, &v)) {
			perr(p, p->line, "%s: '%s' is not a number", name, val);
			return;
		}
		rv = array_push(&ref->values, &ref->nr_values, sizeof(*rv));
		if (!check_alloc(p, rv))
			return;
		rv->metric = strdup(name + 6);
		rv->value = v;
		check_alloc(p, rv->metric);
	} else {
		unknown_key(p, name, "source, T, value.METRIC");
	}
}

static int suite_handler(void *user, const char *section, const char *name,
			 const char *val)
{
	struct suite_parser *p = user;

	(void)section;
	if (p->failed)
		return 0;
	switch (p->sec) {
	case SEC_NONE:
		perr(p, p->line, "'%s' outside any section (start with "
		     "[suite])", name);
		break;
	case SEC_SUITE:
		suite_key(p, name, val);
		break;
	case SEC_MEASURE:
		measure_key(p, name, val);
		break;
	case SEC_GATE:
		gate_key(p, name, val);
		break;
	case SEC_SCENARIO:
		scenario_key(p, name, val);
		break;
	case SEC_REFERENCE:
		reference_key(p, name, val);
		break;
	}
	return !p->failed;
}

const char *suite_control_name(enum suite_control c)
{
	switch (c) {
	case CONTROL_POSITIVE:
		return "positive";
	case CONTROL_NEGATIVE:
		return "negative";
	default:
		return NULL;
	}
}

/* ---- whole-file checks --------------------------------------------------- */

static void check_scenario(struct suite_parser *p, struct suite_scenario *sc)
{
	struct suite *s = p->suite;
	size_t i, j;

	if (sc->compare) {
		if (!strcmp(sc->compare, sc->name))
			return perr(p, sc->compare_line, "scenario '%s' is "
				    "compared against itself", sc->name);
		if (!suite_find(s, sc->compare))
			return perr(p, sc->compare_line, "scenario '%s' is "
				    "compared against unknown scenario '%s'",
				    sc->name, sc->compare);
	}
	if (sc->control != CONTROL_NONE && !sc->compare)
		return perr(p, sc->control_line, "control: scenario '%s' is "
			    "a control but is compared with nothing (add "
			    "compare = BASELINE)", sc->name);
	for (i = 0; i < sc->nr_expects; i++) {
		for (j = 0; j < sc->nr_workloads; j++)
			if (!strcmp(sc->workloads[j].alias,
				    sc->expects[i].workload))
				break;
		if (j == sc->nr_workloads)
			return perr(p, sc->expects[i].line, "expect: scenario "
				    "'%s' has no workload named '%s'",
				    sc->name, sc->expects[i].workload);
	}
	/* Each scenario's list holds the suite's requirements too. */
	for (i = 0; s->requires && s->requires[i]; i++)
		if (strv_push(&sc->requires, s->requires[i]))
			return perr(p, sc->line, "out of memory");
	if (!sc->requires) {
		sc->requires = calloc(1, sizeof(char *));
		check_alloc(p, sc->requires);
	}
}

/* a compares b, b compares a: neither is measured against a baseline. */
static void check_cycle(struct suite_parser *p, const struct suite_scenario *sc)
{
	const struct suite_scenario *cur = sc;
	char path[512];
	size_t n, used;

	used = snprintf(path, sizeof(path), "%s", sc->name);
	for (n = 0; n < p->suite->nr_scenarios; n++) {
		cur = cur->compare ? suite_find(p->suite, cur->compare) : NULL;
		if (!cur)
			return;
		if (used < sizeof(path))
			used += snprintf(path + used, sizeof(path) - used,
					 " -> %s", cur->name);
		if (cur == sc)
			break;
	}
	/* A chain into a cycle sc is not part of: said at a member. */
	if (cur != sc)
		return;
	perr(p, sc->compare_line, "compare cycle: %s (a scenario must be "
	     "compared with a chain that ends at a baseline)", path);
}

static void check_suite(struct suite_parser *p)
{
	struct suite *s = p->suite;
	bool baseline = false;
	size_t i;

	if (!s->nr_scenarios)
		return perr(p, p->line ? p->line : 1, "no [scenario NAME] "
			    "section: a suite needs at least one");
	if (p->has_duration && p->has_loops)
		return perr(p, p->sec_lines[SEC_MEASURE], "[measure] has both "
			    "duration and loops; keep one");
	for (i = 0; i < s->nr_scenarios; i++)
		if (!s->scenarios[i].has_tool)
			s->scenarios[i].tool = s->measure.tool;
	if (suite_uses_cyclictest(s) && !p->has_duration && !p->has_loops)
		return perr(p, p->sec_lines[SEC_MEASURE] ?
			    p->sec_lines[SEC_MEASURE] : 1, "[measure] needs "
			    "duration (e.g. 20s) or loops for cyclictest");
	if (suite_uses_timerlat(s) && !p->has_duration)
		return perr(p, p->sec_lines[SEC_MEASURE] ?
			    p->sec_lines[SEC_MEASURE] : 1, "[measure] needs "
			    "duration (e.g. 20s) for timerlat (rtla -d; it "
			    "has no loop count)");
	for (i = 0; i < s->nr_scenarios && !p->failed; i++) {
		check_scenario(p, &s->scenarios[i]);
		if (!s->scenarios[i].compare)
			baseline = true;
	}
	if (p->failed)
		return;
	if (!baseline)
		return perr(p, s->scenarios[0].line, "no baseline: every "
			    "scenario has 'compare'; at least one must not");
	for (i = 0; i < s->nr_scenarios && !p->failed; i++)
		check_cycle(p, &s->scenarios[i]);
	if (p->failed)
		return;
	for (i = 0; i < s->nr_references; i++) {
		struct suite_scenario *sc;

		sc = (struct suite_scenario *)suite_find(s,
						s->references[i].scenario);
		if (!sc)
			return perr(p, s->references[i].line, "[reference %s]: "
				    "no scenario '%s'",
				    s->references[i].scenario,
				    s->references[i].scenario);
		sc->reference = &s->references[i];
	}
}

static void set_defaults(struct suite *s, const char *path)
{
	char *copy = strdup(path), *base, *dot;

	s->repetitions = 3;
	s->order = SUITE_ORDER_INTERLEAVED;
	s->measure.tool = SUITE_TOOL_CYCLICTEST;
	s->measure.histogram_us = 2000;
	s->measure.timeout_ns = 600ULL * 1000000000ULL;
	s->measure.ready_timeout_ns = READY_TIMEOUT_DEFAULT_S * 1000000000ULL;
	s->gate.alpha = 0.05;
	s->gate.min_increase_us = 5;
	s->gate.min_increase_pct = 10;
	s->gate.metric = strdup("max");
	s->path = strdup(path);
	if (copy) {
		base = basename(copy);
		dot = strrchr(base, '.');
		if (dot && !strcmp(dot, ".suite"))
			*dot = '\0';
		s->name = strdup(base);
	}
	free(copy);
}

/* libinih's run-time settings are process-wide: set ours for each parse. */
static void inih_configure(void)
{
	ini_allow_multiline = false;
	ini_allow_bom = true;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = ";";
	ini_start_comment_prefixes = ";#";
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_max_line = SUITE_MAX_LINE;
	ini_initial_alloc = SUITE_MAX_LINE;
	ini_stop_on_first_error = true;
	ini_allow_no_value = false;
}

int suite_load(const char *path, struct suite *suite, struct suite_error *err)
{
	struct suite_parser p = {
		.suite = suite, .file = path, .err = err,
	};
	int ret;

	memset(suite, 0, sizeof(*suite));
	err->msg[0] = '\0';
	p.f = fopen(path, "re");
	if (!p.f) {
		ret = -errno;
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path,
			 strerror(errno));
		return ret;
	}
	set_defaults(suite, path);
	if (!suite->path || !suite->name || !suite->gate.metric) {
		perr(&p, 1, "out of memory");
		goto out;
	}
	inih_configure();
	ret = ini_parse_stream(suite_reader, &p, suite_handler, &p);
	if (!p.failed && ferror(p.f))
		perr(&p, p.line, "read error");
	if (!p.failed && ret > 0)
		perr(&p, ret, "expected [section], key = value, or a comment");
	if (!p.failed && ret < 0)
		perr(&p, p.line, "out of memory");
	if (!p.failed)
		check_suite(&p);
out:
	fclose(p.f);
	free(p.buf);
	if (p.failed) {
		suite_free(suite);
		return -EINVAL;
	}
	return 0;
}

bool suite_uses_timerlat(const struct suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].tool == SUITE_TOOL_TIMERLAT)
			return true;
	return false;
}

const char *suite_tool_name(enum suite_tool tool)
{
	switch (tool) {
	case SUITE_TOOL_NONE: return "none";
	case SUITE_TOOL_TIMERLAT: return "timerlat";
	default: return "cyclictest";
	}
}

bool suite_uses_cyclictest(const struct suite *suite)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (suite->scenarios[i].tool == SUITE_TOOL_CYCLICTEST)
			return true;
	return false;
}

const struct suite_scenario *suite_find(const struct suite *suite,
					const char *name)
{
	size_t i;

	for (i = 0; i < suite->nr_scenarios; i++)
		if (!strcmp(suite->scenarios[i].name, name))
			return &suite->scenarios[i];
	return NULL;
}

static void free_scenario(struct suite_scenario *sc)
{
	size_t i;

	for (i = 0; i < sc->nr_workloads; i++) {
		free(sc->workloads[i].text);
		free(sc->workloads[i].alias);
		free(sc->workloads[i].program);
		free(sc->workloads[i].cpus);
		free(sc->workloads[i].policy);
	}
	for (i = 0; i < sc->nr_tunables; i++) {
		free(sc->tunables[i].name);
		free(sc->tunables[i].value);
	}
	for (i = 0; i < sc->nr_expects; i++) {
		free(sc->expects[i].text);
		free(sc->expects[i].workload);
		free(sc->expects[i].key);
	}
	free(sc->workloads);
	free(sc->tunables);
	free(sc->expects);
	strv_free(sc->requires);
	free(sc->name);
	free(sc->description);
	free(sc->compare);
	free(sc->metric);
}

void suite_free(struct suite *suite)
{
	size_t i, j;

	for (i = 0; i < suite->nr_scenarios; i++)
		free_scenario(&suite->scenarios[i]);
	for (i = 0; i < suite->nr_references; i++) {
		struct suite_reference *ref = &suite->references[i];

		for (j = 0; j < ref->nr_values; j++)
			free(ref->values[j].metric);
		free(ref->values);
		strv_free(ref->T);
		free(ref->scenario);
		free(ref->source);
	}
	free(suite->scenarios);
	free(suite->references);
	strv_free(suite->requires);
	strv_free(suite->measure.args);
	free(suite->measure.args_text);
	strv_free(suite->measure.timerlat_args);
	free(suite->measure.timerlat_text);
	free(suite->gate.metric);
	free(suite->path);
	free(suite->name);
	free(suite->description);
	memset(suite, 0, sizeof(*suite));
}

const char *suite_tunable_kind_name(enum tunable_kind kind)
{
	switch (kind) {
	case TUNABLE_SYSCTL:
		return "sysctl";
	case TUNABLE_SCHED_FEATURE:
		return "sched_feature";
	case TUNABLE_BASE_SLICE:
		return "base_slice_ns";
	default:
		return "debugfs";
	}
}

const char *suite_expect_op_name(enum expect_op op)
{
	static const char *const names[] = {
		[EXPECT_GT] = ">", [EXPECT_GE] = ">=", [EXPECT_LT] = "<",
		[EXPECT_LE] = "<=", [EXPECT_EQ] = "==", [EXPECT_NE] = "!=",
	};

	return names[op];
}
