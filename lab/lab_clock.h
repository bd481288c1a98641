/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The clock a lab guest's latencies are measured in (docs/kernels.md,
 * "The quiet lab"): the host's (the guest's time is the host's, so its
 * pauses show as latency: milliseconds under multi-threaded TCG), or
 * QEMU's instruction counter (-icount shift=N,align=off,sleep=off under
 * single-threaded TCG): guest time advances 2^N ns per instruction the
 * guest runs, whatever the host does. Such "virtual microseconds" are
 * comparable between kernels measured the same way, never with bare metal
 * or with another clock.
 */
#ifndef RTGATE_LAB_CLOCK_H
#define RTGATE_LAB_CLOCK_H

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

#define LAB_CLOCK_SHIFT_DEFAULT	3	/* 8 ns an instruction: 125 MIPS */
#define LAB_CLOCK_SHIFT_MAX	10	/* QEMU's limit */

struct lab_clock {
	bool icount;			/* false: the host's clock */
	unsigned int shift;		/* icount: 2^shift ns an instruction */
};

/*
 * "host", "icount" or "icount:N" (N in 0..LAB_CLOCK_SHIFT_MAX). Returns 0
 * or -EINVAL; NULL is the host's clock.
 */
int lab_clock_parse(const char *arg, struct lab_clock *c);

/* "host" or "icount:3": the name the manifest and the gate compare. */
void lab_clock_name(const struct lab_clock *c, char *buf, size_t len);

/* QEMU's -icount value ("shift=3,align=off,sleep=off"); icount only. */
void lab_clock_qemu_arg(const struct lab_clock *c, char *buf, size_t len);

/* What a latency measured in this clock means, one sentence. */
void lab_clock_statement(const struct lab_clock *c, char *buf, size_t len);

/* {"name", "kind", "shift", "ns_per_insn", "unit", "statement"}. */
struct cJSON *lab_clock_json(const struct lab_clock *c);

#endif
