#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What a run must not let pass: a cyclictest that took far fewer samples
# than its duration implies (INVALID, with the reason); a tunable value
# the kernel cannot take (exit 3, FILE:LINE, before any change when it
# can be seen up front, else with everything restored); a knob the kernel
# lacks (SKIPPED). And a stop in the report phase: SIGTERM exits 5 with
# the manifest saying so; SIGKILL leaves no unfinished file once the
# guardian has restored.
source "$(dirname "$0")/../lib.sh"

sysctl=/proc/sys/kernel/sched_rr_timeslice_ms
orig=$(cat $sysctl)
val=10
[ "$orig" = 10 ] && val=20

# ---- a measurement cut short: INVALID ------------------------------------
# A cyclictest that stops after 200 loops whatever it is asked (as
# --loo=100 in a suite did before the suite parser refused it).
mkdir -p "$T/bin"
cat >"$T/bin/cyclictest" <<EOF
#!/bin/sh
exec $(command -v cyclictest) "\$@" -l200
EOF
chmod +x "$T/bin/cyclictest"
cat >"$T/short.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 3s
[scenario idle]
EOF
PATH=$T/bin:$PATH run_suite "$T/short.suite"
is "$rc" 2 "a cut-short measurement: exit 2, not 0"
is "$(jget "$m" '.scenarios[0].repetitions[0].status')" invalid \
	"the repetition is INVALID"
reason=$(jget "$m" '.scenarios[0].repetitions[0].reason')
diag "reason: $reason"
check "the reason says it ran a fraction of its duration" -- \
	grep -qE "cyclictest ran 0\.[1-9] s of its 3 s \(the measurement was cut short\)" \
	<<<"$reason"
run_suite "$T/short.suite"
is "$rc" 0 "the real cyclictest, same suite: exit 0"
is "$(jget "$m" '.scenarios[0].repetitions[0].status')" ok \
	"its repetition is ok"

# ---- -l: cyclictest stops every thread when the first has its loops --------
# A thread at a longer interval (-d 500: thread 1 at 1.5 ms) or one that
# started late has fewer: 209 of 300 here. That is a whole measurement,
# as under -D; only a run where no thread reached -l is cut short.
cat >"$T/loops.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000 -d 500
loops = 300
[scenario idle]
EOF
run_suite "$T/loops.suite"
is "$(jget "$m" '.scenarios[0].repetitions[0].status')" ok \
	"-l: a thread at 1.5 ms that took two thirds of the loops is whole (exit $rc)"
PATH=$T/bin:$PATH run_suite "$T/loops.suite"
is "$(jget "$m" '.scenarios[0].repetitions[0].status')" invalid \
	"-l: no thread took its 300 loops (stopped at 200): INVALID"
check "... the reason names the thread that took most" -- grep -qE \
	"no cyclictest thread took its -l 300 samples: thread 0, the most, took 200 \(the measurement was cut short\)" \
	<<<"$(jget "$m" '.scenarios[0].repetitions[0].reason')"

# ---- tunable values -------------------------------------------------------
cat >"$T/word.suite" <<EOF
[suite]
repetitions = 1
[measure]
duration = 1s
[scenario base]
[scenario word]
compare = base
sysctl = kernel.sched_rr_timeslice_ms=$val
sysctl = kernel.printk_ratelimit=abc
EOF
"$RTGATE" run "$T/word.suite" --no-history >"$T/word.out" 2>"$T/word.err"
is "$?" 3 "a word for a numeric sysctl: exit 3"
sed 's/^/# /' "$T/word.err"
check "FILE:LINE, before anything ran" -- \
	grep -q "word.suite:9: sysctl kernel.printk_ratelimit=abc: kernel.printk_ratelimit holds whole numbers" \
	"$T/word.err"
check "no results directory was made" -- \
	bash -c "! ls '$RTGATE_RESULTS_DIR' | grep -q -- -word"

cat >"$T/range.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 1s
[scenario base]
[scenario range]
compare = base
sysctl = kernel.sched_rr_timeslice_ms=$val
sysctl = vm.swappiness=300
EOF
swap=$(cat /proc/sys/vm/swappiness)
run_suite "$T/range.suite"
is "$rc" 3 "a value the kernel refuses (vm.swappiness=300): exit 3"
check "FILE:LINE and the kernel's error" -- \
	grep -q "range.suite:10: vm.swappiness = 300: the kernel refuses the value: /proc/sys/vm/swappiness: Invalid argument" \
	"$T/err"
is "$(jget "$m" .status)" aborted "the run is aborted, not complete"
check "the manifest says why" -- \
	grep -q "range.suite:10" <<<"$(jget "$m" .status_reason)"
is "$(cat $sysctl)" "$orig" "the sysctl set before it is restored"
is "$(cat /proc/sys/vm/swappiness)" "$swap" "vm.swappiness is unchanged"

cat >"$T/absent.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 1s
[scenario base]
[scenario absent]
compare = base
sysctl = kernel.no_such_knob_rtgate=1
EOF
run_suite "$T/absent.suite"
is "$(jget "$m" '.scenarios[] | select(.name == "absent") | .status')" \
	skipped "a knob the kernel lacks: SKIPPED"
check "with the reason" -- \
	grep -q "no_such_knob_rtgate.*No such file" \
	<<<"$(jget "$m" '.scenarios[] | select(.name == "absent") | .reason')"

# ---- a stop in the report phase -------------------------------------------
# A shim that sends rtgate a signal when it renames report.txt into place,
# so the signal lands in the report phase every time.
cat >"$T/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *sig = getenv("SHIM_SIGNAL");

	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT,
								 "rename");
	if (sig && strstr(from, "/report.txt.tmp."))
		raise(atoi(sig));
	return real(from, to);
}
EOF
cc -shared -fPIC -o "$T/shim.so" "$T/shim.c" -ldl
check "the signal shim builds" -- test -f "$T/shim.so"
cat >"$T/ok.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 1s
[scenario base]
sysctl = kernel.sched_rr_timeslice_ms=$val
EOF
SHIM_SIGNAL=15 LD_PRELOAD=$T/shim.so run_suite "$T/ok.suite"
is "$rc" 5 "SIGTERM while the reports are written: exit 5"
is "$(jget "$m" .status)" aborted "the manifest says aborted"
is "$(jget "$m" .status_reason)" \
	"interrupted by SIGTERM while the reports were written" "and why"
check "the report says it too" -- grep -q "aborted" "$dir/report.txt"

SHIM_SIGNAL=9 LD_PRELOAD=$T/shim.so "$RTGATE" run "$T/ok.suite" \
	--no-history >"$T/k.out" 2>"$T/k.err"
is "$?" 137 "SIGKILL while the reports are written"
for _ in $(seq 100); do
	[ ! -e "$RTGATE_STATE_DIR/state.json" ] && break
	sleep 0.1
done
dir=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
sed 's/^/# /' "$T/k.err" | tail -3
check "the guardian restored" -- test ! -e "$RTGATE_STATE_DIR/state.json"
is "$(find "$dir" -name '*.tmp.*' | wc -l)" 0 \
	"no unfinished file is left in the run's directory"
check "the guardian said what it removed" -- \
	grep -q "removed 1 unfinished file" "$T/k.err"
is "$(cat $sysctl)" "$orig" "the sysctl is restored"
is "$(leftover_procs | wc -l)" 0 "no process of the run is left"

# ---- a results directory someone else could change: refused ----------
# Writable by anyone and not sticky: another user could swap the run's
# directory for a symlink while root writes its files.
mkdir -p "$T/shared"
chmod 0777 "$T/shared"
"$RTGATE" run "$T/short.suite" --out "$T/shared/results" >"$T/ww.out" 2>"$T/ww.err"
is "$?" 4 "a world-writable results directory is refused (exit 4)"
check "... naming it and why" -- grep -q \
	"shared: owned by uid 0 with mode 0777: rtgate writes only where nobody else could plant a path" "$T/ww.err"
is "$(find "$T/shared" -type f | wc -l)" 0 "... before any file is written"
is "$(cat $sysctl)" "$orig" "... and nothing changed"
done_testing
