#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A real LAVA job, run by lava-dispatcher's lava-run without a server:
# `rtgate lava job` writes it, a QEMU (TCG) device dictionary describes the
# worker, Debian's prebuilt 6.1-rt kernel boots the lab's initramfs (the
# one `rtgate lab run` boots: rtgate, the workloads, cyclictest and their
# libraries, busybox; `rtgate lab initramfs --suite` adds the tiny suite)
# with rtgate.lab=shell, which makes its /init a console shell for LAVA's
# test shell; the tiny suite runs inside, and
# `rtgate lava report` turns the run into lava-test-case results, which
# must come back in lava-run's log.
source "$(dirname "$0")/../lib.sh"
need() { command -v "$1" >/dev/null || { skip "$1 is not installed" "$2"; done_testing; exit 0; }; }
need lava-run "lava-run (lava-dispatcher)"
need qemu-system-x86_64 "qemu-system-x86"

# The lab's image, for Debian's prebuilt PREEMPT_RT kernel, which the lab
# fetches from the package registry and caches; --suite puts the nightly
# tests' tiny suite into it.
"$RTGATE" lab initramfs --debian-kernel rt --suite "$TOP/tests/fixtures/nightly/tiny.suite" \
	>"$T/initramfs.path" 2>"$T/initramfs.err"
is "$?" 0 "rtgate lab initramfs --debian-kernel rt --suite tiny.suite builds the lab's image"
diag "$(tail -3 "$T/initramfs.err")"
IMG=$(cat "$T/initramfs.path")
check "the image is a cpio archive" -- bash -c "file '$IMG' | grep -q 'cpio archive'"
cache=${RTGATE_CACHE_DIR:-$TOP/out/cache}
VMLINUZ=$(ls -t "$cache"/debian/*/boot/vmlinuz-*-rt-* 2>/dev/null | head -1)
check "the lab's Debian kernel is in its cache ($VMLINUZ)" -- test -f "$VMLINUZ"
check "a PREEMPT_RT kernel" -- grep -q '^CONFIG_PREEMPT_RT=y' \
	"$(dirname "$VMLINUZ")/config-${VMLINUZ##*/vmlinuz-}"
busybox cpio -t <"$IMG" 2>/dev/null >"$T/img.list"
check "it has rtgate's /init, rtgate, the inject control and busybox" -- bash -c \
	"grep -qx init '$T/img.list' && grep -qx opt/rtgate/bin/rtgate '$T/img.list' &&
	 grep -qx opt/rtgate/bin/inject '$T/img.list' && grep -qx bin/busybox '$T/img.list'"
check "and the tiny suite beside the tree's suites" -- bash -c \
	"grep -qx opt/rtgate/suites/tiny.suite '$T/img.list' &&
	 grep -qx opt/rtgate/suites/quick.suite '$T/img.list'"
gzip -1 <"$IMG" >"$T/rtgate.cpio.gz"

check "rtgate lava job writes the job" -- "$RTGATE" lava job --device-type qemu \
	--suite /opt/rtgate/suites/tiny.suite --kernel "file://$VMLINUZ" \
	--ramdisk "file://$T/rtgate.cpio.gz" --prompt 'rtgate# ' --timeout 40 \
	--kernel-args "console=ttyS0,115200 rtgate.lab=shell" -o "$T/job.yaml"
DEV=$TOP/tests/slow/lava/qemu-device.yaml
lava-run --job-id 1 --output-dir "$T/out" --device "$DEV" --validate \
	"$T/job.yaml" >"$T/validate.log" 2>&1
ok $? "lava-run validates it"
timeout 1800 lava-run --job-id 2 --output-dir "$T/out" --device "$DEV" \
	"$T/job.yaml" >"$T/run.log" 2>&1
diag "lava-run exited $?"
# lava-run logs one YAML flow mapping per line; results have lvl results.
/usr/bin/python3 - "$T/run.log" >"$T/results.tsv" <<'PY'
import sys, yaml
for line in open(sys.argv[1]):
    try:
        d = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if isinstance(d, dict) and d.get("lvl") == "results":
        m = d["msg"]
        print("%s\t%s\t%s\t%s" % (m.get("definition"), m.get("case"),
                                  m.get("result"), m.get("measurement", "")))
PY
sed 's/^/# /' "$T/results.tsv"
res() { awk -F'\t' -v c="$1" '$2 == c { print $3; exit }' "$T/results.tsv"; }
meas() { awk -F'\t' -v c="$1" '$2 == c { print $4; exit }' "$T/results.tsv"; }
is "$(res job)" pass "the LAVA job completes"
check "the suite's verdict is a test case (rtgate.tiny: $(res rtgate.tiny))" -- \
	grep -Eqx 'pass|fail' <<<"$(res rtgate.tiny)"
is "$(res rtgate.tiny.idle)" pass "the baseline scenario is a test case"
# Under TCG latencies are meaningless (100 ms stalls): the verdict can be
# anything; that it arrives, as a LAVA result, is what is checked.
check "the inject comparison is a test case ($(res rtgate.tiny.inject))" -- \
	grep -Eqx 'pass|fail|skip' <<<"$(res rtgate.tiny.inject)"
is "$(res rtgate.tiny.idle.max)" pass "idle max is reported"
check "... with its measurement" -- bash -c "[[ '$(meas rtgate.tiny.idle.max)' =~ ^[0-9.]+$ ]]"
is "$(res rtgate.tiny.idle.cpu0.max)" pass "and CPU 0's max"
check "rtgate run's exit code is a test case" -- test -n "$(res rtgate.tiny.exit)"
done_testing
