/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A lab gate's judgement of two runs (docs/kernels.md, "lab gate"): for
 * every scenario of the baseline's manifest (or the ones named), `rtgate
 * compare A:S B:S` with its reports in OUT/S/, judged by the scenario's
 * own gate as the run itself was (a timerlat scenario's IRQ latency,
 * S.irq, too). Used by `lab gate` and `bisect`.
 */
#ifndef RTGATE_LAB_GATE_H
#define RTGATE_LAB_GATE_H

/* Returns the worst comparison's exit code (docs/exit-codes.md). */
int lab_gate_compare(const char *a, const char *b,
		     const char *const *scenarios, int nr_scenarios,
		     const char *out);

/*
 * `rtgate compare A B A2 --labels LABELS` (A2 may be NULL: A against B),
 * every report into out: the A/B/A judgement of the threads, its table in
 * out/runs.txt. Returns compare's exit code, or -errno.
 */
int lab_gate_compare_aba(const char *a, const char *b, const char *a2,
			 const char *labels, const char *out);

#endif
