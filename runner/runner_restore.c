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

#include "cli.h"
#include "exitcode.h"
#include "log.h"
#include "runner/runner.h"
#include "runner/machine/machine.h"

static error_t restore_parse(int key, char *arg, struct argp_state *state)
{
	if (key == ARGP_KEY_ARG)
		return cli_error(state, "restore takes no arguments ('%s')",
				 arg);
	return ARGP_ERR_UNKNOWN;
}

static const struct argp restore_argp = {
	NULL, restore_parse, NULL,
	"Restores what a killed run left changed: the tunables and the "
	"processes recorded in the state directory ($RTGATE_STATE_DIR, "
	"default " STATE_DEFAULT_DIR "). Every rtgate run does it at its "
	"start, and says so; this does it by hand (as root).",
	NULL, NULL, NULL
};

int runner_cmd_restore(int argc, char **argv)
{
	struct runner_state st;
	int ret;

	ret = cli_parse("restore", &restore_argp, argc, argv, 0, NULL);
	if (ret)
		return cli_exit(ret);
	if (geteuid() != 0) {
		pr_err("rtgate restore needs root (it writes kernel tunables)");
		return EXITCODE_ENVIRONMENT;
	}
	/* Acquiring restores a dead run's state, and says so. */
	ret = runner_state_acquire(&st, runner_state_dir_default(), STATE_LOCK_WAIT_S,
				   "restore", "rtgate restore");
	if (ret)
		return EXITCODE_ENVIRONMENT;
	runner_state_release(&st);
	if (st.restored)
		printf("%s: restored what the dead run left (see above)\n",
		       st.dir);
	else
		printf("%s: nothing to restore\n", st.dir);
	return EXITCODE_PASS;
}
