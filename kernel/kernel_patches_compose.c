// SPDX-License-Identifier: GPL-2.0-only
/*
 * A list of sets as one series (kernel.h): a manifest whose [set]
 * says `sets = A B ...` stands for the patches of A, then of B, each set
 * located (fetched or our own) and checked against its own pins. A kernel
 * build, `patches check` and `rtgate bisect` open a set through here, so
 * that a list is one series to them: bisect's prefix k is the first k
 * patches of the list, across its sets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"

/* Appends the located patches of one set of the list to s. */
static int append_set(struct kernel_patch_set *s,
		      const struct kernel_patch_set *m)
{
	int i;

	if (s->nr + m->nr > PATCHSET_MAX) {
		pr_err("%s: its sets hold more than %d patches", s->manifest,
		       PATCHSET_MAX);
		return -E2BIG;
	}
	for (i = 0; i < m->nr; i++) {
		struct kernel_patch_item *it = &s->items[s->nr++];

		*it = m->items[i];
		rtpaths_fmt(it->set, sizeof(it->set), "%s", m->name);
		it->fuzz = m->fuzz;
	}
	return 0;
}

static int open_list(const char *patches_dir, const char *fetch_dir,
		     struct kernel_patch_set *s)
{
	struct kernel_patch_set *m = calloc(1, sizeof(*m));
	int i, ret = m ? 0 : -ENOMEM;

	for (i = 0; !ret && i < s->nr_sets; i++) {
		ret = kernel_patchset_load(patches_dir, s->sets[i], m);
		if (!ret)
			ret = kernel_patchset_locate(m, fetch_dir);
		if (!ret && !m->nr) {
			pr_err("%s: set '%s' has no patches", s->manifest,
			       s->sets[i]);
			ret = -EINVAL;
		}
		if (!ret)
			ret = append_set(s, m);
		else
			pr_err("%s: set %d of %d, '%s', is not ready (above)",
			       s->manifest, i + 1, s->nr_sets, s->sets[i]);
	}
	free(m);
	return ret;
}

int kernel_patchset_open(const char *patches_dir, const char *name,
			 const char *fetch_dir, struct kernel_patch_set *s)
{
	int ret = kernel_patchset_load(patches_dir, name, s);

	if (ret)
		return ret;
	if (!s->nr_sets)
		return kernel_patchset_locate(s, fetch_dir);
	return open_list(patches_dir, fetch_dir, s);
}
