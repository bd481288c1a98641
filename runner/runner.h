/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runner's commands (docs/runner.md):
 *   rtgate run SUITE|NAME [--duration T | --duration-scale F] [--repeat N]
 *              [--out DIR]
 *   rtgate restore
 *   rtgate calibrate [--suite NAME] [--duration T]
 */
#ifndef RTGATE_RUNNER_H
#define RTGATE_RUNNER_H

#include <stddef.h>

/**
 * runner_cmd_run() - `rtgate run`: a suite on the running kernel
 * @argc: the number of arguments
 * @argv: "run", the suite (a file or a NAME of suites/) and options
 *
 * Runs every repetition, writes the results directory, hands it to the
 * analyzer for its reports and to the history.
 *
 * Return: the exit code (docs/exit-codes.md): the run's verdicts, or
 * 3, 4, 5 for bad input, the environment, a run that did not complete.
 */
int runner_cmd_run(int argc, char **argv);
/**
 * runner_cmd_calibrate() - `rtgate calibrate`: this machine's noise
 * profile
 * @argc: the number of arguments
 * @argv: "calibrate" and its options
 *
 * Repetitions of a suite's measurement with nothing else running (an A/A
 * pair in randomized rounds); their scatter goes into the history, where
 * every later run of the same measurement on this host finds it
 * (docs/statistics.md).
 *
 * Return: the exit code (docs/exit-codes.md).
 */
int runner_cmd_calibrate(int argc, char **argv);
/**
 * runner_suite_lab_cpus() - the vCPU count a suite asks the lab for
 * @path: the suite file
 * @cpus: set to its `[suite] lab_cpus`, or 0 when it names none
 * @err: where "FILE:LINE: what is wrong" goes when the suite is bad
 * @len: the size of @err
 *
 * Reads the suite with the runner's own parser, so a suite the lab boots
 * for is checked on the host as `rtgate run` checks it in the guest;
 * lab_cpus is 1..64, as `lab run --cpus`.
 *
 * Return: 0; -EINVAL for a bad suite (exit 3); another -errno when the
 * file could not be read.
 */
int runner_suite_lab_cpus(const char *path, unsigned int *cpus, char *err,
			  size_t len);
/**
 * runner_cmd_restore() - `rtgate restore`: what a dead run left changed
 * @argc: the number of arguments
 * @argv: "restore"
 *
 * Return: EXITCODE_PASS (restored, or nothing to restore), EXITCODE_ENVIRONMENT
 * (not root, the state cannot be taken), or an option's exit code.
 */
int runner_cmd_restore(int argc, char **argv);

#endif
