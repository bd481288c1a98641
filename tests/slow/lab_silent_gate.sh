#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An unchanged kernel passes the silent lab's gate on the maximum and the
# control fails it (docs/kernels.md, "The silent lab"): `lab gate` boots
# Debian's 7.2-rt twice on one vCPU, `--clock icount:3`, silent, with
# suites/lab-silent-gate.suite (idle and a 30 us spinner, the positive
# control, 10 repetitions a side). The gate (every scenario of boot A
# against the same scenario of boot B) must be NO CHANGE, exit 0, on the
# max gate; inside each boot the control must be flagged, and across the
# boots `rtgate compare A:idle B:spin-30` must fail (exit 1). About 10
# minutes of two single-threaded QEMUs on an idle 2-core host; the runs
# stay in out/slow/lab_silent_gate/.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
KEEP=$RTGATE_OUT_DIR/slow/lab_silent_gate

start=$SECONDS
"$RTGATE" lab gate debian:7.2-rt debian:7.2-rt --suite lab-silent-gate \
	--clock icount:3 --timeout 2h --out "$T/results" -- \
	--no-history >"$T/gate.out" 2>"$T/gate.err"
rc=$?
diag "lab gate debian:7.2-rt debian:7.2-rt: $((SECONDS - start)) s, exit $rc"
sed 's/^/# /' "$T/gate.out"
is $rc 0 "the unchanged kernel passes the gate (exit 0)"
g=$(ls -d "$T"/results/gate-* 2>/dev/null | head -1)
for s in idle spin-30; do
	is "$(jget "$g/$s/report.json" '.comparisons[0].verdict')" "NO CHANGE" \
		"$s of one boot against $s of the other: NO CHANGE"
	is "$(jget "$g/$s/report.json" '.comparisons[0].gate.metric')" max \
		"$s: judged with the suite's max gate"
done
# The two runs (the gate's own folder, gate-A-vs-B, holds no manifest).
runs=()
for d in "$T"/results/*-lab-silent-gate; do
	[ -f "$d/manifest.json" ] && runs+=("$d")
done
is ${#runs[@]} 2 "two boots, two runs"
for run in "${runs[@]}"; do
	is "$(jq -r '.comparisons[] | select(.candidate == "spin-30") | .verdict' \
		"$run/report.json")" REGRESSION \
		"$(basename "$run"): the positive control is flagged"
	is "$(jq '[.scenarios[].repetitions[] | select(.host_io.silent != true)] | length' \
		"$run/manifest.json")" 0 "$(basename "$run"): every repetition silent"
	is "$(jq -r '.cpus' "$run/lab.json")" 1 \
		"$(basename "$run"): one vCPU, as the suite's lab_cpus asks"
done
"$RTGATE" compare "${runs[0]}:idle" "${runs[1]}:spin-30" --out "$T/ctl" \
	>"$T/ctl.out" 2>&1
is $? 1 "the control across the boots (A:idle against B:spin-30) fails the gate"
rm -rf "$KEEP"
mkdir -p "$KEEP"
cp -r "$T/results/." "$KEEP/" 2>/dev/null

done_testing
