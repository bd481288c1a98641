#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The lab's initramfs for Debian's 6.1-rt image: rtgate as /init, the
# workloads, cyclictest with the libraries ldd lists, busybox, the kernel
# config and the 9p modules in load order; cached by content.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}

img=$("$RTGATE" lab initramfs --debian-kernel rt 2>"$T/err")
is $? 0 "an initramfs for debian:rt"
check "it exists" -- test -s "$img"
busybox cpio -t <"$img" >"$T/list" 2>/dev/null
has() { grep -qx -- "$1" "$T/list"; }
check "/init" -- has init
check "rtgate" -- has opt/rtgate/bin/rtgate
check "cyclictest" -- has usr/bin/cyclictest
check "hackbench" -- has usr/bin/hackbench
check "the dynamic loader" -- has lib64/ld-linux-x86-64.so.2
check "libc" -- grep -q 'x86_64-linux-gnu/libc.so.6$' "$T/list"
check "busybox" -- has bin/busybox
if compgen -G "$TOP/suites/*.suite" >/dev/null; then
	check "the suites" -- grep -q '^opt/rtgate/suites/.*\.suite$' "$T/list"
else
	skip "no suites/*.suite in this checkout" "the suites"
fi
check "the kernel config" -- grep -q '^boot/config-.*-rt-amd64$' "$T/list"
check "the 9p module" -- grep -q '^lib/modules/.*/kernel/fs/9p/9p.ko$' "$T/list"
check "the module list" -- has etc/rtgate/modules
mkdir -p "$T/x" && (cd "$T/x" && busybox cpio -i -d <"$img" 2>/dev/null)
check "init is rtgate" -- test "$(readlink "$T/x/init")" = /opt/rtgate/bin/rtgate
check "virtio before 9p in the module list" -- \
	awk '/virtio_pci.ko$/ { v = NR } /\/9p.ko$/ { p = NR } END { exit !(v && p && v < p) }' \
	"$T/x/etc/rtgate/modules"

ino=$(stat -c %i "$img")
img2=$("$RTGATE" lab initramfs --debian-kernel rt 2>"$T/err2")
is "$img2" "$img" "the same content gives the same image"
is "$(stat -c %i "$img")" "$ino" "from the cache, not rewritten"
check "without building it again" -- bash -c "! grep -q 'initramfs:' '$T/err2'"

# rtgate's own rtla (`kernel tools`: out/tools/rtla) goes beside its bin/,
# where the guest's runner looks first, with its libraries; PATH's rtla
# stays at its path (it measures the histograms). A copy of the host's
# rtla, renamed by content, stands in for a built one.
if command -v rtla >/dev/null; then
	mkdir -p "$RTGATE_OUT_DIR/tools"
	cp "$(command -v rtla)" "$RTGATE_OUT_DIR/tools/rtla"
	printf '\n# rtgate test %s\n' "$$" >>"$RTGATE_OUT_DIR/tools/rtla"
	img3=$("$RTGATE" lab initramfs --debian-kernel rt 2>"$T/err4")
	is $? 0 "an initramfs with rtgate's own rtla"
	check "a new image (the content changed)" -- test "$img3" != "$img"
	busybox cpio -t <"$img3" >"$T/list3" 2>/dev/null
	check "rtgate's rtla as /opt/rtgate/tools/rtla" -- \
		grep -qx opt/rtgate/tools/rtla "$T/list3"
	check "PATH's rtla still at its path" -- \
		grep -qx "$(command -v rtla | sed 's|^/||')" "$T/list3"
	check "with libtracefs" -- grep -q 'libtracefs.so.1$' "$T/list3"
	check "with libgcc_s beside libc (glibc loads it when a thread exits)" -- \
		grep -q 'libgcc_s.so.1$' "$T/list3"
	mkdir -p "$T/y" && (cd "$T/y" && busybox cpio -i -d <"$img3" 2>/dev/null)
	check "the built one, byte for byte" -- \
		cmp -s "$T/y/opt/rtgate/tools/rtla" "$RTGATE_OUT_DIR/tools/rtla"
	rm -f "$RTGATE_OUT_DIR/tools/rtla"
else
	for i in 1 2 3 4 5 6; do skip "rtla is not installed" "own rtla $i"; done
fi

# --with takes a name from PATH or a path (kept at the same path inside).
tc=$(command -v trace-cmd)
img4=$("$RTGATE" lab initramfs --debian-kernel rt --with "$tc" 2>"$T/err4")
is $? 0 "--with a path ($tc)"
check "the program is at the same path inside" -- \
	grep -qx "${tc#/}" <(busybox cpio -t <"$img4" 2>/dev/null)
"$RTGATE" lab initramfs --debian-kernel rt --with /nonexistent/prog \
	>/dev/null 2>"$T/err5"
is $? 3 "--with a path that is not there: exit 3"
check "the error names it" -- grep -q /nonexistent/prog "$T/err5"

"$RTGATE" lab initramfs --kernel nosuch >/dev/null 2>"$T/err3"
is $? 3 "a kernel that was never built: exit 3"

done_testing
