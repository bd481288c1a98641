// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "runner_progress.h"
#include "runner_util.h"

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
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

void progress_init(struct progress *pg, size_t nr_steps)
{
	memset(pg, 0, sizeof(*pg));
	pg->tty = isatty(STDOUT_FILENO);
	pg->nr_steps = nr_steps;
}

void progress_clear(struct progress *pg)
{
	if (pg->tty && pg->drawn)
		fputs("\r\033[K", stdout);
	pg->drawn = false;
	fflush(stdout);
}

static void maxima(const struct progress *pg, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < pg->nr_cpus && used + 8 < len; i++)
		used += pg->max_us[i] < 0 ?
			snprintf(buf + used, len - used, " -") :
			snprintf(buf + used, len - used, " %ld",
				 pg->max_us[i]);
}

static void draw(struct progress *pg)
{
	char line[512], max[256], left[32] = "";
	double now = mono_now();
	int cols = columns();

	maxima(pg, max, sizeof(max));
	if (pg->end > 0)
		snprintf(left, sizeof(left), "%.0fs left",
			 pg->end > now ? pg->end - now : 0);
	if (pg->tty) {
		snprintf(line, sizeof(line), "%s  %s%s%s", pg->what, left,
			 pg->nr_cpus ? "  max us:" : "", max);
		if ((int)strlen(line) >= cols)
			line[cols - 1] = '\0';
		printf("\r\033[K%s", line);
		pg->drawn = true;
	} else {
		char ts[16];

		stamp(ts, sizeof(ts));
		printf("%s %s: %s%s%s\n", ts, pg->what,
		       left[0] ? left : "running", pg->nr_cpus ?
		       ", max us:" : "", max);
	}
	fflush(stdout);
	pg->last = now;
}

void progress_rep_start(struct progress *pg, size_t step,
			const char *scenario, unsigned int rep,
			unsigned int nr_reps)
{
	char ts[16];

	pg->step = step;
	pg->end = 0;
	pg->nr_cpus = 0;
	/* -1 (all bits set): no T: line from that CPU yet. */
	memset(pg->max_us, 0xff, sizeof(pg->max_us));
	snprintf(pg->what, sizeof(pg->what), "[%zu/%zu] %s rep %u/%u", step,
		 pg->nr_steps, scenario, rep, nr_reps);
	if (pg->tty) {
		progress_clear(pg);
		printf("%s  starting", pg->what);
		pg->drawn = true;
		fflush(stdout);
		return;
	}
	stamp(ts, sizeof(ts));
	printf("%s %s: start\n", ts, pg->what);
	fflush(stdout);
}

void progress_measure(struct progress *pg, double seconds)
{
	pg->end = seconds > 0 ? mono_now() + seconds : 0;
	pg->last = mono_now();
	if (pg->tty)
		draw(pg);
}

void progress_ctline(struct progress *pg, const struct ctline *t)
{
	double period = pg->tty ? PROGRESS_TTY_PERIOD : PROGRESS_PLAIN_PERIOD;

	if (t->thread < PROGRESS_MAX_CPUS) {
		pg->max_us[t->thread] = t->max_us;
		if (t->thread >= pg->nr_cpus)
			pg->nr_cpus = t->thread + 1;
	}
	if (mono_now() - pg->last >= period)
		draw(pg);
}

void progress_tick(struct progress *pg)
{
	double period = pg->tty ? PROGRESS_TTY_PERIOD : PROGRESS_PLAIN_PERIOD;

	if (mono_now() - pg->last >= period)
		draw(pg);
}

void progress_rep_end(struct progress *pg, const char *status,
		      const char *reason)
{
	char max[256], ts[16] = "";

	maxima(pg, max, sizeof(max));
	progress_clear(pg);
	if (!pg->tty) {
		stamp(ts, sizeof(ts));
		strcat(ts, " ");
	}
	printf("%s%s: %s%s%s%s%s\n", ts, pg->what, status,
	       reason ? ": " : "", reason ? reason : "",
	       pg->nr_cpus ? ", max us:" : "", max);
	fflush(stdout);
}

void progress_note(struct progress *pg, const char *fmt, ...)
{
	char ts[16];
	va_list ap;

	progress_clear(pg);
	if (!pg->tty) {
		stamp(ts, sizeof(ts));
		printf("%s ", ts);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}
