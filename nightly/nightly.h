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

/**
 * nightly_config_load() - the nightly's configuration
 * @cfg: filled: the file's settings, then defaults from the environment
 *       ($RTGATE_RESULTS_DIR, $RTGATE_STATE_DIR) and the built-in ones
 *       (the quick suite when the file names none)
 * @file: the INI file (docs/nightly.md); NULL: none
 *
 * Return: 0, or -EINVAL after a message naming the file and the line.
 */
int nightly_config_load(struct nightly_config *cfg, const char *file);

/**
 * nightly_config_print() - what the nightly will do, for --check
 * @cfg: the configuration
 * @f: where
 *
 * Return: EXITCODE_PASS.
 */
int nightly_config_print(const struct nightly_config *cfg, FILE *f);

/**
 * nightly_lock() - takes the lock that keeps two nightlies apart
 * @path: a file held with flock(2) for the whole nightly; it holds the
 *        owner's pid and start time for the message a second nightly
 *        prints; its folder is created
 * @fd: gets the file's descriptor, -1 when not taken
 *
 * Return: 0; -EBUSY (another nightly holds it, said with its owner);
 * -errno after a message.
 */
int nightly_lock(const char *path, int *fd);
/**
 * nightly_unlock() - lets the lock go
 * @fd: from nightly_lock(); < 0 does nothing
 * @path: the lock's file, for a message; it is emptied, never removed (a
 *        waiter holding the old inode would lock a ghost)
 */
void nightly_unlock(int fd, const char *path);

struct nightly_dashboard_params {
	const char *database;
	const char *out_dir;		/* index.html and SVGs go here */
	const char *report_url;		/* URL of results/; NULL: files */
	unsigned int history;		/* K, for nights not judged yet */
	const char *reference;
	const char *intended;		/* history_judge_params.intended */
};

/**
 * nightly_dashboard_build() - writes the dashboard from the history
 * @p: the database, where index.html and its SVGs go, the report links,
 *     and how nights not judged yet are judged (they are, and stored)
 *
 * index.html is written whole or not at all.
 *
 * Return: 0; -ENOENT (said) when there is no database; -errno after a
 * message.
 */
int nightly_dashboard_build(const struct nightly_dashboard_params *p);

/**
 * nightly_cmd_nightly() - `rtgate nightly`
 * @argc: the number of arguments
 * @argv: "nightly" and its options (docs/nightly.md)
 *
 * Runs the configured suites (or collects what a lab sent), stores them,
 * judges every scenario against its history and writes the summary.
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int nightly_cmd_nightly(int argc, char **argv);
/**
 * nightly_cmd_dashboard() - `rtgate dashboard`
 * @argc: the number of arguments
 * @argv: "dashboard" and its options
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int nightly_cmd_dashboard(int argc, char **argv);

#endif
