#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# extend-sched on the kernel its upstream ABI was written for: Linux 7.3,
# non-RT, CONFIG_RSEQ_SLICE_EXTENSION, booted in the lab. glibc 2.36's
# 32-byte rseq registration gets no extension there, so extend-sched must
# re-execute itself without it and register its own area: --abi must say
# linux-7.0 with a registration above 32 bytes, and a short run must see
# grants. With SCHED_FIFO 99 lock threads and no busy threads (nothing,
# not even cyclictest at 95, preempts them) the kernel has nothing to
# defer: requests, no grant — and a suite whose
# scenario runs that way must be INVALID "the extension was never
# granted", never a latency verdict. Where the kernel has
# CONFIG_RSEQ_STATS, each repetition's rseq/stats difference must be in
# the manifest and agree (sgrant > 0 when extend-sched saw grants).
#
# The kernel: $RTGATE_LAB_KERNEL_73 (a build folder or name), else the
# first build under $RTGATE_OUT_DIR/kernels (full-7.3 first) whose
# build.json says 7.3 and whose .config has the extension and not
# PREEMPT_RT. None: skipped, saying how to build one.
source "$(dirname "$0")/../lib.sh"
jqe() { jq -e "$1" "$2" >/dev/null; }

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
K=$RTGATE_OUT_DIR/kernels

fits() {	# fits DIR: a finished non-RT 7.3 build with the extension
	[ -f "$1/bzImage" ] || [ -f "$1/arch/x86/boot/bzImage" ] ||
		ls "$1"/obj/arch/x86/boot/bzImage >/dev/null 2>&1 || return 1
	jq -e '(.source.version // "" | startswith("7.3")) and
	       (.status // "ok") != "building" and (.status // "ok") != "failed"' \
		"$1/build.json" >/dev/null 2>&1 || return 1
	grep -qx CONFIG_RSEQ_SLICE_EXTENSION=y "$1/.config" &&
		! grep -qx CONFIG_PREEMPT_RT=y "$1/.config"
}
kernel=${RTGATE_LAB_KERNEL_73:-}
if [ -z "$kernel" ]; then
	for d in "$K/full-7.3" "$K"/*; do
		fits "$d" && { kernel=$d; break; }
	done
fi
if [ -z "$kernel" ]; then
	skip "no non-RT 7.3 kernel with CONFIG_RSEQ_SLICE_EXTENSION under $K (set RTGATE_LAB_KERNEL_73, or: rtgate kernel build --src LINUX-7.3-TREE --model full --fragments rseq --name full-7.3)" \
		"extend-sched on Linux 7.3"
	done_testing
	exit 0
fi
diag "kernel: $kernel"
kdir=$kernel
[ -d "$kdir" ] || kdir=$K/$kernel
stats=no
grep -qx CONFIG_RSEQ_STATS=y "$kdir/.config" 2>/dev/null && stats=yes

# 1. --abi, a run with grants, a run that cannot be granted.
ES=/opt/rtgate/bin/extend-sched
start=$SECONDS
"$RTGATE" lab run --kernel "$kernel" --timeout 10m --exec -- /bin/sh -c \
	"$ES --abi >/lab/abi.json; $ES --busy 2 --duration 3s >/lab/run.json; $ES --busy 0 --lock-prio 99 --duration 3s >/lab/fifo.json; cat /sys/kernel/debug/rseq/stats >/lab/stats.txt 2>&1; true" \
	>"$T/exec.out" 2>"$T/exec.err"
is $? 0 "the guest ran extend-sched ($((SECONDS - start)) s)"
share=$(ls -d "$RTGATE_OUT_DIR"/lab/*/share 2>/dev/null | tail -1)
for f in abi run fifo; do
	diag "$f: $(cat "$share/$f.json" 2>/dev/null)"
done
a=$share/abi.json r=$share/run.json f=$share/fifo.json
is "$(jget "$a" .abi)" linux-7.0 "--abi: the upstream ABI engages on 7.3"
check "... through our own registration above 32 bytes, after one re-exec" -- \
	jqe '.rseq_owner == "extend-sched" and .rseq_size > 32 and
	       .rseq_feature_size > 32 and .glibc_rseq_size == 0 and .rseq_reexec' "$a"
check "a run requests and is granted" -- \
	jqe '.abi == "linux-7.0" and .extension_requests > 0 and .extensions_granted > 0' "$r"
check "the kernel says we yielded inside a grant" -- \
	jqe '.yields_in_grant > 0' "$r"
check "SCHED_FIFO 99 lock holders: requests, but nothing to defer" -- \
	jqe '.extension_requests > 0 and .extensions_granted == 0' "$f"
diag "rseq/stats at the end: $(tr -s ' \n' ' ' <"$share/stats.txt")"

# 2. The INVALID path and the kernel's counters in a suite.
cat >"$T/grant.suite" <<'SUITE'
[suite]
repetitions = 2
[measure]
cyclictest = --smp -p95 -m
loops = 2000
[scenario idle]
[scenario extend]
compare  = idle
requires = slice-extension:linux-7.0
debugfs  = rseq/slice_ext_nsec=50000
workload = extend-sched --busy 2
expect   = extend-sched.extensions_granted > 0: the extension was never granted
expect   = rseq-stats.sgrant > 0: the kernel's rseq/stats counted no grant
[scenario fifo]
compare  = idle
requires = slice-extension:linux-7.0
workload = extend-sched --busy 0 --lock-prio 99
expect   = extend-sched.extensions_granted > 0: the extension was never granted
expect   = rseq-stats.sgrant > 0: the kernel's rseq/stats counted no grant
SUITE
start=$SECONDS
"$RTGATE" lab run --kernel "$kernel" --suite "$T/grant.suite" --timeout 20m \
	--out "$T/res" >"$T/suite.out" 2>"$T/suite.err"
rc=$?
diag "the grant suite in the lab: $((SECONDS - start)) s, exit $rc"
dir=$(ls -d "$T"/res/*-grant | tail -1)
man=$dir/manifest.json rep=$dir/report.json
verdict() { jget "$rep" ".comparisons[] | select(.candidate == \"$1\") | .verdict"; }
reason() { jget "$rep" ".comparisons[] | select(.candidate == \"$1\") | .reason"; }
check "extend: judged (granted, so a latency verdict)" -- grep -qE \
	'^(NO CHANGE|REGRESSION|IMPROVEMENT|INCONCLUSIVE)$' <<<"$(verdict extend)"
is "$(verdict fifo)" INVALID "fifo: nothing granted is INVALID, never a verdict"
check "... because the extension was never granted" -- grep -q \
	'the extension was never granted: extend-sched.extensions_granted = 0' \
	<<<"$(reason fifo)"
if [ "$stats" = yes ]; then
	check "every repetition carries the rseq/stats difference" -- jqe \
		'[.scenarios[].repetitions[] | .rseq_stats.sgrant] | all(. != null)' "$man"
	check "extend: the kernel counted grants too" -- jqe \
		'[.scenarios[] | select(.name == "extend") | .repetitions[].rseq_stats.sgrant] | all(. > 0)' "$man"
	check "fifo: and none here" -- jqe \
		'[.scenarios[] | select(.name == "fifo") | .repetitions[].rseq_stats.sgrant] | all(. == 0)' "$man"
else
	skip "the kernel has no CONFIG_RSEQ_STATS" "rseq/stats in the manifest"
fi
sed -n '/^scenario/,$p' "$dir/report.txt" | head -20 | sed 's/^/# /'
done_testing
