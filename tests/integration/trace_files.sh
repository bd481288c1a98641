#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Saved traces read back: the committed fixture gives the attribution that
# was printed when it was recorded, word for word; bad, cut and missing
# files are refused with a message naming them and exit 3.
source "$(dirname "$0")/../lib.sh"

fx=$TOP/tests/fixtures/trace/inject-cpu1.dat
"$RTGATE" trace explain --tids 17534 "$fx" >"$T/explain.txt"
is $? 0 "trace explain on the fixture exits 0"
check "the same attribution as when it was recorded" -- \
	diff -u "$TOP/tests/fixtures/trace/inject-cpu1.explain" "$T/explain.txt"

"$RTGATE" trace explain --json --tids 17534 "$fx" >"$T/attr.json"
is "$(jq -r '.windows[0].parts[0].name' "$T/attr.json")" inject \
	"JSON: the worst window's first part is the spinner"
is "$(jq -r '.windows[0].parts[0].policy' "$T/attr.json")" "rt 99" \
	"JSON: with its policy"

# Baseline: the fixture's windows without the spinner's part (as if it
# had not run); candidate: the fixture. The spinner is a new culprit.
jq '.windows |= map(.parts |= map(select(.name != "inject")))' \
	"$T/attr.json" >"$T/base.json"
"$RTGATE" trace compare "$T/base.json" "$fx" --tids 17534 >"$T/cmp.txt"
is $? 0 "trace compare exits 0"
sed 's/^/# /' "$T/cmp.txt"
check "the headline names the new culprit" -- \
	grep -qE '^new: inject \(rt 99\), [0-9]+ us in 100 % of the worst wake-ups$' \
	"$T/cmp.txt"

size=$(stat -c %s "$fx")
head -c $((size / 2)) "$fx" >"$T/half.dat"
"$RTGATE" trace explain "$T/half.dat" >"$T/out" 2>"$T/err"
is $? 3 "a trace cut in half: exit 3"
check "the message names the file" -- grep -q "$T/half.dat: .*truncated" "$T/err"
check "and nothing is printed as a result" -- test ! -s "$T/out"

head -c $((size - 1000)) "$fx" >"$T/cut.dat"
"$RTGATE" trace events "$T/cut.dat" >/dev/null 2>"$T/err"
is $? 3 "a trace missing its last kilobyte: exit 3"

echo "not a trace" >"$T/text.dat"
"$RTGATE" trace explain "$T/text.dat" >/dev/null 2>"$T/err"
is $? 3 "a text file: exit 3"
check "the message says it is no trace" -- \
	grep -q "$T/text.dat: byte 0: not a trace-cmd trace file" "$T/err"

"$RTGATE" trace explain "$T/missing.dat" >/dev/null 2>"$T/err"
is $? 3 "a missing file: exit 3"
check "the message names it" -- grep -q "$T/missing.dat" "$T/err"

echo '{"schema": "something/1"}' >"$T/other.json"
"$RTGATE" trace compare "$T/other.json" "$fx" >/dev/null 2>"$T/err"
is $? 3 "compare with a JSON that is no attribution: exit 3"

"$RTGATE" trace explain --top 0 "$fx" >/dev/null 2>&1
is $? 3 "a bad option value: exit 3"
"$RTGATE" trace frobnicate >/dev/null 2>&1
is $? 3 "an unknown subcommand: exit 3"

done_testing
