#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `kernel build --debian 7.3` on a host without linux-source-7.3: the
# package comes through rtgate's private apt (common/cmd/debapt.h) into a fresh
# cache, is unpacked, never installed, and its tree is 7.3.x. Then the
# fragments on it, --config-only (no compile): the RT model says which
# preemption flavour it built, the rseq fragment brings RSEQ_STATS with
# EXPERT, and the preempt-none model is refused for the tree's reason.
# Downloads ~150 MB and extracts 1.7 GB (2-5 minutes).
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=$T/cache
has() { grep -q -- "$1" "$2"; }
was_installed=$(dpkg-query -W -f='${Status}' linux-source-7.3 2>/dev/null)

"$RTGATE" kernel build --debian 7.3 --config-only --model rt \
	--fragments rseq --name rt73 >"$T/out.txt" 2>"$T/err"
rc=$?
is $rc 0 "kernel build --debian 7.3 --config-only --model rt --fragments rseq"
[ $rc -ne 0 ] && diag "$(tail -5 "$T/err")"
B=$RTGATE_OUT_DIR/kernels/rt73
check "the tree is 7.3.x" -- has '^7\.3\.' <(jget "$B/build.json" .source.version)
is "$(jget "$B/build.json" .source.package)" linux-source-7.3 "build.json names the package"
check "... and its version" -- has '^7\.3\.' <(jget "$B/build.json" .source.package_version)
if [ "${was_installed#install ok installed}" = "$was_installed" ]; then
	is "$(jget "$B/build.json" .source.package_via)" private-apt \
		"fetched through the private apt"
	check "not installed into the host" -- \
		bash -c "! dpkg-query -W -f='\${Status}' linux-source-7.3 2>/dev/null | grep -q 'install ok installed'"
else
	skip "linux-source-7.3 is installed here (it wins)" "fetched through the private apt"
fi
check "the private apt's sources name bookworm, bookworm-backports, trixie-backports and sid" -- \
	test "$(grep -c '^deb .* \(bookworm\|bookworm-backports\|trixie-backports\|sid\) main$' "$T/cache/apt/etc/sources.list")" -eq 4
check "the tree is in the cache, extracted" -- \
	test -f "$(jget "$B/build.json" .source.path)/kernel/Kconfig.preempt"
check "the download folder is gone" -- \
	bash -c "! ls -d '$T'/cache/src/.dl.* 2>/dev/null"

is "$(jget "$B/build.json" .preempt)" "RT + LAZY + DYNAMIC" \
	"build.json: the RT model's preemption flavour, from the .config"
check "... printed too" -- has 'preemption (from the .config): RT + LAZY + DYNAMIC' "$T/err"
check "CONFIG_RSEQ_SLICE_EXTENSION=y" -- has '^CONFIG_RSEQ_SLICE_EXTENSION=y$' "$B/.config"
check "CONFIG_RSEQ_STATS=y (since 7.0)" -- has '^CONFIG_RSEQ_STATS=y$' "$B/.config"

# The cached tree again: no download, the same tree.
"$RTGATE" kernel build --debian 7.3 --config-only --model none \
	--name none73 >"$T/out2.txt" 2>"$T/err2"
is $? 3 "model none on 7.3: exit 3"
check "refused for the tree's reason" -- \
	has "PREEMPT_NONE 'depends on ARCH_NO_PREEMPT', and arch/x86/Kconfig does not select ARCH_NO_PREEMPT" "$T/err2"
check "the second run downloaded nothing" -- bash -c "! grep -q downloading '$T/err2'"

done_testing
