#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The history baseline, judged by the analyzer, over the recorded week
# (tests/fixtures/nightly/README.md): the flat nights 2-4 are not flagged,
# the step on night 5 is, and the changepoint view names the night and
# what changed in the kernel identity. compare --history gives the gate's
# exit code for one run.
source "$(dirname "$0")/../lib.sh"
W=$T/week
DB=$T/rtgate.db
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$W" >/dev/null
verdict() {	# NIGHT SCENARIO
	sqlite3 "$DB" "SELECT v.verdict FROM verdicts v JOIN runs r ON
		r.id = v.run WHERE v.source = 'history' AND
		r.run_id = '202611$1-020000-quick' AND v.scenario = '$2'"
}

check "import the week" -- "$RTGATE" history import --db "$DB" "$W"
"$RTGATE" history changepoints --db "$DB" >"$T/cp" 2>"$T/cp.err"
is $? 0 "history changepoints"
cat "$T/cp" | sed 's/^/# /'
is "$(verdict 23 idle)" SKIPPED "night 1 has no history"
for n in 24 25 26; do
	for s in idle hackbench; do
		v=$(verdict $n $s)
		check "flat night $n, $s: not flagged ($v)" -- \
			[ -n "$v" -a "$v" != REGRESSION ]
	done
done
# The night is the unit: one night of history against tonight has no
# night-to-night scatter to test with, and says so in nights; no pass.
is "$(verdict 24 idle)" INCONCLUSIVE "night 2 (one night of history): INCONCLUSIVE"
check "... one night a side, no variance to test with" -- test -n "$(sqlite3 "$DB" \
	"SELECT 1 FROM verdicts v JOIN runs r ON r.id = v.run WHERE v.source = 'history' AND
	 r.run_id = '20261124-020000-quick' AND v.scenario = 'idle' AND
	 v.reason LIKE '%one night a side and no noise profile%'")"
# The step arrives on night 5; one night is not a step (a host's burst
# moves one night as much), so night 5 holds it and night 6 confirms it,
# dated to night 5.
for s in idle hackbench; do
	is "$(verdict 27 $s)" INCONCLUSIVE "the step's night 5 holds the rise ($s)"
	is "$(verdict 28 $s)" REGRESSION "night 6 keeps it: a REGRESSION ($s)"
done
check "... dated to night 5" -- test -n "$(sqlite3 "$DB" \
	"SELECT 1 FROM verdicts v JOIN runs r ON r.id = v.run WHERE v.source = 'history' AND
	 r.run_id = '20261128-020000-quick' AND v.scenario = 'idle' AND
	 v.since_run = '20261127-020000-quick'")"
check "the held night names the rise" -- test -n "$(sqlite3 "$DB" \
	"SELECT 1 FROM verdicts v JOIN runs r ON r.id = v.run WHERE v.source = 'history' AND
	 r.run_id = '20261127-020000-quick' AND v.scenario = 'idle' AND
	 v.reason LIKE 'tonight alone: CPU % p99 rose %one night is not a step%'")"
check "the changepoint view marks night 5 as the step" -- \
	grep -q '20261127-020000-quick .*INCONCLUSIVE  <- step (held; 20261128-020000-quick confirmed it)' "$T/cp"
check "... and says what changed in the kernel that night" -- \
	grep -q "changed since 20261126-020000-quick: kernel.version: '#1 SMP" "$T/cp"
check "... and a step that stays is not a new step each night" -- \
	[ "$(grep -c '<- step' "$T/cp")" = 2 ]

D2=$T/part.db
for n in 23 24 25 26; do
	"$RTGATE" history import --db "$D2" "$W/202611$n-020000-quick" >/dev/null
done
cp "$D2" "$T/part2.db"
"$RTGATE" compare --history --db "$D2" "$W/20261127-020000-quick" >"$T/c4b"
is $? 2 "compare --history: the step's night alone is held (exit 2)"
"$RTGATE" compare --history --db "$D2" "$W/20261128-020000-quick" >"$T/c5"
is $? 1 "compare --history: the night after it exits 1 (regression)"
check "... the report names the baseline runs" -- grep -q 'REGRESSION' "$T/c5"
# idle and hackbench are judged, the inject control aside: alpha / 2 each.
check "... the run's scenarios share alpha, as a suite's comparisons do" -- \
	grep -q "^  each scenario judged at 0.025 of alpha: alpha 0.05 shared by the run's 2 scenarios$" "$T/c5"
"$RTGATE" compare --history --db "$T/part2.db" --history-runs 3 \
	"$W/20261126-020000-quick" >"$T/c4"
rc=$?
check "compare --history: a flat night is not a regression (exit $rc)" -- \
	[ $rc -eq 0 -o $rc -eq 2 ]
"$RTGATE" compare --history --db "$T/part2.db" --reference '6.1.*-rt*' \
	"$W/20261127-020000-quick" >"$T/c6"
is $? 2 "no reference-kernel history: SKIPPED, and nothing judged is no pass (exit 2)"
check "... and says why" -- grep -q 'SKIPPED: no earlier complete run' "$T/c6"

# A scaled run (quick at --duration-scale 0.2, recorded by the runner:
# tests/fixtures/nightly/scaled) against the full-scale week: refused.
cp -r "$TOP/tests/fixtures/nightly/scaled/20261201-103331-quick" "$T/q02"
"$RTGATE" compare --history --db "$T/part2.db" "$T/q02" >"$T/c7"
is $? 2 "a scaled run against full-scale history: SKIPPED, nothing judged, exit 2"
check "... saying the history ran at another scale" -- grep -qE \
	'idle .*SKIPPED: a run at --duration-scale 0.2 is not judged against the history: its [0-9]+ earlier runs .* ran at another scale' "$T/c7"
is "$(sqlite3 "$T/part2.db" "SELECT verdict FROM verdicts v JOIN runs r ON r.id = v.run WHERE r.run_id = '20261201-103331-quick' AND v.scenario = 'idle' AND v.source = 'history'")" \
	SKIPPED "... and the history keeps it as SKIPPED, not as a pass of the gate"
# Runs of the same scale are judged together (three setparam runs at x0.1).
"$RTGATE" history import --db "$T/sp.db" "$TOP/tests/fixtures/nightly/scaled/20261201-103223-setparam" \
	"$TOP/tests/fixtures/nightly/scaled/20261201-103246-setparam" >/dev/null
cp -r "$TOP/tests/fixtures/nightly/scaled/20261201-103308-setparam" "$T/sp3"
"$RTGATE" compare --history --db "$T/sp.db" "$T/sp3" >"$T/c8"
check "scaled runs of one scale: judged, on the scenario's own metric (ns/call)" -- \
	grep -qE '^  default +ns_per_call +[0-9.]+ +[0-9.]+ +2 .*judged against runs at --duration-scale 0.1 only' "$T/c8"
done_testing
