#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tool = timerlat on this machine's kernel: where the kernel has no
# timerlat tracer, every timerlat scenario is SKIPPED with the reason and
# rtla never starts (tests/integration/lab_timerlat.sh runs it for real in
# the lab). And the suite keys that the runner owns.
source "$(dirname "$0")/../lib.sh"

jqe() { jq -e "$1" "$2" >/dev/null; }

tracers=$(tracefs_dir)/available_tracers
"$RTGATE" run timerlat --duration-scale 0.4 --no-history >"$T/out" 2>"$T/err"
rc=$?
m=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/manifest.json
is "$(jget "$m" .suite.measure.tool)" timerlat "the manifest says tool timerlat"
if ! grep -qw timerlat "$tracers" 2>/dev/null; then
	is "$rc" 2 "no tracer: everything SKIPPED, nothing measured: exit 2"
	check "every scenario is SKIPPED" -- \
		jqe '[.scenarios[].status] | all(. == "skipped")' "$m"
	check "saying the kernel has no timerlat tracer" -- \
		jqe '.scenarios[0].reason | test("tool timerlat: this kernel has no timerlat tracer .*CONFIG_TIMERLAT_TRACER")' "$m"
	check "rtla never started" -- \
		jqe '[.scenarios[].repetitions[]] | length == 0' "$m"
	check "the IRQ latency's comparison is SKIPPED too" -- \
		grep -qE '^inject\.irq +idle\.irq +SKIPPED ' "$T/out"
	check "... and the last line says nothing was measured" -- \
		grep -q 'SKIPPED.*: nothing was measured (exit 2)$' "$T/out"
else
	check "a kernel with the tracer: a verdict" -- test "$rc" -le 2
	for i in 1 2 3 4 5; do skip "this kernel has timerlat" "SKIPPED $i"; done
fi

bad() {	# bad NAME MEASURE-LINES EXPECTED-MESSAGE
	printf '[suite]\nrequires = root\n[measure]\ntool = timerlat\n%b\n[scenario a]\n' \
		"$2" >"$T/$1.suite"
	"$RTGATE" run "$T/$1.suite" --no-history >/dev/null 2>"$T/$1.err"
	is $? 3 "$1: exit 3"
	check "$1: says so with the file and line" -- \
		grep -qF "$T/$1.suite:$3" "$T/$1.err"
}
bad runner-duration 'timerlat = -P f:95 -d 10\nduration = 2s' \
	"5: timerlat: '-d' is the runner's"
bad stops-early 'timerlat = -T 100\nduration = 2s' \
	"5: timerlat: '-T' is the runner's"
bad loops 'loops = 1000' "3: [measure] needs duration"
done_testing
