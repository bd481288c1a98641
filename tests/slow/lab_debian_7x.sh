#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's split 7.x RT image in the lab: `lab run --debian-kernel 7.2-rt`
# resolves the newest 7.2.x rt-amd64 release, fetches linux-binary,
# linux-base and linux-modules through rtgate's private apt, and boots it
# under TCG with the smoke suite. ~125 MB once, then 1-2 minutes a boot.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}

start=$(date +%s)
"$RTGATE" lab run --debian-kernel 7.2-rt --suite smoke --timeout 15m \
	--out "$T/res" >"$T/out.txt" 2>"$T/err"
rc=$?
diag "lab run --debian-kernel 7.2-rt --suite smoke: $(( $(date +%s) - start )) s, exit $rc"
ok $([ $rc -le 2 ]; echo $?) "the smoke suite ran on Debian's 7.2-rt (exit $rc)"
man=$(ls "$T"/res/*/manifest.json 2>/dev/null | head -1)
is "$(jget "${man:-/dev/null}" .status)" complete "its results are complete"
check "the guest ran a 7.2.x rt-amd64 kernel" -- \
	grep -q '^"7\.2\.[0-9]*+deb[0-9]*-rt-amd64"$' <(jq .kernel.release "$man")
is "$(jget "$man" .kernel.preempt_rt)" true "kernel.preempt_rt"
is "$(jget "$man" .lab.preempt_rt)" true "lab.preempt_rt (from the image's config)"
check "the lab names the image" -- \
	grep -q '^debian-7\.2\.' <(jget "$man" .lab.kernel)
check "the virtio/9p modules were loaded from the image" -- \
	grep -q 'loaded [1-9][0-9]* modules' "$T/err"

done_testing
