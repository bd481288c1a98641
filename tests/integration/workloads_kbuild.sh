#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kbuild: strict arguments, the compile load counted, which source ran,
# scratch directories removed, clean stop with no make or cc left.
# Builds run at nice 19 (a shared machine).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-workloads.bash"
KB=$BIN/kbuild

"$KB" --help >"$T/help" 2>&1
ok $? "--help exits 0"

usage_error "zero jobs" --jobs "$KB" --jobs 0
usage_error "unknown source" --source "$KB" --source git
usage_error "config target" --config "$KB" --config vmlinux
usage_error "target like an option" --target "$KB" --target=-k
usage_error "not a tree" --tree "$KB" --tree "$T"
usage_error "missing tarball" --tarball "$KB" --tarball "$T/nope.tar.xz"
usage_error "synthetic with a tree" --source "$KB" --source synthetic --tree /usr/src

# The self-contained load: the summary says it ran, objects were compiled,
# the scratch directory is gone afterwards.
mkdir -p "$T/tmp"
wl_start syn env TMPDIR="$T/tmp" "$KB" --source synthetic -j 2 --nice 19 -d 4s
wl_wait_exit 120
is "$WL_RC" 0 "synthetic -d 4s exits 0"
wl_check_summary kbuild
is "$(jv .source)" synthetic "the summary says the synthetic load ran"
is "$(jv '.objects > 0 and .work_done == .objects + .host_objects and .failures == 0')" \
	true "objects compiled: $(jv .objects) (rounds $(jv .rounds))"
is "$(ls -A "$T/tmp")" "" "the scratch directory was removed"
is "$(cat "$WL_READY")" ready "ready at the first compile"

# Until SIGTERM: make and every compiler under it go.
wl_start stop env TMPDIR="$T/tmp" "$KB" --source synthetic -j 2 --nice 19
wl_wait_ready 60
ok $? "ready"
sleep 1
wl_sigterm_check kbuild 30
is "$(jv '.interrupted == 1')" true "the cut round counts as interrupted"
is "$(ls -A "$T/tmp")" "" "the scratch directory was removed after SIGTERM"

# A real tree, when one was extracted before (bin/kbuild --prepare; the
# slow tier does it): extracting here would take minutes.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rtgate/kbuild
tree=$(ls -d "$cache"/linux-source-*/ 2>/dev/null | head -1)
if [ -n "$tree" ] && [ -f "$tree/.rtgate-extracted" ]; then
	# Stopped at its first compile (ready): robust to a loaded machine.
	wl_start tree "$KB" --tree "$tree" -o "$T/o" -j 2 --nice 19
	wl_wait_ready 120
	ok $? "tree build: ready at its first compile"
	wl_sigterm_check kbuild 30
	is "$(jv '.source == "linux-tree" and (.tree_version | startswith("6."))')" \
		true "built the linux tree $(jv .tree_version)"
	is "$(jv '.objects + .host_objects > 0 and .interrupted == 1')" true \
		"compiled: $(jv .host_objects) host objects, $(jv .objects) objects"
	[ -f "$T/o/Makefile" ] && [ ! -e "$tree/.config" ] &&
		[ ! -e "$tree/include/config" ]
	ok $? "the build went to the O= directory; the source tree stays clean"
else
	skip "no extracted tree (bin/kbuild --prepare)" "tree build"
fi

done_testing
