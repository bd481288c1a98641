/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `rtgate reproduce SEED`: one seed thread's experiment, end to end, on
 * the tree it was written for (docs/reproducing.md). The seed's kernels
 * are built from one tree with one set of fragments (so ccache serves
 * what they share), each is booted in the QEMU lab in virtual time, the
 * seed's suite runs inside, and the thread's own judgement is made:
 *
 *   kernels    base A, patched B, base A2, a fresh boot each, then
 *              `rtgate compare A B A2`: the thread's A/B/A table, the
 *              published numbers beside the measured ones (000, 001, 003)
 *   scenarios  one kernel per model and the suite's own comparisons
 *              (004: grants against the same threads without requests)
 *
 * Everything lands in RESULTS/reproduce-SEED-TIME/: the runs, the
 * comparisons, and one table (reproduce.txt, .md, .json) of published,
 * measured, verdict, expected, grants, wall time and the command.
 *
 *	struct reproduce_params p = { .seed = "004", .src = TREE };
 *	struct reproduce_result r;
 *
 *	if (!reproduce_run(&p, &r))
 *		return r.exit_code;
 */
#ifndef RTGATE_REPRODUCE_H
#define RTGATE_REPRODUCE_H

#include <limits.h>
#include <stdbool.h>

#define REPRODUCE_MAX_MODELS 2
#define REPRODUCE_MAX_ROWS 6

enum reproduce_kind {
	REPRODUCE_KERNELS,	/* base against patched, A/B/A */
	REPRODUCE_SCENARIOS,	/* one kernel, the suite's comparisons */
};

/* One published number pair the table prints beside the measured one. */
struct reproduce_row {
	const char *model;	/* the model it is judged on; NULL: each */
	const char *scenario;	/* the suite's scenario */
	const char *metric;	/* as the analyzer names the line */
	const char *unit;
	double before, after;	/* published: base (or off) and patched */
	const char *expect;	/* the verdict the thread's numbers mean */
};

struct reproduce_seed {
	const char *id;			/* "000" */
	const char *title;
	const char *source;		/* who measured, where */
	const char *series;		/* the base tree: "7.3" */
	const char *suite;
	const char *set;		/* the seed's patch set; NULL: none */
	enum reproduce_kind kind;
	const char *models[REPRODUCE_MAX_MODELS];
	/* models[i]'s own suite, where it needs another layout; NULL: .suite */
	const char *model_suites[REPRODUCE_MAX_MODELS];
	const char *fragments;		/* beside the lab's defaults */
	/* models[i]'s own fragments, after .fragments; NULL: none */
	const char *model_fragments[REPRODUCE_MAX_MODELS];
	const char *scale;		/* --duration-scale of the runs */
	/* repetitions a scenario a boot that decide its table; 0: the suite's */
	unsigned int repeat;
	const char *clock;		/* the lab's clock: icount:SHIFT */
	const char *note;		/* what the lab can and cannot show */
	struct reproduce_row rows[REPRODUCE_MAX_ROWS];
};

/* The seeds, terminated by an entry with id NULL. */
extern const struct reproduce_seed reproduce_seeds[];

/**
 * reproduce_seed_find() - a seed by its id
 * @id: "000", "4" and "004" alike
 *
 * Return: the seed, or NULL for an id of none.
 */
const struct reproduce_seed *reproduce_seed_find(const char *id);

/**
 * reproduce_seed_suite() - the suite a seed runs on one of its models
 * @s: the seed
 * @model: one of its models ("full", "rt")
 *
 * Return: the model's own suite if it has one, else the seed's; NULL for
 * a model the seed is not judged on.
 */
const char *reproduce_seed_suite(const struct reproduce_seed *s,
				 const char *model);

/**
 * reproduce_seed_suites() - the suites a seed's models run, as one label
 * @s: the seed
 * @only_model: the one model run (--model), or NULL: every model
 * @buf: gets the suite's name when those models share it, else
 *       "A (full), B (rt)"
 * @len: its size
 *
 * What `reproduce --list` and reproduce.json's "suite" say.
 *
 * Return: true when the models share one suite.
 */
bool reproduce_seed_suites(const struct reproduce_seed *s,
			   const char *only_model, char *buf, size_t len);

/**
 * reproduce_seed_fragments() - the fragments a seed's kernel of one model
 *                              is built with
 * @s: the seed
 * @model: one of its models
 * @buf: gets "rseq,hrtick" and the model's own after them
 * @len: its size
 *
 * What the build is given beside the lab's defaults, and what a kernel
 * built earlier must have been built with to be used as it is.
 */
void reproduce_seed_fragments(const struct reproduce_seed *s,
			      const char *model, char *buf, size_t len);

struct reproduce_params {
	const char *seed;
	const char *src;		/* --src TREE, else --debian */
	const char *debian;		/* linux-source-SERIES (the seed's) */
	const char *clock;		/* lab --clock; NULL: the seed's */
	const char *scale;		/* overrides the seed's */
	unsigned int repeat;		/* 0: the suite's */
	const char *only_model;		/* one of the seed's models */
	int jobs;			/* make -j; 0: nproc */
	unsigned int timeout_s;		/* one boot */
	bool verbose;
	const char *results_dir;	/* results/ */
	const char *command;		/* as typed, for the table */
};

struct reproduce_result {
	int exit_code;			/* docs/exit-codes.md */
	char dir[PATH_MAX];		/* RESULTS/reproduce-SEED-TIME */
};

/**
 * reproduce_run() - a seed's experiment, end to end
 * @p: the seed, the tree, and what overrides the seed's clock, scale,
 *     repetitions and models
 * @r: filled: the exit code and RESULTS/reproduce-SEED-TIME
 *
 * Return: 0 with @r filled (its exit code says how the runs went);
 * -EINVAL for an unknown seed or bad parameters; -errno when its folder
 * cannot be made.
 */
int reproduce_run(const struct reproduce_params *p,
		  struct reproduce_result *r);

/**
 * reproduce_table_write() - a reproduction's table, rebuilt from disk
 * @dir: the reproduction's folder: its reproduce.json (written by
 *       reproduce_run()) and the reports it names
 * @rerender: `reproduce --table`: a report it names that cannot be read
 *            leaves the table as it was
 *
 * @exit_code: when not NULL, gets the reproduction's exit code, as
 *             `rtgate reproduce` gave it: its models' worst (a model
 *             without one counts as incomplete)
 *
 * Return: 0; -EINVAL (said) for a reproduce.json that cannot be read;
 * -ENOENT (said) under @rerender for a report that cannot; -errno when a
 * table cannot be written.
 */
int reproduce_table_write(const char *dir, bool rerender, int *exit_code);

/**
 * reproduce_cmd_reproduce() - `rtgate reproduce SEED`
 * @argc: the number of arguments
 * @argv: "reproduce", the seed and options (docs/reproducing.md)
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int reproduce_cmd_reproduce(int argc, char **argv);

#endif
