#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# suites/slice-ext.suite end to end, scaled down (2,000 cyclictest loops,
# 2 repetitions, kbuild's synthetic compile load instead of a kernel tree:
# RTGATE_KBUILD_SOURCE). This kernel has no slice extension: every extend
# scenario must be SKIPPED with a reason, the controls and the load must
# run and be judged, Steven Rostedt's numbers must stand beside ours.
# Then the INVALID path: an extend scenario whose kernel granted nothing.
source "$(dirname "$0")/../lib.sh"
jqe() { jq -e "$1" "$2" >/dev/null; }

export RTGATE_KBUILD_SOURCE=synthetic
cd "$TOP" || exit 1
run_suite slice-ext --duration-scale 0.02 --repeat 2
is "$(jget "$m" .status)" complete "the run completes"
check "exit 0, 1 or 2 (a verdict, not an error)" -- test "$rc" -le 2
is "$(jget "$m" '.suite.measure.args | join(" ")')" \
	"--smp -p95 -m -s --system -b 1000" "the thread's cyclictest options"
is "$(jget "$m" .suite.measure.loops)" 2000 "-l 100000 scaled by 0.02"
is "$(jget "$j" '.comparisons | length')" 8 "eight comparisons"
verdict() { jget "$j" ".comparisons[] | select(.candidate == \"$1\") | .verdict"; }
reason() { jget "$j" ".comparisons[] | select(.candidate == \"$1\") | .reason"; }

if "$BIN/extend-sched" --abi | grep -q '"abi":"none"'; then
	for s in extend-v5 extend-linux7 extend-5us-v5 extend-5us-linux7 \
		 load-extend-v5 load-extend-linux7; do
		is "$(verdict $s)" SKIPPED "$s: SKIPPED on a kernel without slice extension"
		check "... with the reason" -- grep -q \
			'no scheduler time-slice extension in this kernel (needs Linux 7.0+' \
			<<<"$(reason $s)"
	done
else
	skip "this kernel has slice extension" "extend scenarios SKIPPED"
fi
# The controls run whatever the kernel: same threads, no rseq request.
for s in control load-control; do
	check "$s is judged (neither SKIPPED nor INVALID)" -- \
		grep -qE '^(NO CHANGE|REGRESSION|IMPROVEMENT|INCONCLUSIVE)$' \
		<<<"$(verdict $s)"
done
# ok, or partial when this shared machine starved one repetition's
# cyclictest thread (the run says so; the other repetition is judged).
check "the load (kbuild + hackbench-loop) ran" -- grep -qE '^(ok|partial)$' \
	<<<"$(jget "$m" '.scenarios[] | select(.name == "load") | .status')"
is "$(jget "$dir/load/1/kbuild.json" .source)" synthetic \
	"scaled test run: kbuild's synthetic load"
check "kbuild ran make -j(2 x CPUs)" -- \
	test "$(jget "$dir/load/1/kbuild.json" .jobs)" -eq $((2 * $(nproc)))

# Published numbers beside measured ones, with their source.
check "idle -> extend (30 us): published 12 -> 39 us" -- \
	grep -qE '^extend-v5 +idle +SKIPPED +- +max 12 -> 39 us$' "$T/out"
check "idle -> extend (5 us): published 12 -> 21 us" -- \
	grep -qE '^extend-5us-v5 +idle +SKIPPED +- +max 12 -> 21 us$' "$T/out"
check "load -> load + extend: published 30 -> 34 us" -- \
	grep -qE '^load-extend-v5 +load +SKIPPED +- +max 30 -> 34 us$' "$T/out"
check "the source names the machine and its scenarios" -- grep -q \
	'published (idle, extend-v5, .*): Steven Rostedt, 2025-06, 8-core bare-metal PREEMPT_RT' \
	<(tr -s ' \n' ' ' <"$T/out")
check "report.txt: the thread's T: lines under idle" -- \
	grep -q 'T: 6 ( 4219) P:95 I:4000 C:   1290 Min:      3 Act:    3 Avg:    3 Max:       9' \
	"$dir/report.txt"
is "$(jget "$j" '.comparisons[] | select(.candidate == "control") | .published')" \
	null "report.json: the control has no publication, so no published idle max beside it"
check "the report says the run was scaled" -- \
	grep -q '^scaled run: durations and loop counts x 0.02' "$dir/report.txt"

# INVALID, not NO CHANGE: the slice-ext extend scenario on a kernel that
# grants nothing (here: extend-sched -d, which never asks).
cat >"$T/nogrant.suite" <<'SUITE'
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -s --system
loops = 1000
[scenario idle]
[scenario extend]
compare  = idle
workload = extend-sched -d
expect   = extend-sched.extensions_granted > 0
SUITE
"$RTGATE" run "$T/nogrant.suite" --no-history >"$T/out2" 2>&1
is "$?" 2 "no extension granted: exit 2"
j2=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/report.json
is "$(jget "$j2" '.comparisons[0].verdict')" INVALID "... the comparison is INVALID"
check "... because the treatment did not happen" -- grep -q \
	'extensions_granted = 0 (the treatment did not happen)' \
	<<<"$(jget "$j2" '.comparisons[0].reason')"

# The same with the counts of a real run on Linux 7.3 that asked and was
# never granted (tests/fixtures/extend-sched/README.md), replayed as the
# workload's summary: requests > 0, grants == 0 is INVALID with the
# suite's reason, and the report says so instead of a latency verdict.
FX=$TOP/tests/fixtures/extend-sched
cat >"$T/never.suite" <<SUITE
[suite]
repetitions = 2
[measure]
; -d 0: every thread at 1 ms, so none is cut short on a busy machine
cyclictest = --smp -p95 -m -d 0
loops = 500
[scenario idle]
[scenario extend]
compare  = idle
workload = as=extend-sched $FX/replay.sh $FX/never-granted.json
expect   = extend-sched.extension_requests > 0: extend-sched asked for no extension
expect   = extend-sched.extensions_granted > 0: the extension was never granted
expect   = rseq-stats.sgrant > 0: the kernel's rseq/stats counted no grant
[scenario granted]
compare  = idle
workload = as=extend-sched $FX/replay.sh $FX/granted.json
expect   = extend-sched.extensions_granted > 0: the extension was never granted
SUITE
check "the recorded summary asked and was never granted" -- jqe \
	'.abi == "linux-7.0" and .extension_requests > 0 and .extensions_granted == 0' \
	"$FX/never-granted.json"
"$RTGATE" run "$T/never.suite" --no-history >"$T/out3" 2>&1
is "$?" 2 "never granted: exit 2 (invalid), not a pass"
d3=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
j3=$d3/report.json
v3() { jget "$j3" ".comparisons[] | select(.candidate == \"$1\") | .$2"; }
is "$(v3 extend verdict)" INVALID "... the comparison is INVALID"
# The side's own reason (the comparison's names the baseline first when
# this busy machine also cut an idle repetition short).
sc3() { jget "$j3" ".scenarios[] | select(.name == \"$1\") | $2"; }
is "$(sc3 extend .status)" invalid "report.json: the extend side is invalid"
check "... saying the extension was never granted, with the count" -- grep -q \
	'the extension was never granted: extend-sched.extensions_granted = 0 (expect extend-sched.extensions_granted > 0)' \
	<<<"$(sc3 extend .reason)"
check "... and only that: it did ask" -- bash -c \
	'! grep -q "asked for no extension" <<<"$1"' _ "$(sc3 extend .reason)"
check "the manifest keeps the reason in every repetition" -- jqe \
	'[.scenarios[] | select(.name == "extend") | .repetitions[] | .status == "invalid" and (.reason | test("the extension was never granted"))] | all and length == 2' \
	"$d3/manifest.json"
# This kernel has no rseq/stats: the counter expect is not checked, and
# no repetition carries counters it did not read.
if [ -e /sys/kernel/debug/rseq/stats ]; then
	skip "this kernel has rseq/stats" "no counters without the file"
else
	check "no rseq/stats here: none in the manifest, none in the reason" -- \
		jqe '[.scenarios[].repetitions[] | has("rseq_stats")] | any | not' \
		"$d3/manifest.json"
fi
check "the granted replay passes its expect" -- jqe \
	'[.scenarios[] | select(.name == "granted") | .repetitions[].reason // "" | test("never granted")] | any | not' \
	"$d3/manifest.json"
# The analyzer shows the kernel's counters a run kept (here added to the
# manifest as a 7.3 run with CONFIG_RSEQ_STATS writes them) beside the
# workload's, per valid repetition, in report.txt and report.json.
jq '(.scenarios[] | select(.name == "granted") | .repetitions[]) += {rseq_stats: {exit: 70000, sgrant: 912, sexpir: 3, srevok: 40, syield: 905, sabort: 0}}' \
	"$d3/manifest.json" >"$T/m.json" && cp "$T/m.json" "$d3/manifest.json"
"$RTGATE" report "$d3" >/dev/null 2>"$T/report.err"
nok=$(jq '[.scenarios[] | select(.name == "granted") | .repetitions[] | select(.status == "ok")] | length' "$d3/manifest.json")
if [ "$nok" -gt 0 ]; then
	check "report.txt: the kernel's grants beside the workload's" -- grep -qE \
		"^kernel rseq/stats: sgrant 912( \\| 912)*, sexpir 3( \\| 3)*, srevok 40( \\| 40)*, syield 905( \\| 905)*, sabort 0( \\| 0)* \\(per repetition\\)$" \
		"$d3/report.txt"
	is "$(sc3 granted '.repetitions[0].rseq_stats.sgrant')" 912 \
		"report.json: each repetition's rseq_stats"
else
	skip "this busy machine cut every granted repetition short" \
		"the kernel's counters in the reports"
fi
is "$(sc3 idle '[.repetitions[] | has("rseq_stats")] | any')" false \
	"... and none where the run kept none"
is "$(leftover_procs | wc -l)" 0 "no process left behind"
done_testing
