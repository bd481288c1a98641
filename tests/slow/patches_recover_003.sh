#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Seed 003 (hrtick v2) recovered from its flattened seed mail by rtgate's
# own decoder against the real 7.3 tree, and verified, not trusted: the
# manifest's sha256 pin, patch(1) --fuzz=0, the mail's text without white
# space, and the posting's own post-image blob ids (`index a..b`) for the
# files whose pre-image 7.3.4 shares with the posting. The tree:
# $RTGATE_TREE_7_3, else Debian's 7.3 source in rtgate's cache (where
# `kernel build --debian 7.3` extracts it).
source "$(dirname "$0")/../lib.sh"

cache0=${RTGATE_CACHE_DIR:-$TOP/out/cache}
export RTGATE_OUT_DIR=$T/out RTGATE_CACHE_DIR=$T/cache
mkdir -p "$RTGATE_CACHE_DIR"
has() { grep -q -- "$1" "$2"; }

seeds=${RTGATE_SEEDS_DIR:-}
for d in "$TOP/../shared/seeds" "$TOP/../../shared/seeds"; do
	[ -z "$seeds" ] && [ -d "$d" ] && seeds=$d
done
tree=${RTGATE_TREE_7_3:-}
if [ -z "$tree" ]; then
	for d in "$cache0"/src/linux-source-7.3_*/; do
		[ -f "$d/Makefile" ] && tree=${d%/}
	done
fi
if [ -z "$seeds" ] || [ ! -f "$seeds/003_0078b268f529d8a8.txt" ]; then
	skip "the seed mails are not here (set RTGATE_SEEDS_DIR)" "seed 003"
	done_testing
	exit
fi
if [ -z "$tree" ] || [ ! -f "$tree/kernel/sched/fair.c" ]; then
	skip "no 7.3 tree (set RTGATE_TREE_7_3, or rtgate kernel build --debian 7.3 extracts one)" "seed 003"
	done_testing
	exit
fi
diag "tree: $tree"
check "the tree is 7.3.4" -- \
	test "$(make -s -C "$tree" --no-print-directory kernelversion)" = 7.3.4

"$RTGATE" patches fetch hrtick-repick-v2 --seeds "$seeds" --src "$tree" \
	>"$T/out.txt" 2>"$T/err"
is $? 0 "recovered from the seed mail, and its sha256 is the manifest's pin"
p=$RTGATE_OUT_DIR/patches/hrtick-repick-v2/0001-sched-restart-hrtick-after-same-task-repicks.patch
pin=$(sed -n 's/^sha256  *= *//p' "$TOP/patches/hrtick-repick-v2/manifest.ini")
is "$(sha256sum <"$p" | cut -d' ' -f1)" "$pin" "sha256 of the file = the pin"

"$RTGATE" patches check hrtick-repick-v2 --src "$tree" \
	--keep "$RTGATE_CACHE_DIR/applied" >"$T/out.txt" 2>"$T/err"
is $? 0 "it applies to 7.3.4 with --fuzz=0"
check "with offsets only (no fuzz)" -- \
	bash -c "! grep -q 'with fuzz' '$RTGATE_CACHE_DIR/applied.patch.log'"

# The mail's words from "diff --git" on, decoded independently (quopri).
python3 - "$seeds/003_0078b268f529d8a8.txt" "$p" >"$T/ws.txt" <<'EOF'
import quopri, re, sys
raw = open(sys.argv[1], 'rb').read()
body = re.sub(rb'=\s+', b'=\n', raw[raw.index(b'diff --git'):])
seed = re.sub(rb'\s+', b'', quopri.decodestring(body))
ours = open(sys.argv[2], 'rb').read()
ours = re.sub(rb'\s+', b'', ours[ours.index(b'diff --git'):])
print('equal' if seed == ours else 'differ')
EOF
is "$(cat "$T/ws.txt")" equal "without white space, its diff is the mail's"

# Post-image blob ids: a file whose 7.3.4 copy is the posting's pre-image
# must hash, patched, to the posting's post-image.
match="" other=""
while read -r f ids; do
	pre=${ids%%..*} post=${ids##*..}
	a=$(git hash-object --no-filters "$tree/$f")
	b=$(git hash-object --no-filters "$RTGATE_CACHE_DIR/applied/$f")
	if [ "${a#"$pre"}" != "$a" ]; then
		[ "${b#"$post"}" != "$b" ]
		ok $? "$f: 7.3.4 is the posting's pre-image ($pre); patched, it is its post-image ($post)"
		match="$match ${f##*/}"
	else
		diag "$f: 7.3.4 has ${a:0:12}, the posting's pre-image is $pre: not comparable"
		other="$other ${f##*/}"
	fi
done < <(awk '/^diff --git/ { f = substr($3, 3) }
	/^index / { print f, $2 }' "$p")
is "$match" " deadline.c idle.c rt.c stop_task.c" \
	"the files 7.3.4 shares with the posting's base"
is "$other" " core.c ext.c fair.c sched.h" "the files it does not"

done_testing
