#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kill loop of tests/integration/kill_loop.sh at full length: 60 kills
# at random moments (KILLS=N to change it; KILL_SEED=S to replay one).
KILLS=${KILLS:-60} exec bash "$(dirname "$0")/../integration/kill_loop.sh"
