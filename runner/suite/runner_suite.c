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
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctline.h"
#include "fsio.h"
#include "inisettings.h"
#include "parse.h"
#include "runner/suite/suite.h"
#include "runner/suite/suite_priv.h"
#include "vec.h"
#include "trace/trace.h"

static void open_named(struct runner_suite_parser *p,
		       enum runner_suite_section sec, const char *kind,
		       const char *name)
{
	struct runner_suite *s = p->suite;
	size_t i;

	if (!runner_suite_valid_name(name)) {
		runner_suite_perr(p, p->line, "[%s %s]: a name of 1-64 letters, digits, '-' and "
				  "'_' is needed", kind, name);
		return;
	}
	if (sec == RUNNER_SEC_SCENARIO) {
		struct runner_suite_scenario *sc;

		for (i = 0; i < s->nr_scenarios; i++)
			if (!strcmp(s->scenarios[i].name, name)) {
				runner_suite_perr(p, p->line, "duplicate scenario '%s' "
						  "(first at line %u)", name,
						  s->scenarios[i].line);
				return;
			}
		sc = vec_push(&s->scenarios, &s->nr_scenarios, sizeof(*sc));
		if (!runner_suite_check_alloc(p, sc))
			return;
		sc->line = p->line;
		sc->name = strdup(name);
		runner_suite_check_alloc(p, sc->name);
		p->cur = s->nr_scenarios - 1;
	} else {
		struct runner_suite_reference *ref;

		for (i = 0; i < s->nr_references; i++)
			if (!strcmp(s->references[i].scenario, name)) {
				runner_suite_perr(p, p->line, "duplicate [reference %s] "
						  "(first at line %u)", name,
						  s->references[i].line);
				return;
			}
		ref = vec_push(&s->references, &s->nr_references,
					sizeof(*ref));
		if (!runner_suite_check_alloc(p, ref))
			return;
		ref->line = p->line;
		ref->scenario = strdup(name);
		ref->T = calloc(1, sizeof(char *));
		runner_suite_check_alloc(p, ref->scenario);
		runner_suite_check_alloc(p, ref->T);
		p->cur = s->nr_references - 1;
	}
}

static void open_section(struct runner_suite_parser *p, const char *raw)
{
	static const char *const plain[] = {
		[RUNNER_SEC_SUITE] = "suite", [RUNNER_SEC_MEASURE] = "measure",
		[RUNNER_SEC_GATE] = "gate",
	};
	char text[INIH_MAX_SECTION + 16];
	char *name, *arg;
	int sec;

	p->nr_seen = 0;
	if (strlen(raw) >= INIH_MAX_SECTION - 1) {
		runner_suite_perr(p, p->line, "section name too long (at most %d "
				  "characters)", INIH_MAX_SECTION - 2);
		return;
	}
	snprintf(text, sizeof(text), "%s", raw);
	snprintf(p->secname, sizeof(p->secname), "%s", raw);
	name = parse_strip(text);
	arg = name + strcspn(name, " \t");
	if (*arg) {
		*arg++ = '\0';
		arg = parse_strip(arg);
	}
	for (sec = RUNNER_SEC_SUITE; sec <= RUNNER_SEC_GATE; sec++) {
		if (strcmp(name, plain[sec]))
			continue;
		if (*arg) {
			runner_suite_perr(p, p->line, "[%s] takes no name", name);
			return;
		}
		if (p->sec_lines[sec]) {
			runner_suite_perr(p, p->line, "duplicate section [%s] (first at "
					  "line %u)", name, p->sec_lines[sec]);
			return;
		}
		p->sec_lines[sec] = p->line;
		p->sec = sec;
		return;
	}
	if (!strcmp(name, "scenario") || !strcmp(name, "reference")) {
		p->sec = !strcmp(name, "scenario") ? RUNNER_SEC_SCENARIO :
			 RUNNER_SEC_REFERENCE;
		open_named(p, p->sec, name, arg);
		return;
	}
	runner_suite_perr(p, p->line, "unknown section [%s] (expected [suite], [measure], "
			  "[gate], [scenario NAME] or [reference NAME])", raw);
}

static char *suite_reader(char *str, int num, void *stream)
{
	struct runner_suite_parser *p = stream;
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
		runner_suite_perr(p, p->line, "NUL byte in the file (not a text file?)");
		return NULL;
	}
	/* inih needs room for "\r\n\0" after the text. */
	if (n + 3 > num) {
		runner_suite_perr(p, p->line, "line too long (%zd characters; at most %d)",
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

static int suite_handler(void *user, const char *section, const char *name,
			 const char *val)
{
	struct runner_suite_parser *p = user;

	(void)section;
	if (p->failed)
		return 0;
	switch (p->sec) {
	case RUNNER_SEC_NONE:
		runner_suite_perr(p, p->line, "'%s' outside any section (start with "
				  "[suite])", name);
		break;
	case RUNNER_SEC_SUITE:
		runner_suite_key_suite(p, name, val);
		break;
	case RUNNER_SEC_MEASURE:
		runner_suite_key_measure(p, name, val);
		break;
	case RUNNER_SEC_GATE:
		runner_suite_key_gate(p, name, val);
		break;
	case RUNNER_SEC_SCENARIO:
		runner_suite_key_scenario(p, name, val);
		break;
	case RUNNER_SEC_REFERENCE:
		runner_suite_key_reference(p, name, val);
		break;
	}
	return !p->failed;
}

static void check_scenario(struct runner_suite_parser *p,
			   struct runner_suite_scenario *sc)
{
	struct runner_suite *s = p->suite;
	size_t i, j;

	if (sc->compare) {
		if (!strcmp(sc->compare, sc->name))
			return runner_suite_perr(p, sc->compare_line, "scenario '%s' is "
						 "compared against itself", sc->name);
		if (!runner_suite_find(s, sc->compare))
			return runner_suite_perr(p, sc->compare_line, "scenario '%s' is "
						 "compared against unknown scenario '%s'",
						 sc->name, sc->compare);
	}
	if (sc->control != RUNNER_CONTROL_NONE && !sc->compare)
		return runner_suite_perr(p, sc->control_line, "control: scenario '%s' is "
					 "a control but is compared with nothing (add "
					 "compare = BASELINE)", sc->name);
	for (i = 0; i < sc->nr_expects; i++) {
		/* The kernel's counters, not a workload (measure.h). */
		if (!strcmp(sc->expects[i].workload, SUITE_EXPECT_RSEQ))
			continue;
		for (j = 0; j < sc->nr_workloads; j++)
			if (!strcmp(sc->workloads[j].alias,
				    sc->expects[i].workload))
				break;
		if (j == sc->nr_workloads)
			return runner_suite_perr(p, sc->expects[i].line, "expect: scenario "
						 "'%s' has no workload named '%s'",
						 sc->name, sc->expects[i].workload);
	}
	/* Each scenario's list holds the suite's requirements too. */
	for (i = 0; s->requires && s->requires[i]; i++)
		if (vec_strv_push(&sc->requires, s->requires[i]))
			return runner_suite_perr(p, sc->line, "out of memory");
	if (!sc->requires) {
		sc->requires = calloc(1, sizeof(char *));
		runner_suite_check_alloc(p, sc->requires);
	}
}

/* a compares b, b compares a: neither is measured against a baseline. */
static void check_cycle(struct runner_suite_parser *p,
			const struct runner_suite_scenario *sc)
{
	const struct runner_suite_scenario *cur = sc;
	char path[512];
	size_t n, used;

	used = snprintf(path, sizeof(path), "%s", sc->name);
	for (n = 0; n < p->suite->nr_scenarios; n++) {
		cur = cur->compare ? runner_suite_find(p->suite, cur->compare) : NULL;
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
	runner_suite_perr(p, sc->compare_line, "compare cycle: %s (a scenario must be "
			  "compared with a chain that ends at a baseline)", path);
}

static void check_suite(struct runner_suite_parser *p)
{
	struct runner_suite *s = p->suite;
	bool baseline = false;
	size_t i;

	if (!s->nr_scenarios)
		return runner_suite_perr(p, p->line ? p->line : 1, "no [scenario NAME] "
					 "section: a suite needs at least one");
	if (p->has_duration && p->has_loops)
		return runner_suite_perr(p, p->sec_lines[RUNNER_SEC_MEASURE], "[measure] has both "
					 "duration and loops; keep one");
	for (i = 0; i < s->nr_scenarios; i++)
		if (!s->scenarios[i].has_tool)
			s->scenarios[i].tool = s->measure.tool;
	for (i = 0; i < s->nr_scenarios; i++) {
		const struct an_tool *t = s->scenarios[i].tool;
		unsigned int line = p->sec_lines[RUNNER_SEC_MEASURE];

		if (!t->program || p->has_duration ||
		    (p->has_loops && !t->needs_duration))
			continue;
		if (t->needs_duration)
			return runner_suite_perr(p, line ? line : 1,
						 "[measure] needs duration (e.g. "
						 "20s) for %s (%s -d; it has no "
						 "loop count)", t->name, t->title);
		return runner_suite_perr(p, line ? line : 1, "[measure] needs "
					 "duration (e.g. 20s) or loops for %s",
					 t->name);
	}
	for (i = 0; i < s->nr_scenarios && !p->failed; i++) {
		check_scenario(p, &s->scenarios[i]);
		if (!s->scenarios[i].compare)
			baseline = true;
	}
	if (p->failed)
		return;
	if (!baseline)
		return runner_suite_perr(p, s->scenarios[0].line, "no baseline: every "
					 "scenario has 'compare'; at least one must not");
	for (i = 0; i < s->nr_scenarios && !p->failed; i++)
		check_cycle(p, &s->scenarios[i]);
	if (p->failed)
		return;
	for (i = 0; i < s->nr_references; i++) {
		struct runner_suite_scenario *sc;

		sc = (struct runner_suite_scenario *)runner_suite_find(s,
						s->references[i].scenario);
		if (!sc)
			return runner_suite_perr(p, s->references[i].line, "[reference %s]: "
						 "no scenario '%s'",
						 s->references[i].scenario,
						 s->references[i].scenario);
		sc->reference = &s->references[i];
	}
}

static void set_defaults(struct runner_suite *s, const char *path)
{
	struct an_gate gate;
	char *copy = strdup(path), *base, *dot;

	s->repetitions = 3;
	s->order = RUNNER_SUITE_ORDER_INTERLEAVED;
	s->measure.tool = an_tool_at(0);
	s->measure.histogram_us = 2000;
	s->measure.timeout_ns = 600ULL * 1000000000ULL;
	s->measure.ready_timeout_ns = READY_TIMEOUT_DEFAULT_S * 1000000000ULL;
	s->measure.watchdog_ns = WATCHDOG_DEFAULT_S * 1000000000ULL;
	/* The gate's defaults are the analyzer's, which judges by them. */
	an_gate_default(&gate);
	s->gate.alpha = gate.alpha;
	s->gate.min_increase_us = gate.min_increase_us;
	s->gate.min_increase_pct = gate.min_increase_pct;
	s->gate.metric = strdup(gate.metric);
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

int runner_suite_load(const char *path, struct runner_suite *suite,
		      struct runner_suite_error *err)
{
	struct runner_suite_parser p = {
		.suite = suite, .file = path, .err = err,
	};
	struct stat st;
	int ret, fd;

	memset(suite, 0, sizeof(*suite));
	err->msg[0] = '\0';
	/* A folder or a FIFO given as a suite: said, never ":0: read error". */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ret = fd < 0 ? -errno : fstat(fd, &st) ? -errno :
	      S_ISDIR(st.st_mode) ? -EISDIR : !S_ISREG(st.st_mode) ?
	      -EFTYPE_INPUT : st.st_size > FSIO_INPUT_MAX ? -EFBIG : 0;
	p.f = ret ? NULL : fdopen(fd, "r");
	if (!p.f) {
		if (!ret)
			ret = -errno;
		if (fd >= 0)
			close(fd);
		snprintf(err->msg, sizeof(err->msg), "%s: %s%s", path,
			 fsio_input_why(ret), ret == -EISDIR ? " (a suite is "
			 "a .suite file: suites/NAME.suite)" : "");
		/* Not a suite file at all is bad input; unreadable is not. */
		return ret == -EISDIR || ret == -EFTYPE_INPUT ||
		       ret == -EFBIG ? -EINVAL : ret;
	}
	set_defaults(suite, path);
	if (!suite->path || !suite->name || !suite->gate.metric) {
		runner_suite_perr(&p, 1, "out of memory");
		goto out;
	}
	inisettings_strict(SUITE_MAX_LINE);
	ret = ini_parse_stream(suite_reader, &p, suite_handler, &p);
	if (!p.failed && ferror(p.f))
		runner_suite_perr(&p, p.line, "read error");
	if (!p.failed && ret > 0)
		runner_suite_perr(&p, ret, "expected [section], key = value, or a comment");
	if (!p.failed && ret < 0)
		runner_suite_perr(&p, p.line, "out of memory");
	if (!p.failed)
		check_suite(&p);
out:
	fclose(p.f);
	free(p.buf);
	if (p.failed) {
		runner_suite_free(suite);
		return -EINVAL;
	}
	return 0;
}
