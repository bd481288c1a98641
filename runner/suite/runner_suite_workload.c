// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload lines: `[cpus=LIST] [policy=P] [nice=N] [as=ALIAS] PROGRAM ARGS`.
 *
 * The line is split by wordexp(3) so that quoting works as in a shell, but
 * nothing is expanded: command substitution is refused by WRDE_NOCMD and
 * the characters that would start any other expansion ($, `, globs, ~)
 * are refused unless quoted, so a suite means the same on every machine.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "parse.h"
#include "runner/suite/suite.h"
#include "runner/suite/suite_priv.h"
#include "vec.h"

/* Refuses what wordexp would expand; single quotes protect everything. */
static int check_no_expansion(const char *s, char *err, size_t len)
{
	char quote = 0;

	for (; *s; s++) {
		if (quote == '\'') {
			if (*s == '\'')
				quote = 0;
			continue;
		}
		if (*s == '\\' && s[1]) {
			s++;
			continue;
		}
		if (quote == '"') {
			if (*s == '"')
				quote = 0;
			else if (*s == '$' || *s == '`')
				goto bad;
			continue;
		}
		if (*s == '\'' || *s == '"')
			quote = *s;
		else if (strchr("$`*?[~", *s))
			goto bad;
	}
	return 0;
bad:
	snprintf(err, len, "'%c' would be expanded by a shell: quote it "
		 "('...'); workload lines are split without expansion", *s);
	return -EINVAL;
}

/* Replaces every scaled(N) by N x scale, rounded, at least 1. */
static char *expand_scaled(const char *text, double scale, char *err,
			   size_t len)
{
	static const char tag[] = "scaled(";
	size_t cap = strlen(text) + 1, used = 0;
	const char *p = text, *hit;
	char *out = malloc(cap);

	if (!out)
		goto nomem;
	while ((hit = strstr(p, tag))) {
		const char *num = hit + sizeof(tag) - 1, *end = num;
		long long v;
		char buf[32];
		size_t n;

		while (isdigit((unsigned char)*end))
			end++;
		if (end == num || *end != ')' || end - num > 15) {
			snprintf(err, len, "scaled(N) needs a whole number N, "
				 "as in scaled(200)");
			free(out);
			return NULL;
		}
		v = llround(strtod(num, NULL) * scale);
		n = snprintf(buf, sizeof(buf), "%lld", v < 1 ? 1 : v);
		cap += n;
		{
			char *grown = realloc(out, cap);

			if (!grown) {
				free(out);
				goto nomem;
			}
			out = grown;
		}
		memcpy(out + used, p, hit - p);
		used += hit - p;
		memcpy(out + used, buf, n);
		used += n;
		p = end + 1;
	}
	strcpy(out + used, p);
	return out;
nomem:
	snprintf(err, len, "out of memory");
	return NULL;
}

static const char *wordexp_error(int ret)
{
	switch (ret) {
	case WRDE_BADCHAR:
		return "one of | & ; < > ( ) { } or a newline is unquoted";
	case WRDE_SYNTAX:
		return "unbalanced quotes";
	case WRDE_CMDSUB:
		return "command substitution is not allowed";
	case WRDE_BADVAL:
		return "variables are not expanded";
	default:
		return "cannot split the line";
	}
}

/* Splits the line into words at @scale. */
static int split_line(const char *text, double scale, wordexp_t *we,
		      char *err, size_t len)
{
	char *expanded;
	int ret;

	if (check_no_expansion(text, err, len))
		return -EINVAL;
	expanded = expand_scaled(text, scale, err, len);
	if (!expanded)
		return -EINVAL;
	ret = wordexp(expanded, we, WRDE_NOCMD | WRDE_UNDEF);
	free(expanded);
	if (ret) {
		if (ret == WRDE_NOSPACE)
			wordfree(we);
		snprintf(err, len, "%s", wordexp_error(ret));
		return -EINVAL;
	}
	return 0;
}

static const char *const wl_options[] = { "cpus=", "policy=", "nice=", "as=" };

static int option_index(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(wl_options) / sizeof(wl_options[0]); i++)
		if (!strncmp(word, wl_options[i], strlen(wl_options[i])))
			return (int)i;
	return -1;
}

static int parse_policy(const char *s, int *policy, int *prio)
{
	static const struct {
		const char *name;
		int policy;
		bool rt;
	} tab[] = {
		{ "other", SCHED_OTHER, false },
		{ "batch", SCHED_BATCH, false },
		{ "idle", SCHED_IDLE, false },
		{ "fifo", SCHED_FIFO, true },
		{ "rr", SCHED_RR, true },
	};
	const char *colon = strchr(s, ':');
	size_t i, n = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t v;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) != n || strncmp(s, tab[i].name, n))
			continue;
		*policy = tab[i].policy;
		*prio = 0;
		if (!tab[i].rt)
			return colon ? -EINVAL : 0;
		if (!colon || parse_u64_range(colon + 1, 1, 99, &v))
			return -EINVAL;
		*prio = (int)v;
		return 0;
	}
	return -EINVAL;
}

static bool valid_alias(const char *s)
{
	if (!*s || strlen(s) > 48)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return false;
	return true;
}

static bool valid_program(const char *s)
{
	if (!*s || strchr(s, '/'))
		return *s != '\0';
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.+", *s))
			return false;
	return true;
}

static int apply_option(struct runner_suite_workload *wl, int opt,
			const char *val, char *err, size_t len)
{
	int64_t nice;

	switch (opt) {
	case 0:
		if (parse_cpulist(val, &wl->cpuset)) {
			snprintf(err, len, "cpus=%s: not a CPU list "
				 "(e.g. 0-3,5)", val);
			return -EINVAL;
		}
		wl->cpus = strdup(val);
		return wl->cpus ? 0 : -ENOMEM;
	case 1:
		if (parse_policy(val, &wl->sched_policy, &wl->sched_prio)) {
			snprintf(err, len, "policy=%s: expected other, batch, "
				 "idle, fifo:PRIO or rr:PRIO (PRIO 1-99)", val);
			return -EINVAL;
		}
		wl->policy = strdup(val);
		return wl->policy ? 0 : -ENOMEM;
	case 2:
		if (parse_s64(val, &nice) || nice < -20 || nice > 19) {
			snprintf(err, len, "nice=%s: expected -20..19", val);
			return -EINVAL;
		}
		wl->has_nice = true;
		wl->nice = (int)nice;
		return 0;
	default:
		if (!valid_alias(val)) {
			snprintf(err, len, "as=%s: a name of letters, digits, "
				 "'-' and '_' (at most 48)", val);
			return -EINVAL;
		}
		wl->alias = strdup(val);
		return wl->alias ? 0 : -ENOMEM;
	}
}

int runner_suite_workload_parse(struct runner_suite_workload *wl,
				const char *text, char *err, size_t len)
{
	bool seen[4] = { false };
	wordexp_t we;
	size_t i;
	int ret;

	wl->text = strdup(text);
	if (!wl->text)
		return -ENOMEM;
	wl->sched_policy = SCHED_OTHER;
	ret = split_line(text, 1.0, &we, err, len);
	if (ret)
		return ret;
	for (i = 0; i < we.we_wordc; i++) {
		int opt = option_index(we.we_wordv[i]);

		if (opt < 0)
			break;
		if (seen[opt]) {
			snprintf(err, len, "%s given twice", wl_options[opt]);
			ret = -EINVAL;
			goto out;
		}
		seen[opt] = true;
		ret = apply_option(wl, opt, we.we_wordv[i] +
				   strlen(wl_options[opt]), err, len);
		if (ret)
			goto out;
	}
	if (i == we.we_wordc) {
		snprintf(err, len, "no program (expected: [cpus=LIST] "
			 "[policy=P] [nice=N] [as=ALIAS] PROGRAM ARGS...)");
		ret = -EINVAL;
		goto out;
	}
	if (!valid_program(we.we_wordv[i])) {
		snprintf(err, len, "'%s' is not a program name",
			 we.we_wordv[i]);
		ret = -EINVAL;
		goto out;
	}
	wl->program = strdup(we.we_wordv[i]);
	if (!wl->alias) {
		const char *base = strrchr(we.we_wordv[i], '/');

		wl->alias = strdup(base ? base + 1 : we.we_wordv[i]);
		if (wl->alias && !valid_alias(wl->alias)) {
			snprintf(err, len, "'%s' cannot name its results: "
				 "give it a name with as=", wl->alias);
			ret = -EINVAL;
			goto out;
		}
	}
	if (!wl->program || !wl->alias)
		ret = -ENOMEM;
out:
	wordfree(&we);
	return ret;
}

int runner_suite_workload_argv(const struct runner_suite_workload *wl,
			       double scale, char ***argv, char *err,
			       size_t len)
{
	char **v = NULL;
	wordexp_t we;
	size_t i;
	int ret;

	ret = split_line(wl->text, scale, &we, err, len);
	if (ret)
		return ret;
	for (i = 0; i < we.we_wordc && option_index(we.we_wordv[i]) >= 0; i++)
		;
	v = calloc(1, sizeof(*v));
	if (!v)
		ret = -ENOMEM;
	for (; !ret && i < we.we_wordc; i++)
		ret = vec_strv_push(&v, we.we_wordv[i]);
	wordfree(&we);
	if (ret) {
		vec_strv_free(v);
		snprintf(err, len, "out of memory");
		return ret;
	}
	*argv = v;
	return 0;
}
