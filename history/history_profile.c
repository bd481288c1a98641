// SPDX-License-Identifier: GPL-2.0-only
/*
 * Noise profiles in the history (docs/statistics.md): one row per
 * calibration, the profile as its JSON (rtgate-noise-profile/1); a gate
 * reads them all for its host and measurement, pooled.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>

#include "analyze/analyze.h"
#include "history.h"
#include "history_priv.h"
#include "log.h"
#include "timefmt.h"

int history_profile_store(struct history *h, const char *host,
			  const struct an_profile *pr, const char *run_id)
{
	cJSON *o = an_profile_json(pr);
	char *text = o ? cJSON_PrintUnformatted(o) : NULL, stamp[32];
	sqlite3_stmt *st = NULL;
	int ret = -ENOMEM;

	cJSON_Delete(o);
	if (!text)
		return ret;
	timefmt_iso8601_now(stamp, sizeof(stamp));
	ret = history_prepare(h, "INSERT INTO noise_profiles (host, key, "
			      "created, repetitions, run_id, profile) "
			      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &st);
	if (!ret) {
		sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, pr->key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, stamp, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, (long long)pr->nreps);
		sqlite3_bind_text(st, 5, run_id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, text, -1, SQLITE_TRANSIENT);
		ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
		if (ret)
			pr_err("%s: cannot store the noise profile: %s",
			       h->path, sqlite3_errmsg(h->db));
	}
	sqlite3_finalize(st);
	free(text);
	return ret;
}

/* Adds one calibration into the pool: lines both have are pooled. */
static void pool_into(struct an_profile *acc, const struct an_profile *pr)
{
	double df = acc->df + pr->df;
	size_t i;

	for (i = 0; i < acc->nlines; i++) {
		struct an_profile_line *a = &acc->lines[i];
		const struct an_profile_line *b = NULL;
		size_t k;

		for (k = 0; k < pr->nlines && !b; k++)
			if (pr->lines[k].cpu == a->cpu &&
			    !strcmp(pr->lines[k].metric, a->metric))
				b = &pr->lines[k];
		if (!b) {
			/* A line one calibration lacks is not pooled. */
			a->var = NAN;
			continue;
		}
		a->var = (acc->df * a->var + pr->df * b->var) / df;
		a->mean = (acc->nreps * a->mean + pr->nreps * b->mean) /
			  (double)(acc->nreps + pr->nreps);
		a->bursts += b->bursts;
	}
	acc->df = df;
	acc->nreps += pr->nreps;
}

int history_profile_load(struct history *h, const char *host,
			 const char *key, struct an_profile *out)
{
	sqlite3_stmt *st = NULL;
	size_t n = 0, i, k;
	int ret, rc;

	memset(out, 0, sizeof(*out));
	ret = history_prepare(h, "SELECT profile, created FROM noise_profiles "
			      "WHERE host = ?1 AND key = ?2 ORDER BY id", &st);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		cJSON *o = text ? cJSON_Parse(text) : NULL;
		struct an_profile pr;
		char what[PATH_MAX + 32];

		snprintf(what, sizeof(what), "%s: noise profile", h->path);
		ret = o ? an_profile_from_json(what, o, &pr) : -EINVAL;
		cJSON_Delete(o);
		if (ret)
			break;
		if (!n++) {
			*out = pr;
		} else {
			pool_into(out, &pr);
			an_profile_free(&pr);
		}
		snprintf(out->origin, sizeof(out->origin), "%s, %zu "
			 "calibration%s to %s, %zu repetitions", host, n,
			 n == 1 ? "" : "s",
			 (const char *)sqlite3_column_text(st, 1), out->nreps);
	}
	sqlite3_finalize(st);
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	/* Lines not every calibration had are left out. */
	for (i = k = 0; !ret && i < out->nlines; i++)
		if (!isnan(out->lines[i].var))
			out->lines[k++] = out->lines[i];
	out->nlines = k;
	if (ret) {
		an_profile_free(out);
		return ret;
	}
	return n ? 0 : 1;
}
