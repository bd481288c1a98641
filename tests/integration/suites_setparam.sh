#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# suites/setparam.suite end to end, scaled down (10,000 calls a round,
# cyclictest 1 s). This kernel takes the whole update path for an
# unchanged default slice: default must cost more than the custom-slice
# control. Then hrtick.suite, which this machine must SKIP with the reason
# (debugfs sched/ answers EPERM even to root).
source "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
run_suite setparam --duration-scale 0.02
is "$(jget "$m" .status)" complete "the run completes"
check "exit 0, 1 or 2 (a verdict, not an error)" -- test "$rc" -le 2
s=$dir/default/1/setparam.json
is "$(jget "$s" .calls_per_round)" 10000 "500,000 calls a round scaled by 0.02"
is "$(jget "$s" '[.warmups, .rounds] | join("+")')" "3+15" \
	"3 warm-ups + 15 measured rounds"
is "$(jget "$dir/custom/1/setparam.json" .slice_ns)" 10000000 \
	"the control's 10 ms custom slice"
is "$(jget "$s" '[.verified, .restored] | join(",")')" "true,true" \
	"the task's state verified and restored"

line() {
	jget "$j" ".comparisons[] | select(.candidate == \"$1\") | .lines[] | select(.deciding) | .$2"
}
verdict() { jget "$j" ".comparisons[] | select(.candidate == \"$1\") | .verdict"; }
b=$(line default baseline); c=$(line default candidate)
diag "default: $c ns/call against the custom control's $b: $(verdict default)"
is "$(line default metric)" setparam.ns_per_call "default vs custom: judged on ns/call"
# The signature, robust to neighbours: each scenario's cheapest round.
lo_c=$(jq -s 'map(.ns_per_call_min) | min' "$dir"/default/*/setparam.json)
lo_b=$(jq -s 'map(.ns_per_call_min) | min' "$dir"/custom/*/setparam.json)
diag "cheapest rounds: default $lo_c ns/call, custom $lo_b ($(uname -r))"
# A shared host can slow one scenario's every round (CI saw it once, no
# numbers kept): then measure again, five interleaved pairs of 50,000
# calls, before calling the kernel's signature gone.
if ! awk -v b="$lo_b" -v c="$lo_c" 'BEGIN { exit !(c > 1.2 * b) }'; then
	for i in 1 2 3 4 5; do
		for p in default custom; do
			"$TOP/bin/setparam" bench --profile $p --calls 50000 \
				--warmups 1 --rounds 5 2>/dev/null | tail -1 |
				jq -r --arg p $p '"\($p) \(.ns_per_call_min)"'
		done
	done >"$T/again"
	diag "again: $(sort "$T/again" | paste -sd' ')"
	lo_c=$(awk '$1 == "default" && (m == "" || $2 < m) { m = $2 } END { print m }' "$T/again")
	lo_b=$(awk '$1 == "custom" && (m == "" || $2 < m) { m = $2 } END { print m }' "$T/again")
	diag "cheapest of the second look: default $lo_c ns/call, custom $lo_b"
fi
check "default slice costs > 1.2x the custom control (the unpatched path)" -- \
	awk -v b="$lo_b" -v c="$lo_c" 'BEGIN { exit !(b > 0 && c > 1.2 * b) }'
check "default vs custom: not IMPROVEMENT, SKIPPED or INVALID" -- \
	grep -qE '^(REGRESSION|INCONCLUSIVE|NO CHANGE)$' <<<"$(verdict default)"
check "verdict table: published 163 -> 619 ns" -- \
	grep -qE '^default +custom +[A-Z ]+ +setparam.ns_per_call [0-9.]+ -> [0-9.]+ ns +163 -> 619 ns$' "$T/out"
check "the source of the published numbers, naming its scenario" -- \
	grep -q '^published (default): Chengfeng Lin, v7.2, bare-metal i7-12700KF' "$T/out"
# compare DIR:S DIR:S (what lab gate runs) judges each scenario on its
# own metric, as the run did: ns/call, not the suite's max; and at the
# run's share of alpha (the suite's comparisons share it), by itself.
"$RTGATE" compare "$dir:custom" "$dir:default" \
	--report json --out "$T/cmp" >/dev/null 2>&1
lv_cmp=$(jget "$T/cmp/report.json" '.comparisons[0].line_level')
lv_run=$(jget "$j" '.comparisons[] | select(.candidate == "default") | .line_level')
check "compare A:custom B:default: the run's own level ($lv_cmp, $lv_run)" -- \
	test -n "$lv_run" -a "$lv_cmp" = "$lv_run" 
is "$(jget "$T/cmp/report.json" '.comparisons[0].gate.metric')" \
	setparam.ns_per_call "compare A:custom B:default judges ns/call"
is "$(jget "$T/cmp/report.json" '.comparisons[0].verdict')" "$(verdict default)" \
	"... with the run's own verdict"
"$RTGATE" compare "$dir:custom" "$dir:default" --metric max --report json \
	--out "$T/cmp2" >/dev/null 2>&1
is "$(jget "$T/cmp2/report.json" '.comparisons[0].gate.metric')" max \
	"--metric still overrides it"
for s in default-load custom-load; do
	check "$s vs idle is judged" -- grep -qE \
		'^(NO CHANGE|REGRESSION|IMPROVEMENT|INCONCLUSIVE)$' <<<"$(verdict $s)"
done

# hrtick: SKIPPED here, with a reason a newcomer understands.
"$RTGATE" run hrtick --duration-scale 0.05 --no-history >"$T/h.out" 2>&1
rc=$?
h=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
is "$(jget "$h/manifest.json" .suite.name)" hrtick "the hrtick run"
if ! cat /sys/kernel/debug/sched/features >/dev/null 2>&1; then
	is "$rc" 2 "hrtick: everything SKIPPED, exit 2 (nothing measured, nothing passed)"
	is "$(jget "$h/report.json" '.comparisons[0].verdict')" SKIPPED \
		"hrtick vs no-hrtick: SKIPPED"
	check "... because debugfs sched/ refuses root" -- grep -q \
		'sched/features: Operation not permitted even to root (kernel lockdown or a locked-down VM)' \
		<<<"$(jget "$h/report.json" '.comparisons[0].reason')"
	check "the published 5227 us stands beside it" -- \
		grep -qE '^hrtick +no-hrtick +SKIPPED +- +- -> 5227( |$)' "$h/report.txt"
else
	check "hrtick: a verdict" -- test "$rc" -le 2
	skip "sched features writable here" "hrtick SKIPPED"
	skip "sched features writable here" "with the reason"
	skip "sched features writable here" "published 5227"
fi

# hrtick-kernels declares no comparison: when its one scenario is SKIPPED
# nothing was measured, and that is no completed run (exit 2, not 0).
"$RTGATE" run hrtick-kernels --duration-scale 0.05 --no-history >"$T/hk.out" 2>&1
rc=$?
if ! cat /sys/kernel/debug/sched/features >/dev/null 2>&1; then
	is "$rc" 2 "hrtick-kernels, every scenario SKIPPED: exit 2"
	check "... its last line says nothing was measured" -- grep -q \
		'0 comparisons, the suite declares none, and every scenario was SKIPPED: nothing was measured (exit 2)' \
		"$T/hk.out"
else
	check "hrtick-kernels: a verdict" -- test "$rc" -le 2
	skip "sched features writable here" "nothing measured"
fi
is "$(leftover_procs | wc -l)" 0 "no process left behind"
done_testing
