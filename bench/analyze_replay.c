// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real-data tables of docs/statistics.md: recorded sittings
 * (tests/fixtures/real/, record.sh) replayed through an_compare() in many
 * splits with the default gate. Not a test:
 *   make bench && build/obj/bench/analyze_replay [-n SPLITS] [-L LEVEL]
 *                                     [-P PROFILE_RUN] [-S] RUN_DIR...
 * For each sitting: A/A (idle against idle2, the same rounds) at 1, 2, 3
 * and 5 repetitions a side, and the share of splits that find the inject
 * spinner (30, 100, 300 us) and hackbench at 1, 2, 3 and 5; then
 * `--until-decided` from 3 and from 5 repetitions a side up to 10.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/input/input.h"
#include "analyze/validate/validate.h"

static void pct(const struct an_replay_count *c, char *buf, size_t len)
{
	double n = c->splits ? c->splits : 1;

	snprintf(buf, len, "%5.1f%% reg %5.1f%% imp %5.1f%% no change "
		 "%5.1f%% inconclusive", 100 * c->verdict[AN_REGRESSION] / n,
		 100 * c->verdict[AN_IMPROVEMENT] / n,
		 100 * c->verdict[AN_NO_CHANGE] / n,
		 100 * c->verdict[AN_INCONCLUSIVE] / n);
}

static int usage(FILE *f, int code)
{
	fprintf(f, "usage: analyze_replay [-n SPLITS] [-L LEVEL] "
		"[-P PROFILE_RUN] [-S] RUN_DIR...\n"
		"Replays recorded sittings (tests/fixtures/real/) through the "
		"gate in SPLITS splits a cell\n(default 200); -L the share of "
		"alpha, -P a noise profile from another sitting's\nidle, -S "
		"the until-decided rows only. docs/statistics.md.\n");
	return code;
}

static void row(const char *what, const struct an_side *a,
		const struct an_side *b, size_t k, size_t n,
		const struct an_gate *g)
{
	struct an_replay_count c;
	char buf[160];

	if (an_replay(a, b, k, n, 1, g, !strncmp(what, "A/A", 3), &c)) {
		printf("  %-24s %zu v %zu: not enough rounds\n", what, k, k);
		return;
	}
	pct(&c, buf, sizeof(buf));
	printf("  %-24s %zu v %zu: %s\n", what, k, k, buf);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "idle", "idle2", "inject30",
					     "inject100", "inject300",
					     "hackbench" };
	size_t n = 200, k, i;
	bool seq_only = false;
	struct an_gate g;
	int opt, a;

	static struct an_profile prof;

	an_gate_default(&g);
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return usage(stdout, 0);
	while ((opt = getopt(argc, argv, "hn:P:L:S")) != -1) {
		if (opt == 'h')
			return usage(stdout, 0);
		if (opt == '?')
			return usage(stderr, 2);
		/* -S: the until-decided rows only. */
		if (opt == 'S')
			seq_only = true;
		if (opt == 'n') {
			char *end;

			n = strtoul(optarg, &end, 10);
			if (*end || !n || n > 100000)
				return usage(stderr, 2);
		}
		/* -L: the share of alpha a comparison of a suite gets. */
		if (opt == 'L')
			g.level = strtod(optarg, NULL);
		if (opt == 'P') {
			/* A noise profile from another sitting's idle. */
			struct an_results pr;
			struct an_side *grp[2];

			if (an_results_open(optarg, &pr) ||
			    an_results_side(&pr, "idle", &grp[0]) ||
			    an_results_side(&pr, "idle2", &grp[1]) ||
			    an_profile_build(grp, 2, &prof))
				return 3;
			snprintf(prof.origin, sizeof(prof.origin), "%s",
				 optarg);
			g.profile = &prof;
			printf("profile: %s, %zu repetitions\n", optarg,
			       prof.nreps);
		}
	}
	if (optind == argc)
		return usage(stderr, 2);
	for (a = optind; a < argc; a++) {
		struct an_results res;
		struct an_side *s[6] = { 0 };

		if (an_results_open(argv[a], &res))
			return 3;
		for (i = 0; i < 6; i++)
			if (an_results_side(&res, names[i], &s[i]))
				return 3;
		printf("%s\n", argv[a]);
		for (k = 1; k <= 5 && !seq_only; k += k == 3 ? 2 : 1)
			row("A/A idle-idle2", s[0], s[1], k, n, &g);
		for (k = 1; k <= 5 && !seq_only; k += k == 3 ? 2 : 1)
			row("A/A idle2-idle2", s[1], s[1], k, n, &g);
		for (k = 1; k <= 5 && !seq_only; k += k == 3 ? 2 : 1)
			for (i = 2; i < 6; i++) {
				char what[64];

				snprintf(what, sizeof(what), "idle-%s", names[i]);
				row(what, s[0], s[i], k, n, &g);
			}
		for (k = 3; k <= 5; k += 2)
			for (i = 0; i < 6; i++) {
				struct an_replay_count c;
				char buf[160];

				if (i == 1 || an_replay_sequential(s[0], s[i ? i : 1],
						k, 10, n, 1, &g, i == 0, &c))
					continue;
				pct(&c, buf, sizeof(buf));
				printf("  until decided idle-%-9s from %zu to 10: "
				       "%s, %.1f repetitions a side\n",
				       i ? names[i] : "idle2", k, buf,
				       (double)c.reps_used / c.splits);
				fflush(stdout);
			}
		for (i = 0; i < 6; i++)
			an_side_free(s[i]);
		an_results_close(&res);
	}
	return 0;
}
