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
# ---- issue 35: inputs are regular files of bounded size ---------------------
F=$FIX/formats
rm -rf "$T/big" && cp -r "$FIX/run-inject" "$T/big"
truncate -s 65M "$T/big/idle/1/cyclictest.json"
"$RTGATE" report -q "$T/big" >/dev/null 2>"$T/big.err"
is "$?" 3 "a 65 MiB cyclictest.json: exit 3"
check "... the file, the bound and why" -- \
	grep -q "idle/1/cyclictest.json: larger than 64 MiB, the bound of an input file (a cyclictest --json of 256 CPUs" "$T/big.err"
rm -f "$T/big/idle/1/cyclictest.json"
mkfifo "$T/big/idle/1/cyclictest.json"
timeout 20 "$RTGATE" report -q "$T/big" >/dev/null 2>"$T/fifo.err"
is "$?" 3 "a FIFO for a cyclictest.json: exit 3, no hang"
check "... saying it is no regular file" -- grep -q "not a regular file" "$T/fifo.err"
rm -f "$T/big/idle/1/cyclictest.json"
mkdir "$T/big/idle/1/cyclictest.json"
"$RTGATE" report -q "$T/big" >/dev/null 2>"$T/dir.err"
is "$?" 3 "a folder for a cyclictest.json: exit 3"
check "... saying so" -- grep -q "cyclictest.json: a folder, not a file" "$T/dir.err"
"$RTGATE" report -q -o "" "$FIX/run-inject" >/dev/null 2>"$T/o.err"
is "$?" 3 "report -o '': exit 3"
check "... saying the name is empty" -- grep -q "an empty folder name" "$T/o.err"
"$RTGATE" compare -q -o "" "$F/ct240-h25.json" "$F/ct240-h25.json" \
	>/dev/null 2>"$T/oc.err"
is "$?" 3 "compare -o '': exit 3"
check "... saying the name is empty" -- grep -q "an empty folder name" "$T/oc.err"

# ---- both result formats, the same invariants --------------------------------
sed -e 's/^# Histogram Overflows: .*/# Histogram Overflows: 00000 00000/' \
    -e 's/^# Max Latencies: .*/# Max Latencies: 00011 00012/' \
    -e '/^# Thread [01]:/d' "$F/ct240-h25.hist" >"$T/lowmax.hist"
"$RTGATE" compare -q "$T/lowmax.hist" "$F/ct240-h25.hist" >/dev/null 2>"$T/h1.err"
is "$?" 3 "a .hist whose Max is below its highest bucket: exit 3"
check "... naming the file and the thread" -- \
	grep -q "lowmax.hist: thread 0: \"# Max Latencies:\" 11 is below the highest bucket" "$T/h1.err"
sed -e 's/^# Min Latencies: .*/# Min Latencies: 09000 09000/' \
	"$F/ct240-h25.hist" >"$T/minmax.hist"
"$RTGATE" compare -q "$T/minmax.hist" "$F/ct240-h25.hist" >/dev/null 2>"$T/h2.err"
is "$?" 3 "a .hist whose Min is above its Max: exit 3"
check "... naming it" -- grep -q "minmax.hist: thread 0: .* is below \"# Min Latencies:\" 9000" "$T/h2.err"
python3 - "$F/ct240-h25.json" "$T/dup.json" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
# the first bucket line of thread 0's histogram, twice
m = re.search(r'\n(\s*"\d+": \d+,)\n', t[t.index('"histogram"'):])
i = t.index('"histogram"') + m.end()
open(sys.argv[2], "w").write(t[:i] + m.group(1) + "\n" + t[i:])
PY
"$RTGATE" compare -q "$T/dup.json" "$F/ct240-h25.json" >/dev/null 2>"$T/dup.err"
is "$?" 3 "a histogram key listed twice: exit 3, never summed"
check "... naming the key" -- grep -q "dup.json: thread 0: histogram key \"[0-9]*\" appears twice" "$T/dup.err"

# ---- the cpu field when CPUs are paired --------------------------------------
jq '.thread["0"].cpu = 5 | .thread["1"].cpu = 7' "$F/ct240-h25.json" >"$T/cpu57.json"
"$RTGATE" compare -q --report json -o "$T/cpu" "$F/ct240-h25.json" \
	"$T/cpu57.json" >/dev/null 2>"$T/cpu.err"
is "$?" 2 "a candidate measured on CPUs 5 and 7 against 0 and 1: exit 2"
is "$(jq -r '.comparisons[0].verdict' "$T/cpu/report.json")" INVALID \
	"... INVALID, never judged as CPUs 0 and 1"
check "... the difference named" -- grep -q \
	"not like with like: cpus (.*thread 0 ran on CPU 0 in ct240-h25.json, on CPU 5 in cpu57.json): '0 1' -> '5 7'" \
	"$T/cpu/report.json"
"$RTGATE" compare -q --report json -o "$T/cpui" --intended cpus \
	"$F/ct240-h25.json" "$T/cpu57.json" >/dev/null 2>&1
isnt_invalid=$(jq -r '.comparisons[0].verdict' "$T/cpui/report.json")
ok $([ "$isnt_invalid" != INVALID ]; echo $?) \
	"... --intended cpus: judged ($isnt_invalid)"

# ---- the manifest, as strictly as a suite ------------------------------------
manifest_refused() {	# JQ FIELD WHAT
	rm -rf "$T/mf" && cp -r "$FIX/run-inject" "$T/mf"
	jq "$1" "$FIX/run-inject/manifest.json" >"$T/mf/manifest.json"
	"$RTGATE" report -q "$T/mf" >/dev/null 2>"$T/mf.err"
	is "$?" 3 "report: $3: exit 3"
	check "... naming the file and $2" -- grep -q "mf/manifest.json: $2" "$T/mf.err"
	check "... and no report written" -- test ! -e "$T/mf/report.json"
	"$RTGATE" history import --db "$T/mf.db" "$T/mf" >/dev/null 2>&1
	is "$?" 3 "history import: $3: exit 3"
	"$RTGATE" lava report --print "$T/mf" >"$T/mf.lava" 2>/dev/null
	is "$?" 3 "lava report: $3: exit 3"
	check "... and no case, no pass" -- test ! -s "$T/mf.lava"
}
manifest_refused '.scenarios = []' "scenarios: empty" "an empty scenario list"
manifest_refused '(.scenarios[] | select(.name == "inject")).compare = "inject"' \
	'scenarios\[1\].compare: scenario .inject. is compared with itself' "a self-compare"
manifest_refused '(.scenarios[] | select(.name == "idle")).compare = "inject"' \
	'scenarios\[[01]\].compare: the comparisons from .* go round in a cycle' "a compare cycle"
manifest_refused '.scenarios[2].name = "inject"' \
	"scenarios\[2\].name: duplicate scenario 'inject'" "a duplicate scenario"
manifest_refused '.suite.gate.budgets = {"max_us": -5}' \
	"suite.gate.budgets.max_us: not a number >= 0" "a negative budget"
manifest_refused '(.scenarios[] | select(.name == "inject")).compare = "nowhere"' \
	"scenarios\[1\].compare: 'nowhere' is not a scenario of this run" "a compare to nothing"

# ---- suites: what is wrong, said ----------------------------------------------
mkdir -p "$T/folder.suite"
"$RTGATE" run "$T/folder.suite" >/dev/null 2>"$T/fs.err"
is "$?" 3 "a folder given as a suite: exit 3"
check "... saying it is a folder, not ':0: read error'" -- \
	grep -q "folder.suite: a folder, not a file" "$T/fs.err"
printf '[measure]\nduration = 15\n[scenario idle]\n' >"$T/bare.suite"
"$RTGATE" run "$T/bare.suite" >/dev/null 2>"$T/bare.err"
is "$?" 3 "duration = 15 without a unit: exit 3"
check "... the line, and that a unit is needed" -- \
	grep -q "bare.suite:2: duration = 15: a duration needs its unit (15s" "$T/bare.err"
done_testing
