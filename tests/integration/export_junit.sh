#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# junit.xml in the strictest common form (docs/exports.md): every
# outcome's report validates against Apache Ant's JUnit schema as Windy
# Road publishes it (tests/schemas/junit-ant.xsd) and against rtgate's own
# (tests/schemas/junit-strict.xsd), and a third-party JUnit reader
# (junitparser) reads back the results and counts the file states.
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
ANT=$TOP/tests/schemas/junit-ant.xsd
STRICT=$TOP/tests/schemas/junit-strict.xsd

"$TOP/tests/fixtures/outcomes/make-outcomes.sh" "$T/o" >"$T/list"
have_reader=1
$PY -c 'import junitparser' 2>/dev/null || have_reader=0
while IFS=$'\t' read -r name want; do
	run=$T/o/$name
	"$RTGATE" report -q -r junit "$run" >/dev/null 2>&1
	ju=$run/junit.xml
	check "$name ($want): junit.xml validates against the Ant JUnit XSD" -- \
		xmllint --noout --schema "$ANT" "$ju"
	check "$name: ... and against junit-strict.xsd" -- \
		xmllint --noout --schema "$STRICT" "$ju"
	is "$(xmllint --xpath 'count(/testsuites/@*)' "$ju")" 0 \
		"$name: the <testsuites> wrapper has no attributes"
	is "$(xmllint --xpath 'count(//testcase/system-out)' "$ju")" 0 \
		"$name: no <system-out> inside a testcase"
	missing=0
	while IFS= read -r tc; do
		[ "$tc" = "suite verdict" ] && continue
		xmllint --xpath "string(//testsuite/system-out)" "$ju" |
			grep -q "^$tc: " || missing=$((missing + 1))
	done < <(xmllint --xpath '//testcase/@name' "$ju" |
		 sed -n 's/^ *name="\(.*\)"$/\1/p')
	is "$missing" 0 "$name: every comparison's verdict is in the suite's <system-out>"
	if [ $have_reader -eq 0 ]; then
		skip "python3-junitparser is not installed" "$name: a JUnit reader reads it"
		continue
	fi
	$PY "$TOP/tests/schemas/read-junit.py" "$ju" >"$T/$name.read"
	is "$?" 0 "$name: junitparser reads it"
	for e in failures errors skipped tests; do
		is "$(awk -v k=$e '/^tests /{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' \
			"$T/$name.read")" \
			"$(xmllint --xpath "string(//testsuite/@$e)" "$ju")" \
			"$name: the reader's $e are the suite's"
	done
	for e in failure error skipped; do
		is "$(grep -c "	$e\$" "$T/$name.read")" \
			"$(xmllint --xpath "count(//testcase/$e)" "$ju")" \
			"$name: the reader sees every $e"
	done
done <"$T/list"

# compare's junit.xml is the same form.
nr=$TOP/tests/fixtures/nightly/recorded
"$RTGATE" compare -q -r junit -o "$T/cmp" "$nr/20261130-195359-quick/idle" \
	"$nr/20261130-195420-quick/hackbench" >/dev/null 2>&1
check "compare's junit.xml validates against the Ant JUnit XSD" -- \
	xmllint --noout --schema "$ANT" "$T/cmp/junit.xml"

# The schema checks are real: what the Ant schema refuses, it refuses.
ju=$T/o/regression/junit.xml
sed 's/<testsuites>/<testsuites name="rtgate" tests="1">/' "$ju" >"$T/bad1.xml"
xmllint --noout --schema "$ANT" "$T/bad1.xml" >/dev/null 2>&1
ok $((! $?)) "attributes on <testsuites> fail the Ant XSD"
sed 's|</testcase>|<system-out>x</system-out></testcase>|' "$ju" >"$T/bad2.xml"
xmllint --noout --schema "$ANT" "$T/bad2.xml" >/dev/null 2>&1
ok $((! $?)) "a <system-out> inside a <testcase> fails the Ant XSD"
sed 's|<system-err></system-err>||' "$ju" >"$T/bad3.xml"
xmllint --noout --schema "$ANT" "$T/bad3.xml" >/dev/null 2>&1
ok $((! $?)) "a testsuite without <system-err> fails the Ant XSD"
done_testing
