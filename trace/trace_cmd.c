// SPDX-License-Identifier: GPL-2.0-only
/*
 * The `rtgate trace` command and its subcommands (trace.h).
 */
#include <errno.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "log.h"
#include "parse.h"
#include "procstat.h"
#include "stopsig.h"
#include "trace.h"

#define MAX_FILES	64
#define MAX_TIDS	256

struct trace_record_params {
	enum trace_capture capture;
	enum trace_events events;
	const char *out;
	unsigned int buffer_kb;
	unsigned int max_mb;
	cpu_set_t cpus;
	bool have_cpus;
	bool no_kallsyms;
	const char *stop_comm;		/* spikes: stop when it exits */
	char **argv;			/* the command to trace */
};

struct trace_explain_params {
	struct trace_attr_params attr;
	int tids[MAX_TIDS];
	bool json;
	const char *files[2][MAX_FILES];	/* explain: [0]; compare */
	unsigned int nr_files[2];
};

enum { OPT_MAX_MB = 0x100, OPT_NO_KALLSYMS, OPT_STOP_ON_EXIT, OPT_COMM,
       OPT_TIDS, OPT_BREAK_TID, OPT_BREAK_VALUE, OPT_JSON };

static const struct argp_option record_opts[] = {
	{ "mode", 'm', "MODE", 0, "spikes: the ring buffer's tail (default), "
	  "stopped in the kernel when an RT thread of COMMAND's cyclictest "
	  "exits (its break, -b); on: the whole run, streamed, capped", 0 },
	{ "output", 'o', "FILE", 0, "where trace.dat goes (default trace.dat)",
	  0 },
	{ "events", 'e', "SET", 0, "latency (default) or switch", 0 },
	{ "buffer-kb", 'b', "KB", 0, "ring buffer size per CPU", 0 },
	{ "max-mb", OPT_MAX_MB, "N", 0, "on: stop the stream at N MiB", 0 },
	{ "cpus", 'c', "CPUS", 0, "trace these CPUs only (a CPU list)", 0 },
	{ "no-kallsyms", OPT_NO_KALLSYMS, NULL, 0, "do not save "
	  "/proc/kallsyms into trace.dat", 0 },
	{ "stop-on-exit", OPT_STOP_ON_EXIT, "COMM", 0, "spikes: the process "
	  "whose exit stops the buffer (default cyclictest; none)", 0 },
	{ 0 }
};

static error_t record_parse(int key, char *arg, struct argp_state *state)
{
	struct trace_record_params *p = state->input;
	uint64_t v;

	switch (key) {
	case 'm':
		if (trace_capture_parse(arg, &p->capture) ||
		    p->capture == TRACE_CAPTURE_OFF)
			return cli_error(state, "--mode: '%s' is not spikes or "
					 "on", arg);
		break;
	case 'o':
		p->out = arg;
		break;
	case 'e':
		if (!strcmp(arg, "latency"))
			p->events = TRACE_EVENTS_LATENCY;
		else if (!strcmp(arg, "switch"))
			p->events = TRACE_EVENTS_SWITCH;
		else
			return cli_error(state, "--events: '%s' is not latency "
					 "or switch", arg);
		break;
	case 'b':
	case OPT_MAX_MB:
		if (parse_u64_range(arg, 1, 1 << 20, &v))
			return cli_error(state, "--%s: '%s' is not a size in "
					 "%s", key == 'b' ? "buffer-kb" :
					 "max-mb", arg, key == 'b' ? "KiB" :
					 "MiB");
		if (key == 'b')
			p->buffer_kb = v;
		else
			p->max_mb = v;
		break;
	case 'c':
		if (parse_cpulist(arg, &p->cpus))
			return cli_error(state, "--cpus: '%s' is not a CPU "
					 "list", arg);
		p->have_cpus = true;
		break;
	case OPT_NO_KALLSYMS:
		p->no_kallsyms = true;
		break;
	case OPT_STOP_ON_EXIT:
		p->stop_comm = strcmp(arg, "none") ? arg : NULL;
		break;
	case ARGP_KEY_ARG:
		/* COMMAND [ARG]...: the rest is the command's own. */
		p->argv = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!p->argv)
			return cli_error(state, "no command to trace (rtgate "
					 "trace record -- COMMAND)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp record_argp = {
	record_opts, record_parse, "[--] COMMAND [ARG...]",
	"Traces COMMAND into rtgate's own tracefs instance and saves trace.dat "
	"(trace-cmd report, KernelShark). docs/tracing.md.",
	NULL, NULL, NULL
};

static int parse_record(int argc, char **argv, struct trace_record_params *p)
{
	memset(p, 0, sizeof(*p));
	p->capture = TRACE_CAPTURE_SPIKES;
	p->out = "trace.dat";
	p->stop_comm = "cyclictest";
	/* In order: options stop at COMMAND, whose options are its own. */
	return cli_parse("trace record", &record_argp, argc, argv,
			 ARGP_IN_ORDER, p);
}

static bool comm_is(int pid, const char *comm)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	return !fsio_read_str(path, buf, sizeof(buf)) && !strcmp(buf, comm);
}

/*
 * A process named comm under root (root included), or 0. Walks the
 * tree down through /proc/PID/task/TID/children: a few files, where a
 * scan of every process would take long on a machine running thousands,
 * and until the stop is narrowed to our threads another cyclictest
 * ending on the machine would stop our buffer.
 */
static int find_descendant(int root, const char *comm, int depth)
{
	char path[96], *buf = NULL, *tok, *save = NULL;
	struct dirent *d;
	int found = 0, pid;
	size_t len = 0;
	DIR *dir;
	FILE *f;

	if (comm_is(root, comm))
		return root;
	if (depth > 16)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", root);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children",
			 root, d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (getline(&buf, &len, f) > 0)
			for (tok = strtok_r(buf, " \n", &save); tok && !found;
			     tok = strtok_r(NULL, " \n", &save))
				if ((pid = atoi(tok)) > 0)
					found = find_descendant(pid, comm,
								depth + 1);
		fclose(f);
	}
	closedir(dir);
	free(buf);
	return found;
}

static bool child_running(pid_t pid)
{
	struct procstat ps;

	return !procstat_read(pid, &ps) && ps.state != 'Z' && ps.state != 'X';
}

/*
 * Spikes: stop the buffer in the kernel when COMMAND's cyclictest ends a
 * measuring thread (at its break). Armed on the comm at once (a break can
 * come within milliseconds), narrowed to the threads' tids once they are
 * seen (another cyclictest on the machine must not stop ours). The
 * search runs at SCHED_FIFO 1, below any measuring thread, so that a
 * loaded machine does not delay it past the break.
 */
static void arm_stop_on_exit(struct trace_session *s, pid_t child,
			     const char *comm)
{
	struct sched_param rt = { .sched_priority = 1 }, other = { 0 };
	struct timespec tick = { 0, 10000000 };
	int tids[256], n, armed = 0, stable = 0, i, ct;
	bool raised;

	raised = !sched_setscheduler(0, SCHED_FIFO, &rt);
	for (i = 0; i < 500 && stable < 20 && child_running(child); i++) {
		nanosleep(&tick, NULL);
		ct = find_descendant(child, comm, 0);
		n = ct ? trace_proc_threads(ct, tids, 256) : 0;
		if (n > armed) {
			if (trace_session_stop_on_exit(s, tids, n))
				break;
			armed = n;
			stable = 0;
		} else if (armed > 1) {
			/* cyclictest's main thread and a measuring one */
			stable++;
		}
	}
	if (raised)
		sched_setscheduler(0, SCHED_OTHER, &other);
	if (armed)
		pr_info("the buffer stops when one of %d %s threads exits",
			armed, comm);
}

static pid_t spawn(char **argv, const char *instance)
{
	sigset_t none;
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	setenv(TRACE_INSTANCE_ENV, instance, 1);
	execvp(argv[0], argv);
	fprintf(stderr, "rtgate: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

static void report_saved(struct trace_session *s, const char *out)
{
	struct trace_stats st;

	trace_session_stats(s, &st);
	pr_info("trace saved to %s (instance %s%s%s%s)", out, s->name,
		s->features[0] ? "; feature events: " : "", s->features,
		st.truncated ? "; the stream reached its cap: the end of the "
		"run is missing" : "");
	if (st.overrun)
		pr_warn("the ring buffer overwrote %llu events: the trace "
			"holds the last part only", st.overrun);
}

static int record_run(struct trace_record_params *p, struct trace_session *s)
{
	int status = 0, ret, code = EXITCODE_PASS;
	pid_t pid;

	/* A stop signal goes to the command too; the trace is then kept. */
	if (stopsig_catch(SIGINT, STOPSIG_STOP) ||
	    stopsig_catch(SIGTERM, STOPSIG_STOP))
		return EXITCODE_ENVIRONMENT;
	ret = trace_session_start(s);
	if (ret)
		return EXITCODE_ENVIRONMENT;
	if (p->capture == TRACE_CAPTURE_SPIKES && p->stop_comm &&
	    trace_session_stop_on_exit_comm(s, p->stop_comm))
		p->stop_comm = NULL;
	pid = spawn(p->argv, s->name);
	if (pid < 0) {
		pr_err("fork: %s", strerror(errno));
		return EXITCODE_ENVIRONMENT;
	}
	stopsig_forward(pid);
	if (p->capture == TRACE_CAPTURE_SPIKES && p->stop_comm)
		arm_stop_on_exit(s, pid, p->stop_comm);
	wait_child(pid, &status);
	stopsig_forward(0);
	trace_session_stop(s);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		pr_err("%s could not be started", p->argv[0]);
		return EXITCODE_ENVIRONMENT;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status))
		pr_warn("%s exited with %d", p->argv[0], WEXITSTATUS(status));
	if (stopsig_requested())
		code = EXITCODE_INCOMPLETE;
	ret = trace_session_save(s, p->out);
	if (ret)
		return ret == -EINVAL ? EXITCODE_BAD_INPUT :
		       EXITCODE_ENVIRONMENT;
	report_saved(s, p->out);
	return code;
}

static int cmd_record(int argc, char **argv)
{
	struct trace_record_params p;
	struct trace_params tp = { 0 };
	struct trace_session s;
	int ret;

	ret = parse_record(argc, argv, &p);
	if (ret)
		return cli_exit(ret);
	tp.mode = p.capture == TRACE_CAPTURE_ON ? TRACE_MODE_STREAM :
						  TRACE_MODE_RING;
	tp.events = p.events;
	tp.buffer_kb = p.buffer_kb;
	tp.max_mb = p.max_mb;
	tp.cpus = p.have_cpus ? &p.cpus : NULL;
	tp.no_kallsyms = p.no_kallsyms;
	if (trace_session_init(&s, &tp))
		return EXITCODE_ENVIRONMENT;
	ret = record_run(&p, &s);
	trace_session_destroy(&s);
	return ret;
}

static int parse_tids(const char *s, struct trace_explain_params *p)
{
	char *copy = strdup(s), *tok, *save = NULL;
	uint64_t v;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	p->attr.nr_tids = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (p->attr.nr_tids == MAX_TIDS ||
		    parse_u64_range(tok, 1, 1 << 30, &v)) {
			ret = -EINVAL;
			break;
		}
		p->tids[p->attr.nr_tids++] = v;
	}
	free(copy);
	if (!ret && !p->attr.nr_tids)
		ret = -EINVAL;
	p->attr.tids = p->tids;
	return ret;
}

/* "a.dat,b.dat" into a list; the strings stay in argv. */
static int split_files(char *arg, const char **files, unsigned int *nr)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*nr == MAX_FILES)
			return -E2BIG;
		files[(*nr)++] = tok;
	}
	return *nr ? 0 : -EINVAL;
}

/*
 * explain's options; trace compare's are the same after the first
 * (--json is explain's alone), so each --help lists only its own.
 */
static const struct argp_option explain_opts[] = {
	{ "json", OPT_JSON, NULL, 0, "the attribution as JSON", 0 },
	{ "top", 'n', "TOP", 0, "the worst TOP wake-ups (default 50)", 0 },
	{ "comm", OPT_COMM, "NAME", 0, "the measuring threads' name (default "
	  "cyclictest)", 0 },
	{ "tids", OPT_TIDS, "LIST", 0, "the measuring threads' ids", 0 },
	{ "break-tid", OPT_BREAK_TID, "TID", 0, "the thread whose break "
	  "stopped the trace", 0 },
	{ "break-value", OPT_BREAK_VALUE, "US", 0, "the latency of that break",
	  0 },
	{ 0 }
};

struct explain_ctx {
	struct trace_explain_params *p;
	int nr_sides;
	char *args[2];
	int nargs;
};

static error_t explain_parse(int key, char *arg, struct argp_state *state)
{
	struct explain_ctx *x = state->input;
	struct trace_explain_params *p = x->p;
	uint64_t v;

	switch (key) {
	case 'n':
		if (parse_u64_range(arg, 1, 10000, &v))
			return cli_error(state, "--top: '%s' is not 1..10000",
					 arg);
		p->attr.top_n = v;
		break;
	case OPT_COMM:
		p->attr.comm = arg;
		break;
	case OPT_TIDS:
		if (parse_tids(arg, p))
			return cli_error(state, "--tids: '%s' is not a list of "
					 "thread ids", arg);
		break;
	case OPT_BREAK_TID:
		if (parse_u64_range(arg, 1, 1 << 30, &v))
			return cli_error(state, "--break-tid: '%s' is not a "
					 "thread id", arg);
		p->attr.break_tid = v;
		break;
	case OPT_BREAK_VALUE:
		if (parse_u64_range(arg, 1, 1 << 30, &v))
			return cli_error(state, "--break-value: '%s' is not a "
					 "latency in us", arg);
		p->attr.break_us = v;
		break;
	case OPT_JSON:
		p->json = true;
		break;
	case ARGP_KEY_ARG:
		if (x->nargs == x->nr_sides)
			return cli_error(state, "unexpected argument '%s'", arg);
		x->args[x->nargs++] = arg;
		break;
	case ARGP_KEY_END:
		if (x->nargs != x->nr_sides)
			return cli_error(state, "expected %s", x->nr_sides == 1 ?
					 "one trace file" :
					 "BASE[,BASE...] CAND[,CAND...]");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp explain_argp = {
	explain_opts, explain_parse, "FILE",
	"The worst wake-ups of cyclictest's threads in a trace, and what ran "
	"instead (docs/tracing.md).", NULL, NULL, NULL
};

static const struct argp tcompare_argp = {
	explain_opts + 1, explain_parse, "BASE[,BASE...] CAND[,CAND...]",
	"Culprits of the worst wake-ups, baseline against candidate (files: "
	"trace.dat, or the attribution JSON of explain --json).",
	NULL, NULL, NULL
};

static int parse_explain(int argc, char **argv, struct trace_explain_params *p,
			 int nr_sides)
{
	struct explain_ctx x = { .p = p, .nr_sides = nr_sides };
	const char *cmd = nr_sides == 1 ? "trace explain" : "trace compare";
	int i, ret;

	memset(p, 0, sizeof(*p));
	ret = cli_parse(cmd, nr_sides == 1 ? &explain_argp : &tcompare_argp,
			argc, argv, 0, &x);
	if (ret)
		return ret;
	for (i = 0; i < nr_sides; i++)
		if (split_files(x.args[i], p->files[i], &p->nr_files[i]))
			return cli_usage_error(cmd, "bad file list '%s'",
					       x.args[i]);
	if (nr_sides == 1 && p->nr_files[0] != 1)
		return cli_usage_error(cmd, "one file at a time");
	return 0;
}

static int file_error_code(int ret)
{
	return ret == -ENOMEM ? EXITCODE_ENVIRONMENT : EXITCODE_BAD_INPUT;
}

static int cmd_explain(int argc, char **argv)
{
	struct trace_explain_params p;
	struct trace_attr_result r;
	cJSON *json;
	char *text;
	int ret;

	ret = parse_explain(argc, argv, &p, 1);
	if (ret)
		return cli_exit(ret);
	ret = trace_attr_file(p.files[0][0], &p.attr, &r);
	if (ret)
		return file_error_code(ret);
	if (p.json) {
		json = trace_attr_to_json(&r);
		text = json ? cJSON_Print(json) : NULL;
		if (text)
			printf("%s\n", text);
		free(text);
		cJSON_Delete(json);
	} else {
		trace_attr_print(stdout, &r);
	}
	if (p.attr.break_tid && r.break_idx < 0)
		pr_warn("%s: the break of thread %d is not in the trace",
			p.files[0][0], p.attr.break_tid);
	trace_attr_result_free(&r);
	return EXITCODE_PASS;
}

static bool is_json(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".json");
}

static int load_result(const char *path, const struct trace_attr_params *ap,
		       struct trace_attr_result *r)
{
	struct json_error err;
	cJSON *json;
	int ret;

	if (!is_json(path))
		return trace_attr_file(path, ap, r);
	ret = json_read_file(path, &json, &err);
	if (ret) {
		pr_err("%s", err.msg);
		return -EINVAL;
	}
	ret = trace_attr_from_json(json, r);
	cJSON_Delete(json);
	if (ret)
		pr_err("%s: not an attribution (schema rtgate-trace-attr/1)",
		       path);
	return ret;
}

static int cmd_compare(int argc, char **argv)
{
	struct trace_attr_result res[2][MAX_FILES];
	struct trace_explain_params p;
	struct trace_attr_culprits c;
	char line[256];
	unsigned int i, s, loaded[2] = { 0, 0 };
	int ret, code = EXITCODE_PASS;

	ret = parse_explain(argc, argv, &p, 2);
	if (ret)
		return cli_exit(ret);
	for (s = 0; s < 2 && code == EXITCODE_PASS; s++) {
		for (i = 0; i < p.nr_files[s]; i++) {
			ret = load_result(p.files[s][i], &p.attr, &res[s][i]);
			if (ret) {
				code = file_error_code(ret);
				break;
			}
			loaded[s]++;
		}
	}
	if (code == EXITCODE_PASS) {
		ret = trace_attr_culprits(res[0], loaded[0], res[1],
					  loaded[1], &c);
		if (ret) {
			code = EXITCODE_ENVIRONMENT;
		} else {
			trace_attr_culprits_print(stdout, &c);
			if (!trace_attr_culprits_headline(&c, line,
							  sizeof(line)))
				printf("\n%s\n", line);
			trace_attr_culprits_free(&c);
		}
	}
	for (s = 0; s < 2; s++)
		for (i = 0; i < loaded[s]; i++)
			trace_attr_result_free(&res[s][i]);
	return code;
}

/* A command of positional words only: FILE, or nothing. */
static error_t words_parse(int key, char *arg, struct argp_state *state)
{
	char **file = state->input;

	switch (key) {
	case ARGP_KEY_ARG:
		if (!file || *file)
			return cli_error(state, "unexpected argument '%s'", arg);
		*file = arg;
		return 0;
	case ARGP_KEY_END:
		if (file && !*file)
			return cli_error(state, "which trace file?");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp events_argp = {
	NULL, words_parse, "FILE",
	"Decoded events per type in a trace.dat (a check against trace-cmd "
	"report).", NULL, NULL, NULL
};

static const struct argp clean_argp = {
	NULL, words_parse, NULL,
	"Removes tracefs instances left by killed rtgate processes.",
	NULL, NULL, NULL
};

static int cmd_events(int argc, char **argv)
{
	struct trace_file_info info;
	char *file = NULL;
	int i, ret;

	ret = cli_parse("trace events", &events_argp, argc, argv, 0, &file);
	if (ret)
		return cli_exit(ret);
	ret = trace_file_check(file, &info);
	if (ret)
		return file_error_code(ret);
	printf("records %llu\nevents %llu\nlost %llu\nspan_ns %llu\n",
	       info.nr_records, info.nr_events, info.missed,
	       info.last_ts - info.first_ts);
	for (i = 0; i < TRACE_EV_NR_TYPES; i++)
		printf("%s %llu\n", trace_ev_type_name(i), info.per_type[i]);
	return EXITCODE_PASS;
}

static int cmd_clean(int argc, char **argv)
{
	char why[256];
	int ret;

	ret = cli_parse("trace clean", &clean_argp, argc, argv, 0, NULL);
	if (ret)
		return cli_exit(ret);
	if (trace_available(why, sizeof(why))) {
		pr_err("tracing unavailable: %s", why);
		return EXITCODE_ENVIRONMENT;
	}
	ret = trace_instances_clean();
	if (ret < 0)
		return EXITCODE_ENVIRONMENT;
	printf("removed %d stale tracefs instance%s\n", ret,
	       ret == 1 ? "" : "s");
	return EXITCODE_PASS;
}

int trace_cmd_trace(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{ "record", "[OPTION...] -- COMMAND [ARG...]",
		  "trace COMMAND into trace.dat", cmd_record },
		{ "explain", "[OPTION...] FILE",
		  "the worst wake-ups, and what ran instead", cmd_explain },
		{ "compare", "[OPTION...] BASE[,BASE...] CAND[,CAND...]",
		  "culprits of the worst wake-ups, baseline against candidate",
		  cmd_compare },
		{ "events", "FILE", "decoded events per type", cmd_events },
		{ "clean", "", "remove tracefs instances of killed rtgates",
		  cmd_clean },
	};

	return cli_dispatch("trace", "Kernel events beside cyclictest, in "
			    "rtgate's own tracefs instance, and what delayed "
			    "the worst wake-ups (docs/tracing.md).", subs,
			    sizeof(subs) / sizeof(subs[0]), argc, argv);
}
