#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A real timerlat run on Debian's 7.2-rt in the lab (tests/fixtures/lab/
# timerlat-7.2-rt, recorded by tests/slow/lab_rtla_aa.sh) replayed through
# `rtgate report`: the histograms are whole (rows and over: add up to
# count: rtla through tracefs, not its 4096-bucket BPF map), the gate says
# its repetitions were too short for p99 instead of passing or saying "no
# data", and rtla's auto-analysis is in every format, breaking down a late
# wake-up on the control's CPU. Seconds: it only replays files.
source "$(dirname "$0")/../lib.sh"

F=$TOP/tests/fixtures/lab/timerlat-7.2-rt
jqe() { jq -e "$1" "$2" >/dev/null; }

check "recorded on a 7.x rt kernel" -- \
	jqe '.kernel.release | test("^7\\.2\\..*-rt-amd64$")' "$F/manifest.json"
is "$(jget "$F/manifest.json" .tools.rtla_path)" /opt/rtgate/tools/rtla \
	"measured by rtgate's own rtla (PATH's 6.1 is older than 7.2)"
bad=0
for f in "$F"/*/*/timerlat.txt; do
	awk '/^[0-9]/ || /^over:/ { for (i = 2; i <= NF; i++) s[i] += $i }
	     /^count:/ { for (i = 2; i <= NF; i++) if (s[i] != $i) bad = 1 }
	     END { exit bad }' "$f" || bad=$((bad + 1))
done
is "$bad" 0 "every histogram's rows and over: add up to its count"

"$RTGATE" report "$F" --out "$T/r" >"$T/out" 2>"$T/err"
is $? 2 "report: exit 2 (nothing could be judged)"
check "the reason: too few wake-ups for p99, with the counts" -- \
	grep -q "too few wake-ups for the gate metric p99: a repetition took [0-9]* on a CPU, and p99 needs 1000" "$T/out"
check "never 'no data' when there were data" -- \
	bash -c "! grep -q 'no data for the gate metric' '$T/out'"
check "report.json: both comparisons INVALID, none passed" -- \
	jqe '[.comparisons[].verdict] | length == 2 and all(. == "INVALID")' \
	"$T/r/report.json"
check "report.txt: rtla's auto-analysis of inject" -- \
	grep -q '^== rtla auto-analysis: inject' "$T/r/report.txt"
check "rtla broke down a late wake-up of the control's CPU 1" -- \
	grep -qE '^  rep [0-9] \(>= [0-9]+ us\): CPU 1, (thread|IRQ) latency [0-9.]+ us: ' \
	"$T/r/report.txt"
check "report.md and report.html carry it too" -- bash -c \
	"grep -q '^## rtla auto-analysis' '$T/r/report.md' && grep -q 'id=\"rtla-aa\"' '$T/r/report.html'"
is "$(grep -c '<error type="INVALID" message="INVALID: too few wake-ups' "$T/r/junit.xml")" 2 \
	"junit.xml: both comparisons are errors (INVALID), none passes"
check "junit.xml: the suite counts 2 errors" -- \
	grep -q '<testsuite [^>]*tests="2" failures="0" errors="2"' "$T/r/junit.xml"
done_testing
