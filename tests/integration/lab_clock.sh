#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The lab's clocks (docs/kernels.md, "The quiet lab"): `--clock` is
# checked on the command line; a report says which clock its latencies
# were measured in; and runs measured in different clocks are never
# compared -- `rtgate compare` refuses them (exit 3, both clocks named),
# and a history takes as baselines only runs of the candidate's clock.
# Runs here are real recordings (tests/fixtures/real) given a lab object
# as a lab run would write it, so no guest is booted.
source "$(dirname "$0")/../lib.sh"

REAL=$TOP/tests/fixtures/real/quiet-1
statement='virtual microseconds at a fixed instruction rate (icount shift 3, 8 ns an instruction): comparable between kernels measured the same way, never with bare metal'

# as_lab DIR CLOCK SHIFT: a copy of the recording, measured "in the lab".
as_lab() {
	mkdir -p "$1"
	cp -r "$REAL"/. "$1/"
	if [ "$2" = host ]; then
		jq '.lab = {kernel: "k", origin: "build", accel: "tcg",
			clock: {name: "host", kind: "host", unit: "us",
				statement: "host clock"}}' \
			"$REAL/manifest.json" >"$1/manifest.json"
	else
		jq --arg s "$statement" --argjson sh "$3" \
			'.lab = {kernel: "k", origin: "build", accel: "tcg",
			 clock: {name: ("icount:" + ($sh | tostring)),
				 kind: "icount", shift: $sh, unit: "virtual us",
				 statement: $s}}' \
			"$REAL/manifest.json" >"$1/manifest.json"
	fi
}
as_lab "$T/v3a" icount 3
as_lab "$T/v3b" icount 3
as_lab "$T/v4" icount 4
as_lab "$T/host" host

# ---- the command line ----------------------------------------------------
"$RTGATE" lab run --kernel x --clock icount:11 --exec -- true \
	>/dev/null 2>"$T/e1"
is "$?" 3 "--clock icount:11 (beyond QEMU's 10) is exit 3"
check "it says what --clock takes" -- grep -q "icount:SHIFT (0..10)" "$T/e1"
"$RTGATE" lab run --kernel x --clock wallclock --exec -- true \
	>/dev/null 2>"$T/e2"
is "$?" 3 "--clock wallclock is exit 3"
"$RTGATE" lab run --kernel x --clock icount --accel kvm --exec -- true \
	>/dev/null 2>"$T/e3"
is "$?" 3 "--clock icount with --accel kvm is exit 3"
check "it says icount runs under TCG" -- grep -q "runs under TCG" "$T/e3"
"$RTGATE" bisect --base a --series b --suite c --clock icount:x \
	>/dev/null 2>"$T/e4"
is "$?" 3 "bisect --clock icount:x is exit 3"
check "lab run --help lists --clock" -- bash -c \
	"'$RTGATE' lab run --help | grep -q -- '--clock=host|icount\[:SHIFT\]'"

# ---- the same clock: compared, and the report says which clock -----------
"$RTGATE" compare "$T/v3a:idle" "$T/v3b:idle2" --out "$T/same" \
	>"$T/same.out" 2>"$T/same.err"
rc=$?
check "icount:3 vs icount:3 is compared (exit $rc, not 3)" -- \
	test "$rc" -ne 3 -a "$rc" -le 2
check "report.txt says the clock" -- \
	grep -q "clock .*icount:3: virtual microseconds at a fixed instruction rate" \
	"$T/same/report.txt"
check "report.md says it" -- grep -q "clock: icount:3" "$T/same/report.md"
check "report.html says it" -- grep -q "icount:3: virtual microseconds" \
	"$T/same/report.html"
is "$(jq -r '.systems[1].clock' "$T/same/report.json")" icount:3 \
	"report.json: systems[].clock"
check "report.json: its statement" -- bash -c "jq -r \
	'.systems[0].clock_statement' '$T/same/report.json' |
	grep -q 'never with bare metal'"
check "junit.xml: the clock property" -- \
	grep -q '<property name="clock" value="icount:3"/>' "$T/same/junit.xml"
"$RTGATE" compare "$T/v3a" "$T/v3b" >/dev/null 2>&1
rc=$?
check "two icount:3 runs, run against run: compared (exit $rc)" -- \
	test "$rc" -le 2

# ---- different clocks: refused --------------------------------------------
"$RTGATE" compare "$T/host:idle" "$T/v3a:idle" --out "$T/diff" \
	>"$T/diff.out" 2>"$T/diff.err"
is "$?" 3 "host vs icount:3 is refused, exit 3"
check "the error names both clocks" -- bash -c \
	"grep -q 'clock host' '$T/diff.err' && grep -q 'clock icount:3' '$T/diff.err'"
check "and no report that could read as a verdict" -- \
	test ! -e "$T/diff/report.json"
"$RTGATE" compare "$T/v3a:idle" "$T/v4:idle" >/dev/null 2>"$T/d2.err"
is "$?" 3 "icount:3 vs icount:4 is refused too"
"$RTGATE" compare "$T/v3a" "$T/host" >/dev/null 2>"$T/d3.err"
is "$?" 3 "run against run across clocks: refused"
# A run outside the lab is the host's clock.
mkdir -p "$T/bare" && cp -r "$REAL"/. "$T/bare/"
"$RTGATE" compare "$T/bare:idle" "$T/v3a:idle" >/dev/null 2>"$T/d4.err"
is "$?" 3 "a run outside the lab (host) vs icount:3: refused"
"$RTGATE" compare "$T/bare:idle" "$T/host:idle2" >/dev/null 2>&1
rc=$?
check "outside the lab vs the lab's host clock: compared (exit $rc)" -- \
	test "$rc" -le 2

# ---- a history takes only its own clock -----------------------------------
# quiet-2 (the later sitting) judged against quiet-1: judged when both are
# icount:3, SKIPPED (no baseline of its clock) when quiet-1 is the host's.
REAL2=$TOP/tests/fixtures/real/quiet-2
hist() {	# hist CLOCK_OF_QUIET_1: the later run's verdict of idle
	rm -rf "$T/h" && mkdir -p "$T/h"
	cp -r "$REAL"/. "$T/h/a" && cp -r "$REAL2"/. "$T/h/b"
	jq --arg c "$1" '.lab = {clock: {name: $c}}' "$REAL/manifest.json" \
		>"$T/h/a/manifest.json"
	jq '.lab = {clock: {name: "icount:3"}}' "$REAL2/manifest.json" \
		>"$T/h/b/manifest.json"
	"$RTGATE" history import --db "$T/h/h.db" "$T/h/a" "$T/h/b" \
		>/dev/null 2>&1
	"$RTGATE" history changepoints --db "$T/h/h.db" --suite record \
		2>/dev/null | awk '/^record \/ idle on/ { on = 1; next }
			on && /20261201-175608-record/ {
				v = $NF; if (v == "step") v = $(NF - 2)
				print v; exit }'
}
v=$(hist icount:3)
diag "icount:3 after icount:3: $v"
check "a history of the same clock judges the run ($v)" -- \
	test -n "$v" -a "$v" != SKIPPED
v=$(hist host)
is "$v" SKIPPED "a history of another clock is no baseline (SKIPPED)"

done_testing
