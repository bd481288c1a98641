// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inline patch of a flattened mail (kernel_priv.h), rebuilt
 * against the base tree it was written for.
 *
 * Order of business, per file of the diff and per hunk:
 *  1. The hunk header gives the old and new line counts; the words between
 *     it and the next hunk (or file) are the hunk's lines, run together.
 *  2. Every placement of the hunk in the tree's file is tried: its context
 *     and removed lines must be consecutive lines of the file, compared
 *     without white space, each line starting and ending on a word
 *     boundary; a '+' word starts an added line, which runs to a later
 *     boundary. Every way to split the words that fills the counts
 *     exactly is counted; so are the few words that may precede the body
 *     as the hunk header's function line (a prefix of a line above).
 *  3. Exactly one way: context and removed lines take the tree's text,
 *     added lines the posting's words joined by one space, indented the
 *     kernel's way from their neighbours. None, or more than one: an
 *     error naming the file and hunk; never a guess.
 * The commit message (its line breaks are lost too) is re-wrapped at 72
 * columns. A self-check compares the diff written, without white space,
 * with the mail's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "kernel_priv.h"
#include "log.h"
#include "rtpaths.h"

/* git's function line is at most 80 bytes: that many words at most. */
#define HEADING_WORDS	24
#define STEP_BUDGET	20000000L

struct src_file {
	char *buf;
	char **line;		/* the tree's lines, as they are */
	char **ws;		/* the same without white space */
	size_t *wslen;
	int n;
};

enum hl_op { HL_CTX, HL_DEL, HL_ADD };

struct hline {
	enum hl_op op;
	int line;		/* HL_CTX, HL_DEL: the file's line */
	int w0, w1;		/* HL_ADD: its words */
};

struct hunk_ctx {
	char **word;
	bool qp;		/* the mail was quoted-printable */
	int end;		/* the words of the hunk end here */
	bool last;		/* the patch's last hunk: a trailer follows */
	const struct src_file *f;
	int a, oc, nc;
	struct hline *stack, *best;
	int depth, best_depth, best_a, best_k, trailer;
	int found;
	long steps;
};

struct obuf {
	char *s;
	size_t len, cap;
	int err;
};

static void ob_add(struct obuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ob_add(struct obuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->s ? o->s + o->len : NULL, o->s ? o->cap - o->len : 0,
		      fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->err = -EINVAL;
		return;
	}
	if (!o->s || o->len + n + 1 > o->cap) {
		size_t cap = (o->cap + n + 1) * 2;
		char *s = realloc(o->s, cap);

		if (!s) {
			o->err = -ENOMEM;
			return;
		}
		o->s = s;
		o->cap = cap;
		va_start(ap, fmt);
		vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
	}
	o->len += n;
}

static void src_free(struct src_file *f)
{
	int i;

	for (i = 0; f->ws && i < f->n; i++)
		free(f->ws[i]);
	free(f->ws);
	free(f->wslen);
	free(f->line);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

static char *strip_ws(const char *s, size_t *len)
{
	char *o = malloc(strlen(s) + 1);
	size_t n = 0;

	if (!o)
		return NULL;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			o[n++] = *s;
	o[n] = '\0';
	*len = n;
	return o;
}

static int src_load(const char *tree, const char *rel, struct src_file *f)
{
	char path[PATH_MAX];
	size_t len, i;
	int ret, n = 0;

	memset(f, 0, sizeof(*f));
	if (rtpaths_fmt(path, sizeof(path), "%s/%s", tree, rel))
		return -ENAMETOOLONG;
	ret = fsio_read_all(path, &f->buf, &len);
	if (ret) {
		pr_err("%s: %s (the patch changes it; is this the tree it "
		       "was written for?)", path, strerror(-ret));
		return ret;
	}
	for (i = 0; i < len; i++)
		n += f->buf[i] == '\n';
	n += len && f->buf[len - 1] != '\n';
	f->line = calloc(n + 1, sizeof(*f->line));
	f->ws = calloc(n + 1, sizeof(*f->ws));
	f->wslen = calloc(n + 1, sizeof(*f->wslen));
	if (!f->line || !f->ws || !f->wslen)
		return -ENOMEM;
	for (i = 0; i < len && f->n < n;) {
		char *nl = memchr(f->buf + i, '\n', len - i);

		f->line[f->n] = f->buf + i;
		if (nl)
			*nl = '\0';
		f->ws[f->n] = strip_ws(f->line[f->n], &f->wslen[f->n]);
		if (!f->ws[f->n])
			return -ENOMEM;
		f->n++;
		i = nl ? (size_t)(nl - f->buf) + 1 : len;
	}
	return 0;
}

static bool all_marks(const char *w)
{
	for (; *w; w++)
		if (!kernel_mail_flat_mark(*w))
			return false;
	return true;
}

/*
 * Words p.. against one line without white space: the word after the
 * line, or -1. A line ends on a word boundary (its line break became a
 * space). removed: the first word starts with the line's '-'. An empty
 * line of a quoted-printable mail is one word of marks (the context
 * line's lone space, encoded) or a '-' alone.
 */
static int match_line(const struct hunk_ctx *h, int p, const char *ws,
		      size_t wslen, bool removed)
{
	size_t done = 0;
	const char *w;

	if (p >= h->end)
		return !wslen && !removed && !h->qp ? p : -1;
	if (!wslen && removed)
		return all_marks(h->word[p] + 1) ? p + 1 : -1;
	if (!wslen)
		return !h->qp ? p : all_marks(h->word[p]) ? p + 1 : -1;
	for (w = h->word[p] + removed; done < wslen; w = h->word[p]) {
		for (; *w; w++) {
			if (kernel_mail_flat_mark(*w))
				continue;
			if (done == wslen || *w != ws[done])
				return -1;
			done++;
		}
		if (++p >= h->end && done < wslen)
			return -1;
	}
	return p;
}

/* "--" or "---" (marks aside): a separator of the mail's parts. */
static bool is_sep(const char *w)
{
	size_t n = 0;

	for (; *w; w++)
		if (*w == '-')
			n++;
		else if (!kernel_mail_flat_mark(*w))
			return false;
	return n == 2 || n == 3;
}

static void dfs(struct hunk_ctx *h, int p, int j, int del, int add);

static void push(struct hunk_ctx *h, enum hl_op op, int line, int w0, int w1,
		 int p, int j, int del, int add)
{
	h->stack[h->depth++] = (struct hline){ op, line, w0, w1 };
	dfs(h, p, j, del, add);
	h->depth--;
}

static void dfs(struct hunk_ctx *h, int p, int j, int del, int add)
{
	const struct src_file *f = h->f;
	int ctx = j - del, q;

	if (h->found > 1 || ++h->steps > STEP_BUDGET)
		return;
	if (j == h->oc && ctx + add == h->nc &&
	    (p == h->end || (h->last && is_sep(h->word[p])))) {
		if (!h->found++) {
			memcpy(h->best, h->stack, h->depth * sizeof(*h->stack));
			h->best_depth = h->depth;
			h->best_a = h->a;
			h->trailer = p;
		}
		return;
	}
	if (j < h->oc && h->a + j < f->n) {
		const char *ws = f->ws[h->a + j];
		size_t wl = f->wslen[h->a + j];

		if (ctx + 1 + add <= h->nc) {
			q = match_line(h, p, ws, wl, false);
			if (q >= 0)
				push(h, HL_CTX, h->a + j, 0, 0, q, j + 1, del,
				     add);
		}
		if (p < h->end && h->word[p][0] == '-') {
			q = match_line(h, p, ws, wl, true);
			if (q >= 0)
				push(h, HL_DEL, h->a + j, 0, 0, q, j + 1,
				     del + 1, add);
		}
	}
	if (ctx + add + 1 > h->nc || p >= h->end || h->word[p][0] != '+')
		return;
	for (q = p + 1; q <= h->end; q++) {
		push(h, HL_ADD, -1, p, q, q, j, del, add + 1);
		if (q < h->end && h->last && is_sep(h->word[q]))
			break;
	}
}

/* "-12,3" -> 12, 3; "-12" -> 12, 1. */
static bool range_word(const char *w, char sign, int *start, int *count)
{
	char *e;
	long s, c = 1;

	if (w[0] != sign || !isdigit((unsigned char)w[1]))
		return false;
	s = strtol(w + 1, &e, 10);
	if (*e == ',') {
		if (!isdigit((unsigned char)e[1]))
			return false;
		c = strtol(e + 1, &e, 10);
	}
	if (*e || s < 0 || c < 0 || c > 100000)
		return false;
	*start = s;
	*count = c;
	return true;
}

static bool hunk_header_at(char **word, int i, int end, int *oc, int *nc)
{
	int s;

	return i + 3 < end && !strcmp(word[i], "@@") &&
	       range_word(word[i + 1], '-', &s, oc) &&
	       range_word(word[i + 2], '+', &s, nc) &&
	       !strcmp(word[i + 3], "@@");
}

/* Words from..to without white space (nor marks), into buf. */
static size_t join_ws(char **word, int from, int to, char *buf, size_t len)
{
	size_t n = 0;
	const char *w;
	int i;

	for (i = from; i < to; i++)
		for (w = word[i]; *w; w++) {
			if (kernel_mail_flat_mark(*w))
				continue;
			if (n + 2 > len)
				return SIZE_MAX;
			buf[n++] = *w;
		}
	buf[n] = '\0';
	return n;
}

/* The nearest line above a whose text starts with the heading's. */
static int heading_line(const struct src_file *f, int a, const char *hd,
			size_t hl)
{
	int h;

	for (h = a - 1; h >= 0; h--)
		if (f->wslen[h] >= hl && !memcmp(f->ws[h], hd, hl))
			return h;
	return -1;
}

struct hunk_pos {
	int k;			/* the body's first word */
	int a;			/* the file's line the hunk starts at */
	int depth;
	int heading;		/* the function heading's line, or -1 */
	size_t hdlen;
	int trailer;
};

/*
 * Places one hunk: words hb..end follow its header. Every split of a
 * function heading (hb..k) and every start line from 'from' on is tried.
 */
static int place_hunk(struct hunk_ctx *h, int hb, int from,
		      struct hunk_pos *pos, const char *what)
{
	char hd[512];
	int k, a, found = 0, first_a = -1, other_a = -1;

	h->found = 0;
	h->steps = 0;
	for (k = hb; k <= h->end && k - hb <= HEADING_WORDS; k++) {
		size_t hl = join_ws(h->word, hb, k, hd, sizeof(hd));
		int hmin = -1;

		if (hl == SIZE_MAX)
			break;
		/* git trims the function line: no encoded white space. */
		if (k > hb && all_marks(h->word[k - 1]))
			continue;
		if (k > hb) {
			for (hmin = 0; hmin < h->f->n; hmin++)
				if (h->f->wslen[hmin] >= hl &&
				    !memcmp(h->f->ws[hmin], hd, hl))
					break;
			if (hmin == h->f->n)
				continue;
		}
		for (a = from; a + h->oc <= h->f->n; a++) {
			int before = h->found;

			if (k > hb && a <= hmin)
				continue;
			h->a = a;
			h->depth = 0;
			dfs(h, k, 0, 0, 0);
			if (h->found == before)
				continue;
			if (first_a < 0)
				first_a = a;
			else if (other_a < 0)
				other_a = a;
			if (before == 0) {
				pos->k = k;
				pos->a = a;
				pos->depth = h->best_depth;
				pos->trailer = h->trailer;
				pos->hdlen = hl;
				pos->heading = k > hb ?
					heading_line(h->f, a, hd, hl) : -1;
			}
			found = h->found;
			if (found > 1)
				goto out;
		}
	}
out:
	if (h->steps > STEP_BUDGET) {
		pr_err("%s: too many ways to split its lines to try them all; "
		       "refusing to guess", what);
		return -EINVAL;
	}
	if (!found) {
		pr_err("%s: its context and removed lines are nowhere in the "
		       "tree's file (after the previous hunk), with the line "
		       "counts of its header: it cannot be placed", what);
		return -EINVAL;
	}
	if (found > 1) {
		if (other_a >= 0 && other_a != first_a)
			pr_err("%s: it matches the tree's file at line %d and "
			       "at line %d: refusing to guess", what,
			       first_a + 1, other_a + 1);
		else
			pr_err("%s: its words split into lines in more than "
			       "one way at line %d of the tree's file: "
			       "refusing to guess", what, first_a + 1);
		return -EINVAL;
	}
	return 0;
}

static int tabs_of(const char *s)
{
	int n = 0;

	while (s[n] == '\t')
		n++;
	return n;
}

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool ends_with(const char *s, char c)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n && s[n - 1] == c;
}

static bool is_label(const char *t)
{
	const char *p = t;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return p[0] == ':' && !p[1] && strncmp(t, "default:", 8);
}

/* "if (...)", "for (...)", "while (...)", "else": a body follows. */
static bool is_braceless(const char *line)
{
	const char *s = skip_ws(line);
	static const char *const kw[] = { "if (", "else if (", "for (",
					  "while (", "else" };
	size_t i;

	if (ends_with(s, '{') || ends_with(s, ';') || ends_with(s, ','))
		return false;
	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strncmp(s, kw[i], strlen(kw[i])))
			return strcmp(kw[i], "else") || !s[4] ||
			       isspace((unsigned char)s[4]);
	return false;
}

/* A line that says nothing about the indentation of the next one. */
static bool no_indent_hint(const char *line)
{
	const char *s = skip_ws(line);

	return !*s || is_label(s) || *line == '#';
}

/*
 * The kernel's indentation for an added line t, from the lines above it
 * (prev[0] the nearest): one tab more after '{' or a braceless if/for/
 * while/else, back to the statement's after its one-line body, one less
 * for a '}', none for a label or a preprocessor line.
 */
static int indent_for(const char *t, const char *const *prev, int nprev)
{
	const char *p = NULL, *pp = NULL;
	int i, ind;

	if (!*t || is_label(t) || *t == '#')
		return 0;
	for (i = 0; i < nprev; i++) {
		if (no_indent_hint(prev[i]))
			continue;
		if (!p) {
			p = prev[i];
			continue;
		}
		pp = prev[i];
		break;
	}
	if (!p)
		return 0;
	ind = tabs_of(p);
	if (ends_with(p, '{') || is_braceless(p))
		ind++;
	else if (pp && is_braceless(pp) && tabs_of(pp) < ind)
		ind = tabs_of(pp);
	if (*t == '}' && !ends_with(p, '{') && ind > 0)
		ind--;
	return ind;
}

/*
 * The text of an added line: its words one space apart, without the '+',
 * encoded white space (marks) restored.
 */
static void added_text(char **word, int w0, int w1, struct obuf *o)
{
	const char *first = word[w0] + 1;
	int i;

	for (i = w0; i < w1; i++) {
		char *w = strdup(i == w0 ? first : word[i]);

		if (!w) {
			o->err = -ENOMEM;
			return;
		}
		ob_add(o, "%s%s", i > w0 && (i > w0 + 1 || *first) ? " " : "",
		       kernel_mail_flat_text(w));
		free(w);
	}
}

/* Lines above the added line, nearest first, for indent_for(). */
#define PREV_MAX 16

static int emit_hunk(const struct hunk_ctx *h, const struct hunk_pos *pos,
		     int hdr, struct obuf *o)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	const struct src_file *f = h->f;
	const char **img;	/* the file above, then the new image */
	char **owned;		/* the added lines' texts, indented */
	int i, n = 0, nown = 0, ret = 0;

	img = calloc(pos->depth + PREV_MAX + 1, sizeof(*img));
	owned = calloc(pos->depth + 1, sizeof(*owned));
	if (!img || !owned) {
		free(img);
		free(owned);
		return -ENOMEM;
	}
	ob_add(o, "%s %s %s %s", h->word[hdr], h->word[hdr + 1],
	       h->word[hdr + 2], h->word[hdr + 3]);
	if (pos->heading >= 0) {
		const char *s = f->line[pos->heading];
		size_t seen = 0, len = 0;

		while (seen < pos->hdlen && s[len]) {
			if (!isspace((unsigned char)s[len]))
				seen++;
			len++;
		}
		ob_add(o, " %.*s", (int)len, s);
	}
	ob_add(o, "\n");
	for (i = pos->a - PREV_MAX; i < pos->a; i++)
		if (i >= 0)
			img[n++] = f->line[i];
	for (i = 0; i < pos->depth && !ret; i++) {
		const struct hline *l = &h->best[i];
		const char *prev[PREV_MAX];
		struct obuf t = { 0 }, line = { 0 };
		int k, np = 0, ind;

		if (l->op != HL_ADD) {
			ob_add(o, "%c%s\n", l->op == HL_CTX ? ' ' : '-',
			       f->line[l->line]);
			if (l->op == HL_CTX)
				img[n++] = f->line[l->line];
			continue;
		}
		ob_add(&t, "%s", "");
		added_text(h->word, l->w0, l->w1, &t);
		for (k = n - 1; k >= 0 && np < PREV_MAX; k--)
			prev[np++] = img[k];
		ind = t.err ? 0 : indent_for(t.s, prev, np);
		if (ind > (int)sizeof(tabs) - 1)
			ind = sizeof(tabs) - 1;
		ob_add(&line, "%.*s%s", ind, tabs, t.s ? t.s : "");
		free(t.s);
		ret = t.err ? t.err : line.err;
		if (!ret)
			ob_add(o, "+%s\n", line.s);
		owned[nown++] = line.s;
		img[n++] = line.s ? line.s : "";
	}
	for (i = 0; i < nown; i++)
		free(owned[i]);
	free(owned);
	free(img);
	return ret ? ret : o->err;
}

/* Words from..to, wrapped at 72 columns; "---" and "--" on their own. */
static void wrap_words(char **word, int from, int to, struct obuf *o)
{
	size_t col = 0;
	int i;

	for (i = from; i < to; i++) {
		size_t n = strlen(word[i]);
		bool sep = is_sep(word[i]);
		char *w;

		if (all_marks(word[i]))
			continue;
		if (col && (sep || col + 1 + n > 72)) {
			ob_add(o, "\n");
			col = 0;
		}
		w = strdup(word[i]);
		if (!w) {
			o->err = -ENOMEM;
			return;
		}
		ob_add(o, "%s%s", col ? " " : "", kernel_mail_flat_text(w));
		free(w);
		col += n + (col ? 1 : 0);
		if (sep) {
			ob_add(o, "\n");
			col = 0;
		}
	}
	if (col)
		ob_add(o, "\n");
}

static void emit_message(const struct kernel_mail_flat *m, struct obuf *o)
{
	int i, sep = m->diff;

	ob_add(o, "From rtgate-mail-text Mon Sep 17 00:00:00 2001\n");
	ob_add(o, "From: %s%s\n", m->from[0] ? m->from : "unknown",
	       strchr(m->from, '@') ? "" : " <unknown@invalid>");
	if (m->date[0])
		ob_add(o, "Date: %s\n", m->date);
	ob_add(o, "Subject: %s\n", m->subject[0] ? m->subject : "(none)");
	if (m->message_id[0])
		ob_add(o, "Message-Id: %s\n", m->message_id);
	ob_add(o, "\n");
	for (i = 0; i < m->diff; i++)
		if (!strcmp(m->word[i], "---")) {
			sep = i;
			break;
		}
	wrap_words(m->word, 0, sep, o);
	ob_add(o, "---\n");
	if (sep < m->diff) {
		wrap_words(m->word, sep + 1, m->diff, o);
		ob_add(o, "\n");
	}
}

/* One file of the diff: words i..fend. *trailer: where the patch ends. */
static int emit_file(const struct kernel_mail_flat *m, const char *mail,
		     const char *tree, int i, int fend, bool last_file,
		     struct obuf *o, int *trailer)
{
	char **w = m->word, what[PATH_MAX + 128];
	struct hunk_ctx h = { .word = w, .qp = m->qp };
	struct src_file f = { 0 };
	int j = i + 4, nh = 0, hunk = 0, from = 0, ret;
	const char *rel;

	if (i + 3 >= fend || strncmp(w[i + 2], "a/", 2) ||
	    strncmp(w[i + 3], "b/", 2)) {
		pr_err("%s: \"diff --git\" word %d: expected a/PATH b/PATH "
		       "(paths with spaces are not supported)", mail, i);
		return -EINVAL;
	}
	rel = w[i + 2] + 2;
	ob_add(o, "diff --git %s %s\n", w[i + 2], w[i + 3]);
	if (j + 1 < fend && !strcmp(w[j], "index") && strstr(w[j + 1], "..")) {
		bool mode = j + 2 < fend && isdigit((unsigned char)w[j + 2][0]);

		ob_add(o, "index %s%s%s\n", w[j + 1], mode ? " " : "",
		       mode ? w[j + 2] : "");
		j += mode ? 3 : 2;
	}
	if (j + 3 >= fend || strcmp(w[j], "---") || strcmp(w[j + 2], "+++") ||
	    strcmp(w[j + 1], w[i + 2]) || strcmp(w[j + 3], w[i + 3])) {
		pr_err("%s: %s: expected '--- %s' and '+++ %s' after the "
		       "\"diff --git\" line (new, deleted, renamed files and "
		       "mode changes are not supported)", mail, rel, w[i + 2],
		       w[i + 3]);
		return -EINVAL;
	}
	ob_add(o, "--- %s\n+++ %s\n", w[j + 1], w[j + 3]);
	j += 4;
	for (i = j; i < fend; i++)
		nh += hunk_header_at(w, i, fend, &h.oc, &h.nc);
	if (!nh || !hunk_header_at(w, j, fend, &h.oc, &h.nc)) {
		pr_err("%s: %s: no hunk header (@@ -A,B +C,D @@) where the "
		       "file's diff starts", mail, rel);
		return -EINVAL;
	}
	ret = src_load(tree, rel, &f);
	h.f = &f;
	h.stack = calloc(2 * 100000 + 8, sizeof(*h.stack));
	h.best = calloc(2 * 100000 + 8, sizeof(*h.best));
	if (!ret && (!h.stack || !h.best))
		ret = -ENOMEM;
	while (!ret && j < fend) {
		struct hunk_pos pos = { 0 };
		int next = j + 4;

		hunk_header_at(w, j, fend, &h.oc, &h.nc);
		while (next < fend && !hunk_header_at(w, next, fend, &h.oc,
						      &h.nc))
			next++;
		hunk_header_at(w, j, fend, &h.oc, &h.nc);
		h.end = next;
		h.last = last_file && next == fend;
		if (h.oc + h.nc > 2 * 100000) {
			ret = -E2BIG;
			break;
		}
		rtpaths_fmt(what, sizeof(what), "%s: %s hunk %d of %d "
			    "(%s %s %s %s)", mail, rel, ++hunk, nh, w[j],
			    w[j + 1], w[j + 2], w[j + 3]);
		ret = place_hunk(&h, j + 4, from, &pos, what);
		if (!ret)
			ret = emit_hunk(&h, &pos, j, o);
		if (!ret && h.last)
			*trailer = pos.trailer;
		from = pos.a + h.oc;
		j = next;
	}
	free(h.stack);
	free(h.best);
	src_free(&f);
	return ret;
}

/* The written diff and the mail's words from..to, white space aside. */
static int self_check(const struct kernel_mail_flat *m, int from, int to,
		      const char *text, size_t len)
{
	size_t k = 0;
	int w;

	for (w = from; w < to; w++) {
		const char *s = m->word[w];

		for (; *s; s++) {
			if (kernel_mail_flat_mark(*s))
				continue;
			while (k < len && isspace((unsigned char)text[k]))
				k++;
			if (k == len || text[k] != *s)
				return -EIO;
			k++;
		}
	}
	while (k < len && isspace((unsigned char)text[k]))
		k++;
	return k == len ? 0 : -EIO;
}

int kernel_mail_recover(const char *mail, const char *tree, char **out,
			size_t *len)
{
	struct obuf o = { 0 };
	struct kernel_mail_flat m;
	int i, trailer, ret;
	size_t doff;

	*out = NULL;
	*len = 0;
	ret = kernel_mail_flat_read(mail, &m);
	if (ret)
		return ret;
	trailer = m.nword;
	emit_message(&m, &o);
	doff = o.len;
	for (i = m.diff; !ret && i < m.nword;) {
		int fend = i + 2;

		while (fend + 1 < m.nword &&
		       (strcmp(m.word[fend], "diff") ||
			strcmp(m.word[fend + 1], "--git")))
			fend++;
		if (fend + 1 >= m.nword)
			fend = m.nword;
		ret = emit_file(&m, mail, tree, i, fend, fend == m.nword, &o,
				&trailer);
		i = fend;
	}
	if (!ret)
		ret = o.err;
	if (!ret && self_check(&m, m.diff, trailer, o.s + doff, o.len - doff)) {
		pr_err("%s: the rebuilt diff differs from the mail's words "
		       "(an rtgate bug): refusing it", mail);
		ret = -EIO;
	}
	if (!ret && trailer < m.nword)
		wrap_words(m.word, trailer, m.nword, &o);
	if (!ret)
		ret = o.err;
	kernel_mail_flat_free(&m);
	if (ret) {
		free(o.s);
		return ret;
	}
	*out = o.s;
	*len = o.len;
	return 0;
}
