/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * JSON files through cJSON: read with an error that names the file, line
 * and byte offset; write atomically (fsio_write_atomic), pretty-printed.
 */
#ifndef RTGATE_JSONIO_H
#define RTGATE_JSONIO_H

#include <stddef.h>
#include <cjson/cJSON.h>

struct json_error {
	char msg[512];		/* "FILE:LINE: byte OFFSET: what" */
};

/* Returns 0 and *out, or -errno/-EINVAL with err filled in. */
int json_read_file(const char *path, cJSON **out, struct json_error *err);
int json_parse_buf(const char *name, const char *buf, size_t len,
		   cJSON **out, struct json_error *err);
int json_write_file(const char *path, const cJSON *json);

/* Typed getters; return the fallback when the key is absent or mistyped. */
const char *json_get_str(const cJSON *obj, const char *key, const char *fallback);
double json_get_num(const cJSON *obj, const char *key, double fallback);

/* Numbers added to an object in the order given: a record's fields. */
struct json_num {
	const char *key;
	double v;
};
void json_add_nums(cJSON *obj, const struct json_num *nums, size_t n);

#endif
