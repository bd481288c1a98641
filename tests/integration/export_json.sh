#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `--json` for scripts (docs/exports.md): `rtgate compare --json` and
# `rtgate run --json` print the report.json document on stdout and nothing
# else -- tables and progress go to stderr -- and exit as without it.
source "$(dirname "$0")/../lib.sh"
nr=$TOP/tests/fixtures/nightly/recorded
A=$nr/20261130-195359-quick/idle
B=$nr/20261130-195420-quick/hackbench

# The reference: the same comparison's report.json, written to a directory.
"$RTGATE" compare -q -r json -o "$T/ref" "$A" "$B"
want=$?
"$RTGATE" compare --json "$A" "$B" >"$T/c.json" 2>"$T/c.err"
is "$?" "$want" "compare --json exits as compare does"
check "stdout is JSON" -- bash -c "jq -e . '$T/c.json' >/dev/null"
is "$(jq -s length "$T/c.json")" 1 "... and only one"
is "$(jq -c 'del(.generated)' "$T/c.json" | md5sum)" \
	"$(jq -c 'del(.generated)' "$T/ref/report.json" | md5sum)" \
	"... the report.json compare writes"
is "$(jget "$T/c.json" .exit_code)" "$want" "its exit_code is the exit code"
check "the table went to stderr" -- grep -q 'verdict' "$T/c.err"
check "no private directory is left behind" -- \
	bash -c "! ls -d '${TMPDIR:-/tmp}'/rtgate-json.* 2>/dev/null"

# Options after the inputs, an --out of its own: report.json is also there.
"$RTGATE" compare "$A" "$B" --out "$T/o1" --json >"$T/c2.json" 2>/dev/null
is "$?" "$want" "compare A B --out DIR --json"
cmp -s "$T/c2.json" "$T/o1/report.json"
ok $? "... prints the report.json written into DIR"
check "... beside the other reports" -- test -s "$T/o1/junit.xml"

# Two whole runs, scenario by scenario.
"$RTGATE" compare --json "$nr/20261130-195359-quick" "$nr/20261130-195420-quick" \
	>"$T/r.json" 2>/dev/null
rc=$?
check "compare --json RUN_A RUN_B: a JSON report (exit $rc)" -- \
	bash -c "jq -e '.comparisons | length > 0' '$T/r.json' >/dev/null"

# What cannot be judged prints nothing on stdout.
"$RTGATE" compare --json "$A" "$T/nonexistent" >"$T/bad.out" 2>"$T/bad.err"
is "$?" 3 "compare --json of a missing input exits 3"
is "$(wc -c <"$T/bad.out")" 0 "... with nothing on stdout"
check "... and names the file on stderr" -- grep -q nonexistent "$T/bad.err"
"$RTGATE" compare --json -r txt "$A" "$B" >"$T/bad2.out" 2>"$T/bad2.err"
is "$?" 3 "compare --json --report without json is a usage error"
"$RTGATE" compare --json --history "$nr/20261130-195359-quick" >/dev/null 2>&1
is "$?" 3 "compare --history --json is a usage error"

# run --json: a two-scenario suite of 1 s repetitions (a few seconds).
"$RTGATE" run "$T/nonexistent.suite" >/dev/null 2>&1
want=$?
"$RTGATE" run --json "$T/nonexistent.suite" >"$T/rbad.out" 2>/dev/null
is "$?" "$want" "run --json of a missing suite exits as run does"
is "$(wc -c <"$T/rbad.out")" 0 "... with nothing on stdout"
if [ "$(id -u)" -ne 0 ]; then
	skip "not root" "run --json"
	done_testing
	exit
fi
cat >"$T/aa.suite" <<'SUITE'
[suite]
name        = json-aa
description = export_json.sh: an A/A pair, briefly
repetitions = 1

[measure]
cyclictest = --smp -p95 -m -i 1000
duration   = 1s
histogram  = 2000

[scenario idle]
description = cyclictest alone

[scenario idle2]
description = cyclictest alone again
compare     = idle
SUITE
"$RTGATE" run --json --no-history "$T/aa.suite" >"$T/run.json" 2>"$T/run.err"
rc=$?
diag "rtgate run --json exited $rc"
sed 's/^/# /' "$T/run.err" | grep -v '^# [0-9:]* \[' | head -8
if [ $rc -eq 4 ] && grep -q 'another rtgate run is using this machine' "$T/run.err"; then
	skip "another run holds the machine" "run --json"
	done_testing
	exit
fi
check "run --json: stdout is JSON" -- bash -c "test -s '$T/run.json' &&
	jq -e . '$T/run.json' >/dev/null"
is "$(jq -s length "$T/run.json")" 1 "... and only one"
dir=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
cmp -s "$T/run.json" "$dir/report.json"
ok $? "... the run's report.json"
is "$(jget "$T/run.json" .exit_code)" "$rc" "its exit_code is the run's exit code"
check "progress and tables went to stderr" -- grep -q 'results in' "$T/run.err"
done_testing
