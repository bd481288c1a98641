#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# inject: strict arguments, spins of the requested width, clean stop.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
INJ=$BIN/inject

"$INJ" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "zero width" --width-us "$INJ" --width-us 0
usage_error "bad period" --period-us "$INJ" --period-us 7x
usage_error "period not above width" --period-us "$INJ" -w 500 -p 500 -j 0
usage_error "jitter as large as the period" --period-us "$INJ" -p 1000 -j 1000
usage_error "CPU not available" --cpu "$INJ" --cpu 4095
usage_error "priority above 99" --prio "$INJ" --prio 100
usage_error "unknown option" --width "$INJ" --width 5

if ! is_root; then
	skip "SCHED_FIFO needs root" "inject runs"
	done_testing
	exit
fi

# A fixed number of spins: each one of the requested width.
cpu=$(( $(nproc) - 1 ))
wl_start inj "$INJ" --cpu "$cpu" --width-us 200 --period-us 1009 --spins 200
wl_wait_exit 20
is "$WL_RC" 0 "--spins 200 exits 0 by itself"
wl_check_summary inject
is "$(jv .spins)" 200 "200 spins"
is "$(jv "(.width_avg_us - 200 | fabs) <= 20")" true \
	"average width within 10 % of 200 us ($(jv .width_avg_us) us)"
is "$(jv ".width_min_us >= 200 and .spins_on_width >= 100")" true \
	"no spin short of the width; most within 10 % ($(jv .spins_on_width)/200)"
is "$(jv ".cpu == $cpu and .prio == 99 and .policy == \"fifo\"")" true \
	"spun on CPU $cpu at SCHED_FIFO 99"

# The jitter is real: with J > 0 the mean period is P but not every one.
wl_start jit "$INJ" -c "$cpu" -w 20 -p 1000 -j 400 --seed 7 -d 0.5
wl_wait_exit 10
# (duration_s, not 0.5: a loaded machine may wake the main thread late)
is "$(jv "(.spins / (.duration_s * 1000) | . > 0.8 and . < 1.2) and .seed == 7")" \
	true "a 1000 us mean period: $(jv .spins) spins in $(jv .duration_s) s"

# Until SIGTERM: ready after the first spin, then a clean stop.
wl_start stop "$INJ" -c "$cpu" -w 100
wl_wait_ready 5
ok $? "ready after the first spin"
sleep 0.3
wl_sigterm_check inject 5
is "$(jv '.spins > 0 and .width_max_us >= 100')" true "spun until stopped"

done_testing
