// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cJSON tree written as block-style YAML, the form LAVA job definitions
 * are read and edited in, through libyaml's emitter (events in, text out:
 * the quoting and escaping are libyaml's). Every string is a
 * double-quoted scalar, so no value can be misread (a "yes", a colon, a
 * leading '*'); numbers, booleans and null are plain; keys made only of
 * [A-Za-z0-9_-] are written bare, others double-quoted. Empty containers
 * are written in flow style ([] and {}), lines are never folded.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lava.h"

static bool bare_key(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *k))
			return false;
	return true;
}

static int emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	return yaml_emitter_emit(e, ev) ? 0 : -EIO;
}

static int put_text(yaml_emitter_t *e, const char *s, yaml_scalar_style_t st)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
					  (yaml_char_t *)s, (int)strlen(s),
					  1, 1, st))
		return -ENOMEM;
	return emit(e, &ev);
}

/* A string double-quoted; a number, a boolean or null as JSON prints it. */
static int put_scalar(yaml_emitter_t *e, const cJSON *v)
{
	char *q;
	int ret;

	if (cJSON_IsString(v))
		return put_text(e, v->valuestring,
				YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	q = cJSON_PrintUnformatted(v);
	if (!q)
		return -ENOMEM;
	ret = put_text(e, q, YAML_PLAIN_SCALAR_STYLE);
	free(q);
	return ret;
}

static int put_node(yaml_emitter_t *e, const cJSON *v)
{
	/* Empty containers in flow style: [] and {}. */
	bool flow = !v->child;
	const cJSON *c;
	yaml_event_t ev;
	int ret;

	if (cJSON_IsArray(v))
		ret = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
			flow ? YAML_FLOW_SEQUENCE_STYLE :
			YAML_BLOCK_SEQUENCE_STYLE) ? emit(e, &ev) : -ENOMEM;
	else if (cJSON_IsObject(v))
		ret = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
			flow ? YAML_FLOW_MAPPING_STYLE :
			YAML_BLOCK_MAPPING_STYLE) ? emit(e, &ev) : -ENOMEM;
	else
		return put_scalar(e, v);
	cJSON_ArrayForEach(c, v) {
		if (cJSON_IsObject(v) && !ret)
			ret = put_text(e, c->string, bare_key(c->string) ?
				       YAML_PLAIN_SCALAR_STYLE :
				       YAML_DOUBLE_QUOTED_SCALAR_STYLE);
		if (!ret)
			ret = put_node(e, c);
	}
	if (ret)
		return ret;
	if (cJSON_IsArray(v))
		yaml_sequence_end_event_initialize(&ev);
	else
		yaml_mapping_end_event_initialize(&ev);
	return emit(e, &ev);
}

static int put_document(yaml_emitter_t *e, const cJSON *json)
{
	yaml_event_t ev;
	int ret;

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ret = emit(e, &ev);
	if (!ret)
		ret = yaml_document_start_event_initialize(&ev, NULL, NULL,
							   NULL, 1) ?
		      emit(e, &ev) : -ENOMEM;
	if (!ret)
		ret = put_node(e, json);
	if (!ret) {
		yaml_document_end_event_initialize(&ev, 1);
		ret = emit(e, &ev);
	}
	if (!ret) {
		yaml_stream_end_event_initialize(&ev);
		ret = emit(e, &ev);
	}
	return ret;
}

int lava_yaml_write(FILE *f, const cJSON *json)
{
	yaml_emitter_t e;
	int ret;

	if (!yaml_emitter_initialize(&e))
		return -ENOMEM;
	yaml_emitter_set_output_file(&e, f);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, -1);
	ret = put_document(&e, json);
	if (!ret && !yaml_emitter_flush(&e))
		ret = -EIO;
	yaml_emitter_delete(&e);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}
