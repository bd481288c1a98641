// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng's YAML report (stress_yaml.h): the bogo ops of each stressor,
 * read with libyaml.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "parse.h"
#include "workloads/stress/stress_yaml.h"

struct yctx {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t err_len;
};

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ?
	       (const char *)n->data.scalar.value : NULL;
}

static int bad(struct yctx *c, yaml_node_t *n, const char *what)
{
	snprintf(c->err, c->err_len, "%s:%lu: %s", c->path,
		 n ? (unsigned long)n->start_mark.line + 1 : 0UL, what);
	return -EINVAL;
}

/* One "- stressor: cpu / bogo-ops: 122 / …" mapping. */
static int read_metric(struct yctx *c, yaml_node_t *map,
		       struct stress_metric *m)
{
	yaml_node_pair_t *pr;
	int have_name = 0, have_ops = 0;

	if (map->type != YAML_MAPPING_NODE)
		return bad(c, map, "a metrics entry is not a mapping");
	memset(m, 0, sizeof(*m));
	for (pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);
		const char *k = scalar(kn), *v = scalar(vn);
		int ret = 0;

		if (!k || !v)
			continue;
		if (!strcmp(k, "stressor")) {
			if (!*v || strlen(v) >= sizeof(m->stressor))
				return bad(c, vn, "bad stressor name");
			snprintf(m->stressor, sizeof(m->stressor), "%s", v);
			have_name = 1;
		} else if (!strcmp(k, "bogo-ops")) {
			ret = parse_u64(v, &m->bogo_ops);
			have_ops = 1;
		} else if (!strcmp(k, "bogo-ops-per-second-real-time")) {
			ret = parse_double(v, &m->ops_per_s);
		} else if (!strcmp(k, "wall-clock-time")) {
			ret = parse_double(v, &m->wall_s);
		}
		if (ret)
			return bad(c, vn, "a metric is not a number");
	}
	if (!have_name || !have_ops)
		return bad(c, map, "a metrics entry without stressor or bogo-ops");
	return 0;
}

static int read_metrics(struct yctx *c, yaml_node_t *seq,
			struct stress_report *rep)
{
	yaml_node_item_t *it;
	int ret;

	if (seq->type != YAML_SEQUENCE_NODE)
		return bad(c, seq, "metrics is not a sequence");
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		if (rep->n == STRESS_MAX_METRICS)
			return bad(c, seq, "more stressors than we keep");
		ret = read_metric(c, yaml_document_get_node(c->doc, *it),
				  &rep->m[rep->n]);
		if (ret)
			return ret;
		rep->n++;
	}
	return 0;
}

static int read_doc(struct yctx *c, struct stress_report *rep)
{
	yaml_node_t *root = yaml_document_get_root_node(c->doc);
	yaml_node_pair_t *pr;

	if (!root) {
		snprintf(c->err, c->err_len, "%s: empty report", c->path);
		return -ENODATA;
	}
	if (root->type != YAML_MAPPING_NODE)
		return bad(c, root, "the report is not a mapping");
	for (pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		const char *k = scalar(yaml_document_get_node(c->doc, pr->key));

		if (k && !strcmp(k, "metrics"))
			return read_metrics(c,
				yaml_document_get_node(c->doc, pr->value), rep);
	}
	snprintf(c->err, c->err_len, "%s: no metrics section", c->path);
	return -ENODATA;
}

int stress_yaml_read(const char *path, struct stress_report *rep,
		     char *err, size_t err_len)
{
	struct yctx c = { .path = path, .err = err, .err_len = err_len };
	yaml_parser_t parser;
	yaml_document_t doc;
	FILE *f;
	int ret;

	memset(rep, 0, sizeof(*rep));
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, err_len, "%s:%lu: %s", path,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "YAML error");
		ret = -EINVAL;
		goto out;
	}
	c.doc = &doc;
	ret = read_doc(&c, rep);
	yaml_document_delete(&doc);
out:
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}
