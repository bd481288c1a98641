// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cJSON tree written as block-style YAML, the form LAVA job definitions
 * are read and edited in. Every string is a double-quoted scalar with
 * JSON's escapes, which YAML's double-quoted style shares, so no value
 * can be misread (a "yes", a colon, a leading '*'); keys made only of
 * [A-Za-z0-9_-] are written bare.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

static int bare_key(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *k))
			return 0;
	return 1;
}

static int put_key(FILE *f, const char *k)
{
	cJSON *s;
	char *q;

	if (bare_key(k))
		return fprintf(f, "%s:", k) < 0 ? -EIO : 0;
	s = cJSON_CreateString(k);
	q = s ? cJSON_PrintUnformatted(s) : NULL;
	cJSON_Delete(s);
	if (!q)
		return -ENOMEM;
	fprintf(f, "%s:", q);
	free(q);
	return 0;
}

/* A scalar, or an empty container, on the current line. */
static int put_scalar(FILE *f, const cJSON *v)
{
	char *q;

	if (cJSON_IsArray(v))
		return fputs(" []\n", f) < 0 ? -EIO : 0;
	if (cJSON_IsObject(v))
		return fputs(" {}\n", f) < 0 ? -EIO : 0;
	q = cJSON_PrintUnformatted(v);
	if (!q)
		return -ENOMEM;
	fprintf(f, " %s\n", q);
	free(q);
	return 0;
}

static int is_container(const cJSON *v)
{
	return (cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child;
}

static int put_node(FILE *f, const cJSON *v, int indent);

static int put_object(FILE *f, const cJSON *obj, int indent, int first_inline)
{
	const cJSON *c;
	int ret;

	cJSON_ArrayForEach(c, obj) {
		if (!first_inline)
			fprintf(f, "%*s", indent, "");
		first_inline = 0;
		ret = put_key(f, c->string);
		if (ret)
			return ret;
		if (is_container(c)) {
			fputc('\n', f);
			ret = put_node(f, c, cJSON_IsArray(c) ? indent :
				       indent + 2);
		} else {
			ret = put_scalar(f, c);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int put_array(FILE *f, const cJSON *arr, int indent)
{
	const cJSON *c;
	int ret;

	cJSON_ArrayForEach(c, arr) {
		fprintf(f, "%*s-", indent, "");
		if (cJSON_IsObject(c) && c->child) {
			fputc(' ', f);
			ret = put_object(f, c, indent + 2, 1);
		} else if (is_container(c)) {
			fputc('\n', f);
			ret = put_node(f, c, indent + 2);
		} else {
			ret = put_scalar(f, c);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int put_node(FILE *f, const cJSON *v, int indent)
{
	if (cJSON_IsArray(v))
		return put_array(f, v, indent);
	return put_object(f, v, indent, 0);
}

int export_yaml_write(FILE *f, const cJSON *json)
{
	int ret;

	if (!is_container(json))
		return put_scalar(f, json);
	ret = put_node(f, json, 0);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}
