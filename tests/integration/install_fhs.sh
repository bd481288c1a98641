#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make install PREFIX=/usr DESTDIR=...` lays out the FHS tree of
# docs/install.md (nothing on this machine changes): rtgate in bin/, the
# workloads in libexec/rtgate, suites, kconfigs and patch manifests in
# share/rtgate, the man pages (help2man, a build dependency), the bash
# completion, the docs and the nightly's systemd units; the installed
# rtgate, run from a directory with no clone, finds all of it; uninstall
# removes it. The Debian package built from it: tests/slow/package_deb.sh.
source "$(dirname "$0")/../lib.sh"

# help2man makes the man pages `make install` needs: a build dependency,
# installed by `./run.sh deps` and named in the package's Build-Depends.
check "help2man is in deps/debian-run.txt" -- grep -qx help2man "$TOP/deps/debian-run.txt"
check "help2man is in deps/fedora-run.txt" -- grep -qx help2man "$TOP/deps/fedora-run.txt"
check "help2man is in debian/control's Build-Depends" -- \
	bash -c "sed -n '/^Build-Depends:/,/^[A-Z]/p' '$TOP/debian/control' | grep -q help2man"
if command -v dpkg-parsechangelog >/dev/null; then
	is "$(cd "$TOP" && dpkg-parsechangelog -S Version)" "$(cat "$TOP/VERSION")" \
		"debian/changelog's version is VERSION's"
else
	skip "no dpkg-parsechangelog" "debian/changelog's version is VERSION's"
fi

make -s -C "$TOP" install PREFIX=/usr DESTDIR="$T/inst" >$T/make.log 2>&1
is "$?" 0 "make install PREFIX=/usr DESTDIR=..."
sed 's/^/# /' $T/make.log | head -10
I=$T/inst/usr
check "bin/rtgate is the program itself" -- test -x $I/bin/rtgate -a ! -L $I/bin/rtgate
check "nothing else on PATH" -- test "$(ls $I/bin)" = rtgate
for w in $(cd "$BIN" && ls | grep -v '^rtgate$'); do
	check "workload $w in libexec/rtgate" -- test -x $I/libexec/rtgate/$w
done
is "$(readlink $I/libexec/rtgate/rtgate)" ../../bin/rtgate \
	"libexec/rtgate/rtgate links to bin/rtgate (the lab's initramfs takes it from there)"
check "no lib/rtgate any more" -- test ! -e $I/lib/rtgate
check "suites in share/rtgate/suites" -- test -f $I/share/rtgate/suites/smoke.suite
check "kconfigs in share/rtgate/kconfigs" -- test -f $I/share/rtgate/kconfigs/preempt-rt.config
check "patch manifests in share/rtgate/patches" -- \
	test -f $I/share/rtgate/patches/control-latency/manifest.ini
check "docs in share/doc/rtgate" -- test -f $I/share/doc/rtgate/README.md \
	-a -f $I/share/doc/rtgate/exit-codes.md -a -f $I/share/doc/rtgate/install.md \
	-a -f $I/share/doc/rtgate/suites/README.md
check "the nightly's example configuration" -- test -f $I/share/doc/rtgate/examples/nightly.conf
check "no suite README among the suites (documentation lives in doc/)" -- \
	test ! -e $I/share/rtgate/suites/README.md

# The installed rtgate, from a directory without a clone.
mkdir -p $T/elsewhere
inst() { (cd $T/elsewhere && "$I/bin/rtgate" "$@"); }
is "$(inst --version)" "rtgate $(cat "$TOP/VERSION")" "the installed rtgate runs"
inst run nosuch >$T/out 2>$T/err
is "$?" 3 "an unknown suite: exit 3"
check "... it looked in the installed suites" -- grep -q "$I/share/rtgate/suites/nosuch.suite" $T/err
check "... and lists them" -- grep -q 'Suites: .*smoke' $T/err
check "the installed rtgate finds its patch manifests" -- \
	bash -c "cd $T/elsewhere && '$I/bin/rtgate' patches list | grep -q '^control-latency '"
check "the installed nightly runs the installed suite by name" -- bash -c \
	"cd $T/elsewhere && '$I/bin/rtgate' nightly --check --config '$I/share/doc/rtgate/examples/nightly.conf' |
	 grep -q 'suite quick *rtgate run quick$'"
check "and the example configuration keeps history in /var/lib/rtgate" -- \
	grep -q '^results *= /var/lib/rtgate/results' $I/share/doc/rtgate/examples/nightly.conf

# The nightly's units: the installed binary, /var/lib/rtgate.
U=$I/lib/systemd/system
is "$(sed -n 's/^ExecStart=//p' $U/rtgate-nightly.service)" \
	"/usr/bin/rtgate nightly --config /etc/rtgate/nightly.conf" \
	"the service runs the installed rtgate, not a clone's run.sh"
is "$(sed -n 's/^WorkingDirectory=//p' $U/rtgate-nightly.service)" /var/lib/rtgate \
	"... in /var/lib/rtgate"
check "no placeholder left" -- bash -c "! grep -q '@[A-Z]*@' $U/rtgate-nightly.service"
check "the timer is installed" -- test -f $U/rtgate-nightly.timer
if command -v systemd-analyze >/dev/null; then
	mkdir -p $T/units
	sed "s|/usr/bin/rtgate|$I/bin/rtgate|" $U/rtgate-nightly.service >$T/units/rtgate-nightly.service
	cp $U/rtgate-nightly.timer $T/units/
	# Its Documentation= names man:rtgate-nightly(1): the installed page.
	check "systemd-analyze verify accepts the installed units" -- \
		env MANPATH="$I/share/man:" systemd-analyze verify \
		$T/units/rtgate-nightly.service $T/units/rtgate-nightly.timer
else
	skip "no systemd-analyze" "systemd-analyze verify accepts the installed units"
fi

# Man pages from the same --help text, and the completion.
M=$I/share/man/man1
for p in rtgate rtgate-run rtgate-compare rtgate-history-import rtgate-lava-job rtgate-inject rtgate-setparam; do
	check "man page $p.1" -- test -s $M/$p.1
done
check "rtgate-compare.1 has compare's options" -- grep -q 'min\\-increase\\-us' $M/rtgate-compare.1
check "... and its name line" -- grep -q '^rtgate-compare \\- judge a candidate against a baseline' $M/rtgate-compare.1
check "rtgate-report.1 has no compare-only option" -- bash -c "! grep -q 'family' $M/rtgate-report.1"
check "rtgate-history-changepoints.1 says --history-runs" -- \
	grep -q 'history\\-runs' $M/rtgate-history-changepoints.1
check "rtgate-run.1 has --duration" -- grep -q '^\\fB\\-\\-duration\\fR=' $M/rtgate-run.1
check "man renders rtgate.1" -- bash -c "man -l '$M/rtgate.1' 2>/dev/null | grep -q 'Commands:'"
check "one page per workload" -- test "$(ls $M | grep -c -E '^rtgate-(inject|stress|kbuild|setparam|sysctl-read|hackbench-loop|hrtick-hogs|extend-sched)\.1$')" -eq 8
C=$I/share/bash-completion/completions/rtgate
check "bash completion installed" -- test -s $C
complete_words() {	# complete_words WORD...: what <TAB> offers after them
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));
		 _rtgate; echo "${COMPREPLY[*]}"' _ "$C" "$I/bin/rtgate" "$@"
}
is "$(complete_words hist)" history "completion: a command"
is "$(complete_words history "")" "import list changepoints --help" "completion: the subcommands"
is "$(complete_words compare --min)" "--min-increase-pct --min-increase-us" \
	"completion: a command's options, from its --help"
is "$(complete_words history changepoints --hist)" "--history-runs" \
	"completion: the history window's one spelling"
is "$(cd "$T/elsewhere" && complete_words run smo)" smoke "completion: suite names (the installed ones)"

make -s -C "$TOP" uninstall PREFIX=/usr DESTDIR="$T/inst" >>$T/make.log 2>&1
check "make uninstall removes it" -- bash -c \
	"test ! -e $I/libexec/rtgate -a ! -e $I/share/rtgate -a ! -e $I/bin/rtgate -a ! -e $C \
	 -a ! -e $M/rtgate.1 -a ! -e $U/rtgate-nightly.service -a ! -e $I/share/doc/rtgate"
done_testing
