#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An export is derived from a judged report or it fails (issue 35): no
# `lava report` pass and no KCIDB PASS/DONE for a run whose report.json
# could not be written or read; the history keeps the verdict it was
# given and imports a run again when its report changed; two hosts' runs
# of one run id are two runs; a scenario's further side (timerlat's S.irq)
# is exported with its own verdict.
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/analyze/run-inject

fresh() {	# fresh DIR: a copy of the REGRESSION fixture, not judged
	rm -rf "$1"
	cp -r "$FIX" "$1"
}

# ---- lava report ------------------------------------------------------------
fresh "$T/r"
"$RTGATE" lava report --print "$T/r" >"$T/lava.txt" 2>/dev/null
is "$?" 0 "lava report judges a run first, then reports it"
check "... the REGRESSION fails" -- grep -q 'rtgate.inject-fixture.*inject --result fail' \
	"$T/lava.txt"

# report.json cannot be written: report.txt, written first, is a directory.
fresh "$T/nw"
mkdir "$T/nw/report.txt"
"$RTGATE" lava report --print "$T/nw" >"$T/lava-nw.txt" 2>"$T/lava-nw.err"
rc=$?
ok $((rc != 3 && rc != 4)) "a run whose report cannot be written: exit 3 or 4, not 0 (exit $rc)"
check "... no test case at all" -- test ! -s "$T/lava-nw.txt"
check "... and it says why" -- grep -q "could not be judged\|no report" "$T/lava-nw.err"
ok $((rc == 0)) "... never exit 0"

# report.json corrupt, or of another run.
fresh "$T/bad"
"$RTGATE" report -q "$T/bad" >/dev/null 2>&1
printf '{"schema": "rtgate-report/1", "comparisons": [' >"$T/bad/report.json"
"$RTGATE" lava report --print "$T/bad" >"$T/lava-bad.txt" 2>"$T/lava-bad.err"
is "$?" 3 "a truncated report.json: exit 3"
check "... no test case" -- test ! -s "$T/lava-bad.txt"
check "... the file named" -- grep -q "bad/report.json" "$T/lava-bad.err"
"$RTGATE" report -q "$T/bad" >/dev/null 2>&1
jq '.run.run_id = "someone-else"' "$T/bad/report.json" >"$T/x" &&
	mv "$T/x" "$T/bad/report.json"
"$RTGATE" lava report --print "$T/bad" >"$T/lava-other.txt" 2>"$T/lava-other.err"
is "$?" 3 "a report.json of another run: exit 3"
check "... naming its run id" -- grep -q "run.run_id: 'someone-else'" "$T/lava-other.err"

# ---- export kcidb -----------------------------------------------------------
fresh "$T/k"
"$RTGATE" export kcidb -o "$T/k.json" "$T/k" >/dev/null 2>"$T/k.err"
is "$?" 3 "export kcidb of a run never judged: exit 3"
check "... no document" -- test ! -e "$T/k.json"
check "... saying the run was never judged" -- grep -q "never judged" "$T/k.err"
"$RTGATE" report -q "$T/k" >/dev/null 2>&1
check "export kcidb once judged" -- "$RTGATE" export kcidb -o "$T/k.json" "$T/k"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .status' "$T/k.json")" \
	FAIL "the REGRESSION is a FAIL"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture") | .status' "$T/k.json")" \
	FAIL "... and so is the gate"

# A comparison the report does not judge is never DONE or PASS.
jq '.comparisons = []' "$T/k/report.json" >"$T/x" && mv "$T/x" "$T/k/report.json"
check "export kcidb of a report without the comparison" -- \
	"$RTGATE" export kcidb -o "$T/k2.json" "$T/k"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .status' "$T/k2.json")" \
	ERROR "the comparison the report lacks is an ERROR"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture") | .status' "$T/k2.json")" \
	ERROR "... and so is the gate"
"$RTGATE" lava report --print "$T/k" >"$T/lava-k.txt" 2>/dev/null
check "lava: that comparison fails" -- \
	grep -q 'rtgate.inject-fixture.inject --result fail' "$T/lava-k.txt"

# ---- timerlat: a scenario's IRQ latency (S.irq) is a comparison too -------
# inject's thread latency NO CHANGE, its IRQ latency a REGRESSION: the
# exports used to drop S.irq and say PASS for the scenario and the suite.
rm -rf "$T/tl"
cp -r "$TOP/tests/fixtures/lab/timerlat-7.2-rt" "$T/tl"
"$RTGATE" report -q "$T/tl" >/dev/null 2>&1
jq '(.comparisons[] | select(.candidate == "inject")) |=
	(.verdict = "NO CHANGE" | .counts_as = "NO CHANGE")
    | (.comparisons[] | select(.candidate == "inject.irq")) |=
	(.verdict = "REGRESSION" | .counts_as = "REGRESSION")' \
	"$T/tl/report.json" >"$T/x" && mv "$T/x" "$T/tl/report.json"
check "export kcidb of a timerlat run" -- \
	"$RTGATE" export kcidb -o "$T/tl.json" "$T/tl"
is "$(jq -r '.tests[] | select(.path == "rtgate.timerlat.inject.irq") | .status' "$T/tl.json")" \
	FAIL "the IRQ latency's REGRESSION is a test of its own, FAIL"
is "$(jq -r '.tests[] | select(.path == "rtgate.timerlat") | .status' "$T/tl.json")" \
	FAIL "... and the suite FAILs with it"
is "$(jq -r '.tests[] | select(.path == "rtgate.timerlat.inject") | .status' "$T/tl.json")" \
	PASS "... the thread latency's NO CHANGE stays a PASS"
"$RTGATE" lava report --print "$T/tl" >"$T/lava-tl.txt" 2>/dev/null
check "lava report: a case of its own, fail" -- \
	grep -q '^lava-test-case rtgate.timerlat.inject.irq --result fail' "$T/lava-tl.txt"
check "... and the suite fails" -- \
	grep -q '^lava-test-case rtgate.timerlat --result fail' "$T/lava-tl.txt"

# ---- history: the judged verdict, re-imported when the report changed -----
fresh "$T/h"
"$RTGATE" report -q "$T/h" >/dev/null 2>&1
jq '(.comparisons[] | select(.candidate == "inject")) |=
    (.verdict = "NO CHANGE" | .counts_as = "NO CHANGE")' "$T/h/report.json" \
	>"$T/x" && mv "$T/x" "$T/h/report.json"
mkdir -p "$T/db"
check "export with --db, judged NO CHANGE" -- \
	"$RTGATE" export kcidb --db "$T/db/h.db" -o "$T/h1.json" "$T/h"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .status' "$T/h1.json")" \
	PASS "NO CHANGE: PASS"
"$RTGATE" report -q "$T/h" >/dev/null 2>&1	# judged again: REGRESSION
"$RTGATE" history import --db "$T/db/h.db" "$T/h" >"$T/imp.txt" 2>&1
check "the run judged again is imported again" -- grep -q "imported 1 run(s), 0 unchanged" "$T/imp.txt"
is "$(sqlite3 "$T/db/h.db" "SELECT verdict FROM verdicts WHERE source = 'run' AND scenario = 'inject'")" \
	REGRESSION "the history holds the verdict the report says now"
check "export with --db after it" -- \
	"$RTGATE" export kcidb --db "$T/db/h.db" -o "$T/h2.json" "$T/h"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .status' "$T/h2.json")" \
	FAIL "REGRESSION: FAIL, not the PASS stored before"
"$RTGATE" history import --db "$T/db/h.db" "$T/h" >"$T/imp2.txt" 2>&1
check "unchanged since: left alone" -- grep -q "imported 0 run(s), 1 unchanged" "$T/imp2.txt"

# ---- two hosts, one run id --------------------------------------------------
fresh "$T/hostb"
"$RTGATE" report -q "$T/hostb" >/dev/null 2>&1
jq '.host.hostname = "board-b"' "$FIX/manifest.json" >"$T/hostb/manifest.json"
"$RTGATE" history import --db "$T/db/h.db" "$T/hostb" >"$T/imp3.txt" 2>&1
check "the other host's run of the same id is imported, not 'unchanged'" -- \
	grep -q "imported 1 run(s), 0 unchanged" "$T/imp3.txt"
is "$(sqlite3 "$T/db/h.db" "SELECT group_concat(host, ' ') FROM (SELECT host FROM runs WHERE run_id = 'fixture-inject' ORDER BY host)")" \
	"board-b vm" "both runs are stored"
is "$(sqlite3 "$T/db/h.db" "SELECT count(*) FROM scenarios s JOIN runs r ON s.run = r.id WHERE r.run_id = 'fixture-inject'")" \
	6 "each with its scenarios"
check "export of each from the database" -- \
	"$RTGATE" export kcidb --db "$T/db/h.db" -o "$T/hb.json" "$T/hostb"
"$RTGATE" compare --history "$T/hostb" --db "$T/db/h.db" >/dev/null 2>"$T/amb.err"
rc=$?
ok $((rc == 3 || rc == 4)) "compare --history judges the one of its host (exit $rc)"
check "... without a word about the other" -- bash -c "! grep -q 'no run\|stored for hosts' '$T/amb.err'"

done_testing
