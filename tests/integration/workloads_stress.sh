#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stress: strict arguments (stressor names checked against stress-ng),
# bogo-ops from stress-ng's own report, clean stop with no stressor left.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
ST=$BIN/stress

"$ST" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "no stressor" --stressor "$ST" --duration 1
usage_error "bad instance count" --stressor "$ST" -s cpu:many
usage_error "bad duration" --duration "$ST" -s cpu -d soon
usage_error "operand without --" cpu "$ST" -s cpu cpu

if ! command -v stress-ng >/dev/null; then
	skip "stress-ng not installed" "stress runs"
	done_testing
	exit
fi
usage_error "unknown stressor" cpux "$ST" -s cpux

# A short run: the work comes from stress-ng's report, per stressor.
wl_start short "$ST" -s cpu:1 -s vm:1 -d 2s -- --vm-bytes 8M
wl_wait_exit 60
is "$WL_RC" 0 "-d 2s exits 0"
wl_check_summary stress
is "$(jv '.cpu_bogo_ops > 0 and .vm_bogo_ops > 0')" true \
	"bogo-ops per stressor: cpu $(jv .cpu_bogo_ops), vm $(jv .vm_bogo_ops)"
is "$(jv '.work_done == .cpu_bogo_ops + .vm_bogo_ops and .errors == 0')" true \
	"work_done is the sum of the stressors' bogo-ops"
is "$(jv '.stressors.cpu.instances == 1 and .stressors.vm.bogo_ops_per_s > 0')" \
	true "per-stressor details from the report"
is "$(jv .stopped_by_us)" true "stopped by us at the deadline"
is "$(cat "$WL_READY")" ready "ready once stress-ng dispatched its stressors"

# A stress-ng that fails at once (an option it refuses): no report, exit 1.
wl_start bad "$ST" -s cpu -d 5 -- --no-such-stress-ng-option
wl_wait_exit 20
is "$WL_RC" 1 "stress-ng refusing its options: exit 1"
is "$(jv '.work_done == 0 and .errors >= 1 and (.report_error | length) > 0')" \
	true "... no work, the missing report named"

# Until SIGTERM: stress-ng and every stressor process go.
wl_start stop "$ST" -s cpu:2
wl_wait_ready 20
ok $? "ready"
sleep 1
n=$(wl_group_procs | wc -l)
[ "$n" -ge 3 ]
ok $? "stress-ng and its stressors run in the workload's group ($n processes)"
wl_sigterm_check stress 20
is "$(jv '.cpu_bogo_ops > 0 and .stopped_by_us')" true \
	"the report was read after the stop ($(jv .cpu_bogo_ops) bogo-ops)"

done_testing
