#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate kernel config`: kconfigs/ fragments merged onto 6.12's defconfig
# with the tree's merge_config.sh, then every requested symbol checked after
# olddefconfig. No build: olddefconfig takes seconds. The extracted tree is
# cached in out/cache (RTGATE_CACHE_DIR) and shared by the tests.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}
K=$RTGATE_OUT_DIR/kernels/t
cfg() { "$RTGATE" kernel config --name t "$@" >"$T/out.txt" 2>"$T/err"; }
has() { grep -q -- "$1" "$2"; }

cfg --model rt
is $? 0 "model rt: fragments merge and stick"
check "CONFIG_PREEMPT_RT=y" -- has '^CONFIG_PREEMPT_RT=y$' "$K/.config"
check "CONFIG_EXPERT=y (PREEMPT_RT needs it)" -- has '^CONFIG_EXPERT=y$' "$K/.config"
check "the kernel's kvm_guest.config is merged" -- has '^CONFIG_KVM_GUEST=y$' "$K/.config"
check "qemu-guest: 9p built in" -- has '^CONFIG_9P_FS=y$' "$K/.config"
check "qemu-guest: /proc/config.gz" -- has '^CONFIG_IKCONFIG_PROC=y$' "$K/.config"
check "tracing: timerlat tracer" -- has '^CONFIG_TIMERLAT_TRACER=y$' "$K/.config"
is "$(jget "$K/build.json" .status)" configured "build.json status"
is "$(jget "$K/build.json" .preempt_rt)" true "build.json says PREEMPT_RT"
check "build.json names the 6.12 tree" -- \
	has '^6\.12\.' <(jget "$K/build.json" .source.version)
is "$(jget "$K/build.json" '.fragments | join(",")')" \
	"qemu-guest,tracing,preempt-rt" "build.json lists the fragments"

# The EXPERT trap: PREEMPT_RT without EXPERT is dropped by olddefconfig.
mkdir -p "$T/kc" && cp "$TOP"/kconfigs/*.config "$T/kc/"
sed -i '/^CONFIG_EXPERT=/d' "$T/kc/preempt-rt.config"
cfg --model rt --kconfigs "$T/kc"
is $? 3 "PREEMPT_RT without EXPERT: exit 3"
check "names the fragment, line and symbol" -- \
	has 'preempt-rt.config:4: CONFIG_PREEMPT_RT=y did not stick' "$T/err"
check "says what it depends on" -- has 'depends on EXPERT' "$T/err"

cfg --model lazy
is $? 3 "model lazy on 6.12: exit 3"
check "PREEMPT_LAZY named as unknown to 6.12" -- \
	has 'CONFIG_PREEMPT_LAZY=y did not stick.*no Kconfig in this tree defines PREEMPT_LAZY' "$T/err"

cfg --model full --fragments rseq,hrtick,pcp-batch
is $? 0 "model full, with rseq, hrtick and pcp-batch (the seeds' non-RT kernels)"
check "pcp-batch: the page allocator's batches unscaled" -- \
	has '^CONFIG_PCP_BATCH_SCALE_MAX=0$' "$K/.config"
check "CONFIG_PREEMPT=y" -- has '^CONFIG_PREEMPT=y$' "$K/.config"
check "no PREEMPT_RT" -- bash -c "! grep -q '^CONFIG_PREEMPT_RT=y' '$K/.config'"
check "no PREEMPT_DYNAMIC" -- has '^# CONFIG_PREEMPT_DYNAMIC is not set' "$K/.config"
check "CONFIG_SCHED_HRTICK=y" -- has '^CONFIG_SCHED_HRTICK=y$' "$K/.config"
check "RSEQ_SLICE_EXTENSION skipped before 7.0 (# rtgate: since)" -- \
	has 'CONFIG_RSEQ_SLICE_EXTENSION skipped: this tree is 6\.12.*needs 7\.0' "$T/err"

printf 'CONFIG_HZ_1000=y\nthis is not kconfig\n' >"$T/bad.config"
cfg --model none --fragments "$T/bad.config"
is $? 3 "a malformed fragment: exit 3"
check "names file and line" -- has 'bad.config:2: not a kconfig line' "$T/err"

printf '# rtgate: frobnicate\n' >"$T/bad2.config"
cfg --model none --fragments "$T/bad2.config"
is $? 3 "an unknown directive: exit 3"

cfg --model none --fragments nosuch
is $? 3 "a missing fragment: exit 3"
check "names it" -- has "fragment 'nosuch' not found" "$T/err"

cfg --model turbo
is $? 3 "an unknown model: exit 3"

# A bisection's prefix kernel, built beforehand: --prefix N takes the
# first N patches of the last set, and names the kernel MODEL-SET.N.
kb() { "$RTGATE" kernel build --config-only --model full "$@" >"$T/out.txt" 2>"$T/err"; }
kb --patches bisect-control --prefix 3
is $? 0 "kernel build --patches bisect-control --prefix 3"
P=$RTGATE_OUT_DIR/kernels/full-bisect-control.3
check "named MODEL-SET.N" -- test -f "$P/build.json"
is "$(jget "$P/build.json" '[.patches[0].patches[] | .file | sub("-.*"; "")] | join(",")')" \
	"0001,0002,0003" "build.json lists the set's first 3 patches"
check "the tree has patch 3's change" -- \
	grep -q "disarmed (width_us is 0)" "$P/src/kernel/rtgate_inject.c"
check "... and not patch 4's" -- \
	bash -c "! grep -q 'width_us = 30000' '$P/src/kernel/rtgate_inject.c'"
kb --patches bisect-control --prefix 6
is $? 3 "a prefix beyond the set: exit 3"
check "says how many patches the set has" -- \
	has "patch set 'bisect-control' has 5 patches: no prefix of 6" "$T/err"
kb --prefix 2
is $? 3 "--prefix without --patches: exit 3"
check "says it needs --patches" -- has "prefix needs --patches" "$T/err"

done_testing
