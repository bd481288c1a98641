// SPDX-License-Identifier: GPL-2.0-only
/* The lab's clocks (lab.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jsonio.h"
#include "lab_priv.h"
#include "parse.h"
#include "rtpaths.h"

int lab_clock_parse(const char *arg, struct lab_clock *c)
{
	memset(c, 0, sizeof(*c));
	return cli_arg_clock(arg, &c->icount, &c->shift) ? -EINVAL : 0;
}

void lab_clock_name(const struct lab_clock *c, char *buf, size_t len)
{
	if (c->icount)
		rtpaths_fmt(buf, len, "icount:%u", c->shift);
	else
		rtpaths_fmt(buf, len, "host");
}

void lab_clock_qemu_arg(const struct lab_clock *c, char *buf, size_t len)
{
	/* sleep=off needs a fixed shift (QEMU refuses it with shift=auto). */
	rtpaths_fmt(buf, len, "shift=%u,align=off,sleep=off", c->shift);
}

void lab_clock_statement(const struct lab_clock *c, char *buf, size_t len)
{
	if (c->icount)
		rtpaths_fmt(buf, len, "virtual microseconds at a fixed "
			    "instruction rate (icount shift %u, %u ns an "
			    "instruction): comparable between kernels "
			    "measured the same way, never with bare metal",
			    c->shift, 1u << c->shift);
	else
		rtpaths_fmt(buf, len, "host clock: the guest's time is the "
			    "host's, so the host's pauses are in the "
			    "latencies (milliseconds under TCG)");
}

struct cJSON *lab_clock_json(const struct lab_clock *c)
{
	cJSON *o = cJSON_CreateObject();
	char buf[320];

	lab_clock_name(c, buf, sizeof(buf));
	cJSON_AddStringToObject(o, "name", buf);
	cJSON_AddStringToObject(o, "kind", c->icount ? "icount" : "host");
	if (c->icount) {
		cJSON_AddNumberToObject(o, "shift", c->shift);
		cJSON_AddNumberToObject(o, "ns_per_insn", 1u << c->shift);
		cJSON_AddStringToObject(o, "unit", "virtual us");
	} else {
		cJSON_AddStringToObject(o, "unit", "us");
	}
	lab_clock_statement(c, buf, sizeof(buf));
	cJSON_AddStringToObject(o, "statement", buf);
	return o;
}

/*
 * What the guest boots with under icount, each word unless the user's
 * --append sets one of its keys itself:
 * - nohz=off skew_tick=1: a periodic tick, the CPUs' ticks apart
 *   (docs/kernels.md, "Ticks that coincide");
 * - nowatchdog: no lockup detectors. The soft one's hrtimer queues
 *   softlockup_fn on every CPU's stopper (migration/N, SCHED_FIFO 99)
 *   every 4 s, ahead of any measured thread, at a fixed phase to a
 *   cyclictest interval: a repetition whose phase meets it has 2-3
 *   wake-ups 10-30 virtual us late (docs/kernels.md, "The silent lab").
 */
static const struct quiet_word {
	const char *word;
	const char *keys[4];
} quiet[] = {
	{ "nohz=off", { "nohz" } },
	{ "skew_tick=1", { "skew_tick" } },
	{ "nowatchdog", { "nowatchdog", "nosoftlockup", "watchdog_thresh",
			  "nmi_watchdog" } },
};

static bool user_sets(const char *user, const struct quiet_word *q)
{
	size_t k;

	for (k = 0; k < sizeof(q->keys) / sizeof(q->keys[0]) && q->keys[k];
	     k++)
		if (parse_cmdline_find(user, q->keys[k], strlen(q->keys[k]),
				       PARSE_CMDLINE_KEY))
			return true;
	return false;
}

void lab_clock_guest_append(const struct lab_clock *c, const char *user,
			    char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; c->icount && i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		/* The user's own word for it stands. */
		if (user_sets(user, &quiet[i]))
			continue;
		at += snprintf(buf + at, at < len ? len - at : 0, "%s%s",
			       at ? " " : "", quiet[i].word);
	}
	if (user && *user)
		snprintf(buf + at, at < len ? len - at : 0, "%s%s",
			 at ? " " : "", user);
}
