// SPDX-License-Identifier: GPL-2.0-only
/*
 * Debian's prebuilt kernel images for the lab (lab_priv.h): a flavour
 * (rt, std, 7.2-rt ...) picked among the archive's package names.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"

#define PREFIX "linux-binary-"

/* What follows "SERIES" in a spec, and the flavour it names. */
static const struct {
	const char *suffix;
	const char *flavour;
} flavours[] = {
	{ "", "amd64" },
	{ "-rt", "rt-amd64" },
	{ "-cloud", "cloud-amd64" },
};

#define NR_FLAVOURS (sizeof(flavours) / sizeof(flavours[0]))

int lab_debimage_parse(const char *text, struct lab_debimage_spec *s)
{
	unsigned int major, minor;
	int n = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (sscanf(text, "%u.%u%n", &major, &minor, &n) == 2 && n > 0 &&
	    strspn(text, "0123456789.") == (size_t)n) {
		for (i = 0; i < NR_FLAVOURS; i++) {
			if (strcmp(text + n, flavours[i].suffix))
				continue;
			rtpaths_fmt(s->series, sizeof(s->series), "%u.%u",
				    major, minor);
			rtpaths_fmt(s->flavour, sizeof(s->flavour), "%s",
				    flavours[i].flavour);
			return 0;
		}
		pr_err("debian:%s: unknown flavour '%s' (none, -rt or -cloud: "
		       "debian:%u.%u, debian:%u.%u-rt, debian:%u.%u-cloud)",
		       text, text + n, major, minor, major, minor, major,
		       minor);
		return -EINVAL;
	}
	pr_err("debian:%s: expected rt or std (bookworm's 6.1) or "
	       "SERIES[-rt|-cloud] such as 7.2-rt", text);
	return -EINVAL;
}

struct release {
	char upstream[32];		/* 7.2.13 */
	char tag[32];			/* deb14 */
	char flavour[32];		/* rt-amd64 */
};

/* "7.2.13+deb14-rt-amd64" -> its parts; false for another shape. */
static bool split_release(const char *r, size_t n, struct release *out)
{
	const char *plus = memchr(r, '+', n), *dash;

	if (!plus || plus == r)
		return false;
	dash = memchr(plus, '-', n - (plus - r));
	if (!dash || dash == plus + 1 || dash + 1 == r + n)
		return false;
	if (rtpaths_fmt(out->upstream, sizeof(out->upstream), "%.*s",
			(int)(plus - r), r) ||
	    rtpaths_fmt(out->tag, sizeof(out->tag), "%.*s",
			(int)(dash - plus - 1), plus + 1) ||
	    rtpaths_fmt(out->flavour, sizeof(out->flavour), "%.*s",
			(int)(r + n - dash - 1), dash + 1))
		return false;
	return strspn(out->upstream, "0123456789.") == strlen(out->upstream);
}

/* "7.2.13" against "7.2.9", number by number. */
static int upstream_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		char *ea, *eb;
		unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);

		if (x != y)
			return x < y ? -1 : 1;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
		if (ea == a && eb == b)
			break;
	}
	return 0;
}

static int release_cmp(const struct release *a, const struct release *b)
{
	int c = upstream_cmp(a->upstream, b->upstream);

	return c ? c : strverscmp(a->tag, b->tag);
}

static bool in_series(const struct release *r, const char *series)
{
	size_t n = strlen(series);

	return !strncmp(r->upstream, series, n) &&
	       (!r->upstream[n] || r->upstream[n] == '.');
}

/* Calls fn for every well-formed "linux-binary-R" line of names. */
static void each_release(const char *names,
			 void (*fn)(const struct release *r, const char *raw,
				    size_t n, void *arg), void *arg)
{
	const char *line, *end;

	for (line = names; line && *line; line = *end ? end + 1 : NULL) {
		struct release r;
		size_t n;

		end = strchrnul(line, '\n');
		n = end - line;
		if (n > strlen(PREFIX) && !strncmp(line, PREFIX, strlen(PREFIX))
		    && split_release(line + strlen(PREFIX), n - strlen(PREFIX),
				     &r))
			fn(&r, line + strlen(PREFIX), n - strlen(PREFIX), arg);
	}
}

struct pick {
	const struct lab_debimage_spec *s;
	struct release best;
	char raw[128];
	bool found;
	char offered[256];		/* series with this flavour */
};

static void pick_one(const struct release *r, const char *raw, size_t n,
		     void *arg)
{
	struct pick *p = arg;
	char series[24];
	unsigned int major, minor;

	if (strcmp(r->flavour, p->s->flavour))
		return;
	/* offered: " 7.0 7.1 " */
	if (!p->offered[0])
		strcpy(p->offered, " ");
	if (sscanf(r->upstream, "%u.%u", &major, &minor) == 2) {
		snprintf(series, sizeof(series), " %u.%u ", major, minor);
		if (!strstr(p->offered, series) &&
		    strlen(p->offered) + strlen(series) < sizeof(p->offered))
			strcat(p->offered, series + 1);
	}
	if (!in_series(r, p->s->series))
		return;
	if (p->found && release_cmp(r, &p->best) <= 0)
		return;
	p->best = *r;
	p->found = !rtpaths_fmt(p->raw, sizeof(p->raw), "%.*s", (int)n, raw);
}

int lab_debimage_pick(const char *names, const struct lab_debimage_spec *s,
		      char *release, size_t len)
{
	struct pick p = { .s = s };

	each_release(names, pick_one, &p);
	if (!p.found) {
		size_t n = strlen(p.offered);

		pr_err("no Debian image of %s in flavour %s in the package "
		       "lists (series on offer in that flavour:%.*s)",
		       s->series, s->flavour, n > 1 ? (int)n - 1 : 5,
		       n > 1 ? p.offered : " none");
		return -ENOENT;
	}
	return rtpaths_fmt(release, len, "%s", p.raw);
}

struct list {
	char series[64][16];
	char flavour[64][32];
	int n;
};

static void list_one(const struct release *r, const char *raw, size_t n,
		     void *arg)
{
	struct list *l = arg;
	unsigned int major, minor;
	char series[16];
	int i;

	(void)raw;
	(void)n;
	if (sscanf(r->upstream, "%u.%u", &major, &minor) != 2)
		return;
	snprintf(series, sizeof(series), "%u.%u", major, minor);
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->series[i], series) &&
		    !strcmp(l->flavour[i], r->flavour))
			return;
	if (l->n == 64)
		return;
	rtpaths_fmt(l->series[l->n], sizeof(l->series[0]), "%s", series);
	rtpaths_fmt(l->flavour[l->n], sizeof(l->flavour[0]), "%s",
		    r->flavour);
	l->n++;
}

static int list_cmp(const void *a, const void *b)
{
	return upstream_cmp(a, b);
}

int lab_debimage_list(const char *names, char *buf, size_t len)
{
	struct list l = { .n = 0 };
	char series[64][16];
	size_t used = 0, i, f;
	int nr = 0, ns = 0, j;

	each_release(names, list_one, &l);
	/* The series in order, then each flavour rtgate knows. */
	for (j = 0; j < l.n; j++) {
		bool seen = false;
		int m;

		for (m = 0; m < ns; m++)
			seen |= !strcmp(series[m], l.series[j]);
		if (!seen)
			memcpy(series[ns++], l.series[j], sizeof(series[0]));
	}
	qsort(series, ns, sizeof(series[0]), list_cmp);
	buf[0] = '\0';
	for (i = 0; i < (size_t)ns; i++) {
		for (f = 0; f < NR_FLAVOURS; f++) {
			struct lab_debimage_spec s;
			struct pick p = { .s = &s };

			rtpaths_fmt(s.series, sizeof(s.series), "%s",
				    series[i]);
			rtpaths_fmt(s.flavour, sizeof(s.flavour), "%s",
				    flavours[f].flavour);
			each_release(names, pick_one, &p);
			if (!p.found || used >= len)
				continue;
			used += snprintf(buf + used, len - used,
					 "debian:%s%s %s\n", series[i],
					 flavours[f].suffix, p.raw);
			nr++;
		}
	}
	return nr;
}
