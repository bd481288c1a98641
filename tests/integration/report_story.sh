#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every output tells one story (issue 13), on the recorded fixture run
# (tests/fixtures/analyze/run-inject): the line the verdict rests on is
# named alike in the terminal table, report.txt, .md, .html, .json,
# junit.xml, KCIDB and LAVA; one name per maximum; published numbers only
# where they belong; the Overall verdict; a flagged positive control
# passes in every export; lines the gate does not judge have no verdict;
# junit.xml validates against a strict Ant/Jenkins JUnit XSD.
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/analyze
XSD=$TOP/tests/schemas/junit-strict.xsd
RUN=$T/run
cp -r "$FIX/run-inject" "$RUN"

"$RTGATE" report "$RUN" >$T/out 2>$T/err
is "$?" 1 "the fixture run: a REGRESSION, exit 1"
J=$RUN/report.json
d=$(jget $J '.comparisons[0].decisive')
check "report.json names the decisive line" -- test "$d" -ge 0
label=$(jget $J ".comparisons[0].lines[$d] | if .cpu == null then \"all CPUs \(.metric)\" else \"CPU \(.cpu) \(.metric)\" end")
meas=$(jget $J '.comparisons[0].measured')
diag "the verdict rests on: $meas"
check "... and its measured cell starts with that line's name" -- \
	test "${meas#"$label "}" != "$meas"
check "... the line the reason names, not the maxima (host noise)" -- \
	grep -q "^$label " <<<"$(jget $J '.comparisons[0].reason')"
# The cell shows the line's values as the tables do (3 significant
# digits, whole numbers from 100 up); report.json keeps them unrounded.
close_to() {	# SHOWN EXACT: SHOWN is EXACT as the tables round it
	awk -v a="$1" -v b="$2" 'BEGIN { t = (b >= 100 || b <= -100) ? 0.5 : 0.0051 * (b < 0 ? -b : b);
		d = a - b; exit !(d <= t && -d <= t) }'
}
vals=${meas#"$label "}
read -r mb arrow mc unit <<<"$vals"
check "... with the values of that line ($vals)" -- bash -c "
	$(declare -f close_to)
	close_to '$mb' '$(jget $J ".comparisons[0].lines[$d].baseline")' &&
	close_to '$mc' '$(jget $J ".comparisons[0].lines[$d].candidate")' &&
	test '$arrow $unit' = '-> $(jget $J ".comparisons[0].lines[$d].unit")'"
esc=$(sed 's/->/-\&gt;/' <<<"$meas")
grep_f() { grep -qF -- "$1" "$2"; }
check "terminal: the verdict row shows it" -- \
	grep -qE "^inject +idle +REGRESSION +$meas\$" $T/out
check "report.txt: the same row" -- grep -qE "^inject +idle +REGRESSION +$meas\$" $RUN/report.txt
check "report.txt: the decisive row is starred in the comparison table" -- \
	grep -qE "^\* $(jget $J ".comparisons[0].lines[$d].metric") +$(jget $J ".comparisons[0].lines[$d].cpu") " $RUN/report.txt
check "report.md: the verdict table's measured cell" -- \
	grep_f "| inject | idle | **REGRESSION** | $meas |" $RUN/report.md
check "report.html: the verdict table's measured cell" -- \
	grep_f "<td class=\"n\">$esc</td>" $RUN/report.html
check "report.html: the decisive row is highlighted" -- \
	grep -q '<tr class="decisive">' $RUN/report.html
check "junit.xml: the failure says what was measured" -- \
	grep_f "measured: $esc" $RUN/junit.xml
kcidb=$("$RTGATE" export kcidb "$RUN")
check "KCIDB: the scenario's comment carries it" -- grep_f "$meas" \
	<(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .comment' <<<"$kcidb")
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | "\(.number.value) \(.number.unit)"' <<<"$kcidb")" \
	"$(jget $J ".comparisons[0].lines[$d] | \"\(.candidate) \(.unit)\"")" \
	"KCIDB: its number is the decisive line's candidate value"
"$RTGATE" lava report --print "$RUN" >$T/lava 2>/dev/null
check "LAVA: the case's measurement is the decisive line's" -- grep -qE \
	"^lava-test-case rtgate.inject-fixture.inject --result fail --measurement $(printf '%.3f' "$(jget $J ".comparisons[0].lines[$d].candidate")") --units us$" $T/lava

# One name per quantity: the true maximum never replaced by the limit.
is "$(jget $J '.scenarios[0].summary[0].max_us')" 7238 "idle CPU 0: the T: line's Max is the true maximum"
check "report.txt: the measured maximum of every repetition (7238, not the 2000 us limit)" -- \
	grep -q '^measured maxima per repetition (us): CPU 0: 7238 842 769; CPU 1: 3407 486 878$' $RUN/report.txt
check "KCIDB: idle's max is the true maximum" -- test \
	"$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.idle.max") | .number.value' <<<"$kcidb")" = 7238
check "LAVA: idle's max is the true maximum" -- \
	grep -q '^lava-test-case rtgate.inject-fixture.idle.max --result pass --measurement 7238.000 --units us$' $T/lava
check "the equal-count values are labelled wherever they appear (txt)" -- \
	bash -c "! grep -E '>=1089' '$RUN/report.txt' | grep -vq 'at equal sample counts'"
check "... (junit)" -- \
	bash -c "! grep -E '&gt;=1089' '$RUN/junit.xml' | grep -vq 'at equal sample counts'"
check "max rows say what they are" -- \
	grep -q "max: the largest wake-up measured (the T: lines' Max), its p and" $RUN/report.txt

# Lines the gate does not judge: "not judged", no verdict of their own.
check "report.txt: avg rows read 'not judged'" -- \
	grep -qE '^  avg +1 .* not judged +p=' $RUN/report.txt
check "... and no verdict on them" -- \
	bash -c "! grep -E '^  avg ' '$RUN/report.txt' | grep -Eq 'REGRESSION|NO CHANGE|IMPROVEMENT|INCONCLUSIVE'"
is "$(jget $J '[.comparisons[0].lines[] | select(.deciding | not) | .verdict] | unique | map(tostring) | join(",")')" \
	null "report.json: a line not judged has verdict null"
check "report.md: not judged" -- grep -q '| not judged |' $RUN/report.md

# Published numbers only where they apply: idle's reference is idle's.
check "no published column: no comparison's candidate has a publication" -- \
	grep -qE '^candidate +baseline +verdict +measured$' $T/out
is "$(jget $J '[.comparisons[].published] | map(tostring) | join(",")')" null,null \
	"report.json: no published pair for inject or rt-only"
is "$(jget $J '[.comparisons[0].lines[] | .published_baseline] | unique | map(tostring) | join(",")')" \
	null "... nor a published idle value beside inject's lines"
cp -r "$FIX/run-inject" "$T/runr"
jq '(.scenarios[] | select(.name == "inject")).reference =
      { source: "a test publication of inject",
        T: ["T: 0 ( 1) P:95 I:1000 C:   5000 Min:      3 Act:    3 Avg:    3 Max:      40",
            "T: 1 ( 2) P:95 I:1500 C:   3000 Min:      3 Act:    4 Avg:    3 Max:      36"] }' \
	"$FIX/run-inject/manifest.json" >"$T/runr/manifest.json"
"$RTGATE" report "$T/runr" >$T/outr
check "a candidate with a publication: the published column" -- \
	grep -qE '^inject +idle +REGRESSION +.* +max 12 -> 40 us$' $T/outr
check "... its footnotes name each source's scenario" -- \
	grep -q '^published (idle): Steven Rostedt' $T/outr
check "... (the candidate's too)" -- grep -q '^published (inject): a test publication of inject$' $T/outr
check "... rt-only, without one, shows none" -- grep -qE '^rt-only +idle +SKIPPED +- +-$' $T/outr

# The Overall verdict: a flagged positive control and a SKIPPED pass.
cp -r "$FIX/run-inject" "$T/runc"
jq '(.scenarios[] | select(.name == "inject")).control = "positive"' \
	"$FIX/run-inject/manifest.json" >"$T/runc/manifest.json"
"$RTGATE" report -q "$T/runc"
is "$?" 0 "a flagged positive control passes (exit 0)"
is "$(jget $T/runc/report.json .verdict)" "NO CHANGE" "report.json: Overall NO CHANGE, not SKIPPED"
check "report.md: Overall NO CHANGE" -- grep -q 'Overall: \*\*NO CHANGE\*\* (exit 0)' $T/runc/report.md
check "report.html: Overall NO CHANGE" -- \
	grep -q '<p>Overall: <span class="badge v-NO">NO CHANGE</span> (exit 0)' $T/runc/report.html
check "report.html: the control's row says what it counts as" -- \
	grep -q 'counts as</span> <span class="badge v-NO">NO CHANGE' $T/runc/report.html
kc=$("$RTGATE" export kcidb "$T/runc")
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .status' <<<"$kc")" \
	PASS "KCIDB: the flagged control is PASS"
is "$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture") | .status' <<<"$kc")" \
	PASS "KCIDB: the suite (the gate) is PASS"
check "KCIDB: the comment says why" -- grep -q 'REGRESSION (positive control, counts as NO CHANGE)' \
	<<<"$(jq -r '.tests[] | select(.path == "rtgate.inject-fixture.inject") | .comment' <<<"$kc")"
"$RTGATE" lava report --print "$T/runc" >$T/lavac 2>/dev/null
check "LAVA: the flagged control passes" -- \
	grep -qE '^lava-test-case rtgate.inject-fixture.inject --result pass ' $T/lavac
check "LAVA: no case fails" -- bash -c "! grep -q -- '--result fail' '$T/lavac'"
# (inject the baseline now: a manifest's comparisons make no cycle.)
jq '(.scenarios[] | select(.name == "idle")).control = "positive" |
    (.scenarios[] | select(.name == "idle")).compare = "inject" |
    (.scenarios[] | select(.name == "inject")) |= (.compare = null |
    del(.control))' \
	"$T/runc/manifest.json" >$T/m && mv $T/m "$T/runc/manifest.json"
rm -f "$T/runc/report.json"
"$RTGATE" lava report --print "$T/runc" >$T/lavan 2>/dev/null
check "LAVA: a control the gate missed does not pass" -- \
	grep -qE '^lava-test-case rtgate.inject-fixture.idle --result fail' $T/lavan

# junit.xml against the strict schema: every shape of run.
check "junit.xml (REGRESSION) validates against the XSD" -- \
	xmllint --noout --schema "$XSD" "$RUN/junit.xml"
check "junit.xml (a flagged control) validates" -- \
	xmllint --noout --schema "$XSD" "$T/runc/junit.xml"
jq '.status = "incomplete"' "$FIX/run-inject/manifest.json" >"$T/runr/manifest.json"
"$RTGATE" report -q "$T/runr"
check "junit.xml (an incomplete run) validates" -- \
	xmllint --noout --schema "$XSD" "$T/runr/junit.xml"
"$RTGATE" compare -q "$FIX/seed/idle.txt" "$FIX/seed/extend-sched-30us.txt" \
	--report junit --out "$T/cmp"
check "junit.xml (compare of pasted T: lines) validates" -- \
	xmllint --noout --schema "$XSD" "$T/cmp/junit.xml"
sed 's/ timestamp="[^"]*"//' "$RUN/junit.xml" >$T/bad.xml
check "the schema is strict: no timestamp fails it" -- \
	bash -c "! xmllint --noout --schema '$XSD' '$T/bad.xml' 2>/dev/null"
x=$RUN/junit.xml
check "junit: timestamp and hostname of the run" -- \
	grep -q '<testsuite name="rtgate.fixture-inject" package="rtgate.inject-fixture" id="0" timestamp="2026-11-30T20:03:53" hostname="vm" ' $x
check "junit: kernel and preemption model in <properties>" -- \
	grep -q '<property name="kernel" value="6.18.44-fc-v509"/>' $x
check "... and the preemption model" -- grep -q '<property name="preemption_model" value="unknown (not PREEMPT_RT)"/>' $x
t=$(sed -n 's/.*name="inject vs idle" time="\([0-9.]*\)".*/\1/p' $x)
diag "inject vs idle: time=$t s"
check "junit: the testcase's time is the measured seconds (6 x 20 s + overhead)" -- \
	awk -v t="$t" 'BEGIN { exit !(t > 100 && t < 400) }'
check "junit: the skipped comparison measured nothing of its own" -- \
	grep -q 'name="rt-only vs idle" time="0.000"' $x
done_testing
