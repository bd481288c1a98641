#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The silent lab's noise floor (docs/kernels.md, "The quiet lab"): idle
# cyclictest through the runner (suites/lab-floor.suite, 10 x 10 virtual
# s, `--clock icount:3`, silent) on the reproduce kernels (r7.3-full-base,
# r7.3-rt-base: built by `rtgate reproduce`, or `kernel build --debian 7.3
# --fragments rseq,hrtick`, plus pcp-batch on the non-RT one) and Debian's
# 7.2-rt image:
#   - one vCPU: every repetition's max within 25 % of the median
#     repetition's;
#   - two vCPUs: every CPU's max in every repetition at most
#     RTGATE_FLOOR_2CPU_US (default 250 virtual us, the issue's bound),
#     on the lab's own QEMU with the turn quantum (lab/qemu/; built on
#     first need, a few minutes).
# Every repetition must be silent (host_io). The guests boot with
# `threadirqs` (RTGATE_FLOOR_APPEND): on a non-RT kernel the timer
# softirq otherwise runs on the interrupt's way out, ahead of cyclictest,
# and its rare long runs are the kernel's tail, not the lab's floor
# (docs/kernels.md, "The quiet lab"); PREEMPT_RT threads them anyway. A kernel that is not built,
# or a non-RT one built without pcp-batch (the page allocator's batches
# hold interrupts off for milliseconds there; reproduce rebuilds it), is
# skipped, said so. ~4 minutes a kernel and layout on 2 cores.
# RTGATE_FLOOR_KERNELS picks some of them (default: all three,
# "r7.3-full-base r7.3-rt-base debian-7.2-rt").
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
K=$RTGATE_OUT_DIR/kernels
BOUND2=${RTGATE_FLOOR_2CPU_US:-250}
APPEND=${RTGATE_FLOOR_APPEND-threadirqs}
KEEP=$RTGATE_OUT_DIR/slow/lab_noise_floor
mkdir -p "$KEEP"

# maxima RUN_DIR: "rep cpu max" lines from every repetition's cyclictest.json.
maxima() {
	local rep
	for rep in $(ls "$1/idle" | sort -n); do
		[ -f "$1/idle/$rep/cyclictest.json" ] || continue
		jq -r --arg rep "$rep" \
			'.thread | to_entries[] | "\($rep) \(.key) \(.value.max)"' \
			"$1/idle/$rep/cyclictest.json"
	done
}

floor() {	# floor LABEL KERNEL-ARGS... 
	local label=$1 cpus
	shift
	for cpus in 1 2; do
		local out=$T/$label-$cpus
		"$RTGATE" lab run "$@" --clock icount:3 --cpus "$cpus" \
			${APPEND:+--append "$APPEND"} \
			--suite lab-floor --timeout 20m --out "$out" \
			>"$out.txt" 2>"$out.err"
		local rc=$? run
		run=$(ls -d "$out"/*/ 2>/dev/null | head -1)
		ok $([ $rc -eq 0 ] && [ -n "$run" ]; echo $?) \
			"$label, $cpus vCPU: the run completed (exit $rc)"
		[ -n "$run" ] || continue
		rm -rf "$KEEP/$label-$cpus"	# a run kept before, not nested in
		cp -r "$run" "$KEEP/$label-$cpus"
		is "$(jq '[.scenarios[].repetitions[] | select(.host_io.silent != true)] | length' \
			"$run/manifest.json")" 0 \
			"$label, $cpus vCPU: every repetition was silent"
		maxima "$run" >"$out.max"
		diag "$label, $cpus vCPU, maxima per repetition (virtual us):" \
			"$(awk '{printf "%s%s", sep, $3; sep=" "}' "$out.max")"
		if [ "$cpus" = 1 ]; then
			local med
			med=$(awk '{print $3}' "$out.max" | sort -n |
				awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
			ok "$(awk -v m="$med" '$3 > 1.25 * m || $3 < 0.75 * m {bad=1}
				END {print bad+0}' "$out.max")" \
				"$label, 1 vCPU: every max within 25 % of the median ($med us)"
		else
			is "$(jq '.qemu_icount_quantum_ns' "$run/lab.json")" \
				"$(sed -n 's/^#define LAB_QEMU_QUANTUM_NS[^0-9]*\([0-9]*\).*/\1/p' \
					"$TOP/lab/lab_priv.h")" \
				"$label, 2 vCPUs: on the lab's QEMU, turns capped"
			ok "$(awk -v b="$BOUND2" '$3 > b {bad=1} END {print bad+0}' \
				"$out.max")" \
				"$label, 2 vCPUs: every CPU's max at most $BOUND2 us"
		fi
	done
}

for k in ${RTGATE_FLOOR_KERNELS:-r7.3-full-base r7.3-rt-base debian-7.2-rt}; do
	if [ "$k" = debian-7.2-rt ]; then
		floor debian-7.2-rt --debian-kernel 7.2-rt
	elif [ -f "$K/$k/build.json" ] && [ -f "$K/$k/bzImage" ] &&
	     [ "$(jq '.preempt_rt == false and
		     (.fragments | index("pcp-batch") == null)' \
		     "$K/$k/build.json")" = true ]; then
		skip "$k is non-RT and was built without pcp-batch (rtgate reproduce 004 --model full rebuilds it)" \
			"$k: the noise floor"
	elif [ -f "$K/$k/build.json" ] && [ -f "$K/$k/bzImage" ]; then
		floor "$k" --kernel "$k"
	else
		skip "$k is not built (rtgate reproduce 004 builds it)" \
			"$k: the noise floor"
	fi
done
diag "runs kept in $KEEP"

done_testing
