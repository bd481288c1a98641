#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate bisect names the patch that added the latency: our own control
# series (patches/bisect-control: patches 1-3 and 5 harmless, patch 4 arms
# the control knob by default, 30 ms every 100 ms) bisected on 6.12 with
# the lab-control suite. The whole series is judged first, then prefixes
# 2, 3 and 4, each step booting the base, the prefix and the base again
# (A/B/A): bisect must name patch 4. Run again, it must resume from
# its state file and build and boot nothing. The base (full preemption
# with the hrtick fragment, as the hrtick lab kernels) and every prefix
# share one .config, so ccache serves all but rtgate_inject.c: a first
# run costs one kernel build plus ~2 min a prefix, a rerun seconds.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
K=$RTGATE_OUT_DIR/kernels
B=$RTGATE_OUT_DIR/bisect/slow-bisect-control
jqe() { jq -e "$1" "$2" >/dev/null; }

"$RTGATE" kernel build --model full --fragments hrtick \
	--name slow-full-hrtick >"$T/b" 2>&1
is $? 0 "the base: 6.12, full preemption, the hrtick fragment"
rm -rf "$B"
start=$SECONDS
"$RTGATE" bisect --base slow-full-hrtick --series bisect-control \
	--suite lab-control --name slow-bisect-control --timeout 40m \
	>"$T/out" 2>"$T/err"
rc=$?
diag "bisect took $((SECONDS - start)) s"
is $rc 1 "a culprit was named (exit 1)"
st=$B/state.json
is "$(jget "$st" .culprit.patch)" 4 "bisect names patch 4"
is "$(jget "$st" .culprit.subject)" \
	"[PATCH 4/5] rtgate_inject: arm the knob by default" "with its subject"
check "the whole series was judged first, and was a REGRESSION" -- \
	jqe '.steps[0].prefix == 5 and .steps[0].verdict == "REGRESSION"' "$st"
check "the search probed 2, 3 and 4 after it" -- \
	jqe '[.steps[] | select(.repeat == 0) | .prefix] | unique == [2, 3, 4, 5]' "$st"
check "prefixes without patch 4 pass, with it they are a REGRESSION" -- \
	jqe 'all(.steps[] | select(.exit != 2);
	     (.prefix >= 4) == (.verdict == "REGRESSION"))' "$st"
check "an INCONCLUSIVE step was measured again before it steered" -- \
	jqe '[.steps[] | select(.exit == 2) | .prefix] as $p |
	     all($p[]; . as $k | any(.steps[]; .prefix == $k and .repeat > 0))' "$st"
check "each step names its kernel and reports" -- \
	jqe 'all(.steps[]; (.kernel | test("^slow-full-hrtick\\+bisect-control\\.[0-9]$")) and (.reports | length > 0))' "$st"
check "each step booted the base before and after its prefix (A/B/A)" -- \
	jqe 'all(.steps[]; .baseline_run != .baseline_run_after and (.baseline_run_after | length > 0))' "$st"
check "the armed prefix's console shows the knob armed by default" -- \
	grep -q 'rtgate_inject: spinning 30000 us every 100 ms' \
	"$(jget "$st" '.steps[] | select(.prefix == 4) | .run')/lab-console.log"
check "the report ends with the culprit" -- \
	grep -q '^first bad patch: 4/5 \[PATCH 4/5\] rtgate_inject: arm the knob by default$' "$B/report.txt"
check "the deciding line of the armed prefix is in the table" -- \
	grep -qE '^[0-9]+ +4/5 +slow-full-hrtick\+bisect-control\.4 .*REGRESSION +.*rose from' "$B/report.txt"
check "the prefixes shared the base's .config (ccache's objects)" -- \
	cmp -s "$K/slow-full-hrtick/.config" "$K/slow-full-hrtick+bisect-control.5/.config"

# Resumable: the same command again builds nothing and boots nothing.
start=$SECONDS
"$RTGATE" bisect --base slow-full-hrtick --series bisect-control \
	--suite lab-control --name slow-bisect-control >"$T/out2" 2>"$T/err2"
is $? 1 "resumed: the same culprit (exit 1)"
check "from the kept steps" -- grep -q 'kept from an earlier run' "$T/err2"
check "without a build or a boot" -- \
	bash -c "! grep -qE 'building|booting' '$T/err2'"
diag "the resumed bisection took $((SECONDS - start)) s"
done_testing
