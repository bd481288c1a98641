// SPDX-License-Identifier: GPL-2.0-only
/*
 * The four seed threads as experiments (reproduce.h): the tree, the
 * patch set, the suite, the models, and the numbers each thread
 * published, which the table prints beside ours. The figures are the
 * threads' own (shared/seeds/README.md); the expected verdicts are what
 * those figures mean for a gate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reproduce.h"

/*
 * Every seed's tree: Debian's 7.3 (the threads were written for 7.x),
 * with the same fragments, so ccache shares the kernels' objects.
 */
#define SEED_TREE	.series = "7.3", .fragments = "rseq,hrtick"
/*
 * A non-RT kernel's own: without it the page allocator refills its
 * per-CPU lists in batches of up to 2,016 pages under zone->lock with
 * interrupts off, milliseconds in virtual time (kconfigs/pcp-batch.config,
 * docs/kernels.md "What broke it on the non-RT kernel"). On
 * PREEMPT_RT that lock sleeps with interrupts on.
 */
#define SEED_NON_RT	"pcp-batch"
/* A patch's seed: its set against the base, A/B/A, on the full model. */
#define SEED_PATCH(s)	.set = (s), .kind = REPRODUCE_KERNELS, \
			.models = { "full" }, \
			.model_fragments = { SEED_NON_RT }
/* The quiet lab: 8 virtual ns an instruction (lab.h). */
#define SEED_CLOCK "icount:3"

const struct reproduce_seed reproduce_seeds[] = {
	{
		.id = "000",
		.title = "sched/fair: avoid redundant updates for unchanged "
			 "default slices (RFC v3)",
		.source = "Chengfeng Lin, Oct 2026, v7.2 on a bare-metal "
			  "i7-12700KF, mean ns per sched_setparam() call",
		SEED_TREE,
		SEED_PATCH("setparam-default-slice"),
		.suite = "setparam",
		.scale = "0.1",
		/* 16 a boot decided every row on 2026-12-08 (exit 0) */
		.repeat = 16,
		.clock = SEED_CLOCK,
		.note = "a system call's cost in virtual time is the guest's "
			"instruction count: the ratio is the patch's, the "
			"nanoseconds are not bare metal's",
		.rows = {
			{ NULL, "default", "setparam.ns_per_call", "ns",
			  619.40, 163.23, "IMPROVEMENT" },
			{ NULL, "custom", "setparam.ns_per_call", "ns",
			  162.51, 162.64, "NO CHANGE" },
			/*
			 * Ours, not the thread's (it published no latency):
			 * an A/B/A judges every scenario of the suite, and
			 * the exit counts each, so the table shows each. A
			 * cheaper no-change call must not delay cyclictest.
			 */
			{ NULL, "idle", "max", "us", NAN, NAN, "NO CHANGE" },
			{ NULL, "default-load", "max", "us", NAN, NAN,
			  "NO CHANGE" },
			{ NULL, "custom-load", "max", "us", NAN, NAN,
			  "NO CHANGE" },
		},
	},
	{
		.id = "001",
		.title = "sched/rt: Rebuild domains only after successful RT "
			 "sysctl writes (rtgate's reconstruction)",
		.source = "Chengfeng Lin testing the patch, 2026, v7.2 on a "
			  "bare-metal i7-12700KF, mean ns per read",
		SEED_TREE,
		SEED_PATCH("rt-sysctl-read"),
		.suite = "rt-sysctl",
		/*
		 * 10 s repetitions: the bench is not scaled, and a 3 s
		 * repetition's maximum scatters too much on one vCPU to
		 * rule out a 5 us rise (45-73 us at 6 s, 2026-12-08).
		 */
		.scale = "0.33",
		/*
		 * At 12 a boot no latency row saw a change and none decided:
		 * the analyzer asked for 10 more a side (idle), 3 (readers).
		 */
		.repeat = 22,
		.clock = SEED_CLOCK,
		.note = "a domain rebuild on 1 emulated CPU costs less than "
			"on 20 real ones: the ratio shrinks, its direction "
			"stays",
		.rows = {
			{ NULL, "read-period", "sysctl-read.ns_per_read", "ns",
			  8547.294, 264.575, "IMPROVEMENT" },
			{ NULL, "read-runtime", "sysctl-read.ns_per_read",
			  "ns", 8574.240, 263.690, "IMPROVEMENT" },
			{ NULL, "read-rr", "sysctl-read.ns_per_read", "ns",
			  253.400, 250.268, "NO CHANGE" },
			/* Ours: readers beside cyclictest (no figure). */
			{ NULL, "idle", "max", "us", NAN, NAN, "NO CHANGE" },
			{ NULL, "period-reader", "max", "us", NAN, NAN,
			  "NO CHANGE" },
			{ NULL, "rr-reader", "max", "us", NAN, NAN,
			  "NO CHANGE" },
		},
	},
	{
		.id = "003",
		.title = "sched: Restart hrtick after same-task repicks (v2, "
			 "recovered from the seed mail)",
		.source = "Shubhang Kaushik, Sept 2026, baseline 08df884136f1, "
			  "five 10 s traces per kernel",
		SEED_TREE,
		SEED_PATCH("hrtick-repick-v2"),
		.suite = "hrtick",
		.scale = "1",
		/*
		 * 1 ns an instruction: at 8 (125 virtual MIPS) the hogs'
		 * sched_switch tracing slows the guest so much that stopping
		 * its session takes 8 virtual seconds, past the runner's
		 * 5 s grace, and every repetition is INVALID.
		 */
		.clock = "icount:0",
		.note = "slice runtimes in virtual time (icount shift 0: at "
			"shift 3 the hogs' tracing could not stop within the "
			"runner's grace): a host pause can no longer stretch a "
			"slice",
		.rows = {
			{ NULL, "hrtick", "hrtick-hogs.runtime_max_us", "us",
			  5227, 3386, "IMPROVEMENT" },
			{ NULL, "hrtick", "hrtick-hogs.slices_over_threshold",
			  "slices", 6, 0, "IMPROVEMENT" },
			/* Ours: without HRTICK the patch has nothing to do. */
			{ NULL, "no-hrtick", "hrtick-hogs.runtime_max_us", "us",
			  NAN, NAN, "NO CHANGE" },
		},
	},
	{
		.id = "004",
		.title = "rseq time slice extension (Linux 7.0+ ABI) beside "
			 "cyclictest, Steven Rostedt's extend-sched experiment",
		.source = "Steven Rostedt, June 2025, the V5 series on 8-core "
			  "bare-metal PREEMPT_RT: cyclictest max, idle against "
			  "extend-sched",
		SEED_TREE,
		.set = NULL,	/* a feature of the base: its scenarios */
		.kind = REPRODUCE_SCENARIOS,
		.models = { "full", "rt" },
		.model_fragments = { SEED_NON_RT, NULL },
		.suite = "slice-ext-7-solo",
		/*
		 * RT extends only lazy reschedules: the lock thread needs a
		 * fair neighbour and the tick's lazy requests to be granted
		 * at all (the suite's header).
		 */
		.model_suites = { NULL, "slice-ext-7-solo-rt" },
		.scale = "1",
		.clock = SEED_CLOCK,
		.note = "virtual time shows whether a grant delays a FIFO "
			"wake-up and by how much in instructions; a bare-metal "
			"microsecond figure needs real hardware. Steven "
			"measured V5 on RT; 7.x extends only lazy reschedules "
			"on RT, so there a FIFO wake-up should not wait",
		.rows = {
			{ "full", "grant-5us", "max", "us", 12, 21,
			  "REGRESSION" },
			{ "full", "grant-30us", "max", "us", 12, 39,
			  "REGRESSION" },
			{ "full", "grant-50us", "max", "us", 12, NAN,
			  "REGRESSION" },
			{ "rt", "grant-5us", "max", "us", 12, 21,
			  "NO CHANGE" },
			{ "rt", "grant-30us", "max", "us", 12, 39,
			  "NO CHANGE" },
			{ "rt", "grant-50us", "max", "us", 12, NAN,
			  "NO CHANGE" },
		},
	},
	{ .id = NULL },
};

const struct reproduce_seed *reproduce_seed_find(const char *id)
{
	const struct reproduce_seed *s;
	char *end;
	long n;

	if (!id || !*id)
		return NULL;
	n = strtol(id, &end, 10);
	if (*end || n < 0)
		return NULL;
	for (s = reproduce_seeds; s->id; s++)
		if (atol(s->id) == n)
			return s;
	return NULL;
}

const char *reproduce_seed_suite(const struct reproduce_seed *s,
				 const char *model)
{
	int i;

	if (!s || !model)
		return NULL;
	for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++)
		if (!strcmp(s->models[i], model))
			return s->model_suites[i] ? s->model_suites[i] :
			       s->suite;
	return NULL;
}

void reproduce_seed_fragments(const struct reproduce_seed *s,
			      const char *model, char *buf, size_t len)
{
	const char *own = NULL;
	int i;

	for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++)
		if (model && !strcmp(s->models[i], model))
			own = s->model_fragments[i];
	snprintf(buf, len, "%s%s%s", s->fragments, own ? "," : "",
		 own ? own : "");
}

bool reproduce_seed_suites(const struct reproduce_seed *s,
			   const char *only_model, char *buf, size_t len)
{
	const char *first = NULL, *suite;
	bool same = true;
	size_t n = 0;
	int i;

	for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++) {
		if (only_model && strcmp(only_model, s->models[i]))
			continue;
		suite = reproduce_seed_suite(s, s->models[i]);
		if (!first)
			first = suite;
		same &= !strcmp(first, suite);
	}
	snprintf(buf, len, "%s", first ? first : s->suite);
	if (same)
		return true;
	for (i = 0; i < REPRODUCE_MAX_MODELS && s->models[i]; i++) {
		if (only_model && strcmp(only_model, s->models[i]))
			continue;
		if (n < len)
			n += snprintf(buf + n, len - n, "%s%s (%s)",
				      n ? ", " : "",
				      reproduce_seed_suite(s, s->models[i]),
				      s->models[i]);
	}
	return false;
}
