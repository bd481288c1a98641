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

/* A lab function's -errno as a command's exit code (3, 4 or 5). */
int lab_exit_code(int err);

/* The worse of two exit codes in the documented order 3, 4, 5, 1, 2, 0. */
int lab_worse_exit(int a, int b);

/* Returns the worst comparison's exit code (docs/exit-codes.md). */
int lab_gate_compare(const char *a, const char *b,
		     const char *const *scenarios, int nr_scenarios,
		     const char *out);

#endif
