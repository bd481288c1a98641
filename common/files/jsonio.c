// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON files through cJSON (jsonio.h): read with errors naming file, line
 * and byte; written atomically; typed getters with defaults.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "jsonio.h"
#include "textfmt.h"

static void locate(const char *buf, size_t off, unsigned int *line)
{
	size_t i;

	*line = 1;
	for (i = 0; i < off; i++)
		if (buf[i] == '\n')
			(*line)++;
}

/* Open brackets left at the end (outside strings): the file was cut short. */
static int unclosed_depth(const char *buf, size_t len)
{
	int depth = 0, in_str = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (in_str) {
			if (buf[i] == '\\')
				i++;
			else if (buf[i] == '"')
				in_str = 0;
			continue;
		}
		if (buf[i] == '"')
			in_str = 1;
		else if (buf[i] == '{' || buf[i] == '[')
			depth++;
		else if (buf[i] == '}' || buf[i] == ']')
			depth--;
	}
	return in_str ? depth + 1 : depth;
}

int json_parse_buf(const char *name, const char *buf, size_t len,
		   cJSON **out, struct json_error *err)
{
	const char *end = NULL;
	unsigned int line;
	cJSON *json;
	size_t off;

	json = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (json) {
		/* Anything but whitespace after the value is an error too. */
		off = end - buf;
		while (off < len && strchr(" \t\r\n", buf[off]))
			off++;
		if (off == len) {
			*out = json;
			return 0;
		}
		cJSON_Delete(json);
		locate(buf, off, &line);
		snprintf(err->msg, sizeof(err->msg),
			 "%s:%u: byte %zu: trailing data after the JSON value",
			 name, line, off);
		return -EINVAL;
	}
	off = end ? (size_t)(end - buf) : len;
	if (off > len)
		off = len;
	locate(buf, off, &line);
	snprintf(err->msg, sizeof(err->msg), "%s:%u: byte %zu: %s", name,
		 line, off, unclosed_depth(buf, len) > 0 || !len ?
		 "truncated JSON (the file ends inside a value)" :
		 "malformed JSON");
	return -EINVAL;
}

int json_read_file(const char *path, cJSON **out, struct json_error *err)
{
	size_t len;
	char *buf;
	int ret;

	ret = fsio_read_input(path, &buf, &len);
	if (ret) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path,
			 fsio_input_why(ret));
		return ret == -ENOENT || ret == -ENOMEM ? ret : -EINVAL;
	}
	ret = json_parse_buf(path, buf, len, out, err);
	free(buf);
	return ret;
}

int json_write_file(const char *path, const cJSON *json)
{
	char *text;
	size_t len;
	int ret;

	text = cJSON_Print(json);
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	/*
	 * cJSON copies a string's bytes as they are: one from a name that is
	 * not UTF-8 would make the file no JSON. Outside strings all is
	 * ASCII, so U+FFFD for each stray byte keeps the document whole.
	 */
	if (!text_utf8_valid(text, len)) {
		char *fixed = text_utf8_repair(text, len, &len);

		free(text);
		if (!fixed)
			return -ENOMEM;
		text = fixed;
	}
	{
		/* Files end with a newline, as text files should. */
		char *nl = realloc(text, len + 2);

		if (!nl) {
			free(text);
			return -ENOMEM;
		}
		text = nl;
		text[len++] = '\n';
		text[len] = '\0';
	}
	ret = fsio_write_atomic(path, text, len);
	free(text);
	return ret;
}

const char *json_get_str(const cJSON *obj, const char *key, const char *fallback)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(item) ? item->valuestring : fallback;
}

double json_get_num(const cJSON *obj, const char *key, double fallback)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(item) ? item->valuedouble : fallback;
}

void json_add_nums(cJSON *obj, const struct json_num *nums, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddNumberToObject(obj, nums[i].key, nums[i].v);
}
