#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Seed 003 in the lab, replayed (tests/fixtures/hrtick: real runs of
# suites/hrtick-kernels.suite at --clock icount:0 from the 7.3 bisections
# of 2026-12-03; tune-* changed a rule, val-* judged nothing before): 7.3.4
# against 7.3.4 with the seed patches, A/B/A as bisect does, is an
# IMPROVEMENT on hrtick-hogs.runs_past_hrtick; a prefix without the hrtick
# patch is not. Seconds: it only replays files.
source "$(dirname "$0")/../lib.sh"

FIX=$TOP/tests/fixtures/hrtick
jqe() { jq -e "$1" "$2" >/dev/null; }
for d in tune-base-a tune-prefix-4 tune-base-a2 val-base-a val-prefix-4 \
	val-base-a2 val-base-b val-prefix-2 val-base-b2; do
	check "$d is a complete icount:0 run" -- jqe \
		'.status == "complete" and .lab.clock.name == "icount:0"' \
		"$FIX/$d/manifest.json"
done

compare() {
	local out=$T/$1
	shift
	"$RTGATE" compare "$@" --report json,txt --out "$out" \
		>"$out.out" 2>"$out.err"
	rc=$?
	r=$out/report.json
}

for s in tune val; do
	compare $s-fix "$FIX/$s-base-a" "$FIX/$s-prefix-4" "$FIX/$s-base-a2"
	diag "$s: $(jq -r '.comparisons[0].reason' "$r")"
	is "$(jq -r '.comparisons[0].gate.metric' "$r")" \
		hrtick-hogs.runs_past_hrtick "$s: the gate is the runs past an expired hrtick"
	is "$(jq -r '.comparisons[0].verdict' "$r")" IMPROVEMENT \
		"$s: with the hrtick patch, an IMPROVEMENT"
	check "$s: ... the A/B/A drift was checked" -- \
		jqe '.comparisons[0].drift_checked == true' "$r"
	check "$s: ... the text report names the count" -- \
		grep -q 'runs_past_hrtick' "$T/$s-fix/report.txt"
done

compare nofix "$FIX/val-base-b" "$FIX/val-prefix-2" "$FIX/val-base-b2"
v=$(jq -r '.comparisons[0].verdict' "$r")
diag "val, prefix 2: $v: $(jq -r '.comparisons[0].reason' "$r")"
check "val: without the hrtick patch, not an IMPROVEMENT ($v)" -- \
	test "$v" != IMPROVEMENT -a "$v" != INVALID -a "$v" != SKIPPED
done_testing
