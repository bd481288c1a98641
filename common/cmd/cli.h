/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtgate's command line, one mechanism for every command: glibc argp.
 * Each *_cmd.c keeps one option table (struct argp_option[]) and one
 * parser per command; this module adds what they all share:
 *
 *   --help (-?, and -h where the command has no -h of its own), --usage,
 *   --version (-V where free): printed on stdout, exit 0;
 *   a usage error: one line naming the option or word, "did you mean"
 *   when one is close, a pointer to --help, exit 3 (docs/exit-codes.md);
 *   subcommands (history import, lava job ...) dispatched by name.
 *
 *	static const struct argp_option opts[] = {
 *		{ "db", 'd', "FILE", 0, "the history database" },
 *		{ 0 }
 *	};
 *	static error_t parse(int key, char *arg, struct argp_state *st) ...
 *	static const struct argp argp = { opts, parse, "RUN_DIR", doc };
 *
 *	int ret = cli_parse("export kcidb", &argp, argc, argv, 0, &params);
 *	if (ret)
 *		return cli_exit(ret);
 *
 * The same --help text is what help2man turns into the man pages
 * (`make man`), so it is written for both.
 */
#ifndef RTGATE_CLI_H
#define RTGATE_CLI_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_DONE	1	/* --help, --usage or --version was printed */

/* Option groups a command's argp may have as children, at most. */
#define CLI_MAX_GROUPS	8

/*
 * Parses argv (argv[0]: the command word) for command @cmd ("compare",
 * "history import") with @argp, whose parser gets @input as state->input.
 * Option groups shared by several subcommands are argp children of each
 * subcommand's argp (struct argp_child, one table a group): their parsers
 * get @input too, and --help lists what that subcommand takes and nothing
 * else.
 * @flags are argp_parse() flags (ARGP_IN_ORDER ...). Returns 0 to go on,
 * CLI_DONE when help or the version was printed, -EINVAL after printing a
 * usage error.
 */
int cli_parse(const char *cmd, const struct argp *argp, int argc, char **argv,
	      unsigned int flags, void *input);
/* The exit code of a cli_parse() or cli_dispatch() result other than 0. */
int cli_exit(int parsed);

/*
 * A usage error found by a parser: prints "rtgate: error: CMD: MSG" and
 * the --help pointer once, returns EINVAL for the parser to return.
 */
error_t cli_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A parser's default: an argument where it takes none (ARGP_KEY_ARG) is
 * a usage error naming it; any other key is argp's (ARGP_ERR_UNKNOWN).
 *
 *	default:
 *		return cli_key_default(state, key, arg);
 */
error_t cli_key_default(const struct argp_state *state, int key,
			const char *arg);
/*
 * An option's number in MIN..MAX into *out, or the usage error
 * "--OPT: 'ARG' is not a number in MIN..MAX" and EINVAL.
 */
error_t cli_arg_number(const struct argp_state *state, const char *opt,
		       const char *arg, uint64_t min, uint64_t max,
		       uint64_t *out);
/*
 * An option's duration of 1 s or more (30s, 10m) into whole seconds, or
 * the usage error and EINVAL.
 */
error_t cli_arg_seconds(const struct argp_state *state, const char *opt,
			const char *arg, unsigned int *out_s);
/*
 * Options several commands share, each defined once here (its name, its
 * argument, its help, its check) as an argp option group: a command lists
 * the ones it takes among its argp's children, { &cli_db_argp }, and its
 * parser gets each, checked, under its key (case CLI_KEY_DB: p->db = arg).
 * A number's value: cli_shared_uint(arg).
 *
 *   --db FILE       the history database (history_resolve_db() defaults it)
 *   --db FILE       (cli_db_given_argp) a history database to read, none
 *                   unless given: export kcidb's verdicts against history
 *   --jobs N        make -jN, 1..256 (default: the CPU count)
 *   --repeat N      repetitions per scenario, 1..1000
 *   --clock CLOCK   host or icount[:SHIFT] (cli_arg_clock() reads it)
 *   --history-runs K, --reference GLOB (cli_history_argp)
 *                   the baseline a run is judged against in the history:
 *                   its last K runs (1..1000), on reference kernels
 *   --history K     (cli_history_k_argp) --history-runs' older spelling,
 *                   hidden: it warns and comes as CLI_KEY_HISTORY_RUNS
 *   -I, --intended SETTING  the runs may differ in SETTING; the command
 *                   checks it (an_like_intended_add())
 *   --src TREE, --debian SERIES (cli_tree_argp)
 *                   the kernel tree: a folder, or Debian's
 *                   linux-source-SERIES (kernel_tree_open() takes them;
 *                   the default series is the command's, in its --help)
 *   -o, --output FILE  where the command writes its one file (default:
 *                   standard output)
 */
enum {
	CLI_KEY_DB = 0x1201,
	CLI_KEY_JOBS,
	CLI_KEY_REPEAT,
	CLI_KEY_CLOCK,
	CLI_KEY_HISTORY_RUNS,
	CLI_KEY_REFERENCE,
	CLI_KEY_HISTORY_K,
	CLI_KEY_SRC,
	CLI_KEY_DEBIAN,
	CLI_KEY_INTENDED = 'I',
	CLI_KEY_OUTPUT = 'o',
};
extern const struct argp cli_db_argp;
extern const struct argp cli_db_given_argp;
extern const struct argp cli_jobs_argp;
extern const struct argp cli_repeat_argp;
extern const struct argp cli_clock_argp;
extern const struct argp cli_history_argp;
extern const struct argp cli_history_k_argp;
extern const struct argp cli_intended_argp;
extern const struct argp cli_tree_argp;
extern const struct argp cli_output_argp;
/* A shared option's number, as its group checked it. */
unsigned int cli_shared_uint(const char *arg);

#define CLI_ICOUNT_SHIFT_MAX		10	/* QEMU's limit */
#define CLI_ICOUNT_SHIFT_DEFAULT	3
/*
 * --clock's words: "host" (or NULL), "icount" (SHIFT 3) or "icount:SHIFT"
 * (0..CLI_ICOUNT_SHIFT_MAX). Returns 0, or EINVAL for anything else.
 */
error_t cli_arg_clock(const char *arg, bool *icount, unsigned int *shift);

/* The same outside a parser (after cli_parse): returns -EINVAL. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The closest of @names to @word, NULL when none is close. */
const char *cli_nearest(const char *word, const char *const *names, size_t n);

struct cli_sub {
	const char *name;
	const char *args;	/* its synopsis: "[--db FILE] RUN_DIR..." */
	const char *summary;	/* one line */
	int (*fn)(int argc, char **argv);	/* argv[0]: the subcommand */
};

/*
 * `rtgate CMD SUB ...`: runs the subcommand named by argv[1]; --help,
 * --version and a missing or unknown (did you mean) subcommand are
 * answered here. @doc describes the command. Returns the exit code.
 */
int cli_dispatch(const char *cmd, const char *doc, const struct cli_sub *subs,
		 size_t n, int argc, char **argv);

/* Prints the usage of a command that has subcommands, for `rtgate help`. */
void cli_subs_help(FILE *f, const char *cmd, const char *doc,
		   const struct cli_sub *subs, size_t n);

#endif
