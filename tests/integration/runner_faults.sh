#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Crash safety for real: kill -9 rtgate in the middle of a repetition with
# kernel.sched_rr_timeslice_ms changed and hackbench running -> the
# guardian restores at once; kill -9 the guardian too -> `rtgate restore`
# and the next `rtgate run` restore and say so; SIGINT and SIGTERM -> exit
# 5, restored, manifest "aborted". Never a process of the run left. And
# workloads that crash at start, do no work or fail an expect make their
# repetition INVALID, never a pass.
source "$(dirname "$0")/../lib.sh"

sysctl=/proc/sys/kernel/sched_rr_timeslice_ms
orig=$(cat $sysctl)
val=10
[ "$orig" = 10 ] && val=20

cat >"$T/long.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 120s
[scenario changed]
sysctl = kernel.sched_rr_timeslice_ms=$val
workload = hackbench-loop --groups 1 --loops 50
EOF

owned() { leftover_procs 2>/dev/null; }

start_run() {	# start_run NAME: rtgate in the background, $pid
	"$RTGATE" run "$T/long.suite" >"$T/$1.out" 2>"$T/$1.err" &
	pid=$!
}

# Until the sysctl is back, nothing of the run is left and the restorer
# has finished (its last step removes the state file); 20 s at most.
wait_restored() {
	local i
	for i in $(seq 1 200); do
		[ "$(cat $sysctl)" = "$orig" ] && [ -z "$(owned)" ] &&
			[ ! -e "$RTGATE_STATE_DIR/state.json" ] && return 0
		sleep 0.1
	done
	return 1
}

manifest_of() { echo "$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/manifest.json"; }

# ---- kill -9 rtgate: the guardian restores at once ------------------------
start_run kill9
check "kill -9: the run reaches the measurement" -- wait_measuring $sysctl $val "$pid"
check "kill -9: hackbench runs under the run" -- \
	grep -q hackbench <<<"$(owned)"
cg=/sys/fs/cgroup/unified/rtgate-$pid
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null
check "kill -9: restored at once, no process left" -- wait_restored
sed 's/^/# /' "$T/kill9.err"
check "kill -9: the guardian said so" -- \
	grep -q "guardian: rtgate (pid $pid) died during a run; .*restored kernel.sched_rr_timeslice_ms = $orig" \
	"$T/kill9.err"
m=$(manifest_of)
is "$(jget "$m" .status)" incomplete "kill -9: the manifest says incomplete"
check "kill -9: and why" -- \
	grep -q "died during the run" <<<"$(jget "$m" .status_reason)"
check "kill -9: the state file is gone" -- \
	test ! -e "$RTGATE_STATE_DIR/state.json"
check "kill -9: the run's cgroup is gone" -- test ! -d "$cg"

# ---- kill -9 the guardian too: the next start restores --------------------
start_run both
check "kill -9 both: the run reaches the measurement" -- wait_measuring $sysctl $val "$pid"
gpid=$(guardian_of "$pid")
check "kill -9 both: the guardian is found" -- test -n "$gpid"
kill -9 "$gpid" "$pid"
{ wait "$pid"; } 2>/dev/null
sleep 0.5
is "$(cat $sysctl)" "$val" "kill -9 both: the sysctl is left changed"
"$RTGATE" restore >"$T/restore.out" 2>"$T/restore.err"
is "$?" 0 "rtgate restore exits 0"
check "rtgate restore says what it restored" -- \
	grep -q "did not finish; restored what it left: .*restored kernel.sched_rr_timeslice_ms = $orig" \
	"$T/restore.err"
is "$(cat $sysctl)" "$orig" "rtgate restore restored the sysctl"
is "$(owned | wc -l)" 0 "rtgate restore left no process of the run"

start_run next
check "next start: the run reaches the measurement" -- wait_measuring $sysctl $val "$pid"
gpid=$(guardian_of "$pid")
kill -9 "$gpid" "$pid"
{ wait "$pid"; } 2>/dev/null
cat >"$T/quick-skip.suite" <<EOF
[measure]
duration = 1s
[scenario never]
requires = file:/nonexistent-rtgate-test
EOF
"$RTGATE" run "$T/quick-skip.suite" >"$T/next2.out" 2>"$T/next2.err"
is "$?" 2 "the next run completes (its only scenario skips: exit 2)"
check "it ran to its last line" -- grep -q "every scenario was SKIPPED: nothing was measured (exit 2)" "$T/next2.out"
check "the next start says it restored the dead run" -- \
	grep -q "previous run (pid $pid, .*) did not finish; restored .*kernel.sched_rr_timeslice_ms = $orig" \
	"$T/next2.err"
is "$(cat $sysctl)" "$orig" "the next start restored the sysctl"
is "$(owned | wc -l)" 0 "the next start left no process of the dead run"

# ---- SIGINT and SIGTERM: restored, exit 5, aborted ------------------------
for sig in INT TERM; do
	start_run "sig$sig"
	check "SIG$sig: the run reaches the measurement" -- wait_measuring $sysctl $val "$pid"
	kill -"$sig" "$pid"
	wait "$pid"
	is "$?" 5 "SIG$sig: exit 5 (run incomplete)"
	is "$(cat $sysctl)" "$orig" "SIG$sig: the sysctl is restored"
	is "$(owned | wc -l)" 0 "SIG$sig: no process of the run is left"
	m=$(manifest_of)
	is "$(jget "$m" .status) / $(jget "$m" .status_reason)" \
		"aborted / interrupted by SIG$sig" "SIG$sig: the manifest says so"
	is "$(jget "$m" '.scenarios[0].repetitions[0].status')" aborted \
		"SIG$sig: the repetition is aborted"
	check "SIG$sig: the state file is gone" -- \
		test ! -e "$RTGATE_STATE_DIR/state.json"
done

# ---- workloads that fail: INVALID, never a pass ----------------------------
cat >"$T/crash.c" <<'EOF'
#include <signal.h>
int main(void) { raise(SIGSEGV); return 0; }
EOF
# Says ready, then on SIGTERM reports that it did nothing.
cat >"$T/lazy.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }
int main(void)
{
	const char *fd = getenv("RTGATE_READY_FD");
	signal(SIGTERM, on_term);
	if (fd) { dprintf(atoi(fd), "ready\n"); close(atoi(fd)); }
	while (!stop)
		pause();
	printf("{\"workload\":\"lazy\",\"work_done\":0,\"errors\":0}\n");
	return 0;
}
EOF
# Never says ready (a kernel tree that takes longer than ready_timeout).
cat >"$T/mute.c" <<'EOF'
#include <unistd.h>
int main(void) { for (;;) pause(); }
EOF
cc -o "$T/crash" "$T/crash.c" && cc -o "$T/lazy" "$T/lazy.c" &&
	cc -o "$T/mute" "$T/mute.c"
check "the test workloads build" -- test -x "$T/crash" -a -x "$T/lazy" -a -x "$T/mute"
cat >"$T/bad.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 1s
ready_timeout = 2s
[scenario idle]
[scenario crash]
compare = idle
sysctl = kernel.sched_rr_timeslice_ms=$val
workload = $T/crash
[scenario lazy]
compare = idle
workload = $T/lazy
[scenario mute]
compare = idle
workload = $T/mute
[scenario unmet]
compare = idle
workload = hackbench-loop --groups 1 --loops 10
expect = hackbench-loop.work_done > 1000000000
EOF
"$RTGATE" run "$T/bad.suite" >"$T/bad.out" 2>"$T/bad.err"
is "$?" 2 "invalid repetitions: exit 2, not 0"
m=$(manifest_of)
is "$(jget "$m" .status)" complete "the run itself completed"
status_of() { jget "$m" ".scenarios[] | select(.name == \"$1\") | .status"; }
reason_of() {
	jget "$m" ".scenarios[] | select(.name == \"$1\") | .repetitions[0].reason"
}
is "$(status_of crash)" invalid "a workload crashing at start: INVALID"
check "the reason says it crashed at start" -- \
	grep -q "crash killed by SIGSEGV before it was ready (crashed at start)" \
	<<<"$(reason_of crash)"
is "$(status_of lazy)" invalid "a workload that did no work: INVALID"
check "the reason says no work was done" -- \
	grep -q "lazy reported no work done" <<<"$(reason_of lazy)"
is "$(status_of mute)" invalid "a workload never ready: INVALID"
check "the reason names it and the suite's ready_timeout" -- \
	grep -q "mute did not say ready within 2 s (the suite's ready_timeout)" \
	<<<"$(reason_of mute)"
is "$(jget "$m" .suite.measure.ready_timeout_s)" 2 "ready_timeout in the manifest"
is "$(status_of unmet)" invalid "a failed expect: INVALID"
check "the reason names the expect" -- \
	grep -q "expect hackbench-loop.work_done > 1000000000 failed" \
	<<<"$(reason_of unmet)"
check "the summary says INVALID" -- grep -q "INVALID: rep 1: crash" "$T/bad.out"
is "$(cat $sysctl)" "$orig" "the crash scenario's sysctl is restored"
is "$(owned | wc -l)" 0 "no process of the run is left"

done_testing
