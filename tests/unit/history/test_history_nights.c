// SPDX-License-Identifier: GPL-2.0-only
/*
 * The night is the unit (issue 23 item 5), measured on real recordings:
 * how often a night of an unchanged machine and kernel is called changed
 * against its history, and whether a planted step is flagged on its night.
 *
 * Recorded sittings (tests/fixtures/real, which tuned the analyzer's
 * rules; tests/fixtures/validation, which tuned nothing; the overload
 * sitting busy-4, which changed two rules, beside the validation
 * sittings of its machine) are stored as nights in a scratch history
 * database through the import API and judged with history_judge_run(),
 * the nightly's entry point: every scenario of the suite against the K
 * nights before it, at its share of alpha. Two kinds of night:
 *
 *  - rounds as nights: round r of a sitting (one repetition of each
 *    scenario) is one night, so a sitting is ten nights minutes apart;
 *  - sittings as nights: three rounds of a sitting (quick.suite's three
 *    repetitions) are one night, every night of a draw from another
 *    sitting of one machine and kernel (hours apart); five and four such
 *    sittings, so K = 3 only.
 *
 * A night is a false alarm when any scenario of it is a REGRESSION or an
 * IMPROVEMENT. One night is not a step (history_judge.c): a night that
 * rises alone on a quantile is held (INCONCLUSIVE, the next night
 * decides) and a step that stays is a REGRESSION dated to its first
 * night. The planted steps: from night K + 2 on, idle is the same rounds'
 * inject100 (or inject300: the spinner on CPU 1, 5 % of it), the other
 * scenarios as they were; a step is flagged on its night when idle is
 * held or a REGRESSION there, and dated when night K + 3 is a REGRESSION
 * since night K + 2 (or night K + 2 was one alone) and the clean night
 * before it was not.
 *
 * A draw is a sequence of K + 3 nights: night K + 1 against nights 1..K
 * (A/A), nights K + 2 and K + 3 stepped, each against the K nights before
 * it. By default the draws are those that share no night, in recording
 * order (a sitting's rounds 1-6 at K = 3, 1-8 at 5, 1-10 at 7; the
 * sittings' rounds 1-3, 4-6, 7-9); with `-n N`, N random draws per
 * sitting (per machine where sittings are nights): docs/nightly.md's
 * figures are -n 100. Rates are printed with Clopper-Pearson 95 %
 * intervals counted over independent judgements (ones that share no
 * night: a sitting's ten rounds hold floor(10 / (K + 1)) A/A judgements),
 * not over the draws.
 *
 * Asserted: no step is ever passed (NO CHANGE or IMPROVEMENT); where the
 * full replay keeps A/A false alarms within alpha (every row since steps
 * must stay), -n N keeps them there and the default draws show no
 * evidence against it (the interval's lower end within alpha). A row
 * whose full replay were above alpha would be printed and skipped, saying
 * so, never tuned to pass.
 */
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
#include "fsio.h"
#include "history/history.h"
#include "jsonio.h"
#include "log.h"

#define ALPHA		0.05
#define MAX_ROUNDS	10
#define MAX_SEQ		(7 + 3)
#define MAX_NIGHTS	64

#include "nights_draw.h"

/* Sittings as nights: a sitting's rounds 1-3, 4-6 and 7-9. */
#define TRIPLES		3
#define NSTEPS		2
#define FUTURE		"2099-01-01T00:00:00Z"

struct sitting {
	const char *dir;
	const char *name;
	cJSON *m;
	int rounds;
};

/* In recording order. */
static struct sitting tuning[] = {
	{ "tests/fixtures/real/busy-1", "busy-1" },
	{ "tests/fixtures/real/busy-2", "busy-2" },
	{ "tests/fixtures/real/busy-3", "busy-3" },
	{ "tests/fixtures/real/quiet-1", "quiet-1" },
	{ "tests/fixtures/real/quiet-2", "quiet-2" },
};

static struct sitting validation[] = {
	{ "tests/fixtures/validation/shapes-v1", "shapes-v1" },
	{ "tests/fixtures/validation/busy-v2", "busy-v2" },
	{ "tests/fixtures/validation/quiet-v1", "quiet-v1" },
	{ "tests/fixtures/validation/busy-v3", "busy-v3" },
};

/* The validation day's machine and kernel with record.suite. */
static struct sitting day2[] = {
	{ "tests/fixtures/overload/busy-4", "busy-4" },
	{ "tests/fixtures/validation/busy-v2", "busy-v2" },
	{ "tests/fixtures/validation/quiet-v1", "quiet-v1" },
	{ "tests/fixtures/validation/busy-v3", "busy-v3" },
};

#define NSIT(a)	(sizeof(a) / sizeof((a)[0]))

/* The planted steps: tonight's idle is this scenario of the same rounds. */
static const char *const steps[NSTEPS] = { "inject100", "inject300" };

/*
 * One measurement: a kind of night, K, and what the full replay (-n 100,
 * docs/nightly.md) measured; above alpha there, it is reported and not
 * asserted (issue 23 item 5 is not met there), never tuned away.
 */
struct config {
	const char *name;
	struct sitting *sit;
	size_t nsit;
	bool rounds;		/* rounds as nights; else sittings */
	unsigned int k;
	double full;		/* A/A false alarms a night, -n 100 */
	uint64_t seed;
};

static size_t draws;		/* -n: random draws; 0: the disjoint ones */
static char tmp[64];
static struct history h;

static const cJSON *rep_of(const cJSON *sc, int round)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(sc, "repetitions"))
		if ((int)json_get_num(r, "rep", -1) == round)
			return r;
	return NULL;
}

static const cJSON *scenario_of(const cJSON *m, const char *name)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, cJSON_GetObjectItem(m, "scenarios"))
		if (!strcmp(json_get_str(s, "name", ""), name))
			return s;
	return NULL;
}

static void open_sitting(struct sitting *s)
{
	struct json_error err;
	const cJSON *sc;
	char path[PATH_MAX];
	int n;

	if (s->m)
		return;
	snprintf(path, sizeof(path), "%s/manifest.json", s->dir);
	assert_int_equal(json_read_file(path, &s->m, &err), 0);
	s->rounds = 0;
	cJSON_ArrayForEach(sc, cJSON_GetObjectItem(s->m, "scenarios")) {
		n = cJSON_GetArraySize(cJSON_GetObjectItem(sc, "repetitions"));
		if (n > s->rounds)
			s->rounds = n;
	}
	assert_true(s->rounds > 0 && s->rounds <= MAX_ROUNDS);
}

/*
 * Rounds first .. first + n - 1 of sitting @s stored as a run of its own,
 * @id, dated in the future (a draw moves the nights it uses before it).
 * The repetition directories are links to the recording; with @step,
 * idle's are the same rounds' @step scenario's.
 */
static void store_night(const struct sitting *s, const char *id, int first,
			int n, const char *step)
{
	struct history_import_stats st = { 0 };
	char run[128], path[PATH_MAX + 256], src[PATH_MAX + 256];
	char top[PATH_MAX];
	cJSON *m = cJSON_Duplicate(s->m, true), *sc;
	int r;

	assert_non_null(realpath(s->dir, top));
	snprintf(run, sizeof(run), "%s/%s", tmp, id);
	cJSON_ReplaceItemInObject(m, "run_id", cJSON_CreateString(id));
	cJSON_ReplaceItemInObject(m, "start_time", cJSON_CreateString(FUTURE));
	cJSON_DeleteItemFromObject(m, "order");
	cJSON_ArrayForEach(sc, cJSON_GetObjectItem(m, "scenarios")) {
		const char *name = json_get_str(sc, "name", "");
		const cJSON *from = sc;
		cJSON *keep = cJSON_CreateArray();
		int ok = 0;

		if (step && !strcmp(name, "idle"))
			from = scenario_of(s->m, step);
		assert_non_null(from);
		for (r = first; r < first + n; r++) {
			const cJSON *rep = rep_of(sc, r), *f = rep_of(from, r);

			if (!rep || !f)
				continue;
			cJSON_AddItemToArray(keep, cJSON_Duplicate(rep, true));
			ok += !strcmp(json_get_str(f, "status", ""), "ok");
			snprintf(path, sizeof(path), "%s/%s", run, name);
			assert_int_equal(fsio_mkdir_p(path, 0755), 0);
			snprintf(path, sizeof(path), "%s/%s", run,
				 json_get_str(rep, "dir", ""));
			snprintf(src, sizeof(src), "%s/%s", top,
				 json_get_str(f, "dir", ""));
			assert_int_equal(symlink(src, path), 0);
		}
		cJSON_ReplaceItemInObject(sc, "repetitions", keep);
		cJSON_ReplaceItemInObject(sc, "status", cJSON_CreateString(
			ok == n ? "ok" : ok ? "partial" : "invalid"));
	}
	snprintf(path, sizeof(path), "%s/manifest.json", run);
	assert_int_equal(json_write_file(path, m), 0);
	cJSON_Delete(m);
	assert_int_equal(history_import_run(&h, run, &st), 0);
	assert_int_equal(st.imported, 1);
}

/* A night of a pool: @n rounds of a sitting from @first. */
struct night {
	struct sitting *s;
	int first, n;
};

/*
 * The run id of a night, clean (@step NULL) or stepped, stored at its
 * first use: "quiet-1-r08", "busy-2-t03-inject100". False when the
 * sitting has no @step scenario.
 */
static bool night_id(const struct night *nt, const char *step, char *id,
		     size_t len)
{
	struct history_run run;

	if (step && !scenario_of(nt->s->m, step))
		return false;
	snprintf(id, len, "%s-%s%02d%s%s", nt->s->name, nt->n == 1 ? "r" :
		 "t", nt->n == 1 ? nt->first : 1 + nt->first / nt->n,
		 step ? "-" : "", step ? step : "");
	if (history_find_run(&h, id, &run))
		store_night(nt->s, id, nt->first, nt->n, step);
	return true;
}

struct step_tally {
	size_t n;		/* stepped nights judged */
	size_t flagged;		/* idle a REGRESSION on its night */
	size_t dated;		/* ... and not the night before */
	size_t datable;		/* steps whose night before was judged */
	size_t passed;		/* idle NO CHANGE or IMPROVEMENT */
	double ind;		/* independent ones */
};

struct tally {
	size_t aa;		/* A/A nights judged */
	size_t alarms;		/* of them, a REGRESSION or IMPROVEMENT */
	size_t reg, imp;	/* nights with a REGRESSION, an IMPROVEMENT */
	size_t quiet;		/* every scenario NO CHANGE */
	size_t scen, scen_alarms;	/* scenario verdicts, and alarms */
	double ind;		/* independent A/A judgements */
	/* What the alarms rest on: a quantile line, the maximum (its typical
	 * value or its tail law), a spike, anything else. */
	size_t on_q, on_max, on_spike, on_other;
	struct step_tally step[NSTEPS];
};

static const struct history_judgement *
find(const struct history_judgement *j, size_t n, const char *scenario)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(j[i].scenario, scenario))
			return &j[i];
	return NULL;
}

static bool is(const struct history_judgement *j, enum an_verdict v)
{
	return j && !strcmp(j->verdict, an_verdict_name(v));
}

/* @ids[0..n) dated on nights @day[0..n); every other night later. */
static void place(char ids[][96], const int *day, size_t n)
{
	char sql[256];
	size_t i;

	assert_int_equal(history_exec(&h, "UPDATE runs SET start_time = '"
				      FUTURE "' WHERE start_time < '"
				      FUTURE "'"), 0);
	for (i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql), "UPDATE runs SET start_time = "
			 "'2027-01-%02dT02:00:00Z' WHERE run_id = '%.95s'",
			 day[i], ids[i]);
		assert_int_equal(history_exec(&h, sql), 0);
	}
}

/* Tonight against the K nights before it, as the nightly judges it. */
static void judge(const char *id, unsigned int k,
		  struct history_judgement **j, size_t *n)
{
	struct history_judge_params p = { .history = k };
	size_t i;

	assert_int_equal(history_judge_run(&h, id, &p, j, n), 0);
	assert_true(*n > 0);
	for (i = 0; i < *n; i++)
		assert_true((*j)[i].baseline_runs <= k);
	assert_string_equal((*j)[0].scenario, "idle");
	assert_int_equal((*j)[0].baseline_runs, k);
}

/* "CPU 1 p99 rose from ...", "CPU 1 max against the baseline's tail law
 * rose ...", "a spike: ..." */
static void count_line(struct tally *t, const char *reason)
{
	char what[16] = "";
	int cpu;

	if (!strncmp(reason, "a spike", 7))
		t->on_spike++;
	else if (sscanf(reason, "CPU %d %15s", &cpu, what) == 2 &&
		 what[0] == 'p')
		t->on_q++;
	else if (!strcmp(what, "max"))
		t->on_max++;
	else
		t->on_other++;
}

static void count_aa(struct tally *t, const struct history_judgement *j,
		     size_t n, const char *id)
{
	bool reg = false, imp = false, quiet = true;
	size_t i;

	for (i = 0; i < n; i++) {
		bool r = is(&j[i], AN_REGRESSION);
		bool m = is(&j[i], AN_IMPROVEMENT);

		reg |= r;
		imp |= m;
		quiet &= is(&j[i], AN_NO_CHANGE);
		t->scen++;
		t->scen_alarms += r || m;
		if (r || m)
			count_line(t, j[i].reason);
		if ((r || m) && !draws)
			printf("# A/A %s: %s %s: %.200s\n", id, j[i].scenario,
			       j[i].verdict, j[i].reason);
	}
	t->aa++;
	t->alarms += reg || imp;
	t->reg += reg;
	t->imp += imp;
	t->quiet += quiet;
}

/* The nights of a draw stored so far, and the dates they are judged on. */
struct nights {
	char ids[MAX_SEQ][96];
	int day[MAX_SEQ];
	size_t n;
};

/* Tonight's stepped night (the step since it began) judged. */
static void judge_stepped(struct nights *nt, unsigned int k,
			  struct history_judgement **j, size_t *n)
{
	place(nt->ids, nt->day, nt->n);
	judge(nt->ids[nt->n - 1], k, j, n);
}

/*
 * One draw of len = K + 3 nights of a pool: nights 1..K + 1 clean on
 * consecutive dates, night K + 1 judged against nights 1..K (A/A); then,
 * for each step, nights K + 2 and K + 3 stepped and judged in turn. A
 * night that rises alone on a quantile is held (INCONCLUSIVE, the next
 * night decides), so the step is flagged on its night when it is held
 * or a REGRESSION there, and dated when the night after it is a
 * REGRESSION since it (or it was a REGRESSION alone, a spike) and the
 * clean night before was not. With len = K + 2 (too few sittings) only
 * night K + 2 is stepped (not datable); with len = K + 1, the stepped
 * night is night K + 1 itself on the same date (not before it, so not in
 * its history either way), judged against nights 1..K.
 */
static void draw(const struct night *pool, const size_t *seq, size_t len,
		 unsigned int k, struct tally *t)
{
	struct history_judgement *j, *j2, *jp;
	const struct history_judgement *prev, *idle, *idle2;
	struct nights nt = { .n = 0 };
	size_t i, v, n, n2, np, first;

	assert_true(len >= k + 1 && len <= k + 3);
	for (i = 0; i <= k; i++) {
		assert_true(night_id(&pool[seq[i]], NULL, nt.ids[i], 96));
		nt.day[i] = (int)i + 1;
	}
	nt.n = k + 1;
	place(nt.ids, nt.day, nt.n);
	judge(nt.ids[k], k, &jp, &np);
	count_aa(t, jp, np, nt.ids[k]);
	prev = find(jp, np, "idle");
	first = len == k + 1 ? k : k + 1;
	for (v = 0; v < NSTEPS; v++) {
		struct step_tally *st = &t->step[v];

		nt.n = first;
		if (!night_id(&pool[seq[first]], steps[v], nt.ids[first], 96))
			continue;
		nt.day[first] = (int)(first == k ? k + 1 : k + 2);
		nt.n = first + 1;
		judge_stepped(&nt, k, &j, &n);
		idle = find(j, n, "idle");
		st->n++;
		st->flagged += is(idle, AN_REGRESSION) || idle->held;
		st->passed += is(idle, AN_NO_CHANGE) ||
			      is(idle, AN_IMPROVEMENT);
		if (!draws && !is(idle, AN_REGRESSION) && !idle->held)
			printf("# %s: %s: %.200s\n", nt.ids[first],
			       idle->verdict, idle->reason);
		if (len == k + 3 &&
		    night_id(&pool[seq[k + 2]], steps[v], nt.ids[k + 2], 96)) {
			nt.day[k + 2] = (int)k + 3;
			nt.n = k + 3;
			judge_stepped(&nt, k, &j2, &n2);
			idle2 = find(j2, n2, "idle");
			st->passed += is(idle2, AN_NO_CHANGE) ||
				      is(idle2, AN_IMPROVEMENT);
			st->datable++;
			st->dated += !is(prev, AN_REGRESSION) &&
				     ((is(idle, AN_REGRESSION) &&
				       !*idle->since_run_id) ||
				      (is(idle2, AN_REGRESSION) &&
				       !strcmp(idle2->since_run_id,
					       nt.ids[first])));
			if (!draws && !is(idle2, AN_REGRESSION))
				printf("# %s: %s: %.200s\n", nt.ids[k + 2],
				       idle2->verdict, idle2->reason);
			free(j2);
		}
		free(j);
	}
	free(jp);
}

static void report(const struct config *c, const struct tally *t)
{
	double rate = (double)t->alarms / t->aa, lo, hi;
	size_t v;

	cp95(rate * t->ind, t->ind, &lo, &hi);
	printf("# %s: A/A %.1f%% of %zu nights false alarms (REGRESSION "
	       "%.1f%%, IMPROVEMENT %.1f%%; %.2f%% of %zu scenario verdicts; "
	       "every scenario NO CHANGE in %.0f%%); 95%% CP over %.0f "
	       "independent: %.1f-%.1f%%\n", c->name, 100 * rate, t->aa,
	       100.0 * t->reg / t->aa, 100.0 * t->imp / t->aa,
	       100.0 * t->scen_alarms / t->scen, t->scen,
	       100.0 * t->quiet / t->aa, t->ind, 100 * lo, 100 * hi);
	if (t->scen_alarms)
		printf("# %s: the alarms rest on a quantile line %zu, the "
		       "maximum %zu, a spike %zu, other %zu\n", c->name,
		       t->on_q, t->on_max, t->on_spike, t->on_other);
	for (v = 0; v < NSTEPS; v++) {
		const struct step_tally *st = &t->step[v];

		if (!st->n)
			continue;
		cp95((double)st->flagged / st->n * st->ind, st->ind, &lo,
		     &hi);
		printf("# %s: step idle := %s flagged on its night in %.1f%% "
		       "of %zu (95%% CP over %.0f independent: %.1f-%.1f%%)",
		       c->name, steps[v], 100.0 * st->flagged / st->n, st->n,
		       st->ind, 100 * lo, 100 * hi);
		if (st->datable)
			printf(", dated in %.1f%% of %zu",
			       100.0 * st->dated / st->datable, st->datable);
		printf(", passed in %zu\n", st->passed);
	}
	fflush(stdout);
}

/*
 * The pool of a config: rounds as nights (one sitting's rounds, one
 * repetition of each scenario a night) or sittings as nights (TRIPLES
 * nights of three rounds a sitting).
 */
static size_t pool_of(const struct config *c, size_t s, struct night *pool)
{
	size_t i, n = 0, x;

	if (c->rounds) {
		open_sitting(&c->sit[s]);
		for (i = 0; i < (size_t)c->sit[s].rounds; i++)
			pool[n++] = (struct night){ &c->sit[s], (int)i + 1, 1 };
		return n;
	}
	for (x = 0; x < c->nsit; x++) {
		open_sitting(&c->sit[x]);
		for (i = 0; i < TRIPLES; i++)
			pool[n++] = (struct night){ &c->sit[x],
						    3 * (int)i + 1, 3 };
	}
	return n;
}

static void run_config(const struct config *c, struct tally *t)
{
	struct night pool[MAX_NIGHTS];
	size_t s, b, d, i, n, len, seq[MAX_SEQ], who[MAX_SEQ];
	const unsigned int k = c->k;

	rng = c->seed;
	for (s = 0; c->rounds && s < c->nsit; s++) {
		size_t before = t->alarms, fl = t->step[0].flagged;

		n = pool_of(c, s, pool);
		/* Judgements that share no night are independent. */
		t->ind += (double)(n / (k + 1));
		for (i = 0; i < NSTEPS; i++)
			if (scenario_of(c->sit[s].m, steps[i]))
				t->step[i].ind += (double)(n / (k + 3));
		for (b = 0; !draws && b < n / (k + 3); b++) {
			for (i = 0; i < k + 3; i++)
				seq[i] = b * (k + 3) + i;
			draw(pool, seq, k + 3, k, t);
		}
		for (d = 0; d < draws; d++) {
			pick(n, k + 3, -1, seq);
			draw(pool, seq, k + 3, k, t);
		}
		if (draws)
			printf("#   %s: %zu of %zu nights false alarms, "
			       "step %s flagged in %zu\n", c->sit[s].name,
			       t->alarms - before, draws, steps[0],
			       t->step[0].flagged - fl);
	}
	if (c->rounds)
		return;
	/* Sittings as nights: every night of a draw from another sitting. */
	n = pool_of(c, 0, pool);
	assert_true(c->nsit >= k + 1);
	len = c->nsit >= k + 3 ? k + 3 : c->nsit >= k + 2 ? k + 2 : k + 1;
	/* The triples of a sitting share no round. */
	t->ind = (double)(TRIPLES * (c->nsit / (k + 1)));
	for (i = 0; i < NSTEPS; i++)
		t->step[i].ind = (double)(TRIPLES * (c->nsit / len));
	for (b = 0; !draws && b < TRIPLES; b++) {
		for (i = 0; i < len; i++)
			seq[i] = i * TRIPLES + b;
		draw(pool, seq, len, k, t);
	}
	for (d = 0; d < draws; d++) {
		pick(c->nsit, len, -1, who);
		for (i = 0; i < len; i++)
			seq[i] = who[i] * TRIPLES + next() % TRIPLES;
		draw(pool, seq, len, k, t);
	}
}

static void test_config(void **state)
{
	const struct config *c = *state;
	struct tally t = { 0 };
	double rate, lo, hi;
	size_t v;

	run_config(c, &t);
	report(c, &t);
	/* A step is never passed, whatever the nights say. */
	for (v = 0; v < NSTEPS; v++)
		assert_int_equal(t.step[v].passed, 0);
	rate = (double)t.alarms / t.aa;
	if (c->full > ALPHA) {
		printf("# %s: A/A false alarms %.1f%% of nights on the full "
		       "replay, above alpha: issue 23 item 5 is not met "
		       "here (docs/nightly.md); not asserted%s\n", c->name,
		       100 * c->full, draws && rate <= ALPHA ?
		       "; within alpha now: update the table" : "");
		skip();
	}
	if (draws) {
		assert_true(rate <= ALPHA);
		return;
	}
	/* The independent draws alone: no evidence of more than alpha. */
	cp95((double)t.alarms, (double)t.aa, &lo, &hi);
	assert_true(lo <= ALPHA);
}

static int setup(void **state)
{
	char path[128];

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/rtgate-nights.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(path, sizeof(path), "%s/rtgate.db", tmp);
	log_set_level(LOG_LEVEL_ERR);
	/* A scratch database: no fsync for each of the draws' updates. */
	return history_open(&h, path) ||
	       history_exec(&h, "PRAGMA synchronous = OFF") ? -1 : 0;
}

static int teardown(void **state)
{
	struct sitting *all[] = { tuning, validation, day2 };
	size_t nall[] = { NSIT(tuning), NSIT(validation), NSIT(day2) };
	char cmd[160];
	size_t i, x;

	(void)state;
	history_close(&h);
	for (x = 0; x < 3; x++)
		for (i = 0; i < nall[x]; i++)
			cJSON_Delete(all[x][i].m);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? -1 : 0;
}

#define CONFIG(n, set, r, kk, f, sd) \
	{ n, set, NSIT(set), r, kk, f, sd }

/* .full: the A/A rate of `-n 100` (docs/nightly.md's table). */
static const struct config configs[] = {
	CONFIG("rounds as nights, tuning sittings, K=3", tuning, true, 3,
	       0.0, 101),
	CONFIG("rounds as nights, tuning sittings, K=5", tuning, true, 5,
	       0.024, 102),
	CONFIG("rounds as nights, tuning sittings, K=7", tuning, true, 7,
	       0.038, 103),
	CONFIG("rounds as nights, validation sittings, K=3", validation,
	       true, 3, 0.018, 201),
	CONFIG("rounds as nights, validation sittings, K=5", validation,
	       true, 5, 0.038, 202),
	CONFIG("rounds as nights, validation sittings, K=7", validation,
	       true, 7, 0.045, 203),
	CONFIG("sittings as nights, the tuning machine, K=3", tuning, false,
	       3, 0.0, 301),
	CONFIG("sittings as nights, the validation day's machine, K=3",
	       day2, false, 3, 0.020, 401),
};

int main(int argc, char **argv)
{
	static char names[NSIT(configs)][160];
	struct CMUnitTest tests[NSIT(configs)];
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		draws = strtoul(argv[2], NULL, 10);
	/* A skipped one says why in the test summary. */
	for (i = 0; i < NSIT(configs); i++) {
		snprintf(names[i], sizeof(names[i]), "%s%s", configs[i].name,
			 configs[i].full > ALPHA ? ": A/A above alpha "
			 "(issue 23 item 5 not met), not asserted" : "");
		tests[i] = (struct CMUnitTest){
			.name = names[i], .test_func = test_config,
			.initial_state = (void *)&configs[i],
		};
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
