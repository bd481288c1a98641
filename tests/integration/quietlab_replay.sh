#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The quiet lab's recordings (tests/fixtures/quietlab: real lab runs under
# `--clock icount:3`) replayed through `rtgate compare`: in every sitting
# the A/A pair (idle against idle2, the same kernel, idle) is no
# REGRESSION, and the inject positive control (300 us SCHED_FIFO spins on
# CPU 1, 5 % of it) against idle is a REGRESSION. Both sides carry the
# clock, the reports say it, and a recording of the host's clock (the
# real/ fixtures) is refused beside them (exit 3).
# Seconds: it only replays files.
source "$(dirname "$0")/../lib.sh"

FIX=$TOP/tests/fixtures/quietlab
sittings=$(cd "$FIX" && ls -d tune-* validate-* 2>/dev/null)
check "there are tune and validate sittings" -- bash -c \
	"ls -d '$FIX'/tune-*/ '$FIX'/validate-*/ >/dev/null 2>&1"

for s in $sittings; do
	d=$FIX/$s
	is "$(jget "$d/manifest.json" .lab.clock.name)" icount:3 \
		"$s: measured in icount:3"
	is "$(jget "$d/manifest.json" .status)" complete "$s: complete"

	"$RTGATE" compare "$d:idle" "$d:idle2" --report json,txt \
		--out "$T/$s-aa" >"$T/$s-aa.out" 2>"$T/$s-aa.err"
	rc=$?
	v=$(jq -r '.comparisons[0].verdict' "$T/$s-aa/report.json")
	diag "$s: idle vs idle2: $v (exit $rc)"
	check "$s: the A/A pair is no REGRESSION ($v)" -- \
		test "$rc" -ne 1 -a "$rc" -ne 3 -a "$v" != REGRESSION
	check "$s: its report says virtual microseconds" -- \
		grep -q "icount:3: virtual microseconds" "$T/$s-aa/report.txt"

	"$RTGATE" compare "$d:idle" "$d:inject" --report json \
		--out "$T/$s-inj" >"$T/$s-inj.out" 2>"$T/$s-inj.err"
	rc=$?
	v=$(jq -r '.comparisons[0].verdict' "$T/$s-inj/report.json")
	diag "$s: idle vs inject: $v (exit $rc)"
	is "$v" REGRESSION "$s: the inject control is a REGRESSION"
	is "$rc" 1 "$s: exit 1"
done

first=$(echo "$sittings" | head -1)
"$RTGATE" compare "$TOP/tests/fixtures/real/quiet-1:idle" \
	"$FIX/$first:idle" >/dev/null 2>"$T/x.err"
is "$?" 3 "a host-clock recording against a quiet-lab one: refused"
done_testing
