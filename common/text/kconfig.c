// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel .config in memory (kconfig.h): the running kernel's or a file,
 * and one symbol's value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fsio.h"
#include "kconfig.h"

#define KCONFIG_GZ_MAX	(16 << 20)

static int read_gz(const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap), *grown;
	gzFile gz;
	int n;

	gz = gzopen(path, "rb");
	if (!gz || !buf) {
		if (gz)
			gzclose(gz);
		free(buf);
		return -ENOENT;
	}
	while ((n = gzread(gz, buf + used, cap - used - 1)) > 0) {
		used += n;
		if (used + 1 < cap)
			continue;
		if (cap >= KCONFIG_GZ_MAX || !(grown = realloc(buf, cap * 2))) {
			n = -1;
			break;
		}
		buf = grown;
		cap *= 2;
	}
	gzclose(gz);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}

int kconfig_load_file(struct kconfig *kc, const char *path)
{
	int ret;

	memset(kc, 0, sizeof(*kc));
	ret = fsio_read_all(path, &kc->text, &kc->len);
	if (ret) {
		kc->text = NULL;
		return ret;
	}
	snprintf(kc->source, sizeof(kc->source), "%s", path);
	return 0;
}

int kconfig_load_running(struct kconfig *kc, const char *release)
{
	memset(kc, 0, sizeof(*kc));
	if (!read_gz("/proc/config.gz", &kc->text, &kc->len)) {
		snprintf(kc->source, sizeof(kc->source), "/proc/config.gz");
		return 0;
	}
	snprintf(kc->source, sizeof(kc->source), "/boot/config-%s", release);
	if (!fsio_read_all(kc->source, &kc->text, &kc->len))
		return 0;
	kc->text = NULL;
	kc->source[0] = '\0';
	return -ENOENT;
}

void kconfig_free(struct kconfig *kc)
{
	free(kc->text);
	kc->text = NULL;
	kc->len = 0;
}

/* The line that starts with @key (after a newline, or the text's first). */
static const char *line_with(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	if (!strncmp(text, key, n))
		return text;
	for (p = text; (p = strchr(p, '\n')); p++)
		if (!strncmp(p + 1, key, n))
			return p + 1;
	return NULL;
}

int kconfig_value(const struct kconfig *kc, const char *name, char *val,
		  size_t len)
{
	char key[160];
	const char *p;
	size_t n;

	val[0] = '\0';
	if (!kc->text)
		return -ENOENT;
	snprintf(key, sizeof(key), "CONFIG_%s=", name);
	p = line_with(kc->text, key);
	if (p) {
		p += strlen(key);
		n = strcspn(p, "\n");
		snprintf(val, len, "%.*s", (int)n, p);
		return 1;
	}
	snprintf(key, sizeof(key), "# CONFIG_%s is not set\n", name);
	if (line_with(kc->text, key)) {
		snprintf(val, len, "n");
		return 0;
	}
	return -ENOENT;
}

bool kconfig_is_y(const struct kconfig *kc, const char *name)
{
	char v[8];

	return kconfig_value(kc, name, v, sizeof(v)) > 0 && !strcmp(v, "y");
}

void kconfig_unquote(char *val)
{
	size_t n = strlen(val);

	if (n > 1 && val[0] == '"' && val[n - 1] == '"') {
		memmove(val, val + 1, n - 2);
		val[n - 2] = '\0';
	}
}
