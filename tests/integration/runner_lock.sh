#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One run on a machine at a time, whatever its state directory: a second
# run with another RTGATE_STATE_DIR changing the same sysctl is refused at
# once, and the message names the run that holds the machine; a run killed
# with its guardian is restored by the next start even from another state
# directory. And a state file is trusted only when it is root's alone:
# `rtgate restore` never writes a file or removes a directory that a
# crafted state.json names outside the kernel's knobs.
source "$(dirname "$0")/../lib.sh"

sysctl=/proc/sys/kernel/sched_rr_timeslice_ms
orig=$(cat $sysctl)
val=10
[ "$orig" = 10 ] && val=20
other=20
[ "$orig" = 20 ] && other=30

cat >"$T/long.suite" <<EOF
[suite]
name = long-lock
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 120s
[scenario changed]
sysctl = kernel.sched_rr_timeslice_ms=$val
workload = hackbench-loop --groups 1 --loops 50
EOF
cat >"$T/second.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 1s
[scenario other]
sysctl = kernel.sched_rr_timeslice_ms=$other
EOF
cat >"$T/skip.suite" <<EOF
[measure]
duration = 1s
[scenario never]
requires = file:/nonexistent-rtgate-test
EOF

owned() { leftover_procs 2>/dev/null; }

# ---- two runs, two state directories: the second is refused -------------
"$RTGATE" run "$T/long.suite" >"$T/a.out" 2>"$T/a.err" &
pid=$!
check "run A reaches the measurement" -- wait_measuring $sysctl $val "$pid"
start=$(date +%s.%N)
RTGATE_STATE_DIR=$T/state-b "$RTGATE" run "$T/second.suite" >"$T/b.out" \
	2>"$T/b.err"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
sed 's/^/# B: /' "$T/b.err"
is "$rc" 4 "run B, another state directory, is refused (exit 4)"
check "at once, not after a wait ($took s)" -- \
	test "$(echo "$took < 5" | bc)" = 1
check "the message names A's pid, suite and run id" -- \
	grep -q "another rtgate run is using this machine (pid $pid, suite long-lock, run [0-9-]*-long-lock, state $RTGATE_STATE_DIR, since 20[0-9-]*T" \
	"$T/b.err"
check "it does not speak of a clean-up" -- \
	bash -c "! grep -q 'clean-up' '$T/b.err'"
is "$(cat $sysctl)" "$val" "B did not touch the sysctl"
check "B made no results directory of its own" -- \
	bash -c "! ls '$RTGATE_RESULTS_DIR' | grep -q -- -second"
RTGATE_STATE_DIR=$T/state-b "$RTGATE" restore >"$T/r.out" 2>"$T/r.err"
is "$?" 4 "rtgate restore is refused while A runs"
check "and names A too" -- grep -q "(pid $pid, suite long-lock" "$T/r.err"
kill -TERM "$pid"
wait "$pid"
is "$?" 5 "A, stopped, exits 5"
is "$(cat $sysctl)" "$orig" "the sysctl is back to its original"
RTGATE_STATE_DIR=$T/state-b "$RTGATE" run "$T/skip.suite" --no-history \
	>"$T/b2.out" 2>"$T/b2.err"
is "$?" 2 "once A is gone, B runs (its only scenario skips: exit 2, not 4)"
check "B ran to its last line" -- grep -q "every scenario was SKIPPED: nothing was measured (exit 2)" "$T/b2.out"

# ---- A and its guardian killed: B, in another state dir, restores A ------
"$RTGATE" run "$T/long.suite" >"$T/k.out" 2>"$T/k.err" &
pid=$!
check "run A reaches the measurement again" -- wait_measuring $sysctl $val "$pid"
gpid=$(guardian_of "$pid")
check "its guardian is found" -- test -n "$gpid"
kill -9 "$gpid" "$pid"
{ wait "$pid"; } 2>/dev/null
sleep 0.3
is "$(cat $sysctl)" "$val" "with both killed, the sysctl is left changed"
RTGATE_STATE_DIR=$T/state-b "$RTGATE" run "$T/skip.suite" --no-history \
	>"$T/b3.out" 2>"$T/b3.err"
is "$?" 2 "B, in its own state directory, runs (exit 2: its scenario skips)"
sed 's/^/# B: /' "$T/b3.err"
check "and says it restored A's run" -- \
	grep -q "previous run (pid $pid, .*) did not finish; restored .*kernel.sched_rr_timeslice_ms = $orig" \
	"$T/b3.err"
is "$(cat $sysctl)" "$orig" "the sysctl is restored"
is "$(owned | wc -l)" 0 "no process of A is left"
check "A's state file is gone" -- test ! -e "$RTGATE_STATE_DIR/state.json"

# ---- a crafted state file -------------------------------------------------
mkdir -p "$T/victim/rtgate-1"
echo "root:x:0:0" >"$T/victim/passwd"
crafted() {	# crafted DIR: a state file naming the victims
	mkdir -p "$1"
	cat >"$1/state.json" <<EOF
{ "schema": "rtgate-state/1", "pid": 999999, "undo": [
  { "kind": "cgroup", "key": "$T/victim/rtgate-1" },
  { "kind": "tunable", "key": "kernel.x", "tunable": "sysctl",
    "path": "$T/victim/passwd", "value": "pwned" } ] }
EOF
}
crafted "$T/state-c"
RTGATE_STATE_DIR=$T/state-c "$RTGATE" restore >"$T/c.out" 2>"$T/c.err"
is "$?" 4 "restore of a state file naming non-knobs fails (exit 4)"
sed 's/^/# /' "$T/c.err"
is "$(cat "$T/victim/passwd")" "root:x:0:0" "the file it names is not written"
check "the directory it names is not removed" -- test -d "$T/victim/rtgate-1"
check "the message says why" -- \
	grep -q "passwd is not a kernel tunable" "$T/c.err"

# A state directory anyone can write to: someone else's file, not trusted.
crafted "$T/state-w"
chmod 1777 "$T/state-w"
chown 65534:65534 "$T/state-w/state.json"
RTGATE_STATE_DIR=$T/state-w "$RTGATE" restore >"$T/w.out" 2>"$T/w.err"
is "$?" 4 "a world-writable state directory is refused (exit 4)"
check "the message says so" -- \
	grep -q "state-w: owned by uid 0 with mode 1777" "$T/w.err"
chmod 0755 "$T/state-w"
RTGATE_STATE_DIR=$T/state-w "$RTGATE" restore >"$T/w2.out" 2>"$T/w2.err"
is "$?" 4 "a state file owned by nobody is refused (exit 4)"
check "the message says so" -- \
	grep -q "state.json: owned by uid 65534" "$T/w2.err"
is "$(cat "$T/victim/passwd")" "root:x:0:0" "the file is still not written"
check "the directory is still there" -- test -d "$T/victim/rtgate-1"
done_testing
