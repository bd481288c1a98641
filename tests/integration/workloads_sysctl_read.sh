#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# sysctl-read: strict arguments, bench rounds reported as metrics, every
# value checked, load mode at a rate, clean stop.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
SR=$BIN/sysctl-read
RR=/proc/sys/kernel/sched_rr_timeslice_ms

"$SR" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "no mode" mode "$SR" -s kernel.sched_rr_timeslice_ms
usage_error "unknown mode" mode "$SR" fast
usage_error "bad sysctl name" --sysctl "$SR" bench -s ../etc/passwd
usage_error "zero reads" --reads "$SR" bench --reads 0
usage_error "load option in bench mode" --rate "$SR" bench --rate 10
usage_error "bench option in load mode" --rounds "$SR" load --rounds 3
usage_error "bad --cpu" --cpu "$SR" bench --cpu x

# Other people's tests may set sched_rr_timeslice_ms for a moment on this
# shared machine: a run that saw the value change is retried (a genuine
# checking bug fails every time).
bench() {
	local try
	for try in 1 2 3; do
		wl_start bench "$SR" bench "$@"
		wl_wait_exit 60
		[ "$WL_RC" -ne 1 ] || ! grep -q "did not return" "$WL_ERR" &&
			return
		diag "the value changed during the run; retrying"
	done
}

want=$(cat "$RR")
bench -s kernel.sched_rr_timeslice_ms --reads 512 --warmups 2 --rounds 5
is "$WL_RC" 0 "bench on sched_rr_timeslice_ms exits 0"
wl_check_summary sysctl-read
is "$(jv .value)" "$want" "the value read is checked ($RR = $want)"
is "$(jv '.mismatches == 0 and .errors == 0')" true "every read matched"
is "$(jv '.rounds == 5 and .complete and .work_done == 5 * 512')" true \
	"5 measured rounds of 512 reads (warm-ups not counted)"
is "$(jv '.metrics.ns_per_read | .unit == "ns" and .better == "lower" and (.values | length) == 5 and (.values | all(. > 0))')" \
	true "metrics.ns_per_read holds the 5 measured rounds"
is "$(jv '(.metrics.ns_per_read.values | add / length) as $m | ($m - .ns_per_read_mean | fabs) < 0.01 * $m and .ns_per_read_cv_pct >= 0')" \
	true "mean $(jv .ns_per_read_mean) ns/read, CV $(jv .ns_per_read_cv_pct) %"
is "$(cat "$WL_READY")" ready "ready before the rounds"

# A wrong expected value is the work failing (exit 1), not a result.
wl_start wrong "$SR" bench -s kernel/sched_rr_timeslice_ms --expect 123456789 --reads 8
wl_wait_exit 10
is "$WL_RC" 1 "--expect with another value: exit 1"
grep -q "expected '123456789'" "$WL_ERR"
ok $? "... naming the value read and the one expected"

wl_start missing "$SR" bench -s kernel.no_such_sysctl_here
wl_wait_exit 10
is "$WL_RC" 4 "a missing sysctl: exit 4"

# Load: reads at a rate until SIGTERM. kernel.ostype never changes (and
# reading sched_rt_period_us here would rebuild the sched domains under
# other people's cyclictest runs).
wl_start load "$SR" load -s kernel.ostype --rate 500
wl_wait_ready 10
ok $? "load: ready"
sleep 1
wl_sigterm_check sysctl-read 10
is "$(jv '.mode == "load" and .value == "Linux" and .rate == 500 and .work_done > 0 and .achieved_rate <= 600')" \
	true "load: $(jv .work_done) reads, $(jv .achieved_rate)/s for 500/s asked"

done_testing
