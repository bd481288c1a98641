#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate report RUN_DIR` on a results directory (docs/results.md) made of
# runs recorded on this machine: every declared comparison judged, the five
# reports written into the run, the exit code of the worst verdict; runs
# that did not complete never pass, nor do runs whose comparisons were all
# SKIPPED (nothing was measured); broken manifests are refused.
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/analyze
RUN=$T/run
cp -r "$FIX/run-inject" "$RUN"

"$RTGATE" report "$RUN" >$T/out 2>$T/err
is "$?" 1 "the inject scenario's regression decides the exit code"
for f in report.txt report.md report.json report.html junit.xml; do
	check "report writes $f into the run" -- test -s "$RUN/$f"
done
check "the verdict table is printed" -- grep -Eq '^inject +idle +REGRESSION ' $T/out
check "the skipped scenario says why, under its row" -- \
	grep -A1 -E '^rt-only +idle +SKIPPED' $T/out | grep -q '^    .*preempt-rt'
is "$(jget $RUN/report.json '.run.status')" complete "report.json: run status"
is "$(jget $RUN/report.json '[.comparisons[].verdict] | join(",")')" \
	REGRESSION,SKIPPED "report.json: one entry per declared comparison"
is "$(tail -n 1 $T/out)" "rtgate: 2 comparisons, 1 REGRESSION, 1 SKIPPED (exit 1)" \
	"the last line counts the verdicts behind the exit code"
is "$(jget $RUN/report.json '.comparisons[0].drift_checked')" true \
	"interleaved repetitions: the A/B/A drift was checked"
is "$(jget $RUN/report.json '.scenarios[0].reference.T[0].max_us')" 12 \
	"the suite's published numbers travel into the report"
check "text report: the published T: lines beside the measured ones" -- \
	grep -q '^T: 0 ( 4213) P:95 I:1000 C:   5163 Min:      3 Act:    3 Avg:    3 Max:      12$' $RUN/report.txt
check "text report: what each workload did per repetition" -- \
	grep -q '^workload inject: work done 1 | 1 | 1 .*errors 0$' $RUN/report.txt
is "$(jget $RUN/report.json '.scenarios[1].workloads[0] | "\(.name) \(.work_done | length)"')" \
	"inject 3" "report.json: the workload summaries, one per repetition"
check "junit: a failure and a skipped testcase" -- grep -q \
	'tests="2" failures="1" errors="0" skipped="1"' $RUN/junit.xml
check "junit: the failure carries the reason" -- \
	grep -q '<failure type="REGRESSION" message="REGRESSION: CPU 1 ' $RUN/junit.xml

# One scenario of a run as a side of `compare`.
"$RTGATE" compare -q "$RUN:idle" "$RUN/inject"
is "$?" 1 "compare DIR:SCENARIO with a scenario directory"
"$RTGATE" compare -q "$RUN" "$RUN:inject" 2>$T/err
is "$?" 3 "a run of several scenarios needs DIR:SCENARIO"
check "... and says which scenarios there are" -- grep -q 'idle, inject, rt-only' $T/err

# A run that did not complete never passes, and says so.
jq '.status = "incomplete" | .status_reason = "SIGINT"' "$RUN/manifest.json" \
	>$T/m && mv $T/m "$RUN/manifest.json"
"$RTGATE" report -q "$RUN"
is "$?" 5 "an incomplete run exits 5"
check "junit: the incomplete run is an error testcase" -- \
	grep -q 'name="suite verdict" time="0">$' "$RUN/junit.xml"
"$RTGATE" compare -q "$RUN:idle" "$FIX/run-inject:inject" >$T/out
is "$?" 5 "an incomplete run as a baseline: exit 5"
is "$("$RTGATE" compare "$RUN:idle" "$FIX/run-inject:inject" | sed -n 's/^verdict: \([A-Z]*\):.*/\1/p')" \
	INVALID "... and it is never judged against"

# Invalid repetitions are left out; a scenario with none left is INVALID.
cp -r "$FIX/run-inject" "$T/run2"
jq '(.scenarios[1].repetitions[] | select(.rep == 2)).status = "invalid"' \
	"$T/run2/manifest.json" >$T/m && mv $T/m "$T/run2/manifest.json"
"$RTGATE" report -q "$T/run2" --report json
is "$(jget $T/run2/report.json '.comparisons[0].candidate_repetitions')" 2 \
	"an invalid repetition is no evidence"
jq '(.scenarios[1].repetitions[]).status = "invalid"' \
	"$T/run2/manifest.json" >$T/m && mv $T/m "$T/run2/manifest.json"
"$RTGATE" report -q "$T/run2" --report json
is "$?" 2 "no valid repetition: INVALID, exit 2"

# Controls: a flagged positive control passes the gate; one that is not
# flagged makes the run INCONCLUSIVE (the gate is blind here).
cp -r "$FIX/run-inject" "$T/runc"
jq '(.scenarios[] | select(.name == "inject")).control = "positive"' \
	"$T/runc/manifest.json" >$T/m && mv $T/m "$T/runc/manifest.json"
"$RTGATE" report "$T/runc" >$T/out
is "$?" 0 "a flagged positive control passes (exit 0)"
check "... and the table names the line the verdict rests on" -- \
	grep -Eq '^inject +idle +REGRESSION +CPU 1 p[0-9.]+ [0-9.]+ -> [0-9.]+ us$' $T/out
check "... the reason: positive control, flagged" -- \
	grep -Eq '^    positive control, flagged as it must be' $T/out
is "$(jget $T/runc/report.json '.comparisons[0] | "\(.control) \(.verdict) \(.counts_as)"')" \
	"positive REGRESSION NO CHANGE" "report.json: the control and what it counts as"
check "junit: no failure for the flagged control" -- grep -q \
	'tests="2" failures="0" errors="0" skipped="1"' $T/runc/junit.xml
is "$(tail -n 1 $T/out)" \
	"rtgate: 2 comparisons, 1 REGRESSION (one the positive control), 1 SKIPPED (exit 0)" \
	"the last line says the REGRESSION is the control's"
# (inject the baseline now: a manifest's comparisons make no cycle.)
jq '(.scenarios[] | select(.name == "idle")).control = "positive" |
    (.scenarios[] | select(.name == "idle")).compare = "inject" |
    (.scenarios[] | select(.name == "inject")) |= (.compare = null |
    del(.control))' \
	"$T/runc/manifest.json" >$T/m && mv $T/m "$T/runc/manifest.json"
"$RTGATE" report "$T/runc" >$T/out
is "$?" 2 "a positive control not flagged: INCONCLUSIVE (exit 2)"
check "... saying no verdict can be trusted" -- \
	grep -q 'positive control NOT flagged' $T/out
cat >$T/ctl.suite <<'EOF2'
[measure]
duration = 1s
[scenario idle]
control = positive
EOF2
"$RTGATE" run $T/ctl.suite >/dev/null 2>$T/err
is "$?" 3 "a control compared with nothing is refused (exit 3)"
check "... naming the file and line" -- grep -q 'ctl.suite:4: control' $T/err

# Broken results directories: exit 3, the file named.
cp -r "$FIX/run-inject" "$T/run3"
head -c 300 "$FIX/run-inject/manifest.json" >"$T/run3/manifest.json"
"$RTGATE" report -q "$T/run3" 2>$T/err
is "$?" 3 "a truncated manifest: exit 3"
check "... naming it" -- grep -q 'run3/manifest.json:[0-9]*: byte' $T/err
jq '.schema = "rtgate-manifest/9"' "$FIX/run-inject/manifest.json" \
	>"$T/run3/manifest.json"
is "$("$RTGATE" report -q "$T/run3" 2>/dev/null; echo $?)" 3 "an unknown schema: exit 3"
cp "$FIX/run-inject/manifest.json" "$T/run3/manifest.json"
rm "$T/run3/inject/2/cyclictest.json"
"$RTGATE" report -q "$T/run3" 2>$T/err
is "$?" 3 "an ok repetition without its cyclictest output: exit 3"
check "... naming the directory" -- grep -q 'inject/2: neither cyclictest.json' $T/err
is "$("$RTGATE" report -q "$T/nothing" 2>/dev/null; echo $?)" 3 "no such run: exit 3"

# All comparisons SKIPPED: nothing was measured, no pass.
SK=$T/skipped
cp -r "$FIX/run-inject" "$SK"
jq '(.scenarios[] | select(.name == "inject")) |= (.status = "skipped" |
	.reason = "requirement slice-ext: the kernel has no rseq slice extension")' \
	"$FIX/run-inject/manifest.json" >"$SK/manifest.json"
"$RTGATE" report "$SK" >$T/sk.out 2>&1
is "$?" 2 "every comparison SKIPPED: exit 2, not a pass"
is "$(tail -n 1 $T/sk.out)" "rtgate: 2 comparisons, SKIPPED: nothing was measured (exit 2)" \
	"... the last line says nothing was measured"
is "$(jget $SK/report.json '"\(.verdict) \(.exit_code)"')" "SKIPPED 2" \
	"report.json: Overall SKIPPED, exit 2"
check "report.md: Overall SKIPPED (exit 2)" -- \
	grep -q 'Overall: \*\*SKIPPED\*\* (exit 2): 2 comparisons, SKIPPED: nothing was measured' $SK/report.md
check "junit.xml: the exit code" -- grep -q '<property name="exit_code" value="2"/>' $SK/junit.xml
done_testing
