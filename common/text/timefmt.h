/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time as rtgate writes it: the UTC ISO-8601 stamp that manifests, the
 * history, lock and state files hold ("2026-11-30T19:41:00Z", read back by
 * parse_utc_time()), and the compact stamp that starts the name of a run's
 * or a lab boot's folder ("20261130-194100").
 */
#ifndef RTGATE_TIMEFMT_H
#define RTGATE_TIMEFMT_H

#include <stddef.h>
#include <time.h>

/* Bytes an ISO-8601 stamp needs, with its NUL. */
#define TIMEFMT_ISO8601_LEN	21

/* "2026-11-30T19:41:00Z" for @t into buf (TIMEFMT_ISO8601_LEN bytes). */
void timefmt_iso8601(time_t t, char *buf, size_t len);
/* The same for now. */
void timefmt_iso8601_now(char *buf, size_t len);
/* "20261130-194100" (UTC) for @t into buf (at least 16 bytes). */
void timefmt_compact(time_t t, char *buf, size_t len);

#endif
