// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kinds of undo a state file may hold (runner_state.h). Each entry was
 * written before its change was made; undoing it must be idempotent, as a
 * restore can be repeated (the guardian, then the next start).
 *
 * To add a kind: write its undo function in your component and add a line
 * to state_undo_table below.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fsio.h"
#include "jsonio.h"
#include "runner_cgroup.h"
#include "runner_state.h"
#include "runner_trace.h"
#include "runner_tunable.h"

static int kind_from_name(const char *name, enum tunable_kind *kind)
{
	static const enum tunable_kind kinds[] = {
		TUNABLE_SYSCTL, TUNABLE_SCHED_FEATURE, TUNABLE_BASE_SLICE,
		TUNABLE_DEBUGFS,
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(name, suite_tunable_kind_name(kinds[i]))) {
			*kind = kinds[i];
			return 0;
		}
	return -EINVAL;
}

/* {"kind":"tunable","key":K,"tunable":KIND,"path":P,"feature":F,"value":V} */
static int undo_tunable(const cJSON *e, char *done, size_t len)
{
	struct tunable t = { .save_err = 0 };
	const char *key = json_get_str(e, "key", "?");
	char now[TUNABLE_VALUE_MAX];
	int ret;

	if (kind_from_name(json_get_str(e, "tunable", ""), &t.kind)) {
		snprintf(done, len, "%s: unknown tunable kind", key);
		return -EINVAL;
	}
	snprintf(t.key, sizeof(t.key), "%s", key);
	snprintf(t.path, sizeof(t.path), "%s", json_get_str(e, "path", ""));
	snprintf(t.feature, sizeof(t.feature), "%s",
		 json_get_str(e, "feature", ""));
	snprintf(t.orig, sizeof(t.orig), "%s", json_get_str(e, "value", ""));
	/* A state file names the files it makes root write: only knobs. */
	ret = state_check_target(t.path, STATE_TARGET_KNOB, done, len);
	if (ret)
		return ret;
	if (!tunable_read(&t, now, sizeof(now)) && !strcmp(now, t.orig))
		return 0;
	ret = tunable_restore(&t);
	if (ret)
		snprintf(done, len, "cannot restore %s = %s (%s): %s", key,
			 t.orig, t.path, strerror(-ret));
	else
		snprintf(done, len, "restored %s = %s", key, t.orig);
	return ret;
}

/* {"kind":"cgroup","key":PATH} */
static int undo_cgroup(const cJSON *e, char *done, size_t len)
{
	const char *path = json_get_str(e, "key", "");
	int ret;

	if (!*path || !fsio_exists(path))
		return 0;
	ret = state_check_target(path, STATE_TARGET_CGROUP, done, len);
	if (ret)
		return ret;
	ret = cgroup_destroy(path);
	if (ret)
		snprintf(done, len, "cannot remove cgroup %s: %s", path,
			 strerror(-ret));
	return ret;
}

static const struct state_undo_ops state_undo_table[] = {
	{ "cgroup", true, undo_cgroup },
	{ "tunable", false, undo_tunable },
	{ RTRACE_UNDO_KIND, false, rtrace_undo },
};

const struct state_undo_ops *state_undo_find(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(state_undo_table) /
		    sizeof(state_undo_table[0]); i++)
		if (!strcmp(state_undo_table[i].kind, kind))
			return &state_undo_table[i];
	return NULL;
}
