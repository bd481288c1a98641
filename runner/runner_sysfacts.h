/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The system facts rteval's report leads with (manifest.json "system",
 * docs/results.md): clocksource, cpuidle states, RT throttling, IRQ
 * affinity, THP, SMT, NUMA, microcode and DMI, each read from its
 * standard kernel interface. Read-only: nothing is ever written there.
 * A fact whose interface is absent (a VM without DMI or cpuidle) is
 * null, never an error; a whole run and the lab guest record the same.
 */
#ifndef RTGATE_RUNNER_SYSFACTS_H
#define RTGATE_RUNNER_SYSFACTS_H

#include <cjson/cJSON.h>

/*
 * The "system" object, every key present (null when absent), read under
 * @root: "" for this machine, a directory holding sys/ and proc/ for a
 * test. NULL only when memory runs out; the caller frees it.
 */
cJSON *runner_sysfacts_record(const char *root);

#endif
