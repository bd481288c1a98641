#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A repetition that hangs ends, and says where (issue 22, item 7): a
# measurement that never returns -- here a cyclictest that ignores SIGTERM
# and sleeps, put first in PATH -- is killed by its repetition's watchdog
# (the measurement's duration plus the suite's `watchdog` margin) together
# with the workloads; that repetition is INVALID with the reason, the next
# one still runs, the run ends in bounded time and leaves no process.
source "$(dirname "$0")/../lib.sh"

real=$(command -v cyclictest)
mkdir -p "$T/bin"
# Hangs in the second measurement only (a counter file): the first
# repetition measures for real, so the run has one good and one hung.
cat >"$T/bin/cyclictest" <<FAKE
#!/bin/bash
case " \$* " in
*" -D"*|*" --duration"*)
	n=\$(cat "$T/count" 2>/dev/null || echo 0)
	echo \$((n + 1)) >"$T/count"
	if [ "\$n" = 1 ]; then
		trap '' TERM
		echo "hanging" >&2
		sleep 1000
	fi ;;
esac
exec "$real" "\$@"
FAKE
chmod +x "$T/bin/cyclictest"

cat >"$T/hang.suite" <<SUITE
[suite]
name = hang
repetitions = 3
order = blocked
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 2s
watchdog = 3s
[scenario busy]
workload = hackbench-loop --groups 1 --loops 20
expect = hackbench-loop.work_done > 0
SUITE

start=$(date +%s)
PATH=$T/bin:$PATH run_suite "$T/hang.suite"
took=$(( $(date +%s) - start ))
diag "the run took $took s"
check "the run ends in bounded time (< 60 s; the hang was 1000 s)" -- \
	test "$took" -lt 60
check "the hang was the fake cyclictest's" -- \
	test "$(cat "$T/count")" -ge 2
check "the manifest exists" -- test -f "$m"
is "$(jget "$m" '.scenarios[0].repetitions[1].status')" invalid \
	"the hung repetition is INVALID"
reason=$(jget "$m" '.scenarios[0].repetitions[1].reason')
diag "its reason: $reason"
check "its reason says so" -- \
	grep -q "^repetition did not end within 5 s: killed" <<<"$reason"
is "$(jget "$m" '.scenarios[0].repetitions[0].status')" ok \
	"the repetition before it measured"
is "$(jget "$m" '.scenarios[0].repetitions[2].status')" ok \
	"the repetition after it measured too"
check "stderr names the scenario and repetition" -- grep -q \
	"watchdog: scenario busy repetition 2 did not end within 5 s: killed" \
	"$T/err"
is "$(jget "$m" '.suite.measure.watchdog_s')" 3 \
	"the manifest records the watchdog margin"
check "no process of the run is left" -- test -z "$(leftover_procs)"

# A watchdog below a second is refused with the file and line.
printf '[suite]\n[measure]\nduration = 1s\nwatchdog = 0s\n[scenario a]\n' \
	>"$T/bad.suite"
"$RTGATE" run "$T/bad.suite" --no-history >/dev/null 2>"$T/bad.err"
is "$?" 3 "watchdog = 0s: exit 3"
check "the error names the file and line" -- \
	grep -q "bad.suite:4.*watchdog" "$T/bad.err"

done_testing
