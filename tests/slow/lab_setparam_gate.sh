#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The seed-000 pair through `lab gate` itself: 6.12 with and without the
# setparam RFC (patches/setparam-default-slice, fetched from the seed
# thread's mail text), the setparam suite at x0.2 with 6 repetitions (3
# gave p = 0.034 on a busy host: INCONCLUSIVE) in the lab on each.
# The gate must judge each scenario on its own metric, ns/call (it once
# passed the suite's max as --metric and made every one INVALID): the
# default-slice sched_setparam() must be an IMPROVEMENT, the custom-slice
# control must not be a REGRESSION. Needs the seed threads
# (RTGATE_SEEDS_DIR); the reports stay in out/slow/lab_setparam_gate/.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
KEEP=$RTGATE_OUT_DIR/slow/lab_setparam_gate
jqe() { jq -e "$1" "$2" >/dev/null; }

seeds=${RTGATE_SEEDS_DIR:-}
for d in "$TOP/../shared/seeds" "$TOP/../../shared/seeds"; do
	[ -z "$seeds" ] && [ -d "$d" ] && seeds=$d
done
if [ -z "$seeds" ]; then
	skip "seed mail texts not found (set RTGATE_SEEDS_DIR)" "setparam gate"
	done_testing
	exit
fi
"$RTGATE" patches fetch setparam-default-slice --seeds "$seeds" >"$T/f" 2>&1
is $? 0 "the RFC fetched from the seed's mail text"
"$RTGATE" kernel build --model full --fragments hrtick \
	--name slow-full-hrtick >"$T/b1" 2>&1
is $? 0 "the base (slow-full-hrtick)"
"$RTGATE" kernel build --model full --fragments hrtick \
	--patches setparam-default-slice --name slow-full-hrtick-setparam \
	>"$T/b2" 2>&1
is $? 0 "with the RFC (slow-full-hrtick-setparam)"

start=$SECONDS
"$RTGATE" lab gate slow-full-hrtick slow-full-hrtick-setparam --suite setparam \
	--duration-scale 0.2 --repeat 6 --timeout 40m --out "$T/results" \
	>"$T/gate.out" 2>"$T/gate.err"
rc=$?
diag "the gate: $((SECONDS - start)) s, exit $rc"
ok $([ $rc -le 2 ]; echo $?) "lab gate judged (exit $rc)"
g=$(ls -d "$T"/results/gate-* | head -1)
check "the default-slice scenario judged on ns/call" -- \
	jqe '.comparisons[0].gate.metric == "setparam.ns_per_call"' "$g/default/report.json"
is "$(jget "$g/default/report.json" '.comparisons[0].verdict')" IMPROVEMENT \
	"the RFC makes the default-slice sched_setparam() cheaper: IMPROVEMENT"
check "the custom-slice control is not a REGRESSION" -- \
	jqe '.comparisons[0].gate.metric == "setparam.ns_per_call" and .comparisons[0].verdict != "REGRESSION"' "$g/custom/report.json"
check "each compare line said which metric it judged" -- \
	grep -q 'gate setparam.ns_per_call' "$T/gate.err"
diag "$(grep -hE '^default|^custom' "$g"/*/report.txt | grep -v '^default-load\|^custom-load' | head -4)"
rm -rf "$KEEP"
mkdir -p "$KEEP"
cp -r "$g" "$KEEP/"
done_testing
