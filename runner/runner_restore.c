// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate restore`: undo what a dead run left (tunables, processes,
 * cgroups), from its state file. Runs start by doing the same; this is for
 * the machine that will not run rtgate again soon.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "log.h"
#include "runner.h"
#include "runner_state.h"

int cmd_restore(int argc, char **argv)
{
	struct state st;
	int ret;

	(void)argv;
	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			printf("usage: rtgate restore\n\nRestores what a "
			       "killed run left changed (state in "
			       "$RTGATE_STATE_DIR, default %s).\n",
			       STATE_DEFAULT_DIR);
			return EXIT_PASS;
		}
		pr_err("restore takes no arguments");
		return EXIT_BAD_INPUT;
	}
	if (geteuid() != 0) {
		pr_err("rtgate restore needs root (it writes kernel tunables)");
		return EXIT_ENVIRONMENT;
	}
	/* Acquiring restores a dead run's state, and says so. */
	ret = state_acquire(&st, state_dir_default(), STATE_LOCK_WAIT_S,
			    "restore", "rtgate restore");
	if (ret)
		return EXIT_ENVIRONMENT;
	state_release(&st);
	if (st.restored)
		printf("%s: restored what the dead run left (see above)\n",
		       st.dir);
	else
		printf("%s: nothing to restore\n", st.dir);
	return EXIT_PASS;
}
