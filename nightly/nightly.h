/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The nightly: run the configured suites (or collect results a lab sent),
 * store them, judge every scenario against its own history, write one
 * summary (text for mail, HTML for the web), exit with the gate's code.
 * A lock keeps two nightlies from ever running at once. docs/nightly.md.
 *
 * The dashboard (static HTML + gnuplot SVG from the history database)
 * lives here too: the nightly refreshes it, `rtgate dashboard` builds it.
 */
#ifndef RTGATE_NIGHTLY_H
#define RTGATE_NIGHTLY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NIGHTLY_MAX_SUITES	32

struct nightly_suite {
	char name[128];
	char file[PATH_MAX];		/* suite file; "" = suites/NAME.suite */
	char args[1024];		/* extra `rtgate run` arguments */
	char import[PATH_MAX];		/* collect runs from here, not run */
};

#define NIGHTLY_MAX_BOARDS	16
#define NIGHTLY_MAX_KERNELS	8

/* A board of a LAVA lab: [board NAME], NAME its device tag. */
struct nightly_board {
	char name[128];
	char device_type[64];		/* "" = [lava] device_type */
};

/* A kernel the boards boot: [kernel NAME]. */
struct nightly_kernel {
	char name[128];
	char url[512];
	char ramdisk[512];		/* "" = [lava] ramdisk */
	char boards[1024];		/* space-separated; "" = every board */
};

/* [lava]: the suites run on the boards through a LAVA server. */
struct nightly_lava {
	char url[512];			/* "" = no LAVA (run here) */
	char token_file[PATH_MAX];	/* "" = $RTGATE_LAVA_TOKEN(_FILE) */
	char device_type[64];		/* default qemu */
	char ramdisk[512];		/* the image with rtgate inside */
	char kernel_args[512];
	char prompt[64];
	unsigned int budget_s;		/* wait at most (default 2 h) */
	unsigned int poll_s;
	unsigned int timeout_min;	/* each job's (default 60) */
	struct nightly_board boards[NIGHTLY_MAX_BOARDS];
	size_t nr_boards;
	struct nightly_kernel kernels[NIGHTLY_MAX_KERNELS];
	size_t nr_kernels;
};

/* One params struct for the command, filled from the file and options. */
struct nightly_config {
	char path[PATH_MAX];		/* the config file ("" = none) */
	char results[PATH_MAX];
	char database[PATH_MAX];
	char summary[PATH_MAX];		/* where summaries go */
	char lock[PATH_MAX];
	char dashboard[PATH_MAX];	/* "" = do not refresh one */
	char reference[256];		/* glob on kernel release; "" = any */
	char intended[512];		/* settings a night may differ in from
					 * its history (like with like) */
	char report_url[512];		/* base URL of results/, for links */
	char rtgate[PATH_MAX];		/* the rtgate that runs suites */
	unsigned int history;		/* K */
	bool gate_run;			/* the runs' own verdicts count too */
	struct nightly_suite suites[NIGHTLY_MAX_SUITES];
	size_t nr_suites;
	struct nightly_lava lava;	/* docs/nightly.md, "Many boards" */
};

/* Defaults from the environment, then the file (if any). 0 or -EINVAL. */
int nightly_config_load(struct nightly_config *cfg, const char *file);

/* What the nightly will do, for --check. Returns EXIT_PASS. */
int nightly_config_print(const struct nightly_config *cfg, FILE *f);

/*
 * The lock: a file held with flock(2) for the whole nightly; it holds the
 * owner's pid and start time for the message a second nightly prints.
 * Returns 0, -EBUSY (another nightly holds it) or -errno.
 */
int nightly_lock(const char *path, int *fd);
void nightly_unlock(int fd, const char *path);

struct nightly_dashboard_params {
	const char *database;
	const char *out_dir;		/* index.html and SVGs go here */
	const char *report_url;		/* URL of results/; NULL: files */
	unsigned int history;		/* K, for nights not judged yet */
	const char *reference;
	const char *intended;		/* history_judge_params.intended */
};

int nightly_dashboard_build(const struct nightly_dashboard_params *p);

int nightly_cmd_nightly(int argc, char **argv);
int nightly_cmd_dashboard(int argc, char **argv);

#endif
