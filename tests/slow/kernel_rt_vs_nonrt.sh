#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An RT and a non-RT (full preemption) kernel from the 6.12 tree, each
# booted in the lab with the smoke suite: their results manifests must say
# which kernel and which preemption model ran.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}

for m in rt full; do
	"$RTGATE" kernel build --model $m --name slow-$m-base >"$T/b-$m" 2>&1
	is $? 0 "6.12 model $m built"
	"$RTGATE" lab run --kernel slow-$m-base --suite smoke --timeout 30m \
		--out "$T/res-$m" >"$T/run-$m" 2>&1
	rc=$?
	ok $([ $rc -le 2 ]; echo $?) "the smoke suite ran on slow-$m-base (exit $rc)"
	man=$(ls "$T"/res-$m/*/manifest.json | head -1)
	is "$(jget "$man" .status)" complete "its results are complete"
	is "$(jget "$man" .lab.kernel)" "slow-$m-base" "the manifest names the kernel"
	check "uname -r says the build's name" -- \
		grep -q -- "-slow-$m-base\"" <(jq .kernel.release "$man")
	want=false
	[ $m = rt ] && want=true
	is "$(jget "$man" .kernel.preempt_rt)" $want "kernel.preempt_rt"
	check "the model is $m" -- grep -q "$m" <(jget "$man" .kernel.preempt_model)
	is "$(jget "$man" .lab.preempt_rt)" $want "lab.preempt_rt (from .config)"
done

done_testing
