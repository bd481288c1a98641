// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which kernel tree a run measured, for KCIDB's checkout and build (issue
 * 24 item 3): two trees with the same release string must never share a
 * checkout. What is known, best first (docs/exports.md):
 *
 *   git     a commit (the build manifest's source.commit, or --git-commit)
 *           and, where known, its repository (--git-url)
 *   debian  Debian's source package "linux" at a version: the build's
 *           linux-source package, a Debian image's package (lab.json), or
 *           the "Debian X" of uname -v
 *   release nothing about the source: kernelversion, uname -r and uname -v
 *           (a build's timestamp) name it as well as they can
 *
 * plus the patch sets a built kernel applied (KCIDB's patchset_hash: the
 * sha256 of each patch's newline-terminated sha256, in order) and the
 * config fragments it was built from. A lab run's lab.json carries the
 * build manifest (kernel.build); a run on the host has only its manifest.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_priv.h"
#include "fsio.h"
#include "log.h"
#include "rtpaths.h"
#include "sha256.h"

static bool hex_of_len(const char *s, size_t n)
{
	return strlen(s) == n && strspn(s, "0123456789abcdef") == n;
}

static void id_add(struct sha256 *s, const char *field)
{
	sha256_update(s, field, strlen(field));
	sha256_update(s, "\n", 1);
}

/* "#1 SMP PREEMPT_RT Debian 7.2.13-1 (2026-10-28)" -> "7.2.13-1". */
static void debian_version_of_uname(const char *v, char *out, size_t len)
{
	const char *p = v ? strstr(v, "Debian ") : NULL;

	out[0] = '\0';
	if (!p)
		return;
	p += 7;
	rtpaths_fmt(out, len, "%.*s", (int)strcspn(p, " ()"), p);
}

/* The patch sets' hash, and what they were, from build.json's patches. */
static void identity_patches(const cJSON *patches, struct export_identity *id)
{
	const cJSON *set, *pf;
	struct sha256 s;
	bool all = true;

	sha256_init(&s);
	cJSON_ArrayForEach(set, patches) {
		const char *name = json_get_str(set, "set", NULL);

		if (name) {
			size_t n = strlen(id->patch_sets);

			rtpaths_fmt(id->patch_sets + n, sizeof(id->patch_sets) -
				    n, "%s%s", n ? "+" : "", name);
		}
		cJSON_ArrayForEach(pf, cJSON_GetObjectItem(set, "patches")) {
			const char *h = json_get_str(pf, "sha256", NULL);

			id->npatches++;
			if (!h || !hex_of_len(h, 64))
				all = false;
			else
				id_add(&s, h);
		}
	}
	if (!id->npatches) {
		id->patchset_hash[0] = '\0';
		id->patchset_known = true;
	} else if (all) {
		id->patchset_known = !sha256_hex(&s, id->patchset_hash);
	}
	sha256_destroy(&s);
}

/* Fragments as KernelCI names a config: defconfig+fragment+... */
static void identity_config(const cJSON *build, struct export_identity *id)
{
	const cJSON *f;
	size_t n;

	rtpaths_fmt(id->config_name, sizeof(id->config_name), "%s",
		    json_get_str(build, "defconfig", "defconfig"));
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(build, "fragments")) {
		if (!cJSON_IsString(f))
			continue;
		n = strlen(id->config_name);
		rtpaths_fmt(id->config_name + n, sizeof(id->config_name) - n,
			    "+%s", f->valuestring);
	}
}

static int read_lab(const char *run_dir, cJSON **lab)
{
	char path[PATH_MAX];
	struct json_error err;
	int ret;

	*lab = NULL;
	rtpaths_fmt(path, sizeof(path), "%s/lab.json", run_dir);
	if (!fsio_exists(path))
		return 0;
	ret = json_read_file(path, lab, &err);
	if (ret)
		pr_err("%s", err.msg);
	return ret;
}

/* A checkout id is free text after "ORIGIN:"; keep it one plain word. */
static void key_segment(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
				"TUVWXYZ0123456789._+-", in[i]) ? in[i] : '_';
	out[i] = '\0';
}

static void identity_key(struct export_identity *id, const char *uname_v)
{
	struct sha256 s;
	char hex[65], pre[160];

	sha256_init(&s);
	/* A commit names its tree wherever it is kept: not the URL. */
	id_add(&s, id->kind);
	id_add(&s, id->git_commit);
	id_add(&s, id->debian_version);
	if (!strcmp(id->kind, "release")) {
		id_add(&s, id->version);
		id_add(&s, id->release);
		id_add(&s, uname_v ? uname_v : "");
	}
	id_add(&s, id->patchset_known ? id->patchset_hash : "?");
	if (!id->patchset_known)
		id_add(&s, id->patch_sets);
	sha256_hex(&s, hex);
	if (!strcmp(id->kind, "git"))
		rtpaths_fmt(pre, sizeof(pre), "git-%.12s", id->git_commit);
	else if (!strcmp(id->kind, "debian"))
		rtpaths_fmt(pre, sizeof(pre), "debian-linux-%s",
			    id->debian_version);
	else
		rtpaths_fmt(pre, sizeof(pre), "release-%s", id->release);
	key_segment(pre, id->key, sizeof(id->key) - 18);
	rtpaths_fmt(id->key + strlen(id->key), 18, "-%.16s", hex);
}

int export_identity_read(const char *run_dir, const cJSON *manifest,
			 const char *git_url, const char *git_commit,
			 struct export_identity *id)
{
	const cJSON *k = cJSON_GetObjectItem(manifest, "kernel");
	const cJSON *lk, *build, *src;
	const char *v;
	cJSON *lab;
	int ret;

	memset(id, 0, sizeof(*id));
	ret = read_lab(run_dir, &lab);
	if (ret)
		return ret;
	lk = cJSON_GetObjectItem(lab, "kernel");
	build = cJSON_GetObjectItem(lk, "build");
	src = cJSON_GetObjectItem(build, "source");
	rtpaths_fmt(id->release, sizeof(id->release), "%s",
		    json_get_str(k, "release", NULL) ? json_get_str(k, "release", NULL) :
		    json_get_str(lk, "release", ""));
	rtpaths_fmt(id->version, sizeof(id->version), "%s",
		    json_get_str(src, "version", ""));
	v = git_commit ? git_commit : json_get_str(src, "commit", NULL);
	if (v && (hex_of_len(v, 40) || hex_of_len(v, 64)))
		rtpaths_fmt(id->git_commit, sizeof(id->git_commit), "%s", v);
	v = git_url ? git_url : json_get_str(src, "repository_url", NULL);
	if (v && id->git_commit[0])
		rtpaths_fmt(id->git_url, sizeof(id->git_url), "%s", v);
	if (json_get_str(src, "package_version", NULL))
		rtpaths_fmt(id->debian_version, sizeof(id->debian_version),
			    "%s", json_get_str(src, "package_version", NULL));
	else if (!build && json_get_str(lk, "package_version", NULL))
		rtpaths_fmt(id->debian_version, sizeof(id->debian_version),
			    "%s", json_get_str(lk, "package_version", NULL));
	else if (!build)
		debian_version_of_uname(json_get_str(k, "version", NULL),
					id->debian_version,
					sizeof(id->debian_version));
	rtpaths_fmt(id->kind, sizeof(id->kind), "%s", id->git_commit[0] ?
		    "git" : id->debian_version[0] ? "debian" : "release");
	if (build) {
		identity_patches(cJSON_GetObjectItem(build, "patches"), id);
		identity_config(build, id);
		id->built = true;
	}
	identity_key(id, json_get_str(k, "version", NULL));
	cJSON_Delete(lab);
	return 0;
}
