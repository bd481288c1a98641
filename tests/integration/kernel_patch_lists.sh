#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A list of sets (`sets =` in a manifest, docs/kernels.md "A series of
# sets") is one series: its sets' patches in the list's order, each set
# with its own pins and fuzz, on a tiny stand-in tree (a Makefile that
# answers `make kernelversion`, one C file). A bad list is exit 3 naming
# the manifest's line. Then `rtgate bisect` over the list, from a state
# file whose steps are kept (nothing is built or booted): --moves
# improvement names the first mover and its set.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=$T/cache
P=$T/patches
export RTGATE_PATCHES_DIR=$P
has() { grep -q -- "$1" "$2"; }
rg() { "$RTGATE" "$@" >"$T/out.txt" 2>"$T/err"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

# ---- the stand-in tree and three patches, each on top of the one before
TR=$T/tree
mkdir -p "$TR/scripts/kconfig" "$TR/kernel" "$RTGATE_CACHE_DIR"
: >"$TR/scripts/kconfig/merge_config.sh"
printf 'kernelversion:\n\t@echo 7.3.0\n' >"$TR/Makefile"
seq 1 12 | sed 's/^/int line_/; s/$/;/' >"$TR/kernel/a.c"
mkpatch() {	# mkpatch OUT SED-EXPRESSION: the change to the current a.c
	cp "$T/cur.c" "$T/next.c"
	sed -i "$2" "$T/next.c"
	diff -u --label a/kernel/a.c --label b/kernel/a.c "$T/cur.c" \
		"$T/next.c" >"$1"
	cp "$T/next.c" "$T/cur.c"
}
mkdir -p "$P/one" "$P/two"
cp "$TR/kernel/a.c" "$T/cur.c"
mkpatch "$P/one/0001-a.patch" 's/^int line_3;/int line_3; \/* one 1 *\//'
mkpatch "$P/one/0002-b.patch" 's/^int line_9;/int line_9; \/* one 2 *\//'
mkpatch "$P/two/0001-c.patch" 's/^int line_4;/int line_4; \/* two 1 *\//'
cat >"$P/one/manifest.ini" <<INI
[set]
description = two patches of our own
own = yes
[patch 1]
subject = [PATCH 1/2] one: the first
file = 0001-a.patch
sha256 = $(sha "$P/one/0001-a.patch")
[patch 2]
subject = [PATCH 2/2] one: the second
file = 0002-b.patch
sha256 = $(sha "$P/one/0002-b.patch")
INI
cat >"$P/two/manifest.ini" <<INI
[set]
description = one patch whose context is one's first
own = yes
[patch 1]
subject = [PATCH] two: the only one
file = 0001-c.patch
sha256 = $(sha "$P/two/0001-c.patch")
INI
mklist() {	# mklist NAME LINES...: a list of sets, one set a line
	local n=$1
	shift
	mkdir -p "$P/$n"
	{
		echo "; a list of sets"
		echo "[set]"
		echo "description = $n"
		printf 'sets = %s\n' "$1"
		shift
		for s in "$@"; do printf '       %s\n' "$s"; done
	} >"$P/$n/manifest.ini"
}
mklist both one two
mklist twofirst two one

rg patches list
is $? 0 "patches list reads a list of sets"
check "and says it is one" -- grep -qE '^both +list of sets +both$' "$T/out.txt"

rg patches check both --src "$TR"
is $? 0 "the list applies: one's two patches, then two's"
check "as one series of 3 patches" -- has '^both: 3 patches apply to src 7.3.0$' "$T/out.txt"
rg patches check twofirst --src "$TR"
is $? 3 "in the other order two's context is not there yet: exit 3"
check "the failure names the patch's own set, file and hunk" -- has \
	'two/0001-c.patch (\[PATCH\] two: the only one): kernel/a.c: hunk #1 FAILED' "$T/err"

# ---- bad lists: exit 3, the manifest's line named ---------------------
mklist unknown one nosuch-set
rg patches check unknown --src "$TR"
is $? 3 "a list naming an unknown set: exit 3"
check "names the file and line of the unknown set" -- has \
	"$P/unknown/manifest.ini:5: sets: unknown patch set 'nosuch-set'" "$T/err"
mklist twice one two one
rg patches check twice --src "$TR"
is $? 3 "a set listed twice: exit 3"
check "on its second line" -- has "twice/manifest.ini:6: sets: 'one' is listed twice" "$T/err"
mklist nested one both
rg patches check nested --src "$TR"
is $? 3 "a list in a list: exit 3"
check "says lists do not nest" -- has \
	"nested/manifest.ini:5: sets: 'both' is itself a list of sets; lists do not nest" "$T/err"
mklist cyc-a one cyc-b
mklist cyc-b cyc-a
rg patches check cyc-a --src "$TR"
is $? 3 "two lists naming each other: exit 3, no endless loading"
check "the nested list is named" -- has "cyc-a/manifest.ini:5: sets: 'cyc-b' is itself a list of sets" "$T/err"
mklist self self
rg patches check self --src "$TR"
is $? 3 "a list naming itself: exit 3"
check "says so" -- has "self/manifest.ini:4: sets: 'self' names this set itself" "$T/err"
mklist withpatch one
printf '[patch 1]\nfile = x.patch\n' >>"$P/withpatch/manifest.ini"
rg patches check withpatch --src "$TR"
is $? 3 "a list with a [patch N] of its own: exit 3"
check "says its sets hold the patches" -- has 'a list of sets (sets =) has no \[patch N\]' "$T/err"
mkdir -p "$P/broken"
printf '[set]\nown = maybe\n' >"$P/broken/manifest.ini"
mklist hasbroken one broken
rg patches check hasbroken --src "$TR"
is $? 3 "a list naming a set whose manifest is wrong: exit 3"
check "that set's own error, file and line" -- has "broken/manifest.ini:2: own must be yes or no" "$T/err"
check "then the list's line" -- has "hasbroken/manifest.ini:5: sets: patch set 'broken' is not valid" "$T/err"
rg patches fetch both
is $? 3 "fetching a list: exit 3"
check "says to fetch its sets" -- has 'is a list of sets (one, two): fetch each of its sets' "$T/err"

# A set of the list whose file no longer matches its pin.
cp -r "$P/two" "$P/two-bad" && echo "# changed" >>"$P/two-bad/0001-c.patch"
mklist pinbad one two-bad
rg patches check pinbad --src "$TR"
is $? 3 "a set of the list that differs from its pin: exit 3"
check "the pin's error, then which set of the list" -- bash -c \
	"grep -q 'the manifest pins' '$T/err' &&
	 grep -q \"pinbad/manifest.ini: set 2 of 2, 'two-bad', is not ready\" '$T/err'"
# A third-party set of the list that was never fetched.
mkdir -p "$P/lore"
printf '[set]\nmessage_id = 1@example.org\n' >"$P/lore/manifest.ini"
mklist unfetched one lore
rg patches check unfetched --src "$TR"
is $? 3 "a set of the list that is not fetched: exit 3"
check "says how to fetch it" -- has "patch set 'lore' is not fetched: ./run.sh patches fetch lore" "$T/err"

# ---- bisect over the list, from kept steps ----------------------------
K=$RTGATE_OUT_DIR/kernels/tbase
mkdir -p "$K" "$RTGATE_OUT_DIR/bisect/tb"
cat >"$K/build.json" <<JSON
{ "schema": "rtgate-kernel-build/1", "name": "tbase", "status": "built",
  "model": "full", "source": { "origin": "src", "path": "$TR" },
  "fragments": ["qemu-guest", "tracing"], "patches": [] }
JSON
step() {	# step PREFIX EXIT VERDICT
	printf '{"prefix": %d, "repeat": 0, "exit": %d, "verdict": "%s", "kernel": "tbase+both.%d", "repetitions": 3, "reason": "default (prefix %d): kept"}' \
		"$1" "$2" "$3" "$1" "$1"
}
cat >"$RTGATE_OUT_DIR/bisect/tb/state.json" <<JSON
{ "schema": "rtgate-bisect/1", "base": "tbase", "series": "both",
  "suite": "setparam", "moves": "improvement", "scenarios": "default",
  "patches": [], "status": "running",
  "steps": [ $(step 3 1 IMPROVEMENT), $(step 1 0 "NO CHANGE"),
	     $(step 2 0 "NO CHANGE") ] }
JSON
bis() { rg bisect --base tbase --series both --suite setparam \
	--scenario default --name tb "$@"; }
bis --moves improvement
is $? 1 "bisect over the list from kept steps: a first mover (exit 1)"
st=$RTGATE_OUT_DIR/bisect/tb/state.json
is "$(jq -r .culprit.patch "$st")" 3 "the third patch of the list"
is "$(jq -r .culprit.set "$st")" two "named with its set"
check "the report names the first mover and its set" -- has \
	'^first mover: 3/3 \[PATCH\] two: the only one (set two)$' "$T/out.txt"
check "and what moved" -- has 'suite setparam, moves: improvement$' "$T/out.txt"
check "nothing was built or booted" -- bash -c \
	"! grep -qE 'building|booting' '$T/err'"
bis --moves regression
is $? 3 "the same bisection asked for another move: exit 3"
check "says why" -- has 'is a bisection of another base, series, suite, --moves or --scenario' "$T/err"
bis --moves sideways
is $? 3 "--moves takes regression, improvement or change"
check "says so" -- has "--moves: regression, improvement or change, not 'sideways'" "$T/err"
rg bisect --base tbase --series unknown --suite setparam --name tu
is $? 3 "bisect of a list naming an unknown set: exit 3"
check "names the file and line" -- has "unknown/manifest.ini:5: sets: unknown patch set 'nosuch-set'" "$T/err"

# The project's own list of the seeds on 7.3 reads, its sets in order.
unset RTGATE_PATCHES_DIR
rg patches list
check "patches/seeds-7.3 is a list of sets" -- grep -qE '^seeds-7.3 +list of sets ' "$T/out.txt"
check "of the seeds' sets and the 7.x knob, in bisect order" -- bash -c \
	"grep -E '^sets|^ +[a-z]' '$TOP/patches/seeds-7.3/manifest.ini' |
	 sed 's/^sets *= *//; s/;.*//; s/ //g' | paste -sd, |
	 grep -qx 'setparam-default-slice,rt-sysctl-read,hrtick-repick-v2,control-latency-7'"

# The 7.x knob applies to a 7.3 tree at --fuzz=0, when one is at hand.
tree73=${RTGATE_TREE_7_3:-}
for d in "$TOP"/out/cache/src/linux-source-7.3_*; do
	[ -z "$tree73" ] && [ -f "$d/Makefile" ] && tree73=$d
done
if [ -n "$tree73" ] && [ -f "$tree73/Makefile" ]; then
	RTGATE_CACHE_DIR=$T/cache rg patches check control-latency-7 --src "$tree73"
	is $? 0 "control-latency-7 applies to $(basename "$tree73")"
else
	skip "no 7.3 tree (RTGATE_TREE_7_3, or linux-source-7.3 in out/cache/src)" \
		"control-latency-7 applies to 7.3"
fi

done_testing
