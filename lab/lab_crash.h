/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest that crashed is a result (docs/kernels.md, "A guest crash"):
 * what the console says (the oops or panic, quoted), what the runner was
 * doing (the scenario and repetition its last progress line started, the
 * tunables that scenario sets), written as crash.json and crash.txt, a
 * "guest crash" section in report.txt/md and an <error> testcase in
 * junit.xml, so that CI shows the crash by name and not only "exit 5".
 */
#ifndef RTGATE_LAB_CRASH_H
#define RTGATE_LAB_CRASH_H

#include <stdbool.h>
#include <cjson/cJSON.h>

struct lab_crash {
	char kind[16];		/* "panic", "oops", "hang" */
	char headline[256];	/* the first line of the oops, or the panic */
	char *oops;		/* the quoted console lines, or NULL */
	char step[160];		/* "[7/10] hrtick rep 4/5", or "" */
	char scenario[128];
	unsigned int rep, reps;
	bool step_ended;	/* the runner said how that step ended */
	cJSON *tunables;	/* the scenario's (from the manifest), or NULL */
};

/*
 * Reads the console log; returns true when it shows a crash (an oops,
 * BUG or panic), or @hung (QEMU timed out) is set, with @c filled.
 */
bool lab_crash_read(const char *console, bool hung, struct lab_crash *c);

/* The scenario's tunables from a results directory's manifest. */
void lab_crash_tunables(struct lab_crash *c, const char *run_dir);

/* crash.json and the report lines as a JSON object (caller frees). */
cJSON *lab_crash_json(const struct lab_crash *c);

/*
 * Writes crash.json and crash.txt into @dir, appends the crash to
 * report.txt/report.md and adds a testcase to junit.xml there (creating
 * a junit.xml of its own when there is none). 0 or -errno.
 */
int lab_crash_write(const struct lab_crash *c, const char *dir,
		    const char *kernel);

/*
 * lab_crash_junit.c: the crash as an error testcase in @dir/junit.xml,
 * the analyzer's (its suite's counts raised) or one of its own; valid
 * against Ant's JUnit schema as the analyzer's is. @text: crash.txt's;
 * @where: "during scenario S, repetition R of N" or the like.
 */
int lab_crash_junit(const struct lab_crash *c, const char *dir,
		    const char *kernel, const char *text, const char *where);

void lab_crash_free(struct lab_crash *c);

#endif
