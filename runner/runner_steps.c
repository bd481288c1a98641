// SPDX-License-Identifier: GPL-2.0-only
/*
 * The order of a run's repetitions (interleaved, randomized within each
 * round, or blocked) and one step of it at a time: the repetition run
 * (runner_rep.c), recorded in the order and the manifest, with its
 * progress lines. runner_run.c and runner_sequential.c take steps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <sys/random.h>

#include "log.h"
#include "runner/measure/measure.h"
#include "runner/runner_priv.h"
#include "vec.h"
#include "stopsig.h"

/*
 * Shuffled by GSL (gsl_ran_shuffle) from a generator the kernel's entropy
 * seeds. The manifest's "order" records what ran, so the seed needs no
 * keeping; it only has to differ between runs.
 */
int runner_shuffle_steps(struct runner_step *steps, size_t n)
{
	gsl_rng *rng;
	unsigned long seed;

	if (n < 2)
		return 0;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return -ENOMEM;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (unsigned long)time(NULL) ^ (unsigned long)getpid();
	gsl_rng_set(rng, seed);
	gsl_ran_shuffle(rng, steps, n, sizeof(*steps));
	gsl_rng_free(rng);
	return 0;
}

static int build_order(struct runner *r, struct runner_step **steps,
		       size_t *nr)
{
	size_t n = r->suite.nr_scenarios, i, k = 0;
	unsigned int reps = r->run.repetitions, rep;
	int ret;

	*steps = calloc(n * reps, sizeof(**steps));
	if (!*steps)
		return -ENOMEM;
	if (r->suite.order != RUNNER_SUITE_ORDER_BLOCKED) {
		for (rep = 1; rep <= reps; rep++) {
			for (i = 0; i < n; i++)
				(*steps)[k + i] =
					(struct runner_step){ i, rep };
			if (r->suite.order == RUNNER_SUITE_ORDER_RANDOMIZED) {
				ret = runner_shuffle_steps(*steps + k, n);
				if (ret) {
					free(*steps);
					*steps = NULL;
					return ret;
				}
			}
			k += n;
		}
	} else {
		for (i = 0; i < n; i++)
			for (rep = 1; rep <= reps; rep++)
				(*steps)[k++] = (struct runner_step){ i, rep };
	}
	*nr = k;
	return 0;
}

int runner_run_step(struct runner *r, struct runner_step st)
{
	struct runner_scen_result *sr = &r->run.scens[st.scen];
	struct runner_rep_result *rr;
	int ret;

	if (sr->skipped)
		return 0;
	rr = vec_push(&sr->reps, &sr->nr_reps, sizeof(*rr));
	if (!vec_push(&r->run.order, &r->run.nr_order,
			       sizeof(*r->run.order)) || !rr)
		return -ENOMEM;
	r->run.order[r->run.nr_order - 1] = st;
	r->step++;
	runner_progress_rep_start(&r->progress, r->step, sr->sc->name, st.rep,
				  st.rep > r->run.repetitions ? st.rep :
				  r->run.repetitions);
	/* --silent: nothing leaves the machine's memory until it ends. */
	runner_silence_hold(r);
	ret = runner_rep_run(r, st.scen, st.rep, rr);
	runner_silence_release(r);
	if (ret)
		return ret;
	runner_progress_rep_end(&r->progress, runner_rep_status_name(rr->status),
				rr->reason);
	ret = runner_manifest_write(&r->run);
	if (ret)
		pr_err("%s/manifest.json: %s", r->run.dir, strerror(-ret));
	else
		ret = runner_silence_sync(r);
	return ret;
}

int runner_run_steps(struct runner *r)
{
	struct runner_step *steps;
	size_t nr, i, todo = 0;
	int ret;

	ret = build_order(r, &steps, &nr);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++)
		todo += !r->run.scens[steps[i].scen].skipped;
	runner_progress_init(&r->progress, todo,
			     runner_suite_uses_program(&r->suite, "cyclictest") ?
			     runner_ct_duration_s(&r->suite.measure, r->run.scale) : 0);
	/* Held output is printed after the repetition: lines, not redraws. */
	if (r->silence.on)
		r->progress.tty = false;
	for (i = 0; i < r->suite.nr_scenarios; i++)
		if (r->run.scens[i].skipped)
			runner_progress_note(&r->progress, "SKIPPED %s: %s",
					     r->suite.scenarios[i].name,
					     r->run.scens[i].reason);
	for (i = 0; i < nr && !stopsig_signal() && !ret; i++)
		ret = runner_run_step(r, steps[i]);
	free(steps);
	return ret;
}
