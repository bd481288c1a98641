#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kbuild on Debian's linux-source tree: extracted once into the cache
# (minutes), then a minute of `make -j2` at nice 19, stopped cleanly.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../integration/lib-workloads.bash"
KB=$BIN/kbuild

if [ ! -f /usr/src/linux-source-6.12.tar.xz ]; then
	skip "linux-source-6.12 is not installed" "kbuild on a real tree"
	done_testing
	exit
fi

"$KB" --prepare >"$T/prep.json" 2>"$T/prep.err"
is "$?" 0 "--prepare extracts (or finds) the tree"
tree=$(jq -r .tree "$T/prep.json")
is "$(jq -r .source "$T/prep.json")" linux-tree "the prepared source is the linux tree"
[ -f "$tree/.rtgate-extracted" ] && [ -f "$tree/Kconfig" ]
ok $? "a complete, stamped extraction: $tree"

"$KB" --prepare >"$T/prep2.json" 2>"$T/prep2.err"
! grep -q extracting "$T/prep2.err"
ok $? "a second --prepare reuses the extraction"

wl_start tree "$KB" --tree "$tree" -o "$T/o" -j 2 --nice 19 --duration 60s
wl_wait_exit 180
is "$WL_RC" 0 "a minute of make -j2 exits 0"
wl_check_summary kbuild
is "$(jv '.objects + .host_objects > 0 and .failures == 0')" true \
	"compiled: $(jv .host_objects) host objects, $(jv .objects) objects"
[ -f "$T/o/.config" ]
ok $? "defconfig went to the O= directory"
[ ! -e "$tree/.config" ]
ok $? "the source tree stays clean"
left=$(wl_group_procs)
[ -z "$left" ]
ok $? "nothing of the build left running${left:+: $left}"

done_testing
