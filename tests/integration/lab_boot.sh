#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One real boot of Debian's prebuilt 6.1-rt kernel in QEMU (TCG here, KVM
# where it works), rtgate as /init, running the smoke suite (or, in a build
# without the runner, cyclictest); then the failures a lab must survive:
# a boot that hangs (the timeout) and one that panics. Both end with exit
# 5 and the console log kept.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}
lab() { "$RTGATE" lab run --debian-kernel rt "$@" >"$T/out.txt" 2>"$T/err"; }
console() { ls "$RTGATE_OUT_DIR"/lab/*/console.log 2>/dev/null | tail -1; }
jqe() { jq -e "$1" "$2" >/dev/null; }

if "$RTGATE" help | grep -q '^  run '; then
	# The runner is in this build: the smoke suite, inside the guest.
	lab --timeout 10m --suite smoke --out "$T/results"
	rc=$?
	# TCG's noise may make the suite's own comparisons say 1 or 2.
	ok $([ $rc -le 2 ]; echo $?) "the smoke suite ran in the guest (exit $rc)"
	man=$(ls "$T"/results/*/manifest.json 2>/dev/null | head -1)
	check "a results directory came back" -- test -f "$man"
	is "$(jget "$man" .status)" complete "it is complete"
	check "its manifest names the lab's kernel" -- \
		grep -q '^debian-.*-rt-amd64$' <(jget "$man" .lab.kernel)
	is "$(jget "$man" .kernel.preempt_rt)" true "the runner saw PREEMPT_RT"
	# The guest names itself after this machine, never "(none)", which
	# every unnamed guest on every machine shares (lab_guest_hostname).
	is "$(jget "$man" .host.hostname)" "$(hostname | cut -c1-60)-lab" \
		"the guest's host name is this machine's lab"
	# The system facts are read in the guest as on a host: every key,
	# and QEMU's clocksource at least (docs/results.md, "system").
	is "$(jget "$man" '.system | length')" 12 "the guest's system facts"
	check "... its clocksource among them" -- \
		test "$(jget "$man" '.system.clocksource')" != null
	# Under TCG on a busy host a 3 s repetition may see a workload do
	# nothing (hackbench: "reported no work done", INVALID by its expect
	# line): that scenario still ran in the guest, which is what this test
	# is about; any other INVALID fails it.
	jqe '[.scenarios[] | .status == "ok" or .status == "partial" or
	      .status == "skipped" or (.status == "invalid" and
	      ([.repetitions[].reason // "" |
	        test("^expect |reported no work done")] | all))] |
	     all' "$man"
	st=$?
	ok $st "every scenario ran or skipped"
	[ $st -eq 0 ] ||
		diag "$(jq -r '.scenarios[] | "\(.name): \(.status) \([.repetitions[].reason // ""] | join("; "))"' "$man")"
	check "lab.json and the console beside it" -- \
		test -s "$(dirname "$man")/lab.json" -a -s "$(dirname "$man")/lab-console.log"
else
	lab --timeout 10m --exec -- /usr/bin/cyclictest -q -m -p 90 --smp \
		-i 1000 -l 300 --json=/lab/cyclictest.json
	is $? 0 "cyclictest ran in the guest and exited 0"
	share=$(ls -d "$RTGATE_OUT_DIR"/lab/*/share | tail -1)
	check "cyclictest's JSON came back through 9p" -- \
		jqe '.thread | length >= 1' "$share/cyclictest.json"
fi
share=$(ls -d "$RTGATE_OUT_DIR"/lab/*/share | tail -1)
check "the guest's status says which kernel ran" -- \
	grep -q '"version":.*PREEMPT_RT' "$share/status.json"
check "the console log is kept" -- grep -qE 'rtgate-lab: done: exit [0-2]([^0-9]|$)' "$(console)"
lab_json=$(ls "$RTGATE_OUT_DIR"/lab/*/lab.json | tail -1)
check "lab.json says which accelerator and why" -- \
	jqe '(.accel == "tcg" or .accel == "kvm") and (.accel_reason | length > 0)' "$lab_json"

lab --timeout 3s --exec -- /bin/busybox true
is $? 5 "a boot that does not finish in time: exit 5"
check "says it timed out" -- grep -q 'did not finish within 3 s' "$T/err"
check "its console log is kept (empty if it died in the firmware)" -- \
	test -f "$(console)"
check "... called a stop at the time limit, not a crash" -- \
	grep -q 'the guest was stopped (timeout) .*time limit ran out' "$T/err"
check "... with how long the guest had been silent" -- \
	grep -Eq 'its last output \(console or share\) came [0-9]+ s before' "$T/err"
check "... and no 'crashed' for it" -- sh -c "! grep -q 'crashed' '$T/err'"

check "... and its JUnit (a crash at boot, a junit.xml of its own) validates" -- bash -c \
	"j=\$(ls '$RTGATE_OUT_DIR'/lab/*/junit.xml | tail -1) &&
	 xmllint --noout --schema '$TOP/tests/schemas/junit-ant.xsd' \$j &&
	 xmllint --noout --schema '$TOP/tests/schemas/junit-strict.xsd' \$j"

# lab run's own run options go to the guest's rtgate run: its plan.
lab --timeout 3s --suite smoke --duration 2s --repeat 1
is $? 5 "lab run --duration 2s --repeat 1, stopped at 3 s"
plan=$(ls -d "$RTGATE_OUT_DIR"/lab/*/share | tail -1)/plan.json
is "$(jq -c .args "$plan")" '["--duration","2s","--repeat","1"]' \
	"--duration reaches the guest's rtgate run as its --duration"

lab --timeout 5m --append "rdinit=/nonexistent" --exec -- /bin/busybox true
is $? 5 "a kernel panic: exit 5"
check "says it panicked" -- grep -q 'Kernel panic' "$T/err"

done_testing
