#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# hrtick-hogs: the protocol (usage, ready, SIGTERM, one JSON line) and its
# metric, slice runtimes from sched_switch through rtgate's tracing layer.
# The HRTICK feature itself is the runner's (EPERM on this machine).
source "$(dirname "$0")/../lib.sh"

hogs=$BIN/hrtick-hogs
jtrue() { jq -e "$1" "$2" >/dev/null; }
cpu=$(($(nproc) > 1 ? 1 : 0))

"$hogs" --help >"$T/help" 2>&1
is $? 0 "--help exits 0"
check "--help says what it measures" -- grep -q 'between' "$T/help"
for bad in "--hogs 0" "--hogs 9" "--threshold-us x" "--cpu 9999" \
	"--sleeper-work-us 2000 --sleeper-period-us 1000" "--frob" "extra" \
	"--late-us 0" "--late-us x" "--buffer-kb 2" "--buffer-kb x"; do
	# shellcheck disable=SC2086
	"$hogs" $bad >"$T/out" 2>"$T/err"
	is $? 2 "'$bad': exit 2"
done
"$hogs" --hogs 9 2>"$T/err"
check "the message names the option and the value" -- \
	grep -q -- "--hogs: '9'" "$T/err"

exec 7>"$T/ready"
RTGATE_READY_FD=7 "$hogs" -c $cpu -d 2 >"$T/sum.json" 2>"$T/log" &
pid=$!
exec 7>&-
wait $pid
is $? 0 "a 2 s run exits 0"
is "$(cat "$T/ready")" ready "it said ready"
is "$(wc -l <"$T/sum.json")" 1 "one line on stdout"
check "work was done" -- jtrue '.work_done > 0 and .sleeper_wakeups > 0' \
	"$T/sum.json"
if jtrue '.tracing == "ok"' "$T/sum.json"; then
	check "slices were measured" -- jtrue '.slices > 0' "$T/sum.json"
	check "both hogs have slices" -- \
		jtrue '[.tasks[] | select(.slices > 0)] | length == 2' "$T/sum.json"
	check "runtime_max_us is a metric, >= the average" -- jtrue \
		'.metrics.runtime_max_us.values[0] == .runtime_max_us and
		 .runtime_max_us >= .runtime_avg_us and .runtime_avg_us > 0' \
		"$T/sum.json"
	check "slices_over_threshold is a metric" -- jtrue \
		'.metrics.slices_over_threshold.values[0] == .over_threshold' \
		"$T/sum.json"
	check "the histogram counts every run" -- jtrue \
		'([.runs_histogram.counts[]] | add) == .slices and
		 .runs_histogram.bin_us == 100' "$T/sum.json"
	# The hrtick's function from /proc/kallsyms: runs_past_hrtick is a
	# metric, else there is none and the summary says why.
	if grep -qE '^[0-9a-f]*[1-9a-f][0-9a-f]* [tT] hrtick$' /proc/kallsyms; then
		check "runs_past_hrtick is a metric, the tasks' sum" -- jtrue \
			'.late_us == 500 and .hrtick_expiries >= 0 and
			 .metrics.runs_past_hrtick.values[0] == .runs_past_hrtick and
			 ([.tasks[].past_hrtick] | add) == .runs_past_hrtick' \
			"$T/sum.json"
		check "... no more than the hrtick expired" -- jtrue \
			'.runs_past_hrtick <= .hrtick_expiries' "$T/sum.json"
	else
		check "no hrtick symbol: no runs_past_hrtick, a reason" -- \
			jtrue '(.metrics | has("runs_past_hrtick") | not) and
			       (.hrtick_reason | test("hrtick"))' "$T/sum.json"
	fi
else
	skip "tracing unavailable: $(jq -r .tracing_reason "$T/sum.json")" \
		"slice runtimes"
fi
check "no instance is left" -- \
	bash -c "! ls $(tracefs_dir)/instances 2>/dev/null | grep -q '^rtgate-$pid-'"

# A trace buffer too small for 100 ms of switches loses events: the runs
# that spanned them were not measured, so every count could only read too
# low. No metric then (the analyzer has no data: never a pass), a reason.
"$hogs" -c $cpu -d 2 --buffer-kb 4 >"$T/lost.json" 2>/dev/null
is $? 0 "--buffer-kb 4: a 2 s run exits 0"
if [ "$(jq -r '.events_lost // 0' "$T/lost.json")" -gt 0 ]; then
	is "$(jq -r 'has("metrics")' "$T/lost.json")" false \
		"events lost ($(jq -r .events_lost "$T/lost.json")): no metric at all"
	check "... and the reason names the lost events" -- jtrue \
		'.metrics_reason | test("^[0-9]+ trace events lost: .*too low")' \
		"$T/lost.json"
else
	skip "no event lost with a 4 KB buffer here ($(jq -r .tracing "$T/lost.json"))" \
		"events lost: no metric"
	skip "no event lost" "... and the reason"
fi

"$hogs" -c $cpu --no-trace -d 1 >"$T/nt.json" 2>/dev/null
is $? 0 "--no-trace runs"
is "$(jq -r .tracing "$T/nt.json")" unavailable "without tracing it says so"
is "$(jq -r 'has("metrics") or has("runtime_max_us") or has("slices")' \
	"$T/nt.json")" false "and has no metric at all (not a zero)"

"$hogs" -c $cpu >"$T/term.json" 2>/dev/null &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
is $? 0 "SIGTERM: exit 0"
check "SIGTERM: a summary" -- jtrue '.work_done > 0' "$T/term.json"
check "SIGTERM: no thread left" -- test ! -d /proc/$pid
check "SIGTERM: its instance is removed" -- \
	bash -c "! ls $(tracefs_dir)/instances 2>/dev/null | grep -q '^rtgate-$pid-'"

done_testing
