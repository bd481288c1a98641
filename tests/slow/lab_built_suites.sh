#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The hrtick and timerlat suites in the lab on a kernel built from
# kconfigs/: 6.12 with full preemption and the hrtick fragment
# (SCHED_DEBUG for the writable sched debugfs, HZ=250, HRTICK), the
# tracing fragment's timerlat tracer. hrtick's two scenarios must run
# (not SKIP) and be judged on the slices' runtime; timerlat's positive
# control must be flagged on the thread latency. The kernel is shared
# with bisect_control.sh (slow-full-hrtick); the reports stay in
# out/slow/lab_built_suites/.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
K=$RTGATE_OUT_DIR/kernels
KEEP=$RTGATE_OUT_DIR/slow/lab_built_suites
rm -rf "$KEEP"
mkdir -p "$KEEP"
jqe() { jq -e "$1" "$2" >/dev/null; }

"$RTGATE" kernel build --model full --fragments hrtick \
	--name slow-full-hrtick >"$T/b" 2>&1
is $? 0 "6.12, full preemption, the hrtick fragment (slow-full-hrtick)"
cfg=$K/slow-full-hrtick/.config
check "with SCHED_DEBUG, HZ=250, SCHED_HRTICK and the timerlat tracer" -- \
	bash -c "grep -qx CONFIG_SCHED_DEBUG=y '$cfg' && grep -qx CONFIG_HZ=250 '$cfg' &&
		 grep -qx CONFIG_SCHED_HRTICK=y '$cfg' && grep -qx CONFIG_TIMERLAT_TRACER=y '$cfg'"

start=$SECONDS
"$RTGATE" lab run --kernel slow-full-hrtick --suite hrtick --timeout 40m \
	--on-crash rerun --out "$T/hr" >"$T/hr.out" 2>"$T/hr.err"
rc=$?
diag "hrtick in the lab: $((SECONDS - start)) s, exit $rc"
ok $([ $rc -le 2 ]; echo $?) "the hrtick suite ran to a verdict (exit $rc)"
man=$(ls -d "$T"/hr/*-hrtick | tail -1)/manifest.json
check "both scenarios ran: none SKIPPED" -- \
	jqe '[.scenarios[].status] | all(. == "ok" or . == "partial")' "$man"
check "the hogs' slices were measured in every repetition" -- \
	jqe '[.scenarios[].repetitions[] | select(.status == "ok") | .workloads["hrtick-hogs"].slices] | all(. > 0)' "$man"
rep=$(dirname "$man")/report.json
check "HRTICK vs NO_HRTICK is judged on the slice runtime" -- \
	jqe '.comparisons[0].gate.metric == "hrtick-hogs.runtime_max_us" and (.comparisons[0].verdict | test("SKIPPED|INVALID") | not)' "$rep"
diag "$(grep -E '^hrtick ' "$(dirname "$man")/report.txt" | head -1)"
cp -r "$(dirname "$man")" "$KEEP/hrtick"

start=$SECONDS
"$RTGATE" lab run --kernel slow-full-hrtick --suite timerlat --timeout 20m \
	--out "$T/tl" >"$T/tl.out" 2>"$T/tl.err"
rc=$?
diag "timerlat in the lab: $((SECONDS - start)) s, exit $rc"
is $rc 0 "the timerlat suite passed on the built kernel (its control flagged)"
dir=$(ls -d "$T"/tl/*-timerlat | tail -1)
check "the positive control's thread latency is a REGRESSION" -- \
	jqe '.comparisons[0].candidate == "inject" and .comparisons[0].verdict == "REGRESSION"' "$dir/report.json"
check "the IRQ latency was judged beside it" -- \
	jqe '.comparisons[1].candidate == "inject.irq" and (.comparisons[1].verdict | test("SKIPPED|INVALID") | not)' "$dir/report.json"
check "the host rendered the plots" -- grep -q '<svg' "$dir/report.html"
cp -r "$dir" "$KEEP/timerlat"
done_testing
