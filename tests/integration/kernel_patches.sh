#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Patch sets: fetched from a mail text (the seeds' thread format, and our
# own fixture in it) or a real mbox (through `b4 am -m`), pinned by sha256,
# applied to a clone of the 6.12 tree; a patch that does not apply is named
# with its file and hunk. The seed threads are read from RTGATE_SEEDS_DIR
# or ../shared/seeds beside the checkout; without them those checks skip.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}
FIX=$TOP/tests/fixtures/mail
has() { grep -q -- "$1" "$2"; }
rg() { "$RTGATE" "$@" >"$T/out.txt" 2>"$T/err"; }

# A private patches/ with sets over our own fixtures.
P=$T/patches
mkdir -p "$P/fix-series" "$P/fix-variant" "$P/fix-mbox" "$P/fix-pinned"
cat >"$P/fix-series/manifest.ini" <<INI
[set]
description = the fixture thread's series
mail        = thread.txt
pick        = series
INI
cat >"$P/fix-variant/manifest.ini" <<INI
[set]
mail = thread.txt
pick = attachment variant.patch
INI
cat >"$P/fix-mbox/manifest.ini" <<INI
[set]
message_id = 20261130-rtgate-test-mbox-1@example.org
INI
cp "$P/fix-variant/manifest.ini" "$P/fix-pinned/"
printf '\n[patch 1]\nsha256 = %064d\n' 0 >>"$P/fix-pinned/manifest.ini"
export RTGATE_PATCHES_DIR=$P

rg patches fetch fix-series --mbox "$FIX/thread.txt"
is $? 0 "fetch a series from a mail text"
is "$(grep -c '^[0-9a-f]\{64\}  ' "$T/out.txt")" 2 "two patches, with their sha256"
check "the series file lists them in order" -- \
	diff <(grep -v '^#' "$RTGATE_OUT_DIR/patches/fix-series/series") \
	<(printf '%s\n' 0001-sched-say-what-syscalls-c-holds.patch \
		0002-sched-a-hunk-whose-context-is-not-there.patch)

rg patches check fix-series
is $? 3 "a series with a patch that does not apply: exit 3"
check "names the patch, file and hunk" -- has \
	'fix-series/0002-sched-a-hunk-whose-context-is-not-there.patch (\[PATCH 2/2\] sched: a hunk whose context is not there): kernel/sched/core.c: hunk #1 FAILED at line 3' "$T/err"
check "says which of the series" -- has 'patch 2 of 2 does not apply' "$T/err"

rg patches fetch fix-variant --mbox "$FIX/thread.txt" --pin
is $? 0 "fetch one attachment from a reply, and pin it"
check "the manifest pins it" -- has '^sha256  = [0-9a-f]\{64\}$' "$P/fix-variant/manifest.ini"
rg patches check fix-variant
is $? 0 "the attachment applies"
rg patches fetch fix-variant --mbox "$FIX/thread.txt"
is $? 0 "a second fetch matches the pin"
rg patches fetch fix-pinned --mbox "$FIX/thread.txt"
is $? 3 "a patch that differs from its pin: exit 3"
check "says so" -- has 'the manifest pins 0000' "$T/err"

rg patches fetch fix-mbox --mbox "$FIX/single.mbox"
is $? 0 "fetch from a real mbox through b4 am -m"
check "b4's patch, named after its subject" -- \
	test -f "$RTGATE_OUT_DIR/patches/fix-mbox/0001-sched-a-comment-in-rt-c-an-rtgate-test-mbox.patch"
rg patches check fix-mbox,fix-variant
is $? 0 "two sets apply one after the other"
check "says so per set" -- has '^fix-mbox: 1 patch applies to ' "$T/out.txt"

rg patches check fix-unfetched-nosuch
is $? 3 "an unknown set: exit 3"

# Our own control patch must apply to 6.12 (the slow tier builds it).
unset RTGATE_PATCHES_DIR
rg patches check control-latency
is $? 0 "the control patch applies to 6.12"

# The seed threads.
seeds=${RTGATE_SEEDS_DIR:-}
for d in "$TOP/../shared/seeds" "$TOP/../../shared/seeds"; do
	[ -z "$seeds" ] && [ -d "$d" ] && seeds=$d
done
if [ -z "$seeds" ] || [ ! -d "$seeds" ]; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "seed mail texts not found (set RTGATE_SEEDS_DIR)" "seed $i"
	done
	done_testing
	exit
fi
rg patches fetch slice-ext-v5 --seeds "$seeds"
is $? 0 "slice-ext V5: the six patches from the thread text, as pinned"
is "$(grep -c '^[0-9a-f]\{64\}  ' "$T/out.txt")" 6 "six of them"
rg patches check slice-ext-v5
is $? 3 "V5 (posted for a 6.16 tree) does not apply to 6.12"
check "names the first failing hunk" -- has \
	'slice-ext-v5/0001-sched-scheduler-time-slice-extension.patch (\[PATCH V5 1/6\] Sched: Scheduler time slice extension): kernel/entry/common.c: hunk #2 FAILED' "$T/err"
rg patches fetch setparam-default-slice --seeds "$seeds"
is $? 0 "setparam RFC: the re-sent attachment"
rg patches check setparam-default-slice
is $? 0 "it applies to 6.12"
if [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	rg patches fetch hrtick-repick-v2 --seeds "$seeds" --debian 6.12
	is $? 3 "hrtick v2 recovered against 6.12: exit 3 (posted for 7.x)"
	check "names the first hunk it cannot place" -- has \
		'kernel/sched/core.c hunk 1 of 1 (@@ -7221,7 +7221,7 @@): its context and removed lines are nowhere' \
		"$T/err"
else
	skip "linux-source-6.12 is not installed" "hrtick v2 on 6.12"
	skip "linux-source-6.12 is not installed" "its first hunk"
fi
rg patches fetch rt-sysctl-read --seeds "$seeds"
is $? 0 "RT sysctl: our own reconstruction, pinned in the set"

done_testing
