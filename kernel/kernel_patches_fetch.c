// SPDX-License-Identifier: GPL-2.0-only
/*
 * A patch set's files: fetched (b4 from lore, a local mbox through b4, or
 * a mail text extracted by kernel_mail.c) into out/patches/NAME/ with a
 * series file, or located there (or in patches/NAME/ for our own sets);
 * each checked against the sha256 the manifest pins, or pinned into it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

/* git format-patch's file name: 0001-subject-words.patch */
static void patch_file_name(int idx, const char *subject, char *buf,
			    size_t len)
{
	const char *p = subject;
	char slug[53];
	size_t n = 0;

	while (!strncasecmp(p, "Re: ", 4) || *p == '[') {
		if (*p == '[')
			p = strchr(p, ']') ? strchr(p, ']') + 1 : p + 1;
		else
			p += 4;
		while (*p == ' ')
			p++;
	}
	for (; *p && n < sizeof(slug) - 1; p++) {
		if (isalnum((unsigned char)*p))
			slug[n++] = tolower((unsigned char)*p);
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	rtpaths_fmt(buf, len, "%04d-%s.patch", idx, n ? slug : "patch");
}

static int reset_dir(const char *dir)
{
	char *rm[] = { "rm", "-rf", (char *)dir, NULL };
	int ret, status;

	ret = toolrun_simple(rm, NULL, NULL, &status);
	if (!ret)
		ret = fsio_mkdir_p(dir, 0755);
	if (ret)
		pr_err("%s: %s", dir, strerror(-ret));
	return ret;
}

static int store_patch(struct kernel_patch_set *s, const char *dir, int idx,
		       const char *subject, const char *text, size_t len)
{
	struct kernel_patch_item *it = &s->items[idx];
	char name[80];
	int ret;

	if (idx >= PATCHSET_MAX) {
		pr_err("%s: more than %d patches", s->name, PATCHSET_MAX);
		return -E2BIG;
	}
	patch_file_name(idx + 1, subject, name, sizeof(name));
	rtpaths_fmt(it->subject, sizeof(it->subject), "%s", subject);
	rtpaths_fmt(it->file, sizeof(it->file), "%s/%s", dir, name);
	ret = fsio_write_atomic(it->file, text, len);
	if (ret)
		pr_err("%s: %s", it->file, strerror(-ret));
	return ret;
}

static const struct kernel_mail_patch *sort_base;

static int cmp_index(const void *a, const void *b)
{
	return sort_base[*(const int *)a].index -
	       sort_base[*(const int *)b].index;
}

static int pick_one(const char *path, int found, const char *what, int *sel,
		    int *count)
{
	if (found < 0) {
		pr_err("%s: %s", path, what);
		return -ENOENT;
	}
	sel[0] = found;
	*count = 1;
	return 0;
}

/*
 * Chooses the manifest's pick among the patches of a mail text: sel gets
 * the indexes into v, in order.
 */
static int pick_from_mail(const struct kernel_patch_set *s, const char *path,
			  const struct kernel_mail_patch *v, int n, int *sel,
			  int *count)
{
	int i, k = 0, found = -1;

	if (!n) {
		pr_err("%s: no patch in this mail text (the thread's replies "
		       "quote it at most); fetch %s with b4", path,
		       s->message_id);
		return -ENOENT;
	}
	if (!strncmp(s->pick, "attachment ", 11)) {
		for (i = n - 1; i >= 0; i--)
			if (!strcmp(v[i].attachment, s->pick + 11))
				found = i;
		return pick_one(path, found, "no attachment of that name "
				"holds a patch", sel, count);
	}
	if (!strcmp(s->pick, "inline")) {
		for (i = n - 1; i >= 0; i--)
			if (!v[i].reply && !v[i].attachment[0])
				found = i;
		return pick_one(path, found, "no patch inline in a posting "
				"(not a reply)", sel, count);
	}
	if (strcmp(s->pick, "series")) {
		pr_err("%s: pick = '%s': expected series, inline, "
		       "attachment NAME or recover", s->manifest, s->pick);
		return -EINVAL;
	}
	/* The numbered postings, in order, every one of them. */
	for (i = 0; i < n; i++)
		if (!v[i].reply && v[i].index >= 1 && !v[i].attachment[0])
			sel[k++] = i;
	if (!k) {
		pr_err("%s: no numbered [PATCH n/m] posting in this mail text",
		       path);
		return -ENOENT;
	}
	sort_base = v;
	qsort(sel, k, sizeof(*sel), cmp_index);
	for (i = 0; i < k; i++)
		if (v[sel[i]].index != i + 1 || v[sel[i]].total != k) {
			pr_err("%s: the series is incomplete: expected patch "
			       "%d/%d, found '%s'", path, i + 1,
			       v[sel[0]].total, v[sel[i]].subject);
			return -EINVAL;
		}
	*count = k;
	return 0;
}

static void mail_subject(const char *text, char *buf, size_t len);

/* pick = recover: the inline patch of a flattened mail, against s->tree. */
static int fetch_recovered(struct kernel_patch_set *s, const char *path,
			   const char *dir)
{
	char subject[256], *text;
	size_t len;
	int ret;

	if (!s->tree[0]) {
		pr_err("%s: pick = recover needs the base tree: --src TREE or "
		       "--debian SERIES", s->manifest);
		return -EINVAL;
	}
	pr_info("%s: recovering the inline patch of a flattened mail "
		"against %s", path, s->tree);
	ret = kernel_mail_recover(path, s->tree, &text, &len);
	if (ret)
		return ret;
	mail_subject(text, subject, sizeof(subject));
	ret = store_patch(s, dir, 0, subject, text, len);
	if (!ret)
		s->nr = 1;
	free(text);
	return ret;
}

static int fetch_mail_text(struct kernel_patch_set *s, const char *path,
			   const char *dir)
{
	struct kernel_mail_patch *v;
	int n, count = 0, i, ret, *sel;

	if (!strcmp(s->pick, "recover"))
		return fetch_recovered(s, path, dir);
	ret = kernel_mail_text_parse(path, &v, &n);
	if (ret)
		return ret;
	sel = calloc(n + 1, sizeof(*sel));
	ret = sel ? pick_from_mail(s, path, v, n, sel, &count) : -ENOMEM;
	for (i = 0; !ret && i < count; i++)
		ret = store_patch(s, dir, i, v[sel[i]].subject, v[sel[i]].text,
				  strlen(v[sel[i]].text));
	if (!ret)
		s->nr = count;
	free(sel);
	kernel_mail_text_free(v, n);
	return ret;
}

/* The Subject: header of a split mail, unfolded. */
static void mail_subject(const char *text, char *buf, size_t len)
{
	const char *p = strstr(text, "\nSubject: ");
	size_t n = 0;

	buf[0] = '\0';
	if (!strncmp(text, "Subject: ", 9))
		p = text - 1;
	if (!p)
		return;
	for (p += 10; *p && n < len - 1; p++) {
		if (*p == '\n') {
			if (p[1] != ' ' && p[1] != '\t')
				break;
			continue;
		}
		buf[n++] = *p;
	}
	buf[n] = '\0';
}

static int split_mbx(struct kernel_patch_set *s, const char *mbx,
		     const char *dir)
{
	char split[PATH_MAX + 8], oarg[PATH_MAX + 16], f[PATH_MAX + 16];
	char *argv[] = { "git", "mailsplit", oarg, (char *)mbx, NULL };
	char subject[256], *text;
	int ret, status, i;
	size_t len;

	rtpaths_fmt(split, sizeof(split), "%s/.split", dir);
	rtpaths_fmt(oarg, sizeof(oarg), "-o%s", split);
	ret = fsio_mkdir_p(split, 0755);
	if (!ret)
		ret = toolrun_simple(argv, NULL, NULL, &status);
	if (!ret && status)
		ret = -EIO;
	if (ret) {
		pr_err("git mailsplit %s failed", mbx);
		return ret;
	}
	for (i = 0;; i++) {
		rtpaths_fmt(f, sizeof(f), "%s/%04d", split, i + 1);
		if (!fsio_exists(f))
			break;
		ret = fsio_read_all(f, &text, &len);
		if (ret)
			return ret;
		mail_subject(text, subject, sizeof(subject));
		ret = store_patch(s, dir, i, subject, text, len);
		free(text);
		if (ret)
			return ret;
	}
	s->nr = i;
	{
		char *rm[] = { "rm", "-rf", split, NULL };

		toolrun_simple(rm, NULL, NULL, &status);
	}
	if (!i) {
		pr_err("%s: b4 found no patches", mbx);
		return -ENOENT;
	}
	return 0;
}

/* `b4 am` as the manifest says, with -o/-n (and -m for a local mbox). */
static int fetch_b4(struct kernel_patch_set *s, const char *mbox,
		    const char *dir)
{
	char cmd[sizeof(s->b4)], odir[PATH_MAX + 8], mbx[PATH_MAX + 80];
	char log[PATH_MAX + 16], *argv[48], *tok, *save = NULL;
	int n = 0, ret, status;

	if (!s->b4[0]) {
		pr_err("%s: no message_id, so no b4 command: fetch with "
		       "--mbox FILE", s->manifest);
		return -EINVAL;
	}
	rtpaths_fmt(cmd, sizeof(cmd), "%s", s->b4);
	for (tok = strtok_r(cmd, " \t", &save); tok && n < 40;
	     tok = strtok_r(NULL, " \t", &save)) {
		argv[n++] = tok;
		if (n == 2) {
			if (strcmp(argv[0], "b4") || strcmp(argv[1], "am")) {
				pr_err("%s: b4 = '%s': expected 'b4 am "
				       "[OPTIONS] MSGID'", s->manifest, s->b4);
				return -EINVAL;
			}
			rtpaths_fmt(odir, sizeof(odir), "%s/.b4", dir);
			argv[n++] = "-o";
			argv[n++] = odir;
			argv[n++] = "-n";
			argv[n++] = s->name;
			if (mbox) {
				argv[n++] = "-m";
				argv[n++] = (char *)mbox;
			}
		}
	}
	argv[n] = NULL;
	if (n < 7) {		/* b4 am -o DIR -n NAME [-m MBOX] MSGID */
		pr_err("%s: b4 = '%s': expected 'b4 am [OPTIONS] MSGID'",
		       s->manifest, s->b4);
		return -EINVAL;
	}
	rtpaths_fmt(log, sizeof(log), "%s/b4.log", dir);
	ret = fsio_mkdir_p(odir, 0755);
	if (ret)
		return ret;
	ret = toolrun_simple(argv, NULL, log, &status);
	if (ret == -ENOENT) {
		pr_err("b4 is not installed (apt-get install b4)");
		return -ENOPKG;
	}
	rtpaths_fmt(mbx, sizeof(mbx), "%s/%s.mbx", odir, s->name);
	if (!ret && (status || !fsio_exists(mbx))) {
		pr_err("b4 am could not get %s%s%s (log: %s)", s->message_id,
		       mbox ? " from " : "; no network? use --mbox FILE",
		       mbox ? mbox : "", log);
		return -EIO;
	}
	return ret ? ret : split_mbx(s, mbx, dir);
}

/* An mbox starts with a "From " line followed by mail headers. */
static bool is_mbox(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return !strncmp(buf, "From ", 5) && strchr(buf, '\n') &&
	       (strstr(buf, "\nMessage-Id: ") || strstr(buf, "\nMessage-ID: ")
		|| strstr(buf, "\nSubject: "));
}

/* Pins from another kind of source (b4 vs a mail text) do not compare. */
static int pins_apply(const struct kernel_patch_set *s, const char *kind, int n)
{
	if (!n || !s->pinned[0] || !strcmp(s->pinned, kind))
		return n;
	pr_warn("%s pins the patches as extracted from a %s; this %s fetch "
		"is not checked against them (--pin to re-pin)", s->manifest,
		!strcmp(s->pinned, "b4") ? "b4 mbox" : "mail text",
		!strcmp(kind, "b4") ? "b4" : "mail text");
	return 0;
}

static int write_series(const struct kernel_patch_set *s, const char *dir,
			const char *kind)
{
	char path[PATH_MAX + 8], buf[PATCHSET_MAX * 96];
	size_t len;
	int i;

	len = snprintf(buf, sizeof(buf), "# source: %s\n", kind);
	for (i = 0; i < s->nr; i++) {
		const char *base = strrchr(s->items[i].file, '/');

		len += snprintf(buf + len, sizeof(buf) - len, "%s\n",
				base ? base + 1 : s->items[i].file);
	}
	rtpaths_fmt(path, sizeof(path), "%s/series", dir);
	return fsio_write_atomic(path, buf, len);
}

static int hash_items(struct kernel_patch_set *s)
{
	const char *paths[PATCHSET_MAX];
	char *hex[PATCHSET_MAX];
	int i;

	for (i = 0; i < s->nr; i++) {
		paths[i] = s->items[i].file;
		hex[i] = s->items[i].actual;
	}
	return s->nr ? filehash_sha256_many(paths, s->nr, hex) : 0;
}

static int verify_pins(const struct kernel_patch_set *s, int pinned)
{
	int i, bad = 0;

	if (!pinned)
		return 0;
	if (pinned != s->nr) {
		pr_err("%s pins %d patches; %d were fetched (a different "
		       "version of the series?)", s->manifest, pinned, s->nr);
		return -EINVAL;
	}
	for (i = 0; i < s->nr; i++) {
		const struct kernel_patch_item *it = &s->items[i];

		if (!it->sha256[0] || !strcmp(it->sha256, it->actual))
			continue;
		pr_err("%s: patch %d (%s): sha256 %s, the manifest pins %s",
		       it->file, i + 1, it->subject, it->actual, it->sha256);
		bad++;
	}
	return bad ? -EINVAL : 0;
}

/* Rewrites the manifest with each patch's subject and sha256. */
static int pin_manifest(const struct kernel_patch_set *s)
{
	char *buf, *out, *line, *save;
	size_t len, olen = 0;
	bool seen[PATCHSET_MAX] = { false }, in_set = false;
	int cur = -1, i, ret;

	ret = fsio_read_all(s->manifest, &buf, &len);
	if (ret)
		return ret;
	out = malloc(len + PATCHSET_MAX * 400 + 1);
	if (!out) {
		free(buf);
		return -ENOMEM;
	}
	for (line = buf; line && *line; line = save) {
		char *nl = strchr(line, '\n'), *t = line;
		int n;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '[') {
			cur = sscanf(t, "[patch %d]", &n) == 1 && n >= 1 &&
			      n <= s->nr ? n - 1 : -1;
			if (cur >= 0)
				seen[cur] = true;
		}
		if (cur >= 0 && (!strncmp(t, "sha256", 6) ||
				 !strncmp(t, "subject", 7)))
			continue;
		if (in_set && !strncmp(t, "pinned", 6))
			continue;
		if (*t == '[')
			in_set = !strncmp(t, "[set]", 5);
		olen += sprintf(out + olen, "%s\n", line);
		if (in_set && *t == '[' && s->pinned[0])
			olen += sprintf(out + olen, "pinned      = %s\n",
					s->pinned);
		if (cur >= 0 && *t == '[')
			olen += sprintf(out + olen,
					"subject = %.250s\nsha256  = %s\n",
					s->items[cur].subject,
					s->items[cur].actual);
	}
	for (i = 0; i < s->nr; i++)
		if (!seen[i])
			olen += sprintf(out + olen,
					"\n[patch %d]\nsubject = %.250s\n"
					"sha256  = %s\n", i + 1,
					s->items[i].subject,
					s->items[i].actual);
	ret = fsio_write_atomic(s->manifest, out, olen);
	free(out);
	free(buf);
	return ret;
}

/* A list of sets has no files of its own: its sets have them. */
static int refuse_list(const struct kernel_patch_set *s, const char *what)
{
	int i, n = 0;
	char names[PATCHSET_MAX_SETS * 66] = "";

	for (i = 0; i < s->nr_sets; i++)
		n += snprintf(names + n, sizeof(names) - n, "%s%s",
			      i ? ", " : "", s->sets[i]);
	pr_err("%s is a list of sets (%s): %s", s->manifest, names, what);
	return -EINVAL;
}

int kernel_patchset_fetch(struct kernel_patch_set *s, const char *mbox,
			  const char *fetch_dir, bool pin)
{
	struct kernel_patch_item pinned[PATCHSET_MAX];
	const char *kind;
	char dir[PATH_MAX];
	int nr_pinned = 0, i, ret;

	if (s->nr_sets)
		return refuse_list(s, "fetch each of its sets");
	if (s->own && pin) {
		ret = hash_items(s);
		return ret ? ret : pin_manifest(s);
	}
	if (s->own)
		return kernel_patchset_locate(s, fetch_dir);
	for (i = 0; i < s->nr; i++)
		if (s->items[i].sha256[0])
			nr_pinned = s->nr;
	memcpy(pinned, s->items, sizeof(pinned));
	memset(s->items, 0, sizeof(s->items));
	s->nr = 0;
	rtpaths_fmt(dir, sizeof(dir), "%s/%s", fetch_dir, s->name);
	ret = reset_dir(dir);
	if (ret)
		return ret;
	if (mbox && !fsio_exists(mbox)) {
		pr_err("%s: no such file", mbox);
		return -ENOENT;
	}
	kind = mbox && !is_mbox(mbox) ? "mail" : "b4";
	if (!strcmp(kind, "mail"))
		ret = fetch_mail_text(s, mbox, dir);
	else
		ret = fetch_b4(s, mbox, dir);
	if (!ret && !pin)
		nr_pinned = pins_apply(s, kind, nr_pinned);
	if (pin)
		rtpaths_fmt(s->pinned, sizeof(s->pinned), "%s", kind);
	if (!ret)
		ret = hash_items(s);
	for (i = 0; !ret && i < s->nr; i++)
		memcpy(s->items[i].sha256, pinned[i].sha256,
		       sizeof(s->items[i].sha256));
	if (!ret && pin)
		ret = pin_manifest(s);
	else if (!ret)
		ret = verify_pins(s, nr_pinned);
	if (!ret)
		ret = write_series(s, dir, kind);
	return ret;
}

int kernel_patchset_locate(struct kernel_patch_set *s, const char *fetch_dir)
{
	char dir[PATH_MAX], path[PATH_MAX + 8], *buf, *line, *save;
	char kind[8] = "b4";
	int n = 0, ret;
	size_t len;

	if (s->nr_sets)
		return refuse_list(s, "open it with kernel_patchset_open()");
	if (s->own) {
		ret = hash_items(s);
		return ret ? ret : verify_pins(s, s->nr);
	}
	rtpaths_fmt(dir, sizeof(dir), "%s/%s", fetch_dir, s->name);
	rtpaths_fmt(path, sizeof(path), "%s/series", dir);
	if (fsio_read_all(path, &buf, &len)) {
		pr_err("patch set '%s' is not fetched: ./run.sh patches fetch "
		       "%s [--mbox FILE]", s->name, s->name);
		return -ENOENT;
	}
	for (line = strtok_r(buf, "\n", &save); line && n < PATCHSET_MAX;
	     line = strtok_r(NULL, "\n", &save)) {
		char *text;
		size_t tl;

		if (!strncmp(line, "# source: ", 10)) {
			rtpaths_fmt(kind, sizeof(kind), "%s", line + 10);
			continue;
		}
		rtpaths_fmt(s->items[n].file, sizeof(s->items[n].file), "%s/%s",
			 dir, line);
		if (!fsio_read_all(s->items[n].file, &text, &tl)) {
			mail_subject(text, s->items[n].subject,
				     sizeof(s->items[n].subject));
			free(text);
		}
		n++;
	}
	free(buf);
	if (s->nr && s->nr != n) {
		pr_err("%s pins %d patches, %s has %d: fetch it again", 
		       s->manifest, s->nr, dir, n);
		return -EINVAL;
	}
	ret = s->nr;
	s->nr = n;
	n = pins_apply(s, kind, ret);
	ret = hash_items(s);
	return ret ? ret : verify_pins(s, n);
}
