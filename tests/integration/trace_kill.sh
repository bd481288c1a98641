#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SIGKILL while a repetition's trace is being saved (trace-cmd restore is
# running): trace-cmd dies with rtgate and holds none of its trace_pipe_raw
# descriptors, so the guardian removes the instance and the state file at
# once; with the guardian killed too, nothing is left running and the next
# start removes the instance.
source "$(dirname "$0")/../lib.sh"

if ! "$RTGATE" trace clean >/dev/null 2>"$T/clean.err"; then
	skip "$(cat "$T/clean.err")" "tracing unavailable"
	done_testing
	exit
fi

cat >"$T/traced.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 500
duration = 4s
trace = on
[scenario idle]
workload = hackbench-loop --groups 1 --loops 20
EOF

# trace-cmd processes working on this test's results, wherever they are.
tools() { pgrep -f "trace-cmd .*$RTGATE_RESULTS_DIR" || true; }
instances() { ls $(tracefs_dir)/instances 2>/dev/null | grep -c "^rtgate-$1-"; }

# Starts a run and waits until it is saving its trace (30 s at most).
saving() {
	local i
	"$RTGATE" run "$T/traced.suite" --no-history >"$T/$1.out" \
		2>"$T/$1.err" &
	pid=$!
	for i in $(seq 1500); do
		[ -n "$(tools)" ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.02
	done
	return 1
}

# ---- kill -9 rtgate while trace-cmd runs: the guardian cleans up --------
check "the run reaches the trace saving" -- saving guard
gpid=$(guardian_of "$pid")
kill -9 "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 200); do
	[ ! -e "$RTGATE_STATE_DIR/state.json" ] && [ -z "$(tools)" ] &&
		! kill -0 "$gpid" 2>/dev/null && break
	sleep 0.05
done
sed 's/^/# /' "$T/guard.err" | tail -5
is "$(tools | wc -l)" 0 "no trace-cmd is left running"
is "$(instances "$pid")" 0 "the guardian removed the instance"
check "the guardian removed the state file" -- \
	test ! -e "$RTGATE_STATE_DIR/state.json"
check "and said so" -- \
	grep -q "guardian: rtgate (pid $pid) died during a run; .*removed 1 tracefs instance" \
	"$T/guard.err"
is "$(leftover_procs | wc -l)" 0 "no process of the run is left"

# ---- kill -9 rtgate and its guardian: the next start cleans up ----------
check "the run reaches the trace saving again" -- saving both
gpid=$(guardian_of "$pid")
check "its guardian is found" -- test -n "$gpid"
kill -9 "$gpid" "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 100); do
	[ -z "$(tools)" ] && break
	sleep 0.05
done
is "$(tools | wc -l)" 0 "trace-cmd died with rtgate (PR_SET_PDEATHSIG)"
check "the state file is left for the next start" -- \
	test -e "$RTGATE_STATE_DIR/state.json"
"$RTGATE" restore >"$T/restore.out" 2>"$T/restore.err"
is "$?" 0 "rtgate restore exits 0"
sed 's/^/# /' "$T/restore.err"
is "$(instances "$pid")" 0 "the instance is removed"
check "the state file is gone" -- test ! -e "$RTGATE_STATE_DIR/state.json"
is "$(leftover_procs | wc -l)" 0 "no process of the run is left"
done_testing
