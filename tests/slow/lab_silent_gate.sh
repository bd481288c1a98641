#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An unchanged kernel passes the silent lab's gate on the maximum and the
# controls fail it (docs/kernels.md, "The silent lab"): `lab gate` boots
# Debian's 7.2-rt twice on one vCPU, `--clock icount:3`, silent, with
# suites/lab-silent.suite at 10 repetitions a side. The gate (every
# scenario of boot A against the same scenario of boot B) must be NO
# CHANGE, exit 0, judged on the max gate; inside each boot the 30 us and
# 100 us spinners and the rare 800 us spin must be REGRESSION against
# idle and idle2 NO CHANGE. About 40 minutes of two single-threaded
# QEMUs on 2 cores; the reports stay in out/slow/lab_silent_gate/.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
KEEP=$RTGATE_OUT_DIR/slow/lab_silent_gate

start=$SECONDS
"$RTGATE" lab gate debian:7.2-rt debian:7.2-rt --suite lab-silent --cpus 1 \
	--clock icount:3 --timeout 2h --out "$T/results" -- --repeat 10 \
	--no-history >"$T/gate.out" 2>"$T/gate.err"
rc=$?
diag "lab gate debian:7.2-rt debian:7.2-rt: $((SECONDS - start)) s, exit $rc"
is $rc 0 "the unchanged kernel passes the gate (exit 0)"
g=$(ls -d "$T"/results/gate-* 2>/dev/null | head -1)
is "$(jget "$g/idle/report.json" '.comparisons[0].verdict')" "NO CHANGE" \
	"idle of one boot against idle of the other: NO CHANGE"
is "$(jget "$g/idle/report.json" '.comparisons[0].gate.metric')" max \
	"judged with the suite's max gate"
for run in $(ls -d "$T"/results/*-lab-silent 2>/dev/null); do
	r=$run/report.json
	is "$(jq -r '.comparisons[] | select(.candidate == "idle2") | .verdict' "$r")" \
		"NO CHANGE" "$(basename "$run"): idle2 against idle, NO CHANGE"
	for inj in spin-30 spin-100 rare-800; do
		is "$(jq -r --arg c "$inj" '.comparisons[] | select(.candidate == $c) | .verdict' "$r")" \
			REGRESSION "$(basename "$run"): $inj against idle, REGRESSION"
	done
	is "$(jq '[.scenarios[].repetitions[] | select(.host_io.silent != true)] | length' \
		"$run/manifest.json")" 0 "$(basename "$run"): every repetition silent"
done
rm -rf "$KEEP"
mkdir -p "$KEEP"
cp -r "$T/results/." "$KEEP/" 2>/dev/null

done_testing
