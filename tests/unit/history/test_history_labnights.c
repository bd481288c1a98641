// SPDX-License-Identifier: GPL-2.0-only
/*
 * Nights a lab can trust (issue 36 item 4), measured on real nights of
 * the silent lab: tests/fixtures/labnights (README.md there), two series
 * of them (i997, today's suite; i1000, before it moved), each night
 * a fresh boot of a Debian 7.2 image under `--clock icount:3` on one vCPU
 * running suites/lab-night.suite (idle, three 10 s repetitions), and
 * nights after a known step: the same suite with a 30 us SCHED_FIFO
 * spinner in its `idle` (step30.suite), stored as the same line.
 *
 * The nights are stored in a scratch history database through the import
 * API and judged with history_judge_run(), the nightly's own entry point,
 * against the K nights before them. A draw is K + 3 nights of one kernel
 * and one half (tune or validate): K + 1 step-free nights, the last
 * judged against the K before it (A/A: a false alarm when REGRESSION or
 * IMPROVEMENT), then two step nights, each judged against the K nights
 * before it. The step is
 *  - flagged within two nights when either step night is a REGRESSION;
 *  - dated when that REGRESSION names the first step night as its first
 *    night (a REGRESSION on the first step night alone names none: it is
 *    dated to itself) and the step-free night before it was no alarm;
 *  - passed when a step night is NO CHANGE or IMPROVEMENT (never, here).
 *
 * Tune and validate: the nights of a kernel and kind are numbered in boot
 * order; odd boots tune, even boots validate (decided before any rate was
 * looked at). A draw never mixes the two halves, so K is at most the
 * half's step-free nights less one.
 *
 * By default each step-free night of a validation half is tonight once
 * (its K nights a seeded random choice of the others) and each step night
 * is the first of a step once (after K + 1 step-free nights drawn so), at
 * K = 7, 10 and 14: seconds. `-n N` makes N random draws a configuration,
 * `-h tune|all` takes the tuning halves too and `-k LO-HI` every K of a
 * range (docs/nightly.md's tables: `-n 100 -h all -k 7-14`). The
 * rates' Clopper-Pearson 95 % intervals
 * are counted over the distinct nights judged (step-free nights for the
 * A/A rate, first step nights for the steps), not over the draws: draws
 * that share their tonight are not independent, and those that share
 * only history nights are not quite either (docs/nightly.md says so).
 *
 * Asserted on every half: no step night is passed. On the validation
 * halves: the targets are not contradicted -- false alarms at most 1/30
 * a night (the interval's lower end), a step flagged within two nights
 * in 95 % and dated in 90 % (the upper ends). On today's series (i997:
 * 90-94 step-free and 60-63 step nights a validation half) they are
 * also shown, by the one-sided 95 % bounds, at every K; the i1000
 * nights (71-74 and 26-29) are too few to show them (docs/nightly.md).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>

#include "analyze/analyze.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"

#define FIXTURES	"tests/fixtures/labnights"
#define NSERIES		2
#define NHALVES		(4 * NSERIES)
#define SERIES_TODAY	"i997"	/* suites/lab-night.suite's measurement */
#define MAX_NIGHTS	256

#include "nights_draw.h"
#define K_MIN		7
#define K_MAX		14
#define MAX_SEQ		(K_MAX + 3)
#define FUTURE		"2099-01-01T00:00:00Z"
#define AA_TARGET	(1.0 / 30)
#define FLAG_TARGET	0.95
#define DATE_TARGET	0.90

struct night {
	int boot;		/* its number in boot order */
	char id[96];		/* its run id */
	char start[32];		/* when it was recorded (ISO 8601, UTC) */
};

/* One kernel's nights of one half, in one series. */
struct half {
	const char *series;	/* "i997" (today's lab-night), "i1000" */
	const char *kernel;	/* "rt", "std" */
	bool validate;		/* even boots; odd boots tune */
	struct night clean[MAX_NIGHTS], step[MAX_NIGHTS];
	size_t nclean, nstep;
};

struct tally {
	size_t aa, alarms;	/* A/A nights judged; REGRESSION/IMPROVEMENT */
	size_t pass, aheld;	/* ... NO CHANGE; held (INCONCLUSIVE, a rise) */
	size_t steps;		/* step draws */
	size_t flagged;		/* a REGRESSION on step night 1 or 2 */
	size_t flagged1;	/* ... on step night 1 already */
	size_t held;		/* step night 1 held (INCONCLUSIVE) */
	size_t dated;		/* flagged and named step night 1 */
	size_t passed;		/* a step night NO CHANGE or IMPROVEMENT */
};

static const char *series;	/* -s: one series (NULL: both) */
static size_t draws;		/* -n: random draws; 0: each night once */
static const char *since;	/* -a: only nights recorded since judged */
static char tmp[64];
/*
 * A history a series and kernel: its nights are one board's, measured one
 * way. Two boots recorded side by side (one of each kernel) can share a
 * run id and the guest's host name, and the history refuses a second run
 * under one id and host.
 */
static struct history dbs[NHALVES / 2];
static struct history *h;	/* the kernel's at hand */

/*
 * The series: i1000, the nights at `-i 1000` (first: the draws' seeds
 * and docs/nightly.md's tables are theirs), and i997, today's
 * suites/lab-night.suite.
 */
static struct half halves[NHALVES] = {
	{ .series = "i1000", .kernel = "rt", .validate = false },
	{ .series = "i1000", .kernel = "rt", .validate = true },
	{ .series = "i1000", .kernel = "std", .validate = false },
	{ .series = "i1000", .kernel = "std", .validate = true },
	{ .series = "i997", .kernel = "rt", .validate = false },
	{ .series = "i997", .kernel = "rt", .validate = true },
	{ .series = "i997", .kernel = "std", .validate = false },
	{ .series = "i997", .kernel = "std", .validate = true },
};

static struct history *db_of(const char *ser, const char *kernel)
{
	return &dbs[2 * !!strcmp(ser, "i1000") + !!strcmp(kernel, "rt")];
}

/* Stores FIXTURES/SERIES/KERNEL/KIND/NN and returns its run id in @n. */
static void store(const char *ser, const char *kernel, const char *kind,
		  const char *nn, struct night *n)
{
	struct history_import_stats st = { 0 };
	struct json_error err;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	cJSON *m;

	snprintf(dir, sizeof(dir), FIXTURES "/%s/%s/%s/%s", ser, kernel, kind,
		 nn);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	assert_int_equal(json_read_file(path, &m, &err), 0);
	snprintf(n->id, sizeof(n->id), "%s", json_get_str(m, "run_id", ""));
	snprintf(n->start, sizeof(n->start), "%s",
		 json_get_str(m, "start_time", ""));
	assert_string_equal(json_get_str(m, "status", ""), "complete");
	cJSON_Delete(m);
	n->boot = atoi(nn);
	assert_int_equal(history_import_run(h, dir, &st), 0);
	assert_int_equal(st.imported, 1);
}

static int by_boot(const void *a, const void *b)
{
	return ((const struct night *)a)->boot -
	       ((const struct night *)b)->boot;
}

/* Every night of SERIES/KERNEL/KIND into the half its boot number says. */
static void load(const char *ser, const char *kernel, const char *kind)
{
	char dir[PATH_MAX];
	struct dirent *e;
	struct night n;
	size_t i;
	DIR *d;

	h = db_of(ser, kernel);
	snprintf(dir, sizeof(dir), FIXTURES "/%s/%s/%s", ser, kernel, kind);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		store(ser, kernel, kind, e->d_name, &n);
		for (i = 0; i < NHALVES; i++) {
			struct half *x = &halves[i];

			if (strcmp(x->series, ser) || strcmp(x->kernel, kernel) ||
			    x->validate != !(n.boot % 2))
				continue;
			if (!strcmp(kind, "clean")) {
				assert_true(x->nclean < MAX_NIGHTS);
				x->clean[x->nclean++] = n;
			} else {
				assert_true(x->nstep < MAX_NIGHTS);
				x->step[x->nstep++] = n;
			}
		}
	}
	closedir(d);
	for (i = 0; i < NHALVES; i++) {
		qsort(halves[i].clean, halves[i].nclean, sizeof(n), by_boot);
		qsort(halves[i].step, halves[i].nstep, sizeof(n), by_boot);
	}
}

/* @ids[0..n) on nights 1..n; every other night after them. */
static void place(const struct night **seq, size_t n)
{
	char sql[256];
	size_t i;

	assert_int_equal(history_exec(h, "UPDATE runs SET start_time = '"
				      FUTURE "' WHERE start_time < '"
				      FUTURE "'"), 0);
	for (i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql), "UPDATE runs SET start_time = "
			 "'2027-01-%02zuT02:00:00Z' WHERE run_id = '%.95s'",
			 i + 1, seq[i]->id);
		assert_int_equal(history_exec(h, sql), 0);
	}
}

static bool is(const struct history_judgement *j, enum an_verdict v)
{
	return !strcmp(j->verdict, an_verdict_name(v));
}

/*
 * Night @n of @seq against the K nights before it, every night of the
 * draw so far dated in order (the night model reads back further).
 */
static void judge(const struct night **seq, size_t n, unsigned int k,
		  struct history_judgement *out)
{
	struct history_judge_params p = { .history = k };
	struct history_judgement *j;
	size_t nj;

	place(seq, n + 1);
	assert_int_equal(history_judge_run(h, seq[n]->id, &p, &j, &nj), 0);
	assert_int_equal(nj, 1);
	assert_string_equal(j[0].scenario, "idle");
	assert_int_equal(j[0].baseline_runs, k);
	*out = j[0];
	free(j);
}

static bool is_alarm(const struct history_judgement *j)
{
	return is(j, AN_REGRESSION) || is(j, AN_IMPROVEMENT);
}

/*
 * One draw: step-free nights @clean[0..k] (the last is tonight), then
 * step nights @s1 and @s2.
 */
static void draw(const struct half *x, const size_t *clean, size_t s1,
		 size_t s2, unsigned int k, bool aa_only, bool count_aa,
		 struct tally *t)
{
	const struct night *seq[MAX_SEQ];
	struct history_judgement aa, j1, j2;
	bool flagged, dated;
	size_t i;

	for (i = 0; i <= k; i++)
		seq[i] = &x->clean[clean[i]];
	judge(seq, k, k, &aa);
	if (count_aa) {
		t->aa++;
		t->alarms += is_alarm(&aa);
		t->pass += is(&aa, AN_NO_CHANGE);
		t->aheld += aa.held;
		if (is_alarm(&aa) && !draws)
			printf("# A/A %s: %s: %.300s\n", seq[k]->id,
			       aa.verdict, aa.reason);
	}
	if (aa_only || x->nstep < 2)
		return;
	seq[k + 1] = &x->step[s1];
	judge(seq, k + 1, k, &j1);
	seq[k + 2] = &x->step[s2];
	judge(seq, k + 2, k, &j2);
	flagged = is(&j1, AN_REGRESSION) || is(&j2, AN_REGRESSION);
	dated = !is_alarm(&aa) &&
		((is(&j1, AN_REGRESSION) && (!*j1.since_run_id ||
		  !strcmp(j1.since_run_id, seq[k + 1]->id))) ||
		 (!is(&j1, AN_REGRESSION) && is(&j2, AN_REGRESSION) &&
		  !strcmp(j2.since_run_id, seq[k + 1]->id)));
	t->steps++;
	t->flagged += flagged;
	t->flagged1 += is(&j1, AN_REGRESSION);
	t->held += j1.held;
	t->dated += dated;
	t->passed += is(&j1, AN_NO_CHANGE) || is(&j1, AN_IMPROVEMENT) ||
		     is(&j2, AN_NO_CHANGE) || is(&j2, AN_IMPROVEMENT);
	if (!draws && !dated) {
		printf("# step %s: %s: %.300s\n", seq[k + 1]->id, j1.verdict,
		       j1.reason);
		printf("#   then %s: %s: %.300s\n", seq[k + 2]->id,
		       j2.verdict, j2.reason);
	}
}

struct config {
	struct half *x;
	unsigned int k;
	char name[64];
};

static void run(const struct config *c, struct tally *t)
{
	const struct half *x = c->x;
	size_t seq[MAX_SEQ], s[2], i, d;

	rng = 0x1abe1 + c->k * 131 + (size_t)(x - halves);
	if (draws) {
		for (d = 0; d < draws; d++) {
			pick(x->nclean, c->k + 1, -1, seq);
			if (x->nstep >= 2)
				pick(x->nstep, 2, -1, s);
			draw(x, seq, s[0], s[1], c->k, false, true, t);
		}
		return;
	}
	/*
	 * Each step-free night tonight once, each step night first once
	 * (with -a: only the nights recorded since then; their K nights and
	 * second step night from the whole half).
	 */
	for (i = 0; i < x->nclean; i++) {
		if (since && strcmp(x->clean[i].start, since) < 0)
			continue;
		pick(x->nclean, c->k, (long)i, seq);
		seq[c->k] = i;
		draw(x, seq, 0, 0, c->k, true, true, t);
	}
	for (i = 0; x->nstep >= 2 && i < x->nstep; i++) {
		if (since && strcmp(x->step[i].start, since) < 0)
			continue;
		pick(x->nclean, c->k + 1, -1, seq);
		draw(x, seq, i, (i + 1) % x->nstep, c->k, false, false, t);
	}
}

static void test_config(void **state)
{
	const struct config *c = *state;
	const struct half *x = c->x;
	struct tally t = { 0 };
	double a, f = 0, dt = 0, lo, hi, flo, fhi, dlo, dhi, u, fl = 0, dl = 0;
	double nc = (double)x->nclean, ns = (double)x->nstep;

	if (x->nclean < c->k + 1) {
		printf("# %s: %zu step-free nights, too few for K=%u\n",
		       c->name, x->nclean, c->k);
		skip();
	}
	h = db_of(x->series, x->kernel);
	run(c, &t);
	/* -a: the rates rest on the nights judged, each once. */
	if (since) {
		nc = (double)t.aa;
		ns = (double)t.steps;
	}
	a = t.aa ? (double)t.alarms / t.aa : 0;
	cp95(a * nc, nc, &lo, &hi);
	printf("# %s: A/A false alarms %zu of %zu nights (%.1f%%; 95%% CP "
	       "over %zu nights: %.1f-%.1f%%); NO CHANGE %zu, held %zu\n",
	       c->name, t.alarms, t.aa, 100 * a, (size_t)nc, 100 * lo,
	       100 * hi, t.pass, t.aheld);
	if (t.steps) {
		f = (double)t.flagged / t.steps;
		dt = (double)t.dated / t.steps;
		cp95(f * ns, ns, &flo, &fhi);
		cp95(dt * ns, ns, &dlo, &dhi);
		printf("# %s: step30 flagged within two nights %zu of %zu "
		       "(%.1f%%; 95%% CP over %zu first nights: %.1f-%.1f%%), "
		       "on its night %zu, held there %zu; dated %zu (%.1f%%; "
		       "%.1f-%.1f%%); passed %zu\n", c->name, t.flagged,
		       t.steps, 100 * f, (size_t)ns, 100 * flo, 100 * fhi,
		       t.flagged1, t.held, t.dated, 100 * dt, 100 * dlo,
		       100 * dhi, t.passed);
	}
	/*
	 * Shown, not only not contradicted: the one-sided 95 % bounds
	 * (docs/nightly.md quotes these lines).
	 */
	u = cp95_upper(a * nc, nc);
	printf("# %s: targets: false alarms at most 1/30 %s (one-sided 95%% "
	       "bound %.1f%%)", c->name, u <= AA_TARGET ? "shown" :
	       "not shown", 100 * u);
	if (t.steps) {
		fl = cp95_lower(f * ns, ns);
		dl = cp95_lower(dt * ns, ns);
		printf("; flagged at least 95%% %s (%.1f%%); dated at least "
		       "90%% %s (%.1f%%)", fl >= FLAG_TARGET ? "shown" :
		       "not shown", 100 * fl, dl >= DATE_TARGET ? "shown" :
		       "not shown", 100 * dl);
	}
	printf("\n");
	fflush(stdout);
	/* A step is never passed, whatever the nights say. */
	assert_int_equal(t.passed, 0);
	if (!x->validate)
		return;
	/* The targets, not contradicted by the validation nights. */
	assert_true(lo <= AA_TARGET);
	if (t.steps) {
		assert_true(fhi >= FLAG_TARGET);
		assert_true(dhi >= DATE_TARGET);
	}
	/*
	 * And shown by today's series, whose validation half is large
	 * enough to (each night once, not the random draws of -n).
	 */
	if (strcmp(x->series, SERIES_TODAY) || draws || since)
		return;
	assert_true(u <= AA_TARGET);
	assert_true(t.steps > 0);
	assert_true(fl >= FLAG_TARGET);
	assert_true(dl >= DATE_TARGET);
}

static int setup(void **state)
{
	char path[128];
	int i;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/rtgate-labnights.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	log_set_level(LOG_LEVEL_ERR);
	for (i = 0; i < NHALVES / 2; i++) {
		snprintf(path, sizeof(path), "%s/%d.db", tmp, i);
		if (history_open(&dbs[i], path) ||
		    history_exec(&dbs[i], "PRAGMA synchronous = OFF"))
			return -1;
	}
	for (i = 0; i < NHALVES; i += 2) {
		/* Only the series asked for: loading is most of the time. */
		if (series && strcmp(series, halves[i].series))
			continue;
		load(halves[i].series, halves[i].kernel, "clean");
		load(halves[i].series, halves[i].kernel, "step30");
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[160];
	int i;

	(void)state;
	for (i = 0; i < NHALVES / 2; i++)
		history_close(&dbs[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? -1 : 0;
}

#define NCONF	(NHALVES * K_MAX)

/*
 * [-s i997|i1000] [-n DRAWS] [-k KLO-KHI] [-h tune|validate|all] [-a ISO]:
 * both series unless -s names one (i997: today's suites/lab-night.suite;
 * i1000: the nights at `-i 1000` before it moved off the tick), K = 7, 10 and
 * 14 unless -k asks for every K of a range; the validation halves unless
 * told (the default tier's replay: what is asserted); -h tune: what a
 * rule may be chosen by looking at; -a 2026-12-07T06:00:00Z: only the
 * nights recorded since then are tonight or a step's first night, each
 * once (nights recorded after a rule was chosen check it afresh).
 */
/* Bad arguments: what is wanted, and exit 3 (docs/exit-codes.md). */
static int usage(void)
{
	fprintf(stderr, "usage: test_history_labnights [-s i997|i1000] "
		"[-n DRAWS | -a ISO-TIME] [-k KLO-KHI, 1 <= KLO <= KHI <= %d] "
		"[-h tune|validate|all]\n", K_MAX);
	return 3;
}

int main(int argc, char **argv)
{
	static struct config configs[NCONF];
	struct CMUnitTest tests[NCONF];
	unsigned int k, klo = K_MIN, khi = K_MAX;
	bool every_k = false;
	const char *which = "validate";
	size_t i, n = 0;
	int o;

	while ((o = getopt(argc, argv, "s:n:k:h:a:")) != -1) {
		if (o == 's' && (!strcmp(optarg, "i997") ||
				 !strcmp(optarg, "i1000")))
			series = optarg;
		else if (o == 'a')
			since = optarg;
		else if (o == 'n')
			draws = strtoul(optarg, NULL, 10);
		else if (o == 'h' && (!strcmp(optarg, "tune") ||
				      !strcmp(optarg, "validate") ||
				      !strcmp(optarg, "all")))
			which = optarg;
		else if (o != 'k' || sscanf(optarg, "%u-%u", &klo, &khi) != 2 ||
			 klo < 1 || klo > khi || khi > K_MAX)
			return usage();
		else
			every_k = true;
	}
	/* -a judges each recent night once: not with random draws. */
	if (since && draws)
		return usage();
	for (i = 0; i < NHALVES; i++) {
		if (series && strcmp(series, halves[i].series))
			continue;
		if (strcmp(which, "all") &&
		    halves[i].validate != !strcmp(which, "validate"))
			continue;
		for (k = klo; k <= khi; k++) {
			/* The default tier: both ends and the middle. */
			if (!every_k && k != 7 && k != 10 && k != 14)
				continue;
			configs[n].x = &halves[i];
			configs[n].k = k;
			snprintf(configs[n].name, sizeof(configs[n].name),
				 "%s: %s, %s nights, K=%u", halves[i].series,
				 halves[i].kernel,
				 halves[i].validate ? "validation" : "tuning",
				 k);
			tests[n] = (struct CMUnitTest){
				.name = configs[n].name,
				.test_func = test_config,
				.initial_state = &configs[n],
			};
			n++;
		}
	}
	return _cmocka_run_group_tests("test_history_labnights", tests, n,
				       setup, teardown);
}
