// SPDX-License-Identifier: GPL-2.0-only
/*
 * A patch set applied to a tree with patch(1): each patch dry-run first,
 * then for real; a patch that does not apply is named with every failing
 * file and hunk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

/* Folds patch(1)'s dry-run output into "file: hunk #N FAILED at L". */
static void report_failure(const struct kernel_patch_set *s, int idx,
			   const char *out)
{
	const char *base = strrchr(s->items[idx].file, '/');
	const char *set = s->items[idx].set[0] ? s->items[idx].set : s->name;
	char file[PATH_MAX] = "?";
	const char *p, *line;
	int shown = 0;

	base = base ? base + 1 : s->items[idx].file;
	for (line = out; line && *line; line = p ? p + 1 : NULL) {
		int hunk, at;
		int n;

		p = strchr(line, '\n');
		n = p ? (int)(p - line) : (int)strlen(line);
		if (sscanf(line, "checking file %4095[^\n]", file) == 1 ||
		    sscanf(line, "patching file %4095[^\n]", file) == 1)
			continue;
		if (sscanf(line, "Hunk #%d FAILED at %d", &hunk, &at) == 2) {
			pr_err("%s/%s (%s): %s: hunk #%d FAILED at line %d",
			       set, base, s->items[idx].subject, file,
			       hunk, at);
			shown++;
		} else if (strstr(line, "can't find file to patch") ||
			   strstr(line, "Reversed (or previously applied)") ||
			   strstr(line, "malformed patch") ||
			   strstr(line, "Only garbage")) {
			pr_err("%s/%s (%s): %.*s", set, base,
			       s->items[idx].subject, n, line);
			shown++;
		}
	}
	if (!shown)
		pr_err("%s/%s (%s) does not apply:\n%s", set, base,
		       s->items[idx].subject, out);
}

static int run_patch(const struct kernel_patch_set *s, int idx,
		     const char *tree,
		     bool dry, const char *log, char **out)
{
	char fuzz[16];
	char *argv[] = { "patch", "-p1", "--forward", "--batch", fuzz,
			 "--no-backup-if-mismatch", "-r", "-", "-i",
			 (char *)s->items[idx].file, dry ? "--dry-run" : NULL,
			 NULL };
	struct toolrun r = { .argv = argv, .cwd = tree, .capture = out };
	int ret, status;
	FILE *f;

	/* In a list of sets, each patch keeps its own set's fuzz. */
	rtpaths_fmt(fuzz, sizeof(fuzz), "--fuzz=%d", s->items[idx].set[0] ?
		    s->items[idx].fuzz : s->fuzz);
	ret = toolrun(&r, &status);
	if (ret == -ENOENT) {
		pr_err("patch(1) is not installed");
		return -ENOPKG;
	}
	if (ret)
		return ret;
	f = log ? fopen(log, "a") : NULL;
	if (f) {
		fprintf(f, "== %s %s%s\n%s", s->name, s->items[idx].file,
			dry ? " (dry run)" : "", *out);
		fclose(f);
	}
	return status ? -EINVAL : 0;
}

int kernel_patchset_apply(const struct kernel_patch_set *s, const char *tree,
			  const char *log)
{
	int i, ret;

	for (i = 0; i < s->nr; i++) {
		char *out = NULL;

		ret = run_patch(s, i, tree, true, log, &out);
		if (ret == -EINVAL)
			report_failure(s, i, out);
		free(out);
		out = NULL;
		if (!ret)
			ret = run_patch(s, i, tree, false, log, &out);
		if (ret == -EINVAL && out)
			report_failure(s, i, out);
		free(out);
		if (ret) {
			if (ret == -EINVAL)
				pr_err("patch set '%s': patch %d of %d does "
				       "not apply to %s", s->name, i + 1,
				       s->nr, tree);
			return ret;
		}
	}
	return 0;
}
