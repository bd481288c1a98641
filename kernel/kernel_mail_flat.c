// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flattened mails (kernel_priv.h): the seed of the hrtick thread is a
 * whole mail on one line, every line break and indentation turned into
 * one space. Its header fields stay readable; its body was
 * quoted-printable, so a soft line break is now "= " and every '=' of the
 * text is "=3D": after decoding, every word of the patch is intact.
 *
 * The header block has no blank line left to end it. It ends after the
 * value of the last header field (a name of the mail header kind, below)
 * that comes before the first "Signed-off-by:" or "---"; that value ends
 * at its first word that does not end in ';' (a parameter list such as
 * b4's X-Developer-Key). That rule only bounds the commit message; the
 * diff starts at "diff --git" whatever it finds.
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

/* Header names a mail carries before its body ("Cc:" is a trailer too). */
static const char *const header_names[] = {
	"From:", "Date:", "Subject:", "To:", "Message-Id:", "Message-ID:",
	"In-Reply-To:", "References:", "MIME-Version:", "Content-Type:",
	"Content-Transfer-Encoding:", "Precedence:", "Received:",
	"Authentication-Results:", "DKIM-Signature:", "Return-Path:",
	"Reply-To:", "Sender:", "Delivered-To:",
};

static bool is_header_name(const char *w, size_t n, bool with_cc)
{
	size_t i;

	if (n < 3 || w[n - 1] != ':')
		return false;
	if (!strncmp(w, "X-", 2) || !strncmp(w, "List-", 5) ||
	    !strncmp(w, "ARC-", 4))
		return true;
	if (with_cc && n == 3 && !strncmp(w, "Cc:", 3))
		return true;
	for (i = 0; i < sizeof(header_names) / sizeof(header_names[0]); i++)
		if (strlen(header_names[i]) == n &&
		    !strncmp(w, header_names[i], n))
			return true;
	return false;
}

/* A whole mail on one line (a final newline aside) that holds a diff. */
static bool is_flat(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);

	if (nl && (size_t)(nl - buf) + 1 < len)
		return false;
	return memmem(buf, len, "diff --git ", 11) != NULL;
}

/* The raw words of the text: offsets of their starts and their lengths. */
struct raw_words {
	size_t *at, *len;
	int n;
};

static int raw_split(const char *buf, size_t size, struct raw_words *w)
{
	size_t i = 0;
	int cap = 0;

	w->n = 0;
	w->at = w->len = NULL;
	while (i < size) {
		size_t s;

		while (i < size && isspace((unsigned char)buf[i]))
			i++;
		if (i == size)
			break;
		s = i;
		while (i < size && !isspace((unsigned char)buf[i]))
			i++;
		if (w->n == cap) {
			size_t *a, *l;

			cap = cap ? 2 * cap : 1024;
			a = realloc(w->at, cap * sizeof(*a));
			if (a)
				w->at = a;
			l = a ? realloc(w->len, cap * sizeof(*l)) : NULL;
			if (!l)
				return -ENOMEM;
			w->len = l;
		}
		w->at[w->n] = s;
		w->len[w->n++] = i - s;
	}
	return 0;
}

/* The value of the field whose name is word i: up to the next name. */
static void field_value(const char *buf, const struct raw_words *w, int i,
			char *out, size_t len)
{
	size_t n = 0;
	int j;

	out[0] = '\0';
	for (j = i + 1; j < w->n; j++) {
		const char *s = buf + w->at[j];

		if (is_header_name(s, w->len[j], true))
			break;
		if (n + w->len[j] + 2 >= len)
			break;
		n += sprintf(out + n, "%s%.*s", n ? " " : "", (int)w->len[j],
			     s);
	}
}

static bool word_is(const char *buf, const struct raw_words *w, int i,
		    const char *s)
{
	return w->len[i] == strlen(s) && !strncmp(buf + w->at[i], s,
						  w->len[i]);
}

/*
 * The header fields, and the offset where the body starts (see the top of
 * the file); qp says whether the body is quoted-printable.
 */
static size_t read_headers(const char *buf, const struct raw_words *w,
			   struct kernel_mail_flat *m, bool *qp)
{
	int i, end = w->n, last = -1;

	for (i = 0; i < w->n; i++)
		if (word_is(buf, w, i, "Signed-off-by:") ||
		    word_is(buf, w, i, "---") || word_is(buf, w, i, "diff")) {
			end = i;
			break;
		}
	*qp = false;
	for (i = 0; i < end; i++) {
		const char *s = buf + w->at[i];

		if (!is_header_name(s, w->len[i], false))
			continue;
		last = i;
		if (word_is(buf, w, i, "From:") && !m->from[0])
			field_value(buf, w, i, m->from, sizeof(m->from));
		else if (word_is(buf, w, i, "Date:") && !m->date[0])
			field_value(buf, w, i, m->date, sizeof(m->date));
		else if (word_is(buf, w, i, "Subject:") && !m->subject[0])
			field_value(buf, w, i, m->subject, sizeof(m->subject));
		else if ((word_is(buf, w, i, "Message-Id:") ||
			  word_is(buf, w, i, "Message-ID:")) &&
			 !m->message_id[0])
			field_value(buf, w, i, m->message_id,
				    sizeof(m->message_id));
		else if (word_is(buf, w, i, "Content-Transfer-Encoding:") &&
			 i + 1 < w->n && w->len[i + 1] == 16 &&
			 !strncasecmp(buf + w->at[i + 1], "quoted-printable",
				      16))
			*qp = true;
	}
	if (last < 0)
		return 0;
	/* The last field's value: words up to the first not ending in ';'. */
	for (i = last + 1; i < end; i++)
		if (buf[w->at[i] + w->len[i] - 1] != ';')
			return w->at[i] + w->len[i];
	return i < w->n ? w->at[i] : w->at[w->n - 1] + w->len[w->n - 1];
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = toupper(c);
	return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Quoted-printable decoding of a flattened body: "=XX" is the byte XX, a
 * '=' followed by white space (the soft line break, its line end now a
 * space) joins the words around it. Any other '=' is not quoted-printable.
 */
static int qp_decode(const char *path, const char *in, size_t off,
		     size_t size, char *out, size_t *olen)
{
	size_t i = off, n = 0;

	while (i < size) {
		int hi, lo;

		if (in[i] != '=') {
			out[n++] = in[i++];
			continue;
		}
		if (i + 1 == size || isspace((unsigned char)in[i + 1])) {
			i++;
			while (i < size && isspace((unsigned char)in[i]))
				i++;
			continue;
		}
		hi = i + 2 < size ? hexval((unsigned char)in[i + 1]) : -1;
		lo = hi >= 0 ? hexval((unsigned char)in[i + 2]) : -1;
		if (lo < 0) {
			pr_err("%s: offset %zu: '=%.2s' is not quoted-printable"
			       " (=XX or a soft line break)", path, i,
			       in + i + 1);
			return -EINVAL;
		}
		out[n] = (char)(hi << 4 | lo);
		if (out[n] == ' ')
			out[n] = MAIL_FLAT_SPACE;
		else if (out[n] == '\t')
			out[n] = MAIL_FLAT_TAB;
		n++;
		i += 3;
	}
	*olen = n;
	return 0;
}

/* The decoded body as words, NUL-terminated in place. */
static int split_words(char *body, size_t len, struct kernel_mail_flat *m)
{
	size_t i = 0;
	int cap = 0;

	body[len] = '\0';
	while (i < len) {
		while (i < len && isspace((unsigned char)body[i]))
			body[i++] = '\0';
		if (i == len)
			break;
		if (m->nword == cap) {
			char **v;

			cap = cap ? 2 * cap : 1024;
			v = realloc(m->word, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			m->word = v;
		}
		m->word[m->nword++] = body + i;
		while (i < len && !isspace((unsigned char)body[i]))
			i++;
	}
	return 0;
}

int kernel_mail_flat_read(const char *path, struct kernel_mail_flat *m)
{
	struct raw_words w = { 0 };
	size_t size, off, blen;
	bool qp = false;
	char *buf;
	int ret, i;

	memset(m, 0, sizeof(*m));
	m->diff = -1;
	ret = fsio_read_all(path, &buf, &size);
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	if (!is_flat(buf, size)) {
		pr_err("%s: not a flattened mail (one line holding a "
		       "\"diff --git\"): use pick = inline or attachment NAME",
		       path);
		free(buf);
		return -EINVAL;
	}
	ret = raw_split(buf, size, &w);
	off = ret ? 0 : read_headers(buf, &w, m, &qp);
	m->body = ret ? NULL : malloc(size - off + 1);
	if (!ret && !m->body)
		ret = -ENOMEM;
	m->qp = qp;
	if (!ret && qp) {
		ret = qp_decode(path, buf, off, size, m->body, &blen);
	} else if (!ret) {
		blen = size - off;
		memcpy(m->body, buf + off, blen);
	}
	if (!ret)
		ret = split_words(m->body, blen, m);
	for (i = 0; !ret && i + 1 < m->nword; i++)
		if (!strcmp(m->word[i], "diff") &&
		    !strcmp(m->word[i + 1], "--git")) {
			m->diff = i;
			break;
		}
	if (!ret && m->diff < 0) {
		pr_err("%s: no \"diff --git\" in the mail's body", path);
		ret = -EINVAL;
	}
	free(w.at);
	free(w.len);
	free(buf);
	if (ret)
		kernel_mail_flat_free(m);
	return ret;
}

char *kernel_mail_flat_text(char *word)
{
	char *p;

	for (p = word; *p; p++)
		if (*p == MAIL_FLAT_SPACE)
			*p = ' ';
		else if (*p == MAIL_FLAT_TAB)
			*p = '\t';
	return word;
}

void kernel_mail_flat_free(struct kernel_mail_flat *m)
{
	free(m->word);
	free(m->body);
	m->word = NULL;
	m->body = NULL;
	m->nword = 0;
}
