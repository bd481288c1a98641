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
 * runner_cmd_restore() - `rtgate restore`: what a dead run left changed
 * @argc: the number of arguments
 * @argv: "restore"
 *
 * Return: EXITCODE_PASS (restored, or nothing to restore), EXITCODE_ENVIRONMENT
 * (not root, the state cannot be taken), or an option's exit code.
 */
int runner_cmd_restore(int argc, char **argv);

#endif
