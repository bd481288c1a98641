#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Input crafted to do harm: a binary suite whose bytes would drive the
# terminal is quoted escaped in the error, never echoed raw; a manifest
# whose repetition "dir" climbs out of the results directory (../../..) is
# refused by the analyzer and the history, exit 3, never followed.
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/analyze

# ---- escaped messages ------------------------------------------------------
printf '[suite]\nna\033]0;pwned\007me\r\xff\xfe = 1\n' >"$T/binary.suite"
"$RTGATE" run "$T/binary.suite" >/dev/null 2>"$T/bin.err"
is "$?" 3 "a binary key in a suite: exit 3"
diag "$(cat -v "$T/bin.err")"
check "the message names the file and line" -- \
	grep -q "binary.suite:2: unknown key" "$T/bin.err"
check "no escape, bell or carriage return reaches the terminal" -- \
	bash -c "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f]' '$T/bin.err'"
check "they are written as \\xNN" -- \
	grep -qF 'na\x1b]0;pwned\x07me\x0d\xff\xfe' "$T/bin.err"
check "the message is valid UTF-8" -- iconv -f UTF-8 -t UTF-8 "$T/bin.err" -o /dev/null

# A histogram row of binary garbage in an analyzer input.
{ head -5 "$FIX/formats/ct240-h25.hist"; printf '\033[2J\033[H\xc3 000001\n'; } \
	>"$T/garbage.hist"
"$RTGATE" compare -q "$T/garbage.hist" "$FIX/seed/idle.txt" >/dev/null 2>"$T/g.err"
is "$?" 3 "a histfile with binary bytes: exit 3"
check "the analyzer's message escapes them too" -- \
	bash -c "grep -qF 'garbage.hist:6:' '$T/g.err' && ! LC_ALL=C grep -q \$'\\x1b' '$T/g.err'"

# ---- a manifest's "dir" that leaves the results directory -----------------
mkdir -p "$T/outside/x/1"
cp "$FIX/run-inject/idle/1/cyclictest.json" "$T/outside/x/1/"
cp -r "$FIX/run-inject" "$T/run"
# A repetition pointing at $T/outside/x/1 through ../
jq '.scenarios[0].repetitions[0].dir = "../outside/x/1"' \
	"$FIX/run-inject/manifest.json" >"$T/run/manifest.json"
"$RTGATE" report "$T/run" >"$T/rep.out" 2>"$T/rep.err"
is "$?" 3 "report: a repetition dir with .. is bad input (exit 3)"
check "the message says it leaves the results directory" -- \
	grep -q "\"dir\" '../outside/x/1' leaves the results directory" "$T/rep.err"
check "no report was written" -- test ! -e "$T/run/report.json"
jq '.scenarios[0].repetitions[0].dir = "/tmp"' \
	"$FIX/run-inject/manifest.json" >"$T/run/manifest.json"
"$RTGATE" report "$T/run" >/dev/null 2>"$T/abs.err"
is "$?" 3 "report: an absolute repetition dir is bad input (exit 3)"

jq '.scenarios[0].repetitions[0].dir = "../../../../../../../../tmp"' \
	"$FIX/run-inject/manifest.json" >"$T/run/manifest.json"
"$RTGATE" history import --db "$T/h.db" "$T/run" >"$T/h.out" 2>"$T/h.err"
rc=$?
check "history import refuses it (exit $rc)" -- test "$rc" -ne 0
check "and says why" -- grep -q "leaves the results directory" "$T/h.err"
is "$(sqlite3 "$T/h.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" 0 \
	"nothing was stored"
done_testing
