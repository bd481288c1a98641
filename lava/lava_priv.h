/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the lava/ files; not part of the contract. */
#ifndef RTGATE_LAVA_PRIV_H
#define RTGATE_LAVA_PRIV_H

/* `rtgate lava job`'s options, which `lava submit` takes too. */
struct argp;
extern const struct argp lava_job_argp;

/* `rtgate lava submit` and `rtgate lava fetch` (lava_server_cmd.c). */
int lava_cmd_submit(int argc, char **argv);
int lava_cmd_fetch(int argc, char **argv);

#endif
