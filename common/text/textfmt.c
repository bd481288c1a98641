// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text for terminals and reports (textfmt.h): the terminal's width, word
 * wrapping, XML escaping.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "textfmt.h"

int text_columns(int fd, int fallback)
{
	struct winsize ws;

	if (fd >= 0 && isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= 40)
		return ws.ws_col;
	return fallback;
}

void text_wrap_hanging(FILE *f, const char *text, int first_col, int indent,
		       int width)
{
	const char *p = text;
	int col, avail = width - first_col, pad = 0;

	while (*p) {
		const char *line = p, *brk = NULL, *q;

		if (avail < 20)
			avail = 20;
		while (*line == ' ')
			line++;
		if (!*line)
			break;
		for (q = line, col = 0; *q && *q != '\n' && col < avail;
		     q++, col++)
			if (*q == ' ')
				brk = q;
		if (!*q || *q == '\n' || *q == ' ' || !brk)
			brk = q;
		fprintf(f, "%*s%.*s\n", pad, "", (int)(brk - line), line);
		p = *brk ? brk + 1 : brk;
		pad = indent;
		avail = width - indent;
	}
}

void text_wrap(FILE *f, const char *text, int indent, int width)
{
	if (indent) {
		fprintf(f, "%*s", indent, "");
		text_wrap_hanging(f, text, indent, indent, width);
	} else {
		text_wrap_hanging(f, text, 0, 0, width);
	}
}

size_t text_utf8_char(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;
	unsigned int cp;

	if (!len)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

bool text_utf8_valid(const char *s, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		n = text_utf8_char(s + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

char *text_utf8_repair(const char *s, size_t len, size_t *outlen)
{
	char *out = malloc(3 * len + 1);
	size_t i = 0, o = 0, n;

	if (!out)
		return NULL;
	while (i < len) {
		n = text_utf8_char(s + i, len - i);
		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	if (outlen)
		*outlen = o;
	return out;
}

/* U+FFFD, the replacement character. */
#define REPLACEMENT "\xef\xbf\xbd"

/*
 * An escaper's walk over @s: a byte that does not begin a UTF-8
 * character is written as @bad; a multi-byte character is copied
 * (U+FFFE and U+FFFF, which XML forbids, as U+FFFD when @xml); each
 * ASCII byte, s[i], is @ascii's to write.
 */
static void escape_walk(FILE *f, const char *s, const char *bad, bool xml,
			void (*ascii)(FILE *f, const char *s, size_t i))
{
	size_t len = strlen(s), i = 0, n;

	while (i < len) {
		n = text_utf8_char(s + i, len - i);
		if (!n) {
			fputs(bad, f);
			n = 1;
		} else if (n == 1) {
			ascii(f, s, i);
		} else if (xml && n == 3 && (unsigned char)s[i] == 0xef &&
			   (unsigned char)s[i + 1] == 0xbf &&
			   (unsigned char)s[i + 2] >= 0xbe) {
			fputs(REPLACEMENT, f);
		} else {
			fwrite(s + i, 1, n, f);
		}
		i += n;
	}
}

/* A control character as a space, any other byte as itself. */
static void plain_ascii(FILE *f, const char *s, size_t i)
{
	unsigned char ch = s[i];

	fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, f);
}

static void gnuplot_ascii(FILE *f, const char *s, size_t i)
{
	if (s[i] == '\'')
		fputs("''", f);
	else
		plain_ascii(f, s, i);
}

void text_gnuplot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	escape_walk(f, s, "?", false, gnuplot_ascii);
	fputc('\'', f);
}

static void xml_ascii(FILE *f, const char *s, size_t i)
{
	static const char *const entity[0x80] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;", ['\''] = "&#39;",
	};
	unsigned char ch = s[i];

	if (entity[ch & 0x7f])
		fputs(entity[ch & 0x7f], f);
	/* XML 1.0 forbids most control characters. */
	else if (ch < 0x20 && ch != '\n' && ch != '\t')
		fputc(' ', f);
	else
		fputc(ch, f);
}

void text_xml_escape(FILE *f, const char *s)
{
	escape_walk(f, s, REPLACEMENT, true, xml_ascii);
}

static void md_ascii(FILE *f, const char *s, size_t i)
{
	unsigned char ch = s[i];
	const char *next = s + i + 1;

	if (strchr("\\|`[]", ch) ||
	    /* a tag, a comment: "p<0.05" stays as it reads */
	    (ch == '<' && (isalpha((unsigned char)*next) ||
			   (*next && strchr("/!?", *next)))))
		fprintf(f, "\\%c", ch);
	else
		plain_ascii(f, s, i);
}

void text_md_escape(FILE *f, const char *s)
{
	escape_walk(f, s, REPLACEMENT, false, md_ascii);
}

/* The longest run of backticks in @s. */
static size_t backtick_run(const char *s)
{
	size_t run = 0, longest = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

size_t text_md_fence_len(const char *s)
{
	size_t n = backtick_run(s) + 1;

	return n < 3 ? 3 : n;
}

void text_md_code(FILE *f, const char *s)
{
	size_t n = backtick_run(s) + 1, len = strlen(s), i;
	bool pad = len && (s[0] == '`' || s[len - 1] == '`');

	/* The fence is one longer than the longest run of backticks. */
	for (i = 0; i < n; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	escape_walk(f, s, REPLACEMENT, false, plain_ascii);
	if (pad)
		fputc(' ', f);
	for (i = 0; i < n; i++)
		fputc('`', f);
}

void text_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
