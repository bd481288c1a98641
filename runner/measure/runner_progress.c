// SPDX-License-Identifier: GPL-2.0-only
/*
 * Progress on stdout (measure.h): a live status line on a terminal, plain
 * lines elsewhere.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/measure/measure.h"
#include "clocks.h"
#include "textfmt.h"

#define PROGRESS_TTY_PERIOD	0.25
#define PROGRESS_PLAIN_PERIOD	10.0

static void stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

static int columns(void)
{
	return text_columns(STDOUT_FILENO, 80);
}

void runner_progress_init(struct runner_progress *pg, size_t nr_steps,
			  double step_s)
{
	memset(pg, 0, sizeof(*pg));
	pg->tty = isatty(STDOUT_FILENO);
	pg->nr_steps = nr_steps;
	pg->step_s = step_s;
}

static void fmt_span(char *buf, size_t len, double s)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

/*
 * The current step's rest (its measurement, then its share of overhead),
 * then every step to come at the average wall time of the finished ones,
 * or at the expected measurement when none finished yet.
 */
const char *runner_progress_suite_left(const struct runner_progress *pg,
				       double now, char *buf, size_t len)
{
	double per, left, in_step;
	size_t after;

	buf[0] = '\0';
	if (!pg->nr_steps || pg->step < 1 || pg->step > pg->nr_steps)
		return buf;
	per = pg->done ? pg->done_s / pg->done : pg->step_s;
	if (per <= 0)
		return buf;
	after = pg->nr_steps - pg->step;
	if (pg->step_start <= 0) {
		left = after * per;	/* between steps */
	} else {
		in_step = now - pg->step_start;
		left = per - in_step;
		if (pg->end > now)
			left = fmax(left, pg->end - now);
		left = fmax(left, 0) + after * per;
	}
	buf[0] = '~';
	fmt_span(buf + 1, len - 1, left);
	return buf;
}

void runner_progress_clear(struct runner_progress *pg)
{
	if (pg->tty && pg->drawn)
		fputs("\r\033[K", stdout);
	pg->drawn = false;
	fflush(stdout);
}

/* "max CPU0 1013 us, CPU1 -" (cyclictest --smp: thread N on CPU N). */
static void maxima(const struct runner_progress *pg, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	if (!pg->nr_cpus)
		return;
	used = snprintf(buf, len, "max");
	for (i = 0; i < pg->nr_cpus && used + 24 < len; i++)
		used += pg->max_us[i] < 0 ?
			snprintf(buf + used, len - used, "%s CPU%d -",
				 i ? "," : "", i) :
			snprintf(buf + used, len - used, "%s CPU%d %ld us",
				 i ? "," : "", i, pg->max_us[i]);
}

static void draw(struct runner_progress *pg)
{
	char line[1024], max[512], left[32] = "", suite[32], when[64];
	double now = clocks_mono_s();
	int cols = columns();

	if (pg->held)
		return;
	maxima(pg, max, sizeof(max));
	if (pg->end > 0)
		fmt_span(left, sizeof(left), pg->end > now ? pg->end - now : 0);
	runner_progress_suite_left(pg, now, suite, sizeof(suite));
	snprintf(when, sizeof(when), "%s%s%s%s%s", left[0] ? left : "",
		 left[0] ? " left" : pg->tty ? "" : "running",
		 suite[0] ? " (suite " : "", suite, suite[0] ? ")" : "");
	if (pg->tty) {
		snprintf(line, sizeof(line), "%s  %s%s%s", pg->what, when,
			 max[0] ? "  " : "", max);
		if ((int)strlen(line) >= cols)
			line[cols - 1] = '\0';
		printf("\r\033[K%s", line);
		pg->drawn = true;
	} else {
		char ts[16];

		stamp(ts, sizeof(ts));
		printf("%s %s: %s%s%s\n", ts, pg->what, when,
		       max[0] ? ", " : "", max);
	}
	fflush(stdout);
	pg->last = now;
}

void runner_progress_rep_start(struct runner_progress *pg, size_t step,
			       const char *scenario, unsigned int rep,
			       unsigned int nr_reps)
{
	char ts[16];

	pg->step = step;
	pg->end = 0;
	pg->nr_cpus = 0;
	pg->step_start = clocks_mono_s();
	/* -1 (all bits set): no T: line from that CPU yet. */
	memset(pg->max_us, 0xff, sizeof(pg->max_us));
	snprintf(pg->what, sizeof(pg->what), "[%zu/%zu] %s rep %u/%u", step,
		 pg->nr_steps, scenario, rep, nr_reps);
	if (pg->tty) {
		runner_progress_clear(pg);
		printf("%s  starting", pg->what);
		pg->drawn = true;
		fflush(stdout);
		return;
	}
	stamp(ts, sizeof(ts));
	printf("%s %s: start\n", ts, pg->what);
	fflush(stdout);
}

void runner_progress_measure(struct runner_progress *pg, double seconds)
{
	pg->end = seconds > 0 ? clocks_mono_s() + seconds : 0;
	pg->last = clocks_mono_s();
	if (pg->tty)
		draw(pg);
}

void runner_progress_ctline(struct runner_progress *pg, const struct ctline *t)
{
	double period = pg->tty ? PROGRESS_TTY_PERIOD : PROGRESS_PLAIN_PERIOD;

	if (t->thread < PROGRESS_MAX_CPUS) {
		pg->max_us[t->thread] = t->max_us;
		if (t->thread >= pg->nr_cpus)
			pg->nr_cpus = t->thread + 1;
	}
	if (clocks_mono_s() - pg->last >= period)
		draw(pg);
}

void runner_progress_tick(struct runner_progress *pg)
{
	double period = pg->tty ? PROGRESS_TTY_PERIOD : PROGRESS_PLAIN_PERIOD;

	if (clocks_mono_s() - pg->last >= period)
		draw(pg);
}

/* "12:00:03 [2/9] hackbench rep 1/3: ok, max CPU0 1013 us, CPU1 772 us",
 * a reason wrapped beneath it, indented. */
void runner_progress_rep_end(struct runner_progress *pg, const char *status,
			     const char *reason)
{
	char max[512], ts[16] = "", suite[32];
	double now = clocks_mono_s();

	if (pg->step_start > 0) {
		pg->done_s += now - pg->step_start;
		pg->done++;
		pg->step_start = 0;
	}
	maxima(pg, max, sizeof(max));
	runner_progress_clear(pg);
	if (!pg->tty) {
		stamp(ts, sizeof(ts));
		strcat(ts, " ");
	}
	pg->end = 0;
	runner_progress_suite_left(pg, now, suite, sizeof(suite));
	printf("%s%s: %s%s%s%s%s%s\n", ts, pg->what, status,
	       max[0] ? ", " : "", max, suite[0] && pg->step < pg->nr_steps ?
	       "; suite " : "", suite[0] && pg->step < pg->nr_steps ? suite :
	       "", suite[0] && pg->step < pg->nr_steps ? " left" : "");
	if (reason && *reason)
		text_wrap(stdout, reason, (int)strlen(ts) + 4, columns());
	fflush(stdout);
}

void runner_progress_note(struct runner_progress *pg, const char *fmt, ...)
{
	char ts[16] = "", msg[2048];
	va_list ap;

	runner_progress_clear(pg);
	if (!pg->tty) {
		stamp(ts, sizeof(ts));
		strcat(ts, " ");
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs(ts, stdout);
	text_wrap_hanging(stdout, msg, (int)strlen(ts), (int)strlen(ts) + 4,
			  columns());
	fflush(stdout);
}
