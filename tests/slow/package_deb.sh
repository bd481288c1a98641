#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian package end to end on this machine (docs/install.md):
# dpkg-buildpackage -us -uc -b in a clean clone of HEAD (committed work
# only) builds rtgate_VERSION_ARCH.deb, lintian finds nothing at error or
# warning level, `apt-get install ./rtgate_*.deb` installs it, and
# `rtgate run smoke` works from a directory with no clone; then the
# package is purged, so the machine is left as it was found.
#
# The run takes the machine-wide runner lock: while another rtgate run
# holds it (exit 4, "another rtgate run is using this machine"), the test
# waits and tries again, for up to 30 minutes.
source "$(dirname "$0")/../lib.sh"
need() { command -v "$1" >/dev/null || { skip "$1 is not installed" "$2"; done_testing; exit 0; }; }
need dpkg-buildpackage "the Debian package (dpkg-dev)"
need dh "the Debian package (debhelper)"
need apt-get "installing the Debian package (apt)"
if dpkg-query -W -f='${Status}' rtgate 2>/dev/null | grep -q 'install ok'; then
	skip "an rtgate package is installed here already: not replacing it" \
		"the Debian package"
	done_testing
	exit 0
fi

VERSION=$(cat "$TOP/VERSION")
ARCH=$(dpkg --print-architecture)
DEB=rtgate_${VERSION}_${ARCH}.deb
had_varlib=$(test -e /var/lib/rtgate && echo yes || echo no)

purge() {
	dpkg-query -W -f='${Status}' rtgate 2>/dev/null | grep -q 'install ok' ||
		return 0
	apt-get -o DPkg::Lock::Timeout=900 purge -y -q rtgate >$T/purge.log 2>&1
}
# Whatever happens below, the package does not stay installed.
trap 'purge; _tap_cleanup' EXIT

git clone -q --no-local "$TOP" "$T/src/rtgate"
is "$?" 0 "a clean clone of HEAD ($(git -C "$TOP" rev-parse --short HEAD))"
start=$SECONDS
(cd "$T/src/rtgate" && dpkg-buildpackage -us -uc -b) >$T/build.log 2>&1
rc=$?
diag "dpkg-buildpackage took $((SECONDS - start)) s"
is "$rc" 0 "dpkg-buildpackage -us -uc -b builds it"
[ $rc -eq 0 ] || tail -20 $T/build.log | sed 's/^/# /'
check "$DEB" -- test -f "$T/src/$DEB"

dpkg-deb -c "$T/src/$DEB" | awk '{ print $6 }' >$T/contents
for f in ./usr/bin/rtgate ./usr/libexec/rtgate/inject \
	 ./usr/libexec/rtgate/hackbench-loop ./usr/share/rtgate/suites/smoke.suite \
	 ./usr/share/rtgate/kconfigs/preempt-rt.config \
	 ./usr/share/rtgate/patches/control-latency/manifest.ini \
	 ./usr/share/man/man1/rtgate-run.1.gz \
	 ./usr/share/bash-completion/completions/rtgate \
	 ./usr/share/doc/rtgate/copyright ./usr/share/doc/rtgate/nightly.md \
	 ./lib/systemd/system/rtgate-nightly.service \
	 ./lib/systemd/system/rtgate-nightly.timer ./etc/rtgate/nightly.conf \
	 ./var/lib/rtgate/; do
	check "the package has $f" -- grep -qx -- "$f" $T/contents
done
dep=$(dpkg-deb -f "$T/src/$DEB" Depends)
diag "Depends: $dep"
for d in rt-tests stress-ng rtla gnuplot libtracefs libsqlite3 libgsl; do
	check "it depends on $d" -- grep -q "$d" <<<"$dep"
done

if command -v lintian >/dev/null; then
	lintian "$T/src/$DEB" >$T/lintian.log 2>&1
	sed 's/^/# lintian: /' $T/lintian.log | grep -v 'root privileges'
	check "lintian: no error or warning" -- bash -c "! grep -q '^[EW]: ' $T/lintian.log"
else
	skip "lintian is not installed" "lintian: no error or warning"
fi

(cd "$T/src" && apt-get -o DPkg::Lock::Timeout=900 install -y -q "./$DEB") \
	>$T/install.log 2>&1
is "$?" 0 "apt-get install ./$DEB"
is "$(command -v rtgate)" /usr/bin/rtgate "rtgate is on PATH"
is "$(rtgate --version)" "rtgate $VERSION" "... and runs"
if command -v systemctl >/dev/null; then
	is "$(systemctl is-enabled rtgate-nightly.timer 2>/dev/null)" disabled \
		"the nightly timer is installed, not enabled"
else
	skip "no systemctl" "the nightly timer is installed, not enabled"
fi

# rtgate run smoke where there is no clone: results in ./results.
mkdir -p $T/empty
check "no clone there" -- test ! -e $T/empty/suites -a ! -e $T/empty/Makefile
start=$SECONDS
for try in $(seq 1 180); do
	(cd $T/empty && env -u RTGATE_RESULTS_DIR rtgate run smoke) \
		>$T/run.out 2>$T/run.err
	rc=$?
	[ $rc -eq 4 ] && grep -q 'another rtgate run is using this machine' \
		$T/run.err || break
	[ $try -eq 1 ] && diag "the runner lock is held: waiting for it"
	sleep 10
done
diag "rtgate run smoke exited $rc after $((SECONDS - start)) s"
sed 's/^/# /' $T/run.err | head -10
check "rtgate run smoke: a verdict (exit 0, 1 or 2), not an error (got $rc)" -- \
	test $rc -le 2
R=$T/empty/results/$(readlink $T/empty/results/latest)
check "its results in ./results" -- test -f "$R/manifest.json"
is "$(jget "$R/manifest.json" .status)" complete "the run is complete"
is "$(jget "$R/manifest.json" .suite.file)" /usr/share/rtgate/suites/smoke.suite \
	"the installed suite ran"
check "the installed hackbench-loop did work" -- bash -c \
	"[ \$(jq -r '.work_done' '$R/hackbench/1/hackbench-loop.json') -gt 0 ]"
check "the reports are written" -- test -s "$R/report.txt" -a -s "$R/junit.xml"
check "no process of the run is left" -- test -z "$(leftover_procs)"

purge
is "$?" 0 "apt-get purge rtgate"
ok $(dpkg-query -W -f='${Status}' rtgate 2>/dev/null | grep -q 'install ok'
     [ $? -eq 1 ]; echo $?) "the package is gone"
check "and its files" -- test ! -e /usr/bin/rtgate -a ! -e /usr/libexec/rtgate \
	-a ! -e /usr/share/rtgate -a ! -e /etc/rtgate \
	-a ! -e /lib/systemd/system/rtgate-nightly.timer
is "$(test -e /var/lib/rtgate && echo yes || echo no)" "$had_varlib" \
	"/var/lib/rtgate is as it was found"
done_testing
