/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the export/ files; not part of the contract. */
#ifndef RTGATE_EXPORT_PRIV_H
#define RTGATE_EXPORT_PRIV_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "history/history.h"
#include "jsonio.h"

/*
 * Reads a results directory into an in-memory history database (or into
 * the history database @db, where verdicts against history are kept): the
 * one reader of results directories, shared with `history import`. On success
 * the caller closes @h and deletes *manifest.
 */
int export_load_run(const char *run_dir, const char *db, struct history *h,
		    struct history_run *run, cJSON **manifest);

/*
 * Whose comparison verdict row @name is: scenario @scen's own (""), one
 * of its further sides (".irq"), or not (NULL). Both exports file a
 * side's verdict under its scenario.
 */
const char *export_side_of(const char *name, const char *scen);

/* The kernel tree a run measured (export_identity.c, docs/exports.md). */
struct export_identity {
	char kind[8];			/* git | debian | release */
	char key[200];			/* checkout id after "ORIGIN:" */
	char git_url[512];		/* "" unknown */
	char git_commit[72];		/* 40 or 64 hex, "" unknown */
	char debian_version[64];	/* Debian's source "linux", "" */
	char version[64];		/* the tree's kernelversion, "" */
	char release[128];		/* uname -r */
	bool built;			/* by rtgate kernel build */
	bool patchset_known;		/* patchset_hash is meaningful */
	char patchset_hash[65];		/* "" for no patches */
	unsigned int npatches;
	char patch_sets[256];		/* "set+set" */
	char config_name[512];		/* defconfig+fragment+..., "" */
};

/*
 * Reads what identifies the run's tree from its manifest and lab.json
 * (when the run came from the lab); @git_url and @git_commit (NULL: none)
 * say what the records do not. -EINVAL (named on stderr) for a malformed
 * lab.json.
 */
int export_identity_read(const char *run_dir, const cJSON *manifest,
			 const char *git_url, const char *git_commit,
			 struct export_identity *id);

#endif
