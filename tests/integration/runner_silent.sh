#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate run --silent` on this machine (docs/runner.md, "A silent run"):
# the run is staged in a tmpfs and reaches its results directory whole;
# the stage is gone afterwards; every repetition says what crossed to the
# host (host_io); kernel.printk is 1 during the run and restored after;
# the progress is plain lines. A stage that is not there, or that others
# could change, stops the run before anything changes (exit 4, one
# message naming it).
source "$(dirname "$0")/../lib.sh"

export RTGATE_RESULTS_DIR=$T/results
stage=$T/stage
mkdir -p "$stage"
before=$(cat /proc/sys/kernel/printk)

# Reads kernel.printk while the run measures.
( for _ in $(seq 1 40); do cat /proc/sys/kernel/printk; sleep 0.25; done ) \
	>"$T/printk" &
watch=$!
RTGATE_STAGE_DIR=$stage run_suite smoke --silent --duration 2s
wait "$watch"
ok $([ $rc -le 2 ]; echo $?) "the silent run judged (exit $rc)"
is "$(jget "$m" .status)" complete "its results are complete where --out says"
is "$(ls -A "$stage" | wc -l)" 0 "the stage is gone"
is "$(jq '[.scenarios[].repetitions[] | select(.host_io | type != "object")] | length' "$m")" \
	0 "every repetition has host_io"
is "$(jq '[.scenarios[].repetitions[].host_io.silent | select(type != "boolean")] | length' "$m")" \
	0 "... with a silent flag"
check "kernel.printk was 1 during the run" -- grep -q '^1[[:space:]]' "$T/printk"
is "$(cat /proc/sys/kernel/printk)" "$before" "kernel.printk restored"
check "the report files are in the results directory" -- \
	test -s "$dir/report.json" -a -s "$dir/report.txt"
check "progress in plain lines, no redraws" -- bash -c "! grep -q $'\r' '$T/out'"
check "the start line says it is silent" -- grep -q "silent: staged in memory" "$T/out"

RTGATE_STAGE_DIR=$T/nonexistent "$RTGATE" run smoke --silent --no-history \
	--duration 1s >"$T/o2" 2>"$T/e2"
is $? 4 "a stage that is not there: exit 4"
is "$(grep -c error "$T/e2")" 1 "one error"
check "it names the stage" -- grep -q "stage $T/nonexistent" "$T/e2"
mkdir -p "$T/open" && chmod 777 "$T/open"
RTGATE_STAGE_DIR=$T/open "$RTGATE" run smoke --silent --no-history \
	--duration 1s >"$T/o3" 2>"$T/e3"
is $? 4 "a stage others could change: exit 4"
check "it says why" -- grep -q "mode 0777" "$T/e3"
is "$(cat /proc/sys/kernel/printk)" "$before" "kernel.printk untouched by the refusals"

done_testing
