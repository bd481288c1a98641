// SPDX-License-Identifier: GPL-2.0-only
/*
 * A patch set's manifest (patches/NAME/manifest.ini, kernel.h):
 * read, every key checked, errors naming the file and line. Fetching is
 * kernel_patches_fetch.c, applying kernel_patches_apply.c; a list of sets
 * (`sets =`) is checked here, set by set, and opened as one series by
 * kernel_patches_compose.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>

#include "fsio.h"
#include "inisettings.h"
#include "kernel_priv.h"
#include "log.h"
#include "parse.h"
#include "rtpaths.h"

struct load_ctx {
	const char *patches_dir;
	bool in_list;			/* loading a set of a list */
	struct kernel_patch_set *s;
	char err[256];
};

static bool valid_name(const char *s)
{
	if (!*s || *s == '.' || strlen(s) >= 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

#define SET_STR(field)							\
	do {								\
		if (rtpaths_fmt(s->field, sizeof(s->field), "%s",	\
				value)) {				\
			rtpaths_fmt(c->err, sizeof(c->err), "%s is too long", \
				 name);					\
			return 0;					\
		}							\
		return 1;						\
	} while (0)

static int load_set(const char *patches_dir, const char *name,
		    struct kernel_patch_set *s, bool in_list);

/* One set of a list: it must exist, load, and not be a list itself. */
static int add_member(struct load_ctx *c, const char *name)
{
	struct kernel_patch_set *s = c->s, *m;
	char path[PATH_MAX + 80];
	int i, ret;

	if (!valid_name(name)) {
		rtpaths_fmt(c->err, sizeof(c->err), "sets: '%s' is not a "
			    "patch set name (letters, digits, ._-)", name);
		return 0;
	}
	if (!strcmp(name, s->name)) {
		rtpaths_fmt(c->err, sizeof(c->err), "sets: '%s' names this "
			    "set itself", name);
		return 0;
	}
	for (i = 0; i < s->nr_sets; i++)
		if (!strcmp(s->sets[i], name)) {
			rtpaths_fmt(c->err, sizeof(c->err), "sets: '%s' is "
				    "listed twice", name);
			return 0;
		}
	if (s->nr_sets == PATCHSET_MAX_SETS) {
		rtpaths_fmt(c->err, sizeof(c->err), "sets: more than %d sets",
			    PATCHSET_MAX_SETS);
		return 0;
	}
	/* A set of a list that is a list: named, not loaded (no cycles). */
	if (c->in_list)
		goto add;
	rtpaths_fmt(path, sizeof(path), "%s/%s/manifest.ini", c->patches_dir,
		    name);
	if (!fsio_exists(path)) {
		rtpaths_fmt(c->err, sizeof(c->err), "sets: unknown patch set "
			    "'%s' (no %s)", name, path);
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		rtpaths_fmt(c->err, sizeof(c->err), "out of memory");
		return 0;
	}
	ret = load_set(c->patches_dir, name, m, true);
	if (ret)
		rtpaths_fmt(c->err, sizeof(c->err), "sets: patch set '%s' is "
			    "not valid (above)", name);
	else if (m->nr_sets)
		rtpaths_fmt(c->err, sizeof(c->err), "sets: '%s' is itself a "
			    "list of sets; lists do not nest", name);
	free(m);
	if (c->err[0])
		return 0;
add:
	rtpaths_fmt(s->sets[s->nr_sets++], sizeof(s->sets[0]), "%s", name);
	return 1;
}

/* `sets = A, B` and continuation lines: each line's names in order. */
static int add_members(struct load_ctx *c, const char *value)
{
	char buf[1024], *tok, *save = NULL;

	if (rtpaths_fmt(buf, sizeof(buf), "%s", value)) {
		rtpaths_fmt(c->err, sizeof(c->err), "sets: line too long");
		return 0;
	}
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (*tok == ';' || *tok == '#')
			break;		/* a comment after the names */
		if (!add_member(c, tok))
			return 0;
	}
	return 1;
}

static int set_key(struct load_ctx *c, const char *name, const char *value)
{
	struct kernel_patch_set *s = c->s;
	uint64_t v;
	bool b;

	if (!strcmp(name, "description"))
		SET_STR(description);
	if (!strcmp(name, "message_id"))
		SET_STR(message_id);
	if (!strcmp(name, "base"))
		SET_STR(base);
	if (!strcmp(name, "b4"))
		SET_STR(b4);
	if (!strcmp(name, "mail"))
		SET_STR(mail);
	if (!strcmp(name, "pick"))
		SET_STR(pick);
	if (!strcmp(name, "debian"))
		SET_STR(debian);
	if (!strcmp(name, "sets"))
		return add_members(c, value);
	if (!strcmp(name, "pinned")) {
		if (strcmp(value, "b4") && strcmp(value, "mail")) {
			snprintf(c->err, sizeof(c->err),
				 "pinned must be b4 or mail, not '%s'", value);
			return 0;
		}
		SET_STR(pinned);
	}
	if (!strcmp(name, "fuzz")) {
		if (parse_u64_range(value, 0, 3, &v)) {
			rtpaths_fmt(c->err, sizeof(c->err),
				 "fuzz must be 0..3, not '%s'", value);
			return 0;
		}
		s->fuzz = v;
		return 1;
	}
	if (!strcmp(name, "own")) {
		if (parse_bool(value, &b)) {
			rtpaths_fmt(c->err, sizeof(c->err),
				 "own must be yes or no, not '%s'", value);
			return 0;
		}
		s->own = b;
		return 1;
	}
	rtpaths_fmt(c->err, sizeof(c->err), "unknown key '%s' in [set]", name);
	return 0;
}

static int patch_key(struct load_ctx *c, int idx, const char *name,
		     const char *value)
{
	struct kernel_patch_item *it = &c->s->items[idx];
	const char *p;

	if (!strcmp(name, "subject")) {
		rtpaths_fmt(it->subject, sizeof(it->subject), "%s", value);
		return 1;
	}
	if (!strcmp(name, "file")) {
		if (strchr(value, '/') || !*value) {
			rtpaths_fmt(c->err, sizeof(c->err),
				 "file must be a name in the set's folder");
			return 0;
		}
		rtpaths_fmt(it->file, sizeof(it->file), "%s/%s", c->s->dir,
			 value);
		return 1;
	}
	if (!strcmp(name, "sha256")) {
		for (p = value; *p; p++)
			if (!isxdigit((unsigned char)*p))
				break;
		if (*p || p - value != FILEHASH_HEX_LEN) {
			rtpaths_fmt(c->err, sizeof(c->err),
				 "sha256 must be 64 hex digits");
			return 0;
		}
		rtpaths_fmt(it->sha256, sizeof(it->sha256), "%s", value);
		return 1;
	}
	rtpaths_fmt(c->err, sizeof(c->err), "unknown key '%s' in [patch N]",
		 name);
	return 0;
}

static int dispatch(struct load_ctx *c, const char *section,
		    const char *name, const char *value)
{
	uint64_t n;

	if (!strcmp(section, "set"))
		return set_key(c, name, value);
	if (!strncmp(section, "patch ", 6) &&
	    !parse_u64_range(section + 6, 1, PATCHSET_MAX, &n)) {
		if ((int)n > c->s->nr)
			c->s->nr = n;
		return patch_key(c, n - 1, name, value);
	}
	rtpaths_fmt(c->err, sizeof(c->err), "unknown section [%s] ([set], "
		 "[patch N] with N 1..%d)", section, PATCHSET_MAX);
	return 0;
}

/* ini_parse() returns the first bad line: keep that line's message. */
static int load_handler(void *user, const char *section, const char *name,
			const char *value)
{
	struct load_ctx *c = user;
	char first[sizeof(c->err)];
	int ok;

	memcpy(first, c->err, sizeof(first));
	c->err[0] = '\0';
	ok = dispatch(c, section, name, value);
	if (first[0])
		memcpy(c->err, first, sizeof(first));
	return ok;
}

/* A list of sets has no patches, files or source of its own. */
static int check_list(struct kernel_patch_set *s)
{
	if (s->nr || s->own || s->message_id[0] || s->mail[0] ||
	    s->b4[0] || s->pick[0]) {
		pr_err("%s: a list of sets (sets =) has no [patch N], own, "
		       "message_id, b4, mail or pick of its own: its sets "
		       "have them", s->manifest);
		return -EINVAL;
	}
	return 0;
}

static int check_loaded(struct kernel_patch_set *s)
{
	int i;

	if (s->nr_sets)
		return check_list(s);
	for (i = 0; i < s->nr; i++) {
		if (s->own && !s->items[i].file[0]) {
			pr_err("%s: [patch %d] has no file (own = yes)",
			       s->manifest, i + 1);
			return -EINVAL;
		}
		if (s->own && !fsio_exists(s->items[i].file)) {
			pr_err("%s: [patch %d]: %s does not exist", s->manifest,
			       i + 1, s->items[i].file);
			return -ENOENT;
		}
	}
	if (s->own && !s->nr) {
		pr_err("%s: an own set needs [patch N] sections", s->manifest);
		return -EINVAL;
	}
	if (!s->own && !s->message_id[0] && !s->mail[0]) {
		pr_err("%s: [set] needs message_id (the lore message-id "
		       "of the series) or mail (a mail text)", s->manifest);
		return -EINVAL;
	}
	if (!s->own && !s->b4[0] && s->message_id[0])
		rtpaths_fmt(s->b4, sizeof(s->b4), "b4 am %s", s->message_id);
	if (!s->pick[0])
		rtpaths_fmt(s->pick, sizeof(s->pick), "series");
	return 0;
}

static int load_set(const char *patches_dir, const char *name,
		    struct kernel_patch_set *s, bool in_list)
{
	struct load_ctx c = { .patches_dir = patches_dir, .in_list = in_list,
			      .s = s };
	int ret;

	memset(s, 0, sizeof(*s));
	if (!valid_name(name)) {
		pr_err("'%s' is not a patch set name (letters, digits, ._-)",
		       name);
		return -EINVAL;
	}
	rtpaths_fmt(s->name, sizeof(s->name), "%s", name);
	rtpaths_fmt(s->dir, sizeof(s->dir), "%s/%s", patches_dir, name);
	rtpaths_fmt(s->manifest, sizeof(s->manifest), "%s/manifest.ini", s->dir);
	inisettings_library_defaults();
	ret = ini_parse(s->manifest, load_handler, &c);
	if (ret < 0) {
		pr_err("patch set '%s' not found (%s)", name, s->manifest);
		return -ENOENT;
	}
	if (ret > 0) {
		pr_err("%s:%d: %s", s->manifest, ret,
		       c.err[0] ? c.err : "malformed line");
		return -EINVAL;
	}
	return check_loaded(s);
}

int kernel_patchset_load(const char *patches_dir, const char *name,
			 struct kernel_patch_set *s)
{
	return load_set(patches_dir, name, s, false);
}
