/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `rtgate trace`: record a command into rtgate's own instance, explain the
 * worst wake-ups of a trace.dat, compare culprits of two sets of traces,
 * count a file's events, remove instances left by killed processes.
 */
#ifndef RTGATE_TRACE_CMD_H
#define RTGATE_TRACE_CMD_H

int trace_cmd_trace(int argc, char **argv);

#endif
