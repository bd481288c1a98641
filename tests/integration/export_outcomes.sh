#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One outcome everywhere (docs/exports.md): one recorded run of each
# outcome (tests/fixtures/outcomes) through every exporter -- junit.xml
# from `rtgate report`, `rtgate export kcidb`, `rtgate lava report` --
# and each must say what the documented table says and what the exit
# code says. The table is read from docs/exports.md, so the document and
# the code cannot drift apart either.
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
SCHEMA=$TOP/tests/schemas/kcidb-v5.schema.json

# The table: outcome -> exit, JUnit, KCIDB, LAVA.
declare -A EXIT JUNIT KCIDB LAVA
while IFS='|' read -r _ name _ code junit kcidb lava _; do
	name=$(echo $name)
	EXIT[$name]=$(echo $code) JUNIT[$name]=$(echo $junit)
	KCIDB[$name]=$(echo $kcidb) LAVA[$name]=$(echo $lava)
done < <(sed -n '/^| outcome | what it is |/,/^$/p' "$TOP/docs/exports.md" |
	 tail -n +3 | grep '^|')
is "${#EXIT[@]}" 12 "docs/exports.md's table has its twelve outcomes"

# A comparison's outcome from report.json, as the table's text defines it.
outcome_of() {	# REPORT_JSON CANDIDATE
	jq -r --arg c "$2" '.comparisons[] | select(.candidate == $c) |
		(.counts_as // .verdict) as $n |
		if .control == "positive" and .verdict == "REGRESSION" and
		   $n == "NO CHANGE" then "flagged control"
		elif .control == "positive" and $n == "INCONCLUSIVE" then
			"missed control"
		elif $n == "REGRESSION" and (.reason | contains("over budget:"))
			then "over budget"
		else $n end' "$1"
}

# What a junit.xml says the exit code is: a failure 1, else an error 2
# (5 when its suite verdict testcase says the run is incomplete), else 0.
junit_exit() {
	local f=$1 fails errs
	fails=$(xmllint --xpath 'count(//testcase/failure)' "$f")
	errs=$(xmllint --xpath 'count(//testcase/error)' "$f")
	if [ "$fails" -gt 0 ]; then echo 1
	elif xmllint --xpath '//testcase[@name="suite verdict"]/error[@type="incomplete"]' \
		"$f" >/dev/null 2>&1; then echo 5
	elif [ "$errs" -gt 0 ]; then echo 2
	else echo 0
	fi
}

# The JUnit element of one testcase: failure, error, skipped or pass.
junit_of() {	# JUNIT NAME
	local e
	for e in failure error skipped; do
		if [ "$(xmllint --xpath "count(//testcase[@name=\"$2\"]/$e)" "$1")" \
			-gt 0 ]; then
			echo $e
			return
		fi
	done
	echo pass
}

"$TOP/tests/fixtures/outcomes/make-outcomes.sh" "$T/o" >"$T/list"
is "$(wc -l <"$T/list")" 10 "one run of each of ten outcomes"
seen=""
while IFS=$'\t' read -r name want; do
	run=$T/o/$name
	row_exit=${EXIT[$want]:-?}
	"$RTGATE" report -q "$run" >/dev/null 2>"$T/err"
	code=$?
	is "$code" "$row_exit" "$name: rtgate report exits as the table says for $want"
	suite=$(jget "$run/manifest.json" '.suite.name')
	seen="$seen|$want"

	# JUnit
	ju=$run/junit.xml
	is "$(junit_exit "$ju")" "$code" "$name: junit.xml's failures and errors say exit $code"
	# KCIDB
	"$RTGATE" export kcidb -o "$T/$name.kcidb.json" "$run" 2>>"$T/err"
	is "$?" 0 "$name: export kcidb"
	k=$T/$name.kcidb.json
	gate=".tests[] | select(.path == \"rtgate.$suite\")"
	is "$(jget "$k" "$gate | .status")" "${KCIDB[$want]}" \
		"$name: the KCIDB gate rtgate.$suite is the table's status"
	is "$(jget "$k" "$gate | .misc.exit_code")" "$code" \
		"$name: ... and names the exit code"
	case "$(jget "$k" "$gate | .status")" in
	PASS | DONE) kexit=0 ;; FAIL) kexit=1 ;; *) kexit=err ;; esac
	[ "$code" -eq 0 ] && want_k=0 || { [ "$code" -eq 1 ] && want_k=1 || want_k=err; }
	is "$kexit" "$want_k" "$name: KCIDB's gate passes, fails or errs as exit $code does"
	# LAVA
	"$RTGATE" lava report --print "$run" >"$T/$name.lava" 2>>"$T/err"
	is "$?" 0 "$name: lava report"
	line=$(grep -E "^lava-test-case rtgate\\.$suite --" "$T/$name.lava")
	is "$(echo "$line" | awk '{print $4}')" "${LAVA[$want]}" \
		"$name: LAVA's rtgate.$suite is the table's result"
	is "$(echo "$line" | awk '{print $6}')" "$code.000" \
		"$name: ... its measurement is the exit code"
	[ "$code" -eq 0 ] && want_l=pass || want_l=fail
	is "$(echo "$line" | awk '{print $4}')" "$want_l" \
		"$name: LAVA passes only what exits 0"

	# Every comparison of a scenario, in every format, as the table says.
	for cand in $(jq -r '.comparisons[].candidate' "$run/report.json"); do
		jq -e --arg c "$cand" '.scenarios[] | select(.name == $c)' \
			"$run/manifest.json" >/dev/null || continue
		o=$(outcome_of "$run/report.json" "$cand")
		base=$(jq -r --arg c "$cand" '.comparisons[] |
			select(.candidate == $c) | .baseline' "$run/report.json")
		got_j=$(junit_of "$ju" "$cand vs $base")
		want_j=${JUNIT[$o]}
		[ "$want_j" = "—" ] && want_j=pass
		is "$got_j" "$want_j" "$name: $cand ($o) in junit.xml"
		is "$(jget "$k" ".tests[] | select(.path == \"rtgate.$suite.$cand\") | .status")" \
			"${KCIDB[$o]}" "$name: $cand ($o) in KCIDB"
		is "$(grep -E "^lava-test-case rtgate\\.$suite\\.$cand --" "$T/$name.lava" |
			awk '{print $4}')" "${LAVA[$o]}" "$name: $cand ($o) in LAVA"
	done
	# The run's own outcome, where no comparison carries it.
	case "$want" in
	incomplete | "nothing measured")
		is "$(xmllint --xpath 'string(//testcase[@name="suite verdict"]/error/@type)' "$ju")" \
			"$want" "$name: junit.xml's suite verdict testcase says $want" ;;
	*)
		found=0
		for cand in $(jq -r '.comparisons[].candidate' "$run/report.json"); do
			[ "$(outcome_of "$run/report.json" "$cand")" = "$want" ] && found=1
		done
		ok $((! found)) "$name: one of its comparisons is $want" ;;
	esac
done <"$T/list"
for o in "${!EXIT[@]}"; do
	case "$o" in SKIPPED | "not judged") continue ;; esac
	case "$seen|" in *"|$o|"*) ;; *) ok 1 "no run of $o" ;; esac
done
sed 's/^/# /' "$T/err" | head -10
done_testing
