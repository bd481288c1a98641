// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strict parsers (parse.h): numbers, durations, CPU lists, UTC stamps; no
 * trailing garbage, no sign where none belongs. And the words of a kernel
 * command line.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_s64(const char *s, int64_t *out)
{
	long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	if (!isdigit((unsigned char)s[*s == '-' || *s == '+']))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int ret;

	ret = parse_u64(s, &v);
	if (ret)
		return ret;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	/* Decimal only: strtod would take 0x1p4 (16) and "infinity" too. */
	if (!s || !*s || isspace((unsigned char)*s) || strpbrk(s, "xX"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_utc_time(const char *s, time_t *out)
{
	struct tm tm = { 0 };
	const char *end;

	if (!s)
		return -EINVAL;
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -EINVAL;
	*out = timegm(&tm);
	return 0;
}

int parse_duration_ns(const char *s, uint64_t *out_ns)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "",	1e9 },	{ "s",	1e9 },	{ "ms", 1e6 },	{ "us", 1e3 },
		{ "ns", 1 },	{ "m",	60e9 },	{ "h",	3600e9 },
	};
	char *end;
	double v;
	size_t i;

	/* Digits with an optional fraction: no hex, no exponent, no sign. */
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	end = (char *)s + strspn(s, "0123456789");
	if (*end == '.')
		end += 1 + strspn(end + 1, "0123456789");
	if (end[-1] == '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, NULL);
	if (errno || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].mult;
		if (v > 1e18)
			return -ERANGE;
		*out_ns = (uint64_t)llround(v);
		return 0;
	}
	return -EINVAL;
}

static int parse_cpu(const char *s, const char **end, unsigned int *cpu)
{
	unsigned long v;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || v >= CPU_SETSIZE)
		return -ERANGE;
	*cpu = (unsigned int)v;
	*end = e;
	return 0;
}

int parse_cpulist(const char *s, cpu_set_t *set)
{
	unsigned int lo, hi, cpu;
	const char *p = s;
	int ret;

	if (!s || !*s)
		return -EINVAL;
	CPU_ZERO(set);
	for (;;) {
		ret = parse_cpu(p, &p, &lo);
		if (ret)
			return ret;
		hi = lo;
		if (*p == '-') {
			ret = parse_cpu(p + 1, &p, &hi);
			if (ret)
				return ret;
			if (hi < lo)
				return -EINVAL;
		}
		for (cpu = lo; cpu <= hi; cpu++)
			CPU_SET(cpu, set);
		if (!*p)
			return 0;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
}

int parse_cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu, last;

	if (len)
		buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int n;

		if (!CPU_ISSET(cpu, set))
			continue;
		last = cpu;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		if (last == cpu)
			n = snprintf(buf + used, len - used, "%s%d",
				     used ? "," : "", cpu);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d",
				     used ? "," : "", cpu, last);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += n;
		cpu = last;
	}
	return (int)used;
}

char *parse_strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

bool parse_name(const char *s)
{
	size_t n = strlen(s);

	return n && n <= PARSE_NAME_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_-") == n;
}

bool parse_host_name(const char *s)
{
	size_t n = strlen(s);

	if (!strcmp(s, "(none)"))
		return true;
	return n && n <= PARSE_HOST_NAME_MAX && isalnum((unsigned char)s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._-") == n;
}

const char *parse_cmdline_find(const char *cmdline, const char *word,
			       size_t n, enum parse_cmdline_match how)
{
	const char *p = cmdline;
	size_t k;
	bool hit;

	while (p && *p) {
		p += strspn(p, PARSE_CMDLINE_BLANKS);
		k = strcspn(p, PARSE_CMDLINE_BLANKS);
		hit = k >= n && n && !strncmp(p, word, n);
		if (hit && how == PARSE_CMDLINE_WORD)
			hit = k == n;
		else if (hit && how == PARSE_CMDLINE_KEY)
			hit = k == n || p[n] == '=';
		else if (hit)
			hit = p[n] == '=';
		if (hit)
			return p;
		p += k;
	}
	return NULL;
}
