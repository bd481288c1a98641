#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hackbench-loop: strict arguments, real runs counted, clean stop.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
HB=$BIN/hackbench-loop

"$HB" --help >"$T/help" 2>&1
ok $? "--help exits 0"
grep -q -- --groups "$T/help"
ok $? "--help lists --groups"

usage_error "bad --groups" --groups "$HB" --groups abc
usage_error "zero --groups" --groups "$HB" --groups 0
usage_error "bad --duration" --duration "$HB" --duration 10x
usage_error "unknown option" --frobnicate "$HB" --frobnicate
usage_error "missing value" --loops "$HB" --loops
usage_error "stray operand" 50 "$HB" 50

if ! command -v hackbench >/dev/null; then
	skip "rt-tests' hackbench not installed" "hackbench runs"
	done_testing
	exit
fi

# A fixed number of small runs: counted, with hackbench's own times.
wl_start hb "$HB" --groups 2 --loops 20 --runs 2
wl_wait_exit 60
is "$WL_RC" 0 "--runs 2 exits 0 by itself"
wl_check_summary hackbench-loop
is "$(jv .runs)" 2 "two runs counted"
is "$(jv '.work_done == .runs and .errors == 0')" true "work_done = runs, no errors"
is "$(jv '.time_mean_s > 0 and .tasks_per_run == 80')" true "hackbench's Time: was read"
is "$(cat "$WL_READY")" ready "ready was signalled"

# A missing hackbench is the environment (exit 4), not a silent pass.
wl_start nohb "$HB" --hackbench "$T/no-such-hackbench" --runs 1
wl_wait_exit 10
is "$WL_RC" 4 "a missing hackbench exits 4"
is "$(jv .work_done)" 0 "... and reports no work"

# Long runs stopped by SIGTERM: hackbench and all its workers go too.
wl_start stop "$HB" --groups 4 --loops 100000
wl_wait_ready 10
ok $? "ready while hackbench runs"
sleep 0.5
n=$(wl_group_procs | wc -l)
[ "$n" -gt 100 ]
ok $? "hackbench's workers run in the workload's group ($n processes)"
wl_sigterm_check hackbench-loop 10
is "$(jv '.interrupted >= 1')" true "the cut run counts as interrupted"
is "$(jv .failures)" 0 "... not as a failure"

done_testing
