#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# extend-sched: the ABI it found, the control (-d) doing real lock work,
# strict arguments, clean stop.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
ES=$BIN/extend-sched

"$ES" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "bad --busy" --busy "$ES" --busy x
usage_error "too many busy threads" --busy "$ES" --busy 65
usage_error "bad --cpus" --cpus "$ES" --cpus 0-
usage_error "CPU not available" --cpus "$ES" --cpus 1000
usage_error "zero critical section" --cs-us "$ES" --cs-us 0
usage_error "zero busy sleep" --busy-sleep-us "$ES" --busy-sleep-us 0
usage_error "negative sleep" --sleep-us "$ES" --sleep-us -1
usage_error "nice out of range" --lock-nice "$ES" --lock-nice 20
usage_error "-w with -d" -w "$ES" -d -w
usage_error "abbreviated option" --cs "$ES" --cs 5

# The ABI probe: one JSON line; this machine's 6.18 kernel has neither ABI.
"$ES" --abi >"$T/abi.json"
is "$?" 0 "--abi exits 0"
abi=$(jq -r .abi "$T/abi.json")
case "$abi" in none | v5 | linux-7.0) ok 0 "--abi reports abi '$abi'" ;;
*) ok 1 "--abi reports a known abi (got '$abi')" ;; esac
diag "$(cat "$T/abi.json")"

# The control runs its lock and busy threads on every kernel.
wl_start ctl "$ES" -d --busy 2 --duration 1s
wl_wait_exit 20
is "$WL_RC" 0 "-d --duration 1s exits 0"
wl_check_summary extend-sched
is "$(jv .mode)" control "mode is control"
is "$(jv .abi)" "$abi" "the summary reports the same abi"
is "$(jv '.lock_acquisitions > 0 and .work_done == .lock_acquisitions')" \
	true "the lock was taken ($(jv .lock_acquisitions) times)"
is "$(jv '.busy_loops > 0')" true "busy threads ran ($(jv .busy_loops) loops)"
is "$(jv '.extension_requests == 0 and .extensions_granted == 0')" true \
	"no extension requested by the control"
is "$(jv '.hold_avg_us >= 20 and .hold_max_us >= .hold_avg_us')" true \
	"lock held for the critical section (avg $(jv .hold_avg_us) us)"
is "$(cat "$WL_READY")" ready "ready once every lock thread took the lock"

if [ "$abi" = none ]; then
	# Without -d on a kernel without the ABI: say so, exit 4.
	wl_start noabi "$ES" --duration 1s
	wl_wait_exit 10
	is "$WL_RC" 4 "extension requested without an ABI: exit 4"
	is "$(jv '.abi == "none" and .work_done == 0')" true \
		"... with abi none and no work in the summary"
	grep -q -- "-d runs the control" "$WL_ERR"
	ok $? "... and says why on stderr"
else
	wl_start ext "$ES" --busy 2 --duration 1s
	wl_wait_exit 20
	is "$WL_RC" 0 "extension run exits 0"
	is "$(jv '.extension_requests > 0')" true \
		"requests made ($(jv .extension_requests), granted $(jv .extensions_granted))"
fi

# --sleep-us 0 with a 0 step: the lock thread never sleeps between grabs.
wl_start nosleep "$ES" -d --busy 1 --cpus 0 --cs-us 5 --sleep-us 0 \
	--sleep-step-us 0 --duration 1s
wl_wait_exit 20
is "$WL_RC" 0 "--sleep-us 0 --sleep-step-us 0 exits 0"
is "$(jv '.sleep_us == 0 and .cpus == "0"')" true "the summary says sleep_us 0"
nosleep=$(jv .lock_acquisitions)
# The same with the default 100 us pause: at most ~9,500 grabs a second,
# whatever the load; without a pause, many times more (92,389 against
# 931 with a 1 ms pause on an idle 2-CPU VM). Compared under the same
# load, not against a fixed count, which a loaded host once missed (973).
wl_start sleep100 "$ES" -d --busy 1 --cpus 0 --cs-us 5 --sleep-us 100 \
	--sleep-step-us 0 --duration 1s
wl_wait_exit 20
slept=$(jv .lock_acquisitions)
ok $((nosleep > 3 * slept ? 0 : 1)) \
	"the lock taken again at once: $nosleep grabs in 1 s, against $slept with a 100 us pause"

# Until SIGTERM: stops all its threads and exits 0.
wl_start stop "$ES" -d --busy 1 --cpus 0
wl_wait_ready 10
ok $? "ready"
wl_sigterm_check extend-sched 10
is "$(jv '.cpus == "0" and .busy_per_cpu == 1')" true "ran on CPU 0 only"

done_testing
