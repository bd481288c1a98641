#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate lab images`: which of Debian's split 7.x images a
# debian:SERIES[-FLAVOUR] kernel means, resolved from a recorded list of
# package names (tests/fixtures/lab/debian-images/): the newest release of
# that series in exactly that flavour, versions compared as numbers.
# No network: --package-list replaces the private apt.
source "$(dirname "$0")/../lib.sh"

F=$TOP/tests/fixtures/lab/debian-images/pkgnames-linux-binary.txt
img() { "$RTGATE" lab images --package-list "$@" >"$T/out" 2>"$T/err"; }

img "$F" debian:7.2-rt
is $? 0 "debian:7.2-rt resolves"
# 7.2.6, 7.2.9, 7.2.11, 7.2.12 (trixie-backports) and 7.2.13 (sid) are
# listed: as text 7.2.9 would win.
is "$(head -1 "$T/out")" "debian:7.2-rt 7.2.13+deb14-rt-amd64" \
	"debian:7.2-rt is the newest 7.2.x rt image (7.2.13, not 7.2.9)"
is "$(sed -n 2p "$T/out")" "linux-binary-7.2.13+deb14-rt-amd64 linux-base-7.2.13+deb14-rt-amd64 linux-modules-7.2.13+deb14-rt-amd64" \
	"... made of linux-binary, linux-base and linux-modules"
img "$F" 7.2
is "$(head -1 "$T/out")" "debian:7.2 7.2.13+deb14-amd64" \
	"debian:7.2 is the plain amd64 flavour, not rt or cloud"
img "$F" debian:7.3-cloud
is "$(head -1 "$T/out")" "debian:7.3-cloud 7.3.4+deb13-cloud-amd64" \
	"debian:7.3-cloud"

img "$F"
is $? 0 "the list of images"
check "7.0-rt: 7.0.13 beats 7.0.9" -- \
	grep -qx 'debian:7.0-rt 7.0.13+deb13-rt-amd64' "$T/out"
is "$(grep -c '^debian:7\.' "$T/out")" 12 \
	"7.0 to 7.3, three flavours each"
check "the series come in order" -- \
	bash -c "cut -d' ' -f1 '$T/out' | sed 's/-.*//' | uniq | sort -CV"

# Same upstream, a newer Debian tag; a two-digit component; other packages
# and malformed names in the list are ignored.
cat >"$T/names" <<'NAMES'
linux-binary-7.4.2+deb13-rt-amd64
linux-binary-7.4.2+deb14-rt-amd64
linux-binary-7.4.10+deb13-amd64
linux-binary-7.4.9+deb13-amd64
linux-binary-7.4.99-rt-amd64
linux-image-7.4.50+deb14-rt-amd64
linux-binary-7.40.1+deb13-rt-amd64
NAMES
img "$T/names" 7.4-rt
is "$(head -1 "$T/out")" "debian:7.4-rt 7.4.2+deb14-rt-amd64" \
	"the same upstream: the newer tag (deb14) wins; 7.40 is not 7.4"
img "$T/names" 7.4
is "$(head -1 "$T/out")" "debian:7.4 7.4.10+deb13-amd64" "7.4.10 beats 7.4.9"

img "$F" debian:7.9-rt
is $? 3 "an unknown series: exit 3"
check "... names it and what is on offer" -- \
	grep -q 'no Debian image of 7.9 in flavour rt-amd64.*on offer.*7\.2' "$T/err"
img "$F" debian:7.2-realtime
is $? 3 "an unknown flavour: exit 3"
check "... names the flavour and the valid ones" -- \
	grep -q "debian:7.2-realtime: unknown flavour '-realtime' (none, -rt or -cloud" "$T/err"
img "$F" debian:seven
is $? 3 "not a series: exit 3"
check "... says what is expected" -- grep -q 'SERIES\[-rt|-cloud\]' "$T/err"
img "$T/nonexistent" 7.2-rt
is $? 3 "a missing package list: exit 3"
check "... named" -- grep -q "$T/nonexistent" "$T/err"

# lab run refuses an unknown image before it boots anything.
"$RTGATE" lab run --debian-kernel 7.2-realtime --exec -- true \
	>/dev/null 2>"$T/err"
is $? 3 "lab run --debian-kernel with an unknown flavour: exit 3"

done_testing
