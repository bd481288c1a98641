// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mail texts as the project's seed threads hold them: each message is
 *
 *   SUBJECT
 *   <blank>
 *   [Author Name]
 *   <blank>
 *   body, with attachments introduced by
 *   [-- Attachment #2: NAME --]
 *   [-- Type: text/x-patch, Size: 1751 bytes --]
 *
 * A patch is a message body or an attachment that holds a unified diff.
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

struct lines {
	char **v;
	int n;
};

static int split_lines(char *buf, struct lines *l)
{
	int cap = 1024;
	char *p = buf;

	l->n = 0;
	l->v = malloc(cap * sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	while (*p) {
		char *nl = strchr(p, '\n');

		if (l->n == cap) {
			char **v = realloc(l->v, 2 * cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			l->v = v;
			cap *= 2;
		}
		l->v[l->n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
	return 0;
}

/* "[Some Name]" alone on its line. */
static bool is_author_line(const char *s)
{
	size_t n = strlen(s);

	return n > 2 && s[0] == '[' && s[n - 1] == ']' && s[1] != '-' &&
	       !strchr(s + 1, '[') && strchr(s, ']') == s + n - 1;
}

/*
 * A subject line, a blank, "[Author]", a blank. The subject must look like
 * one ("[PATCH ...", "Re: ...", or the thread's title on line 1), so that a
 * quoted "[snip]" inside a reply does not start a message.
 */
static bool is_message_start(const struct lines *l, int i)
{
	const char *s = l->v[i];

	if (s[0] != '[' && strncasecmp(s, "Re:", 3) && strcmp(s, l->v[0]))
		return false;
	return i + 2 < l->n && s[0] && !l->v[i + 1][0] &&
	       is_author_line(l->v[i + 2]) &&
	       (i + 3 == l->n || !l->v[i + 3][0]);
}

static bool has_diff(const struct lines *l, int from, int to)
{
	int i;

	for (i = from; i < to; i++) {
		if (!strncmp(l->v[i], "diff --git ", 11))
			return true;
		if (!strncmp(l->v[i], "--- ", 4) && i + 1 < to &&
		    !strncmp(l->v[i + 1], "+++ ", 4))
			return true;
	}
	return false;
}

/* "[PATCH V5 3/6] ..." -> 3, 6. */
static void subject_index(const char *subj, int *index, int *total)
{
	const char *p = strchr(subj, '['), *end = p ? strchr(p, ']') : NULL;

	*index = *total = 0;
	if (!end)
		return;
	for (; p < end; p++)
		if (isdigit((unsigned char)*p) && sscanf(p, "%d/%d", index,
							 total) == 2)
			return;
	*index = *total = 0;
}

/* The author's mail address from a Signed-off-by line, if there is one. */
static void author_address(const struct lines *l, int from, int to,
			   const char *name, char *out, size_t len)
{
	int i;

	rtpaths_fmt(out, len, "%s <unknown@invalid>", name);
	for (i = from; i < to; i++) {
		const char *s = l->v[i];

		if (!strncmp(s, "Signed-off-by: ", 15) &&
		    !strncmp(s + 15, name, strlen(name)) && strchr(s, '<')) {
			rtpaths_fmt(out, len, "%s", s + 15);
			return;
		}
	}
}

static char *join(const struct lines *l, int from, int to, const char *head)
{
	size_t len = strlen(head) + 1;
	char *buf, *p;
	int i;

	for (i = from; i < to; i++)
		len += strlen(l->v[i]) + 1;
	buf = malloc(len);
	if (!buf)
		return NULL;
	p = buf + sprintf(buf, "%s", head);
	for (i = from; i < to; i++)
		p += sprintf(p, "%s\n", l->v[i]);
	return buf;
}

static int add_patch(struct kernel_mail_patch **v, int *n, int *cap,
		     const struct kernel_mail_patch *mp)
{
	if (*n == *cap) {
		struct kernel_mail_patch *nv = realloc(*v,
						       2 * *cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap *= 2;
	}
	(*v)[(*n)++] = *mp;
	return 0;
}

/* One part (the body or an attachment) that holds a diff -> a patch. */
static int take_part(const struct lines *l, int from, int to,
		     const char *subject, const char *author,
		     const char *attachment, struct kernel_mail_patch **v,
		     int *n, int *cap)
{
	struct kernel_mail_patch mp = { 0 };
	char head[1024];

	if (!has_diff(l, from, to))
		return 0;
	/* A blank line or a Type: line may follow the attachment marker. */
	while (from < to && (!l->v[from][0] ||
			     !strncmp(l->v[from], "[-- Type: ", 10)))
		from++;
	rtpaths_fmt(mp.subject, sizeof(mp.subject), "%s", subject);
	rtpaths_fmt(mp.attachment, sizeof(mp.attachment), "%s", attachment);
	author_address(l, from, to, author, mp.author, sizeof(mp.author));
	mp.reply = !strncasecmp(subject, "Re:", 3);
	subject_index(subject, &mp.index, &mp.total);
	/* An attachment that carries its own Subject: keeps it. */
	if (from < to && !strncmp(l->v[from], "Subject: ", 9))
		rtpaths_fmt(head, sizeof(head),
			 "From rtgate-mail-text Mon Sep 17 00:00:00 2001\n"
			 "From: %s\n", mp.author);
	else
		rtpaths_fmt(head, sizeof(head),
			 "From rtgate-mail-text Mon Sep 17 00:00:00 2001\n"
			 "From: %s\nSubject: %s\n\n", mp.author, subject);
	mp.text = join(l, from, to, head);
	if (!mp.text)
		return -ENOMEM;
	return add_patch(v, n, cap, &mp);
}

/* "[-- Attachment #2: NAME --]" -> NAME ("" for the text/plain body). */
static bool attachment_marker(const char *s, char *name, size_t len)
{
	const char *p, *e;

	if (strncmp(s, "[-- Attachment #", 16))
		return false;
	p = strchr(s, ':');
	e = strstr(s, " --]");
	name[0] = '\0';
	if (p && e && e > p + 2 && strncmp(p + 2, "Type: ", 6))
		rtpaths_fmt(name, len, "%.*s", (int)(e - p - 2), p + 2);
	return true;
}

static int take_message(const struct lines *l, int start, int end,
			struct kernel_mail_patch **v, int *n, int *cap)
{
	const char *subject = l->v[start];
	char author[256], name[256] = "", next[256];
	int from = start + 4, i, ret;
	size_t alen = strlen(l->v[start + 2]);

	rtpaths_fmt(author, sizeof(author), "%.*s", (int)alen - 2,
		 l->v[start + 2] + 1);
	for (i = from; i <= end; i++) {
		if (i < end && !attachment_marker(l->v[i], next, sizeof(next)))
			continue;
		ret = take_part(l, from, i, subject, author, name, v, n, cap);
		if (ret)
			return ret;
		if (i < end)
			rtpaths_fmt(name, sizeof(name), "%s", next);
		from = i + 1;
	}
	return 0;
}

static bool flattened(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	size_t first = nl ? (size_t)(nl - buf) : len;

	/* A whole mail on one line: the line breaks were lost. */
	return first > 4000 && strstr(buf, "diff --git ") &&
	       (size_t)(strstr(buf, "diff --git ") - buf) < first;
}

int kernel_mail_text_parse(const char *path, struct kernel_mail_patch **out,
			   int *n)
{
	struct kernel_mail_patch *v = NULL;
	struct lines l = { 0 };
	int cap = 8, i, start = -1, ret;
	char *buf;
	size_t len;

	*out = NULL;
	*n = 0;
	ret = fsio_read_all(path, &buf, &len);
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	if (flattened(buf, len)) {
		pr_err("%s:1: the mail has lost its line breaks (%zu bytes on "
		       "one line): its inline patch can only be rebuilt "
		       "against its base tree (pick = recover, "
		       "docs/kernels.md), or fetch it with b4", path, len);
		free(buf);
		return -EINVAL;
	}
	v = malloc(cap * sizeof(*v));
	ret = v ? split_lines(buf, &l) : -ENOMEM;
	for (i = 0; !ret && i <= l.n; i++) {
		if (i < l.n && !is_message_start(&l, i))
			continue;
		if (start >= 0)
			ret = take_message(&l, start, i, &v, n, &cap);
		start = i;
	}
	free(l.v);
	free(buf);
	if (ret) {
		kernel_mail_text_free(v, *n);
		*n = 0;
		return ret;
	}
	*out = v;
	return 0;
}

void kernel_mail_text_free(struct kernel_mail_patch *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(p[i].text);
	free(p);
}
