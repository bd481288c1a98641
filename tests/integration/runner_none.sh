#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tool = none (microbenchmark suites): no cyclictest; the workloads run to
# completion and carry the results; one that outlives the suite's timeout
# makes its repetition INVALID and is stopped.
source "$(dirname "$0")/../lib.sh"

cat >"$T/none.suite" <<'EOF2'
[suite]
repetitions = 2
[measure]
tool = none
timeout = 20s
[scenario a]
workload = hackbench-loop --groups 1 --loops 10 --runs 2
[scenario b]
workload = hackbench-loop --groups 1 --loops 10 --runs scaled(4)
EOF2
# (No comparison: hackbench-loop reports no metric a gate could judge;
# the microbenchmark suites judge sysctl-read.ns_per_read and the like.)
"$RTGATE" run --duration-scale 0.5 "$T/none.suite" >"$T/out" 2>"$T/err"
is "$?" 0 "a tool = none run passes"
m=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/manifest.json
is "$(jget "$m" .suite.measure.tool)" none "the manifest says tool none"
is "$(jget "$m" '[.scenarios[].repetitions[].processes[].name] | unique | join(",")')" \
	hackbench-loop "no cyclictest was started"
is "$(jget "$m" '[.scenarios[].repetitions[].workloads["hackbench-loop"].runs] | join(",")')" \
	"2,2,2,2" "each workload ran to completion (scaled(4) x 0.5 = 2 runs)"
is "$(jget "$m" '[.scenarios[].repetitions[].processes[].exit.code] | unique | join(",")')" \
	0 "and exited 0 by itself"
check "the summary table says so" -- \
	grep -q "no cyclictest: see the workload summaries" "$T/out"

# A workload that never ends: the timeout stops it, the repetition is INVALID.
cat >"$T/forever.suite" <<'EOF2'
[suite]
repetitions = 1
[measure]
tool = none
timeout = 2s
[scenario a]
workload = hackbench-loop --groups 1 --loops 10
EOF2
start=$SECONDS
"$RTGATE" run "$T/forever.suite" >"$T/out2" 2>"$T/err2"
is "$?" 2 "a timed-out microbenchmark is INVALID (exit 2)"
m=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/manifest.json
check "the reason names the timeout" -- \
	grep -q "did not finish within the suite's timeout (2 s)" \
	<<<"$(jget "$m" '.scenarios[0].repetitions[0].reason')"
check "it was stopped promptly" -- test $((SECONDS - start)) -lt 30
is "$(leftover_procs 2>/dev/null | wc -l)" 0 "no process of the run is left"

done_testing
