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

int runner_cmd_run(int argc, char **argv);
int runner_cmd_calibrate(int argc, char **argv);
int runner_cmd_restore(int argc, char **argv);

#endif
