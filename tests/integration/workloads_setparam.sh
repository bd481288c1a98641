#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# setparam: strict arguments, bench rounds with ns/call and CV for both
# profiles, state verified and restored, load mode, clean stop.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
SP=$BIN/setparam

"$SP" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "no mode" mode "$SP" --profile default
usage_error "unknown profile" --profile "$SP" bench --profile fast
usage_error "slice out of range" --slice-us "$SP" bench -p custom --slice-us 50
usage_error "slice without custom" --slice-us "$SP" bench --slice-us 5000
usage_error "zero calls" --calls "$SP" bench --calls 0
usage_error "load option in bench mode" --rate "$SP" bench --rate 5
usage_error "CPU not available" --cpu "$SP" bench --cpu 999

for prof in default custom; do
	wl_start "$prof" "$SP" bench --profile "$prof" --calls 5000 --warmups 1 --rounds 5
	wl_wait_exit 120
	is "$WL_RC" 0 "bench $prof exits 0"
	wl_check_summary setparam
	is "$(jv '.rounds == 5 and .complete and .work_done == 25000 and .failures == 0')" \
		true "$prof: 5 measured rounds of 5000 calls, none failed"
	is "$(jv '.metrics.ns_per_call | .unit == "ns" and (.values | length) == 5 and (.values | all(. > 0))')" \
		true "$prof: metrics.ns_per_call holds the 5 rounds"
	is "$(jv '.ns_per_call_mean > 0 and (.ns_per_call_cv_pct | type) == "number" and .ns_per_call_cv_pct >= 0')" \
		true "$prof: $(jv .ns_per_call_mean) ns/call, CV $(jv .ns_per_call_cv_pct) %"
	is "$(jv '.verified and .restored')" true "$prof: state checked after, default slice and CPUs restored"
done
is "$(jv .slice_ns)" 10000000 "custom: the kernel reports the 10 ms slice"

# Not a nice-0 task: the measurement would not be the thread's.
wl_start nice nice -n 5 "$SP" bench --calls 10
wl_wait_exit 10
is "$WL_RC" 4 "nice 5: exit 4"
grep -q "nice-0" "$WL_ERR"
ok $? "... saying it needs a SCHED_OTHER nice-0 task"

wl_start load "$SP" load --rate 200
wl_wait_ready 10
ok $? "load: ready"
sleep 1
wl_sigterm_check setparam 10
is "$(jv '.mode == "load" and .work_done > 0 and .verified and .restored')" \
	true "load: $(jv .work_done) calls, verified and restored"

done_testing
