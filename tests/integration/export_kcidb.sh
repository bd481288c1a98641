#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `rtgate export kcidb` over recorded runs: the document validates against
# the KCIDB v5 schema (tests/schemas), its paths and numbers are the run's.
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
SCHEMA=$TOP/tests/schemas/kcidb-v5.schema.json
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
run=$T/week/20261127-020000-quick

check "export kcidb exits 0" -- "$RTGATE" export kcidb -o "$T/k.json" "$run"
check "the export validates against the KCIDB v5 schema" -- \
	$PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/k.json"
is "$(jget "$T/k.json" '.version.major')" 5 "schema major version"
is "$(jget "$T/k.json" '[.tests[].path] | map(select(. == "rtgate.quick.idle.max")) | length')" \
	1 "one rtgate.quick.idle.max test"
want=$(jq -s '[.[].thread[].max] | max' "$run"/idle/*/cyclictest.json)
is "$(jget "$T/k.json" '.tests[] | select(.path == "rtgate.quick.idle.max") | .number.value')" \
	"$want" "idle max is the max of the recorded cyclictest.json files"
is "$(jget "$T/k.json" '.tests[] | select(.path == "rtgate.quick.idle.max") | .number.unit')" \
	us "numbers carry their unit"
is "$(jget "$T/k.json" '[.tests[].build_id] | unique | length')" 1 \
	"every test points at the one build"
is "$(jget "$T/k.json" '.builds[0].id == .tests[0].build_id')" true \
	"the build object is the tests' build"

# An existing KernelCI build: only tests are emitted, pointing at it.
check "export with --build-id" -- "$RTGATE" export kcidb --origin mylab \
	--checkout-id kernelci:c1 --build-id kernelci:b1 -o "$T/k2.json" "$run"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" \
	"$SCHEMA" "$T/k2.json"
is "$(jget "$T/k2.json" '(.builds // []) | length')" 0 "no build of our own"
is "$(jget "$T/k2.json" '[.tests[].id | startswith("mylab:")] | all')" true \
	"test ids carry our origin"

# The schema check is real: a broken document fails it.
jq '.tests[0].path = "a..b" | .tests[1].status = "OK"' "$T/k.json" >"$T/bad.json"
$PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/bad.json" >/dev/null
ok $((! $?)) "a bad path and a bad status fail the schema"

# An incomplete run: the gate test is ERROR, never PASS.
cp -r "$run" "$T/inc"
jq '.status = "incomplete" | .status_reason = "killed by SIGKILL"' \
	"$run/manifest.json" >"$T/inc/manifest.json"
check "export of an incomplete run" -- "$RTGATE" export kcidb -o "$T/k3.json" "$T/inc"
is "$(jget "$T/k3.json" '.tests[] | select(.path == "rtgate.quick") | .status')" \
	ERROR "an incomplete run's gate is ERROR"

# With the analyzer's report and the history: verdicts become statuses.
"$RTGATE" report --report json -q "$run" >/dev/null 2>&1
"$RTGATE" history import --db "$T/h.db" "$T/week" >/dev/null
"$RTGATE" history changepoints --db "$T/h.db" >/dev/null
check "export with the history database" -- \
	"$RTGATE" export kcidb --db "$T/h.db" -o "$T/k4.json" "$run"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/k4.json"
v=$(jq -r '.comparisons[] | select(.candidate == "hackbench") | .verdict' "$run/report.json")
case "$v" in
REGRESSION) want=FAIL ;; "NO CHANGE" | IMPROVEMENT) want=PASS ;;
INVALID) want=ERROR ;; SKIPPED) want=SKIP ;; *) want=DONE ;;
esac
is "$(jget "$T/k4.json" '.tests[] | select(.path == "rtgate.quick.hackbench") | .status')" \
	"$want" "hackbench's status is its report verdict ($v)"
is "$(jget "$T/k4.json" '.tests[] | select(.path == "rtgate.quick.idle.history") | .status')" \
	FAIL "the step night's regression against history is a FAIL"
is "$(jget "$T/k4.json" '.tests[] | select(.path == "rtgate.quick") | .status')" \
	FAIL "... and so is the gate"

"$RTGATE" export kcidb --origin Bad-Origin "$run" >/dev/null 2>"$T/err"
is $? 3 "a bad origin is a usage error"
"$RTGATE" export kcidb "$T/nonexistent" >/dev/null 2>"$T/err"
is $? 3 "a missing run directory is bad input"
check "... and the message names the file" -- grep -q "nonexistent/manifest.json" "$T/err"
done_testing
