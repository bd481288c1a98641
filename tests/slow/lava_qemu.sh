#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A real LAVA job, run by lava-dispatcher's lava-run without a server:
# `rtgate lava job` writes it, a QEMU (TCG) device dictionary describes the
# worker, Debian's prebuilt 6.1-rt kernel boots an initramfs with rtgate,
# cyclictest and the inject workload, the tiny suite runs inside, and
# `rtgate lava report` turns the run into lava-test-case results, which
# must come back in lava-run's log.
#
# The initramfs here is the test's own minimal one (busybox-static,
# rtgate, cyclictest, their libraries): replace it with the QEMU lab's
# builder once that lands in main.
source "$(dirname "$0")/../lib.sh"
need() { command -v "$1" >/dev/null || { skip "$1 is not installed" "$2"; done_testing; exit 0; }; }
need lava-run "lava-run (lava-dispatcher)"
need qemu-system-x86_64 "qemu-system-x86"
need cpio "cpio"
[ -x /bin/busybox ] && file /bin/busybox | grep -q static ||
	{ skip "busybox-static is not installed" "initramfs"; done_testing; exit 0; }

# Debian's prebuilt PREEMPT_RT kernel, from the package registry.
K=$T/kernel
mkdir -p "$K"
pkg=$(apt-cache depends linux-image-rt-amd64 2>/dev/null | sed -n 's/.*Depends: //p' | head -1)
(cd "$K" && apt-get download "$pkg" >/dev/null 2>&1) ||
	{ skip "cannot download $pkg" "Debian 6.1-rt kernel"; done_testing; exit 0; }
dpkg-deb -x "$K"/*.deb "$K/x"
VMLINUZ=$(ls "$K"/x/boot/vmlinuz-*)
check "a PREEMPT_RT kernel" -- grep -q '^CONFIG_PREEMPT_RT=y' "$K"/x/boot/config-*

# The initramfs.
R=$T/rd
mkdir -p "$R"/{bin,proc,sys,dev,tmp,root,usr/bin,opt/rtgate/bin,opt/rtgate/suites}
cp /bin/busybox "$R/bin/"
cp "$BIN/rtgate" "$BIN/inject" "$R/opt/rtgate/bin/"
cp "$(command -v cyclictest)" "$R/usr/bin/"
cp "$TOP/tests/fixtures/nightly/tiny.suite" "$R/opt/rtgate/suites/"
for f in "$R"/opt/rtgate/bin/* "$R/usr/bin/cyclictest"; do
	ldd "$f" | awk '/=> \//{print $3} /^\t\/lib/{print $1}'
done | sort -u | while read -r l; do
	mkdir -p "$R$(dirname "$l")"
	cp -L "$l" "$R$l"
done
cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
ln -sf /opt/rtgate/bin/rtgate /usr/bin/rtgate
export PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root PS1='rtgate# '
cd /
exec setsid cttyhack sh
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/rtgate.cpio.gz"

check "rtgate lava job writes the job" -- "$RTGATE" lava job --device-type qemu \
	--suite /opt/rtgate/suites/tiny.suite --kernel "file://$VMLINUZ" \
	--ramdisk "file://$T/rtgate.cpio.gz" --prompt 'rtgate# ' --timeout 40 \
	-o "$T/job.yaml"
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
is "$(res tiny.run)" pass "the run completed inside the job (tiny.run)"
is "$(res tiny.idle)" pass "the baseline scenario is a test case"
# Under TCG latencies are meaningless (100 ms stalls): the verdict can be
# anything; that it arrives, as a LAVA result, is what is checked.
check "the inject comparison is a test case ($(res tiny.inject))" -- \
	grep -Eqx 'pass|fail|skip|unknown' <<<"$(res tiny.inject)"
is "$(res tiny.idle.max)" pass "idle max is reported"
check "... with its measurement" -- bash -c "[[ '$(meas tiny.idle.max)' =~ ^[0-9.]+$ ]]"
check "rtgate run's exit code is a test case" -- test -n "$(res rtgate.exit)"
done_testing
