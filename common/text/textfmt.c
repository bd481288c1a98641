// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text for terminals and reports (textfmt.h): the terminal's width, word
 * wrapping, XML escaping.
 */
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

void text_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		switch (ch) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 forbids most control characters. */
			if (ch < 0x20 && ch != '\n' && ch != '\t')
				fputc(' ', f);
			else
				fputc(ch, f);
		}
	}
}
