// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared half of every command's argp parser (cli.h): the common
 * options, usage errors with "did you mean", and subcommand dispatch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "textfmt.h"

#define KEY_USAGE	0x1101
#define KEY_VERSION	0x1102
#define MAX_NAMES	256

struct cli_ctx {
	const char *cmd;
	char prog[160];			/* "rtgate compare" */
	const struct argp *cmd_argp;
	void *input;
	size_t nchildren;		/* the command and its option groups */
	bool done;			/* help or version printed */
	bool reported;			/* an error was printed */
	bool h_free, v_free;		/* -h and -V are ours to take */
	const char *names[MAX_NAMES];	/* every long option, for hints */
	int has_arg[MAX_NAMES];		/* 0 none, 1 required, 2 optional */
	size_t nnames;
};

static struct cli_ctx *cli_current;

static const char *version_line(void)
{
	return "rtgate " RTGATE_VERSION;
}

/* ---- names and distances ---- */

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64], prev, tmp;

	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev :
				 1 + (prev < row[j] ? (prev < row[j - 1] ?
				 prev : row[j - 1]) : (row[j] < row[j - 1] ?
				 row[j] : row[j - 1]));
			prev = tmp;
		}
	}
	return row[lb];
}

const char *cli_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t i, d, bd = (size_t)-1, len = strlen(word);
	size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;

	for (i = 0; i < n; i++) {
		if (!names[i])
			continue;
		d = edit_distance(word, names[i]);
		/* A word that starts a name, or a name that starts it. */
		if (len >= 3 && (!strncmp(word, names[i], len) ||
				 !strncmp(names[i], word, strlen(names[i]))))
			d = d < 1 ? d : 1;
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return bd <= limit ? best : NULL;
}

static void collect(struct cli_ctx *c, const struct argp *a)
{
	const struct argp_option *o;
	const struct argp_child *ch;
	int last_arg = 0;

	for (o = a->options; o && (o->name || o->key || o->doc); o++) {
		if (o->flags & OPTION_DOC)
			continue;
		if (!(o->flags & OPTION_ALIAS))
			last_arg = !o->arg ? 0 : (o->flags & OPTION_ARG_OPTIONAL) ?
				   2 : 1;
		if (o->key == 'h')
			c->h_free = false;
		if (o->key == 'V')
			c->v_free = false;
		if (o->name && c->nnames < MAX_NAMES) {
			c->has_arg[c->nnames] = last_arg;
			c->names[c->nnames++] = o->name;
		}
	}
	for (ch = a->children; ch && ch->argp; ch++)
		collect(c, ch->argp);
}

/* The short option @key of the command, its argument need (-1: none). */
static int short_arg(const struct argp *a, int key)
{
	const struct argp_option *o;
	const struct argp_child *ch;
	int r;

	for (o = a->options; o && (o->name || o->key || o->doc); o++)
		if (o->key == key && !(o->flags & OPTION_DOC))
			return o->arg ? 1 : 0;
	for (ch = a->children; ch && ch->argp; ch++) {
		r = short_arg(ch->argp, key);
		if (r >= 0)
			return r;
	}
	return -1;
}

/* ---- messages ---- */

static void try_help(const struct cli_ctx *c)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", c->prog);
}

error_t cli_key_default(const struct argp_state *state, int key,
			const char *arg)
{
	if (key == ARGP_KEY_ARG)
		return cli_error(state, "unexpected argument '%s'", arg);
	return ARGP_ERR_UNKNOWN;
}

error_t cli_error(const struct argp_state *state, const char *fmt, ...)
{
	struct cli_ctx *c = cli_current;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: %s", c ? c->cmd : state ? state->name : "?", msg);
	if (c && !c->reported)
		try_help(c);
	if (c)
		c->reported = true;
	return EINVAL;
}

error_t cli_arg_number(const struct argp_state *state, const char *opt,
		       const char *arg, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	if (parse_u64_range(arg, min, max, out))
		return cli_error(state, "--%s: '%s' is not a number in "
				 "%llu..%llu", opt, arg,
				 (unsigned long long)min,
				 (unsigned long long)max);
	return 0;
}

error_t cli_arg_seconds(const struct argp_state *state, const char *opt,
			const char *arg, unsigned int *out_s)
{
	uint64_t ns;

	if (parse_duration_ns(arg, &ns) || ns < 1000000000ULL ||
	    ns / 1000000000ULL > UINT32_MAX)
		return cli_error(state, "--%s: '%s' is not a duration of 1s "
				 "or more (30s, 10m)", opt, arg);
	*out_s = ns / 1000000000ULL;
	return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: %s", cmd, msg);
	fprintf(stderr, "Try 'rtgate %s --help' for more information.\n", cmd);
	return -EINVAL;
}

/* What getopt refused, said with the option's name and a hint. */
static void report_bad_word(struct cli_ctx *c, const struct argp_state *st)
{
	const char *tok = st->next > 0 && st->next <= st->argc ?
			  st->argv[st->next - 1] : NULL;
	const char *near, *match = NULL;
	char name[128];
	size_t i, len, nmatch = 0;
	int key, arg = 0;

	if (!tok || tok[0] != '-' || !tok[1]) {
		if (st->next < st->argc)
			cli_error(st, "unexpected argument '%s'",
				  st->argv[st->next]);
		else
			cli_error(st, "unexpected argument");
		return;
	}
	if (tok[1] != '-') {
		key = (unsigned char)tok[strlen(tok) - 1];
		arg = short_arg(c->cmd_argp, key);
		if (arg > 0)
			cli_error(st, "option '-%c' requires an argument", key);
		else
			cli_error(st, "unrecognized option '-%c'", key);
		return;
	}
	len = strcspn(tok + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)len, tok + 2);
	for (i = 0; i < c->nnames; i++) {
		if (!strcmp(c->names[i], name)) {
			match = c->names[i];
			nmatch = 1;
			arg = c->has_arg[i];
			break;
		}
		if (!strncmp(c->names[i], name, len)) {
			match = c->names[i];
			arg = c->has_arg[i];
			nmatch++;
		}
	}
	if (nmatch == 1 && arg == 1 && !tok[2 + len]) {
		cli_error(st, "option '--%s' requires an argument", match);
	} else if (nmatch == 1 && !arg && tok[2 + len]) {
		cli_error(st, "option '--%s' takes no argument", match);
	} else if (nmatch > 1) {
		char list[256];
		size_t used = 0;

		for (i = 0; i < c->nnames && used < sizeof(list); i++)
			if (!strncmp(c->names[i], name, len))
				used += snprintf(list + used, sizeof(list) -
						 used, "%s--%s", used ? ", " :
						 "", c->names[i]);
		cli_error(st, "option '--%s' is ambiguous: %s", name, list);
	} else {
		near = cli_nearest(name, c->names, c->nnames);
		if (near)
			cli_error(st, "unrecognized option '--%s' (did you "
				  "mean '--%s'?)", name, near);
		else
			cli_error(st, "unrecognized option '--%s'", name);
	}
}

/* ---- the common options ---- */

static const struct argp_option common_opts[] = {
	{ "help", '?', NULL, 0, "give this help list", -1 },
	{ NULL, 'h', NULL, OPTION_ALIAS, NULL, 0 },
	{ "usage", KEY_USAGE, NULL, 0, "give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "print the program version", -1 },
	{ 0 }
};

/* The same without the short keys the command uses itself. */
static void common_table(const struct cli_ctx *c, struct argp_option *out)
{
	size_t i, n = 0;

	for (i = 0; common_opts[i].name || common_opts[i].key; i++) {
		struct argp_option o = common_opts[i];

		if (o.key == 'h' && !c->h_free)
			continue;
		if (o.key == 'V' && !c->v_free)
			o.key = KEY_VERSION;
		out[n++] = o;
	}
	memset(&out[n], 0, sizeof(out[n]));
}

static void print_help(struct cli_ctx *c, const struct argp *top,
		       unsigned int what)
{
	fflush(stdout);
	argp_help(top, stdout, what, c->prog);
	fflush(stdout);
	c->done = true;
}

static error_t top_parser(int key, char *arg, struct argp_state *state)
{
	struct cli_ctx *c = state->input;
	size_t i;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		for (i = 0; i < c->nchildren; i++)
			state->child_inputs[i] = c->input;
		return 0;
	case '?':
	case 'h':
		print_help(c, state->root_argp, ARGP_HELP_SHORT_USAGE |
			   ARGP_HELP_PRE_DOC | ARGP_HELP_LONG |
			   ARGP_HELP_POST_DOC);
		return 0;
	case KEY_USAGE:
		print_help(c, state->root_argp, ARGP_HELP_USAGE);
		return 0;
	case 'V':
	case KEY_VERSION:
		printf("%s\n", version_line());
		c->done = true;
		return 0;
	case ARGP_KEY_ERROR:
		if (!c->reported && !c->done)
			report_bad_word(c, state);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* Which common option a word is (before "--"), 0 for none. */
static int common_word(const struct cli_ctx *c, const char *w)
{
	static const struct { const char *name; int key; } words[] = {
		{ "help", '?' }, { "usage", KEY_USAGE }, { "version", 'V' },
	};
	size_t i, k, len, hits;
	int key = 0;

	if (!strcmp(w, "-?") || (c->h_free && !strcmp(w, "-h")))
		return '?';
	if (c->v_free && !strcmp(w, "-V"))
		return 'V';
	if (strncmp(w, "--", 2) || !w[2] || strchr(w, '='))
		return 0;
	w += 2;
	len = strlen(w);
	for (i = 0; i < 3; i++) {
		if (strncmp(words[i].name, w, len))
			continue;
		/* A prefix counts only when no other option has it. */
		for (k = hits = 0; k < c->nnames; k++)
			hits += !strncmp(c->names[k], w, len);
		if (!strcmp(words[i].name, w) || !hits)
			key = words[i].key;
	}
	return key;
}

int cli_parse(const char *cmd, const struct argp *argp, int argc, char **argv,
	      unsigned int flags, void *input)
{
	struct argp_option common[8];
	struct argp_child children[CLI_MAX_GROUPS + 2] = { { 0 } };
	struct argp top = { .parser = top_parser, .children = children };
	struct argp own = *argp;
	struct cli_ctx c = { .cmd = cmd, .cmd_argp = argp, .input = input,
			     .h_free = true, .v_free = true };
	const struct argp_child *ch;
	char **av = argv, *argv0 = argv[0];
	int i, key, ret;

	/*
	 * The command's option groups (its argp's children) sit beside it,
	 * so that the top parser gives each the command's input: argp hands
	 * a child's parser only what its parent's parser sets.
	 */
	own.children = NULL;
	children[c.nchildren++] = (struct argp_child){ &own, 0, NULL, 0 };
	for (ch = argp->children; ch && ch->argp; ch++) {
		if (c.nchildren == CLI_MAX_GROUPS + 1)
			return -E2BIG;
		children[c.nchildren++] = *ch;
	}

	snprintf(c.prog, sizeof(c.prog), "rtgate %s", cmd);
	collect(&c, argp);
	common_table(&c, common);
	top.options = common;
	for (i = 0; common[i].name || common[i].key; i++)
		if (common[i].name && c.nnames < MAX_NAMES)
			c.names[c.nnames++] = common[i].name;
	/*
	 * argv[0] names the command in argp's help (restored at the end);
	 * argv itself is parsed in place, so a parser may keep pointers into
	 * it (trace record's COMMAND...).
	 */
	av[0] = c.prog;
	/* --help anywhere before "--" answers at once, whatever else. */
	for (i = 1; i < argc && strcmp(av[i], "--"); i++) {
		key = common_word(&c, av[i]);
		if (key == '?' || key == KEY_USAGE) {
			print_help(&c, &top, key == '?' ?
				   ARGP_HELP_SHORT_USAGE | ARGP_HELP_PRE_DOC |
				   ARGP_HELP_LONG | ARGP_HELP_POST_DOC :
				   ARGP_HELP_USAGE);
			av[0] = argv0;
			return CLI_DONE;
		}
		if (key == 'V') {
			printf("%s\n", version_line());
			av[0] = argv0;
			return CLI_DONE;
		}
	}
	cli_current = &c;
	ret = argp_parse(&top, argc, av, flags | ARGP_NO_EXIT | ARGP_NO_ERRS |
			 ARGP_NO_HELP, NULL, &c);
	cli_current = NULL;
	av[0] = argv0;
	if (c.done)
		return CLI_DONE;
	if (ret) {
		if (!c.reported) {
			pr_err("%s: %s", cmd, strerror(ret));
			try_help(&c);
		}
		return -EINVAL;
	}
	return 0;
}

/* ---- options several commands share ---- */

error_t cli_arg_clock(const char *arg, bool *icount, unsigned int *shift)
{
	uint64_t v;

	*icount = false;
	*shift = 0;
	if (!arg || !strcmp(arg, "host"))
		return 0;
	if (strncmp(arg, "icount", 6) || (arg[6] && arg[6] != ':'))
		return EINVAL;
	*icount = true;
	*shift = CLI_ICOUNT_SHIFT_DEFAULT;
	if (!arg[6])
		return 0;
	if (parse_u64_range(arg + 7, 0, CLI_ICOUNT_SHIFT_MAX, &v))
		return EINVAL;
	*shift = v;
	return 0;
}

unsigned int cli_shared_uint(const char *arg)
{
	uint64_t v = 0;

	parse_u64_range(arg, 0, UINT32_MAX, &v);
	return (unsigned int)v;
}

/*
 * Checks a shared option's argument, then hands it to the command's own
 * parser under its CLI_KEY_*: the command keeps it where it keeps its
 * options, and never checks it again.
 */
static error_t shared_parse(int key, char *arg, struct argp_state *state)
{
	struct cli_ctx *c = cli_current;
	uint64_t v;
	bool icount;
	unsigned int shift;
	error_t err;

	switch (key) {
	case CLI_KEY_DB:
		break;
	case CLI_KEY_JOBS:
		if (cli_arg_number(state, "jobs", arg, 1, 256, &v))
			return EINVAL;
		break;
	case CLI_KEY_REPEAT:
		if (parse_u64_range(arg, 1, 1000, &v))
			return cli_error(state, "--repeat: '%s' is not a whole "
					 "number from 1 to 1000", arg);
		break;
	case CLI_KEY_CLOCK:
		if (cli_arg_clock(arg, &icount, &shift))
			return cli_error(state, "--clock: host, icount or "
					 "icount:SHIFT (0..%d), not '%s'",
					 CLI_ICOUNT_SHIFT_MAX, arg);
		break;
	case CLI_KEY_HISTORY_K:
		pr_warn("%s: --history K is deprecated, say --history-runs K",
			c ? c->cmd : state->name);
		key = CLI_KEY_HISTORY_RUNS;
		/* fall through */
	case CLI_KEY_HISTORY_RUNS:
		if (parse_u64_range(arg, 1, 1000, &v))
			return cli_error(state, "--history-runs: '%s' is not "
					 "1..1000 runs", arg);
		break;
	case CLI_KEY_REFERENCE:
	case CLI_KEY_INTENDED:	/* the analyzer knows the settings */
	case CLI_KEY_SRC:	/* kernel_tree_open() checks the tree */
	case CLI_KEY_DEBIAN:
		break;
	case CLI_KEY_OUTPUT:
		if (!*arg)
			return cli_error(state, "-o/--output: an empty file "
					 "name (leave it out for standard "
					 "output)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	if (!c || !c->cmd_argp->parser)
		return ARGP_ERR_UNKNOWN;
	err = c->cmd_argp->parser(key, arg, state);
	if (err == ARGP_ERR_UNKNOWN)
		return cli_error(state, "internal: the command lists a shared "
				 "option (key %#x) it does not take", key);
	return err;
}

static const struct argp_option db_opts[] = {
	{ "db", CLI_KEY_DB, "FILE", 0, "the history database (default "
	  "$RTGATE_DB, else $RTGATE_RESULTS_DIR/rtgate.db, else "
	  "results/rtgate.db)", 0 },
	{ 0 }
};
/* The same option where no database is read unless one is named. */
static const struct argp_option db_given_opts[] = {
	{ "db", CLI_KEY_DB, "FILE", 0, "a history database to read (none "
	  "unless given)", 0 },
	{ 0 }
};
static const struct argp_option jobs_opts[] = {
	{ "jobs", CLI_KEY_JOBS, "N", 0, "make -jN, 1..256 (default: the CPU "
	  "count)", 0 },
	{ 0 }
};
static const struct argp_option repeat_opts[] = {
	{ "repeat", CLI_KEY_REPEAT, "N", 0, "repetitions per scenario, "
	  "1..1000 (default: the suite's)", 0 },
	{ 0 }
};
static const struct argp_option clock_opts[] = {
	{ "clock", CLI_KEY_CLOCK, "host|icount[:SHIFT]", 0, "the clock "
	  "latencies are measured in: host (the host's own), or "
	  "icount[:SHIFT], QEMU's instruction counter, 2^SHIFT ns an "
	  "instruction (SHIFT 0..10, default 3; single-threaded TCG): the "
	  "quiet lab", 0 },
	{ 0 }
};

static const struct argp_option history_opts[] = {
	{ "history-runs", CLI_KEY_HISTORY_RUNS, "K", 0, "against the last K "
	  "complete runs of the same suite, host and scenario, 1..1000 "
	  "(default 7)", 0 },
	{ "reference", CLI_KEY_REFERENCE, "GLOB", 0, "baselines only from "
	  "kernels whose release matches GLOB", 0 },
	{ 0 }
};
/* The spelling before --history-runs (changepoints', dashboard's). */
static const struct argp_option history_k_opts[] = {
	{ "history", CLI_KEY_HISTORY_K, "K", OPTION_HIDDEN, NULL, 0 },
	{ 0 }
};
static const struct argp_option intended_opts[] = {
	{ "intended", CLI_KEY_INTENDED, "SETTING", 0, "the runs may differ in "
	  "SETTING, the difference under test (repeatable, or a comma list; "
	  "the settings: docs/nightly.md \"Like with like\"): any other "
	  "difference between their manifests makes the comparison INVALID",
	  0 },
	{ 0 }
};

static const struct argp_option tree_opts[] = {
	{ "src", CLI_KEY_SRC, "TREE", 0, "a kernel tree of one's own, not "
	  "Debian's (--debian)", 0 },
	{ "debian", CLI_KEY_DEBIAN, "SERIES", 0, "Debian's linux-source-SERIES "
	  "as the tree: installed, else fetched through rtgate's own apt "
	  "(not with --src)", 0 },
	{ 0 }
};
static const struct argp_option output_opts[] = {
	{ "output", CLI_KEY_OUTPUT, "FILE", 0, "write here (default: standard "
	  "output)", 0 },
	{ 0 }
};

const struct argp cli_db_argp = { db_opts, shared_parse };
const struct argp cli_db_given_argp = { db_given_opts, shared_parse };
const struct argp cli_jobs_argp = { jobs_opts, shared_parse };
const struct argp cli_repeat_argp = { repeat_opts, shared_parse };
const struct argp cli_clock_argp = { clock_opts, shared_parse };
const struct argp cli_history_argp = { history_opts, shared_parse };
const struct argp cli_history_k_argp = { history_k_opts, shared_parse };
const struct argp cli_intended_argp = { intended_opts, shared_parse };
const struct argp cli_tree_argp = { tree_opts, shared_parse };
const struct argp cli_output_argp = { output_opts, shared_parse };

int cli_exit(int parsed)
{
	if (parsed == CLI_DONE)
		return EXITCODE_PASS;
	return parsed == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
}

/* ---- subcommands ---- */

void cli_subs_help(FILE *f, const char *cmd, const char *doc,
		   const struct cli_sub *subs, size_t n)
{
	size_t i, w = 0;
	char left[256];

	for (i = 0; i < n; i++) {
		snprintf(left, sizeof(left), "%s %s", subs[i].name,
			 subs[i].args);
		if (strlen(left) > w)
			w = strlen(left);
	}
	if (w > 40)
		w = 40;
	fprintf(f, "Usage: rtgate %s SUBCOMMAND [OPTION...] [ARG...]\n", cmd);
	for (i = 0; i < n; i++)
		fprintf(f, "  or:  rtgate %s %s%s%s\n", cmd, subs[i].name,
			subs[i].args[0] ? " " : "", subs[i].args);
	text_wrap(f, doc, 0, 79);
	fprintf(f, "\nSubcommands:\n");
	for (i = 0; i < n; i++) {
		snprintf(left, sizeof(left), "%s %s", subs[i].name,
			 subs[i].args);
		if (strlen(left) > w)
			fprintf(f, "  %s\n  %-*s  %s\n", left, (int)w, "",
				subs[i].summary);
		else
			fprintf(f, "  %-*s  %s\n", (int)w, left,
				subs[i].summary);
	}
	fprintf(f, "\n  -?, -h, --help             give this help list\n"
		"  -V, --version              print the program version\n"
		"\n'rtgate %s SUBCOMMAND --help' lists a subcommand's "
		"options.\n", cmd);
}

int cli_dispatch(const char *cmd, const char *doc, const struct cli_sub *subs,
		 size_t n, int argc, char **argv)
{
	const char *names[64], *near, *w = argc > 1 ? argv[1] : NULL;
	size_t i;

	if (w && (!strcmp(w, "--help") || !strcmp(w, "-h") ||
		  !strcmp(w, "-?") || !strcmp(w, "help") ||
		  !strcmp(w, "--usage"))) {
		cli_subs_help(stdout, cmd, doc, subs, n);
		return EXITCODE_PASS;
	}
	if (w && (!strcmp(w, "--version") || !strcmp(w, "-V"))) {
		printf("%s\n", version_line());
		return EXITCODE_PASS;
	}
	for (i = 0; w && i < n; i++)
		if (!strcmp(w, subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	for (i = 0; i < n && i < 64; i++)
		names[i] = subs[i].name;
	if (!w) {
		pr_err("%s: which subcommand?", cmd);
	} else {
		near = cli_nearest(w, names, i);
		if (near)
			pr_err("%s: unknown subcommand '%s' (did you mean "
			       "'%s'?)", cmd, w, near);
		else
			pr_err("%s: unknown subcommand '%s'", cmd, w);
	}
	fprintf(stderr, "Subcommands:");
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", subs[i].name);
	fprintf(stderr, ". Try 'rtgate %s --help' for more information.\n",
		cmd);
	return EXITCODE_BAD_INPUT;
}
