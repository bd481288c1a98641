#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The proof that the gate can fail: 6.12 RT built with and without our
# control patch (same model, same .config), the lab-control suite run in
# the lab on each. With the knob armed far above TCG's noise the analyzer
# must say REGRESSION (exit 1); with it at 0, NO CHANGE or INCONCLUSIVE
# (exit 0/2). Not the smoke suite: its 5 ms histogram and 2 repetitions
# cannot judge TCG's millisecond latencies (suites/lab-control.suite).
# The kernels stay in out/kernels (slow-rt-*) so that a second run only
# relinks them; the first costs one build (~17 min on 2 idle cores) and
# the second about 2 min from ccache.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
W=${RTGATE_INJECT_WIDTH_US:-30000}
P=${RTGATE_INJECT_PERIOD_MS:-100}
K=$RTGATE_OUT_DIR/kernels
# The gates' reports are kept for the reader (docs/kernels.md).
KEEP=$RTGATE_OUT_DIR/slow/lab_control_gate
rm -rf "$KEEP"
mkdir -p "$KEEP"

"$RTGATE" kernel build --model rt --name slow-rt-base >"$T/b1" 2>&1
is $? 0 "6.12 RT built (slow-rt-base)"
"$RTGATE" kernel build --model rt --name slow-rt-control \
	--patches control-latency >"$T/b2" 2>&1
is $? 0 "6.12 RT with the control patch built (slow-rt-control)"
check "both have one .config" -- cmp -s "$K/slow-rt-base/.config" \
	"$K/slow-rt-control/.config"
is "$(jget "$K/slow-rt-control/build.json" '.patches[0].set')" \
	control-latency "build.json names the patch set"

gate() {
	"$RTGATE" lab gate slow-rt-base slow-rt-control --suite lab-control \
		--timeout 40m --out "$T/results" "$@" >"$T/gate.out" 2>"$T/gate.err"
}

gate --append-b "rtgate_inject.width_us=$W rtgate_inject.period_ms=$P"
rc=$?
cp "$T/gate.err" "$T/armed.err"
is $rc 1 "knob at $W us every $P ms: the gate says REGRESSION (exit 1)"
rep=$(ls "$T"/results/gate-*/idle/report.json | head -1)
is "$(jget "$rep" .verdict)" REGRESSION "the analyzer's report says REGRESSION"
is "$(jget "$rep" .gate.min_increase_us)" 2000 "judged with the suite's floor"
cons=$(ls "$T"/results/*/lab-console.log | tail -1)
check "the candidate's console shows the knob armed" -- \
	grep -q "rtgate_inject: spinning $W us every $P ms" "$cons"
diag "$(grep -h 'lab gate:' "$T/armed.err")"
cp -r "$T"/results/gate-* "$KEEP/armed"

rm -rf "$T/results"
gate
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 2 ]; echo $?) \
	"knob at 0: NO CHANGE or INCONCLUSIVE (exit 0 or 2; got $rc)"
rep=$(ls "$T"/results/gate-*/idle/report.json | head -1)
ok $([ -f "$rep" ] && [ "$(jget "$rep" .verdict)" != REGRESSION ]; echo $?) \
	"the report is not a REGRESSION ($(jget "$rep" .verdict))"
diag "$(grep -h 'lab gate:' "$T/gate.err")"
cp -r "$T"/results/gate-* "$KEEP/knob-0"
diag "reports kept in $KEEP/{armed,knob-0}"

done_testing
