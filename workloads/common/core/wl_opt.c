// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads' options (wl_opt.h): getopt with usage errors in the
 * protocol's words, numbers and durations checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "workloads/common/core/wl_cpu.h"
#include "workloads/common/core/wl_opt.h"
#include "workloads/common/core/wl_proto.h"

/*
 * getopt_long() accepts any unambiguous prefix of a long option ("--width"
 * for "--width-us"); we guess nothing, so the word must be the whole name.
 */
static int long_name_exact(char *const argv[], const struct option *o)
{
	const char *tok = argv[optind - 1];
	size_t len;

	if (o->has_arg != no_argument && optarg == tok)
		tok = argv[optind - 2];	/* "--name VALUE": two words */
	if (strncmp(tok, "--", 2))
		return 1;
	tok += 2;
	len = strcspn(tok, "=");
	if (len == strlen(o->name) && !strncmp(tok, o->name, len))
		return 1;
	pr_err("unknown option '--%.*s' (did you mean --%s? try --help)",
	       (int)len, tok, o->name);
	return 0;
}

/*
 * --version, as every GNU tool and rtgate's commands answer it (help2man
 * reads it for the man pages): printed, and the program ends there.
 */
static void version_exit(void)
{
	printf("%s (rtgate) %s\n", wl_name(), RTGATE_VERSION);
	fflush(stdout);
	exit(WL_EXIT_OK);
}

int wl_getopt(int argc, char *const argv[], const char *shortopts,
	      const struct option *longopts)
{
	char sopts[128];
	int c, idx = -1;

	if (optind < argc && !strcmp(argv[optind], "--version"))
		version_exit();
	/* A leading ':' makes getopt return ':' for a missing argument. */
	snprintf(sopts, sizeof(sopts), ":%s", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, sopts, longopts, &idx);
	if (c >= 0 && c != '?' && c != ':' && idx >= 0 &&
	    !long_name_exact(argv, &longopts[idx]))
		return '?';
	if (c == '?') {
		if (optopt)
			pr_err("unknown option '-%c' (try --help)", optopt);
		else
			pr_err("unknown option '%s' (try --help)",
			       argv[optind - 1]);
		return '?';
	}
	if (c == ':') {
		pr_err("%s needs a value (try --help)", argv[optind - 1]);
		return '?';
	}
	return c;
}

int wl_opt_no_operands(int argc, char *const argv[])
{
	if (optind >= argc)
		return 0;
	pr_err("unexpected argument '%s' (try --help)", argv[optind]);
	return -EINVAL;
}

int wl_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max,
	       uint64_t *out)
{
	if (!parse_u64_range(arg, min, max, out))
		return 0;
	pr_err("%s: '%s' is not an integer in %llu..%llu", opt, arg,
	       (unsigned long long)min, (unsigned long long)max);
	return -EINVAL;
}

int wl_opt_us(const char *opt, const char *arg, uint64_t min_us,
	      uint64_t max_us, uint64_t *out_ns)
{
	uint64_t us;
	int ret = wl_opt_u64(opt, arg, min_us, max_us, &us);

	if (!ret)
		*out_ns = us * 1000;
	return ret;
}

int wl_opt_uint(const char *opt, const char *arg, unsigned int min,
		unsigned int max, unsigned int *out)
{
	uint64_t v;
	int ret;

	ret = wl_opt_u64(opt, arg, min, max, &v);
	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

int wl_opt_int(const char *opt, const char *arg, int min, int max, int *out)
{
	int64_t v;

	if (!parse_s64(arg, &v) && v >= min && v <= max) {
		*out = (int)v;
		return 0;
	}
	pr_err("%s: '%s' is not an integer in %d..%d", opt, arg, min, max);
	return -EINVAL;
}

int wl_opt_double(const char *opt, const char *arg, double min, double max,
		  double *out)
{
	double v;

	if (!parse_double(arg, &v) && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	pr_err("%s: '%s' is not a number in %g..%g", opt, arg, min, max);
	return -EINVAL;
}

int wl_opt_duration(const char *opt, const char *arg, uint64_t max_ns,
		    uint64_t *out_ns)
{
	uint64_t ns;

	if (!parse_duration_ns(arg, &ns) && ns <= max_ns) {
		*out_ns = ns;
		return 0;
	}
	pr_err("%s: '%s' is not a duration (e.g. 20, 20s, 500ms, 2m) of at most %llus",
	       opt, arg, (unsigned long long)(max_ns / 1000000000ULL));
	return -EINVAL;
}

static int check_allowed(const char *opt, const char *arg,
			 const cpu_set_t *set)
{
	cpu_set_t allowed, extra;
	char buf[256];

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		pr_err("sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	CPU_XOR(&extra, set, &allowed);
	CPU_AND(&extra, &extra, set);
	if (!CPU_COUNT(&extra))
		return 0;
	if (parse_cpulist_format(&allowed, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	pr_err("%s: '%s' names CPUs this process may not use (allowed: %s)",
	       opt, arg, buf);
	return -EINVAL;
}

int wl_opt_cpulist(const char *opt, const char *arg, cpu_set_t *set)
{
	if (parse_cpulist(arg, set)) {
		pr_err("%s: '%s' is not a CPU list (e.g. 0-3,5)", opt, arg);
		return -EINVAL;
	}
	return check_allowed(opt, arg, set) ? -EINVAL : 0;
}

int wl_opt_cpu(const char *opt, const char *arg, int *cpu)
{
	cpu_set_t set;
	uint64_t v;

	if (parse_u64_range(arg, 0, CPU_SETSIZE - 1, &v)) {
		pr_err("%s: '%s' is not a CPU number", opt, arg);
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET((int)v, &set);
	if (check_allowed(opt, arg, &set))
		return -EINVAL;
	*cpu = (int)v;
	return 0;
}

int wl_opt_choice(const char *opt, const char *arg,
		  const char *const *choices, int *idx)
{
	char list[256] = "";
	size_t used = 0;
	int i;

	for (i = 0; choices[i]; i++) {
		if (!strcmp(arg, choices[i])) {
			*idx = i;
			return 0;
		}
		used += snprintf(list + used, sizeof(list) - used, "%s%s",
				 i ? ", " : "", choices[i]);
		if (used >= sizeof(list))
			used = sizeof(list) - 1;
	}
	pr_err("%s: '%s' is not one of: %s", opt, arg, list);
	return -EINVAL;
}

/* The value (short letter) the table gives the long option name; 0: none. */
static int opt_val(const struct option *longopts, const char *name)
{
	const struct option *o;

	for (o = longopts; o->name; o++)
		if (!strcmp(o->name, name))
			return o->val;
	return 0;
}

void wl_opt_common_init(struct wl_common *co)
{
	*co = (struct wl_common){ .cpu = wl_cpu_first_allowed() };
}

int wl_opt_take_common(int c, const struct option *longopts,
		       struct wl_common *co, int *ret)
{
	if (c == opt_val(longopts, "cpu")) {
		co->seen_cpu = true;
		*ret = wl_opt_cpu("--cpu", optarg, &co->cpu);
		return 1;
	}
	if (c == opt_val(longopts, "duration")) {
		co->seen_duration = true;
		*ret = wl_opt_duration("--duration", optarg,
				       WL_DURATION_MAX_NS, &co->duration_ns);
		return 1;
	}
	return 0;
}

int wl_opt_parse(int argc, char *const argv[], const struct wl_opts *o,
		 void *ctx)
{
	struct wl_common *co = (struct wl_common *)((char *)ctx +
						    o->common_off);
	int c, ret;

	wl_opt_common_init(co);
	while ((c = wl_getopt(argc, argv, o->shortopts, o->longopts)) != -1) {
		if (c == 'h')
			return 1;
		if (!wl_opt_take_common(c, o->longopts, co, &ret))
			ret = o->one(c, ctx);
		if (ret)
			return ret;
	}
	if (wl_opt_no_operands(argc, argv))
		return -EINVAL;
	return o->check ? o->check(ctx) : 0;
}

int wl_opt_exit(int parsed, void (*usage)(FILE *f))
{
	if (parsed != 1)
		return WL_EXIT_USAGE;
	usage(stdout);
	return WL_EXIT_OK;
}

int wl_opt_start(const char *name, int argc, char *const argv[],
		 const struct wl_opts *o, void *ctx, void (*usage)(FILE *f))
{
	int ret;

	if (wl_init(name))
		return WL_EXIT_USAGE;
	ret = wl_opt_parse(argc, argv, o, ctx);
	return ret ? wl_opt_exit(ret, usage) : WL_OPT_GO_ON;
}

/* "-c, --cpu N" for a short letter, "    --cpu N" for a long-only one. */
static void usage_line(FILE *f, const struct option *longopts,
		       const char *name, const char *arg, const char *text)
{
	int val = opt_val(longopts, name);
	char left[32];

	if (!val)
		return;
	if (val < 128 && val != '?')
		snprintf(left, sizeof(left), "-%c, --%s%s%s", val, name,
			 arg ? " " : "", arg ? arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", name,
			 arg ? " " : "", arg ? arg : "");
	fprintf(f, "  %-20s %s\n", left, text);
}

void wl_opt_usage_common(FILE *f, const struct option *longopts)
{
	usage_line(f, longopts, "cpu", "N",
		   "pin to CPU N (default: the first allowed CPU)");
	usage_line(f, longopts, "duration", "D",
		   "stop after D (20, 20s, 500ms, 2m); default: never");
	usage_line(f, longopts, "help", NULL, "this text");
	fprintf(f, "  %-20s %s\n", "    --version", "print the version and exit");
}
