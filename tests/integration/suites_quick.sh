#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# suites/quick.suite (the default of ./run.sh), scaled down: idle,
# hackbench, extend-sched (SKIPPED with the reason on a kernel without
# slice extension) and the inject positive control, which must be flagged.
# Latencies are never asserted: verdicts against the control are.
source "$(dirname "$0")/../lib.sh"

# The code the verdicts call for (docs/exit-codes.md), from counts_as.
want_exit() {
	if jq -e '[.comparisons[].counts_as] | index("REGRESSION")' "$1" >/dev/null; then
		echo 1
	elif jq -e '[.comparisons[].counts_as] | (index("INCONCLUSIVE") or index("INVALID"))' \
		"$1" >/dev/null; then
		echo 2
	else
		echo 0
	fi
}

sysctl_before=$(sysctl -n kernel.sched_rr_timeslice_ms)
cd "$TOP" || exit 1
# The positive control must be flagged; on this shared VM another
# engineer's FIFO spinner or cyclictest can land in our idle baseline and
# hide it for a whole run (the run then says so and exits 2). One more run
# is allowed, not more: a gate that never sees inject fails this test.
for try in 1 2; do
	diag "try $try"
	run_suite quick --duration-scale 0.2
	inj=$(jget "$j" '.comparisons[] | select(.candidate == "inject") | "\(.verdict): \(.reason)"')
	diag "inject: $inj"
	[ "${inj%%:*}" = REGRESSION ] && break
	grep -q 'positive control NOT flagged' <<<"$inj"
	ok $? "try $try: an unflagged positive control says the gate is blind here"
	# 2, or 1 when hackbench is a REGRESSION: a blind gate's
	# regression is still seen (docs/exit-codes.md: 1 before 2).
	is "$rc" "$(want_exit "$j")" "try $try: ... and the run exits 2 (1 with a regression)"
done
is "$(jget "$m" .status)" complete "the run completes"
# The exit is the gate's: 1 only when a real scenario (hackbench may, on a
# non-RT VM) is a REGRESSION; the flagged control never makes it 1.
diag "hackbench vs idle: $(jget "$j" '.comparisons[] | select(.candidate == "hackbench") | .reason')"
want=$(want_exit "$j")
is "$rc" "$want" "exit $want: the verdicts' code, the flagged control counting as a pass"
is "$(jget "$j" .exit_code)" "$rc" "report.json's exit_code is the exit"
for f in report.txt report.md report.json report.html junit.xml; do
	check "$f written" -- test -s "$dir/$f"
done
verdict() { jget "$j" ".comparisons[] | select(.candidate == \"$1\") | .verdict"; }
# Unflagged twice is a failure unless the idle baseline itself was as
# noisy as the control: inject spins 300 us on ~5 % of CPU 1's wake-ups
# (suites/quick.suite), and in the 3 s repetitions of this scaled run that
# lifts CPU 1's p97-p99 to 150-300 us. An idle p99 already beyond half the
# control's width (tens of us on a quiet VM, 150-900 us when the host is
# busy: six runs in a row measured 76-891 us one afternoon) hides it, and
# the run rightly says the gate is blind here (checked above). The
# statistics themselves are held to the recorded sittings, which find the
# 300 us control in every 3 v 3 split (test_analyze_validate_tuning, statistics.md).
# The analyzer's own account counts too: when the smallest rise it could
# have called at CPU 1's p95, p97 or p99 is beyond the control's (about
# 150 us at p97 here), these repetitions scattered too much to see it. A
# spinner that did not spin would leave that resolution small and fail.
noise=$(jget "$j" '.comparisons[] | select(.candidate == "inject") | .lines[] | select(.metric == "p99" and .cpu == 1) | .baseline')
see=$(jget "$j" '[.comparisons[] | select(.candidate == "inject") | .lines[] | select(.cpu == 1 and (.metric == "p95" or .metric == "p97" or .metric == "p99") and .could_see != null) | .could_see] | min')
diag "inject: idle's CPU 1 p99 $noise us; smallest CPU 1 p95-p99 rise it could see: $see us"
if [ "$(verdict inject)" != REGRESSION ] &&
   awk -v n="$noise" -v s="$see" 'BEGIN { exit !(n > 150 || (s != "null" && s > 150)) }'; then
	skip "idle's own CPU 1 p99 is $noise us, and the run could see only a rise of $see us or more: the host hides a 300 us control" \
		"inject (positive control) vs idle: REGRESSION"
	skip "the host hides the control" "... it counts as a pass"
else
	is "$(verdict inject)" REGRESSION \
		"inject (positive control) vs idle: REGRESSION (idle p99 $noise us)"
	is "$(jget "$j" '.comparisons[] | select(.candidate == "inject") | .counts_as')" \
		"NO CHANGE" "... flagged as it must be: it counts as a pass"
fi
check "hackbench vs idle has a verdict of its own" -- \
	grep -qE '^(NO CHANGE|REGRESSION|IMPROVEMENT|INCONCLUSIVE)$' <<<"$(verdict hackbench)"

ext='.scenarios[] | select(.name == "extend")'
if "$BIN/extend-sched" --abi | grep -q '"abi":"none"'; then
	is "$(jget "$m" "$ext | .status")" skipped "extend is SKIPPED here (no slice extension)"
	check "... saying what the kernel lacks" -- \
		grep -q 'no scheduler time-slice extension' <<<"$(jget "$m" "$ext | .reason")"
	is "$(verdict extend)" SKIPPED "extend vs idle: SKIPPED"
else
	check "extend ran (this kernel has slice extension)" -- \
		test "$(jget "$m" "$ext | .status")" != skipped
	skip "this kernel has slice extension" "extend SKIPPED here"
	skip "this kernel has slice extension" "extend vs idle SKIPPED"
fi

# The deciding line beside each verdict; idle's published numbers belong
# to idle alone: no comparison shows them, report.txt prints them under
# idle. The scaled run says so.
check "verdict table: the measured column, no published one" -- \
	grep -qE '^candidate +baseline +verdict +measured$' "$T/out"
check "inject's row names the line its verdict rests on" -- grep -qE \
	'^inject +idle +[A-Z ]+ +(CPU [0-9]+ |all CPUs )?[a-z0-9./]+ [0-9.>=]+ -> [0-9.>=]+ us$' "$T/out"
check "idle's published T: lines under idle in report.txt" -- \
	grep -q '^published, Steven Rostedt, 2025-06, bare-metal PREEMPT_RT' "$dir/report.txt"
check "the report says the run was scaled" -- \
	grep -q '^scaled run: durations and loop counts x 0.2' "$dir/report.txt"
is "$(jget "$j" .run.duration_scale)" 0.2 "report.json: run.duration_scale"
is "$(sysctl -n kernel.sched_rr_timeslice_ms)" "$sysctl_before" "no sysctl left changed"
is "$(leftover_procs | wc -l)" 0 "no process left behind"
done_testing
