// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tunables (machine.h): a sysctl, a sched feature, base_slice_ns or a
 * debugfs file read, checked, written, saved and restored.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "runner/machine/machine.h"

static int sysctl_path(const char *name, char *buf, size_t len)
{
	char *p;

	if (snprintf(buf, len, "/proc/sys/%s", name) >= (int)len)
		return -ENAMETOOLONG;
	/* Dotted names map dots to slashes; path names are taken as is. */
	if (!strchr(name, '/'))
		for (p = buf + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
	return 0;
}

int runner_tunable_init(struct runner_tunable *t,
			const struct runner_suite_tunable *st,
			const char *debugfs)
{
	const char *rel;
	char *p;
	int n;

	memset(t, 0, sizeof(*t));
	t->kind = st->kind;
	t->save_err = -ENODATA;
	switch (st->kind) {
	case RUNNER_TUNABLE_SYSCTL:
		n = snprintf(t->key, sizeof(t->key), "%s", st->name);
		for (p = t->key; *p; p++)
			if (*p == '/')
				*p = '.';
		if (n >= (int)sizeof(t->key))
			return -ENAMETOOLONG;
		return sysctl_path(st->name, t->path, sizeof(t->path));
	case RUNNER_TUNABLE_SCHED_FEATURE:
		rel = "sched/features";
		snprintf(t->feature, sizeof(t->feature), "%s", st->name);
		n = snprintf(t->key, sizeof(t->key), "sched_feature.%s",
			     st->name);
		break;
	default:
		rel = st->name;
		n = snprintf(t->key, sizeof(t->key), "debugfs.%s", rel);
		break;
	}
	if (n >= (int)sizeof(t->key))
		return -ENAMETOOLONG;
	if (snprintf(t->path, sizeof(t->path), "%s/%s",
		     debugfs ? debugfs : "(debugfs not mounted)", rel) >=
	    (int)sizeof(t->path))
		return -ENAMETOOLONG;
	return 0;
}

/* In the features file, a feature reads FEATURE (on) or NO_FEATURE. */
static int feature_state(const struct runner_tunable *t, char *buf, size_t len)
{
	char *all, *tok, *save = NULL;
	int ret = -ENOENT;

	ret = fsio_read_all(t->path, &all, NULL);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (tok = strtok_r(all, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		const char *name = strncmp(tok, "NO_", 3) ? tok : tok + 3;

		if (strcmp(name, t->feature))
			continue;
		ret = snprintf(buf, len, "%s", tok) >= (int)len ?
		      -ENAMETOOLONG : 0;
		break;
	}
	free(all);
	return ret;
}

int runner_tunable_read(const struct runner_tunable *t, char *buf, size_t len)
{
	if (t->kind == RUNNER_TUNABLE_SCHED_FEATURE)
		return feature_state(t, buf, len);
	return fsio_read_str(t->path, buf, len);
}

int runner_tunable_write(const struct runner_tunable *t, const char *value)
{
	return fsio_write_str(t->path, value);
}

/* Whole numbers separated by blanks: "5", "4 4 1 7", "-1". */
static bool all_integers(const char *s)
{
	bool any = false;

	for (;;) {
		s += strspn(s, " \t");
		if (!*s)
			return any;
		if (*s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		s += strspn(s, "0123456789");
		if (*s && *s != ' ' && *s != '\t')
			return false;
		any = true;
	}
}

int runner_tunable_check_value(const struct runner_tunable *t,
			       const char *value, char *why, size_t len)
{
	char now[TUNABLE_VALUE_MAX];

	if (t->kind == RUNNER_TUNABLE_SCHED_FEATURE ||
	    runner_tunable_read(t, now, sizeof(now)))
		return 0;	/* checked when written, or SKIPPED */
	if (all_integers(now) && !all_integers(value)) {
		snprintf(why, len, "%s holds whole numbers (now '%s'); '%s' "
			 "is not", t->key, now, value);
		return -EINVAL;
	}
	return 0;
}

int runner_tunable_save(struct runner_tunable *t)
{
	t->save_err = runner_tunable_read(t, t->orig, sizeof(t->orig));
	if (!t->save_err && t->kind != RUNNER_TUNABLE_SCHED_FEATURE &&
	    strchr(t->orig, '\n'))
		t->save_err = -EINVAL;	/* not one line: cannot restore */
	return t->save_err;
}

int runner_tunable_restore(const struct runner_tunable *t)
{
	if (t->save_err)
		return t->save_err;
	return runner_tunable_write(t, t->orig);
}
