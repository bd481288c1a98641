#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rtgate nightly end to end: a week of nights arriving one by one (an
# import suite, as from LAVA boards), the lock, a real run of the tiny suite
# through the runner, stopped by SIGTERM and killed by SIGKILL.
source "$(dirname "$0")/../lib.sh"
W=$T/week
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$W" >/dev/null
mkdir -p "$T/incoming"
cat >"$T/week.conf" <<CONF
[nightly]
results = $T/res
summary = $T/summary
lock    = $T/nightly.lock
history = 7
[suite quick]
import = $T/incoming
CONF

check "nightly --check accepts the configuration" -- \
	"$RTGATE" nightly --check --config "$T/week.conf"
codes=
for n in 23 24 25 26 27 28; do
	cp -r "$W/202611$n-020000-quick" "$T/incoming/"
	"$RTGATE" nightly --config "$T/week.conf" >"$T/night$n.txt" 2>"$T/night$n.err"
	codes="$codes $?"
done
diag "exit codes of nights 1-6:$codes"
# The step arrives on night 5 (a new kernel): one night is not a step, so
# night 5 holds it (exit 2, the rise named) and night 6, which keeps it,
# is the REGRESSION, dated to night 5.
check "flat nights 1-4 pass (0) or are inconclusive (2), never 1" -- \
	bash -c "[[ '$codes' =~ ^\ [02]\ [02]\ [02]\ [02]\ 2\ 1$ ]]"
check "night 5 holds the rise: inconclusive (2), the next night decides" -- \
	grep -q 'tonight alone: CPU . p99 rose .*one night is not a step' "$T/night27.txt"
check "night 6 exits 1: a regression against history" -- \
	[ "${codes##* }" = 1 ]
check "the text summary says so" -- grep -q '^rtgate nightly .*: REGRESSION (exit 1)' "$T/night28.txt"
check "... dated to night 5" -- grep -q 'a step since 20261127-020000-quick' "$T/night28.txt"
check "... and what changed in the kernel that night" -- grep -q "changed since 20261126-020000-quick: kernel.version" "$T/night28.txt"
check "summary.txt and summary.html were written" -- \
	test -s "$T/summary/latest.txt" -a -s "$T/summary/latest.html"
check "the HTML summary carries the exit code" -- grep -q 'data-exit="1"' "$T/summary/latest.html"
J=$T/summary/latest-junit.xml
check "junit.xml of the night against history, well-formed" -- \
	/usr/bin/python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$J"
check "... idle's testcase fails: REGRESSION since night 5, its line" -- \
	grep -q '<testcase classname="rtgate.quick" name="idle.history"><failure message="REGRESSION since 20261127-020000-quick: a step since 20261127-020000-quick .*CPU . p99 rose' "$J"
check "... and names tonight's kernel" -- grep -q '<property name="kernel" value="6.18' "$J"
"$RTGATE" nightly --config "$T/week.conf" >"$T/again.txt" 2>&1
is $? 0 "a night with nothing new passes"
check "... and says there was no run" -- grep -q 'no run tonight' "$T/again.txt"

# The lock: a second nightly does not start while one holds it.
flock "$T/nightly.lock" sleep 3 &
holder=$!
sleep 0.5
"$RTGATE" nightly --config "$T/week.conf" >/dev/null 2>"$T/lock.err"
is $? 4 "a second nightly exits 4"
check "... saying another one is running" -- grep -q 'another nightly is running' "$T/lock.err"
wait $holder

# Bad configuration: exit 3, file and line.
printf '[nightly]\nhistory = 7\nhistroy = 3\n' >"$T/bad.conf"
"$RTGATE" nightly --check --config "$T/bad.conf" 2>"$T/bad.err"
is $? 3 "an unknown key is bad input"
check "... named with file and line" -- grep -q "bad.conf:3: unknown key 'histroy'" "$T/bad.err"

# A real run through the runner, stopped by SIGTERM: the runner aborts,
# the nightly stores the run as aborted and exits 5.
cat >"$T/run.conf" <<CONF
[nightly]
results = $T/rres
summary = $T/rsum
lock    = $T/rnightly.lock
[suite tiny]
file = $TOP/tests/fixtures/nightly/tiny.suite
args = --duration-scale 4
CONF
DB=$T/rres/rtgate.db
# Our processes, in one grep: the runner's children carry RTGATE_OWNER
# (as lib.sh's leftover_procs finds them), rtgate itself our state dir.
# Every process of this test has our state dir in its environment too:
# of those, only rtgate's own (rtgate, rtgate-guard) count.
our_pids() {
	local p c
	for p in $(grep -lxzE "RTGATE_(OWNER|STATE_DIR)=$RTGATE_STATE_DIR" \
			/proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
		c=$(cat "/proc/$p/comm" 2>/dev/null) || continue
		if [[ $c == rtgate* ]] || grep -qxz "RTGATE_OWNER=$RTGATE_STATE_DIR" \
			"/proc/$p/environ" 2>/dev/null; then
			echo "$p"
		fi
	done
}
wait_incomplete() {
	for _ in $(seq 300); do
		[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE status = 'incomplete'" 2>/dev/null)" = "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
"$RTGATE" nightly --config "$T/run.conf" >"$T/term.out" 2>&1 &
pid=$!
check "the run is in the database, incomplete, while it runs" -- wait_incomplete 1
sleep 2
kill -TERM $pid
wait $pid
is $? 5 "SIGTERM: the nightly exits 5"
is "$(sqlite3 "$DB" "SELECT status FROM runs WHERE suite = 'tiny'")" aborted \
	"the run is stored as aborted, the placeholder gone"
is "$(our_pids | wc -l)" 0 "no process left behind"

# SIGKILL: nothing can clean up, the placeholder stays incomplete.
"$RTGATE" nightly --config "$T/run.conf" >"$T/kill.out" 2>&1 &
pid=$!
check "a second run starts" -- wait_incomplete 1
kill -KILL $pid
wait $pid 2>/dev/null
ours=$(our_pids)
check "the runner outlives a SIGKILLed nightly (so it must be stopped)" -- test -n "$ours"
# The runner (our child) survives its parent: stop it as the unit would.
for p in $ours; do kill -TERM "$p" 2>/dev/null; done
for _ in $(seq 200); do
	alive=0
	for p in $ours; do kill -0 "$p" 2>/dev/null && alive=1; done
	[ $alive = 0 ] && break
	sleep 0.1
done
is "$(our_pids | wc -l)" 0 "SIGTERM stops what the killed nightly left"
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "the database is consistent after SIGKILL"
is "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE run_id LIKE 'nightly-%' AND status = 'incomplete'")" \
	1 "the killed night's run is marked incomplete"
printf '[nightly]\nresults = %s\nsummary = %s\nlock = %s\n[suite tiny]\nimport = %s/empty\n' \
	"$T/rres" "$T/rsum" "$T/rnightly.lock" "$T" >"$T/after.conf"
mkdir -p "$T/empty"
"$RTGATE" nightly --config "$T/after.conf" >/dev/null 2>"$T/after.err"
check "the next nightly reports the killed one" -- grep -q 'was killed stay' "$T/after.err"
is "$(sqlite3 "$DB" "SELECT status_reason FROM runs WHERE run_id LIKE 'nightly-%'")" \
	"the nightly running it was killed" "... and marks it so"
done_testing
