#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate run/restore at the edges: usage errors and bad suites exit 3 and
# name the file and line before anything on the machine changes; a missing
# workload program or privilege exits 4; restore with nothing to do exits 0.
source "$(dirname "$0")/../lib.sh"

run_rtgate() {	# run_rtgate NAME ARGS...: rc into $rc, output into $T/NAME.*
	local name=$1
	shift
	"$RTGATE" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
}

run_rtgate help help
is "$rc" 0 "rtgate help exits 0"
check "help lists run" -- grep -qE '^  run ' "$T/help.out"
check "help lists restore" -- grep -qE '^  restore ' "$T/help.out"

run_rtgate noarg run
is "$rc" 3 "run without a suite is a usage error"
run_rtgate badopt run --bogus smoke
is "$rc" 3 "an unknown option is a usage error"
check "the unknown option is named" -- grep -q "'--bogus'" "$T/badopt.err"
run_rtgate badscale run --duration-scale 0 smoke
is "$rc" 3 "--duration-scale 0 is refused"
run_rtgate badrepeat run --repeat x smoke
is "$rc" 3 "--repeat x is refused"
run_rtgate runhelp run --help
is "$rc" 0 "run --help exits 0"
check "run --help lists --duration" -- grep -q -- '--duration=T' "$T/runhelp.out"

# --duration T: each repetition measures for T; not with --duration-scale.
run_rtgate durboth run --duration 2s --duration-scale 0.5 smoke
is "$rc" 3 "--duration with --duration-scale is a usage error"
check "... which says to give one" -- grep -q "give one" "$T/durboth.err"
run_rtgate durzero run --duration 0s smoke
is "$rc" 3 "--duration 0s is refused"
run_rtgate durloops run --duration 5s slice-ext
is "$rc" 3 "--duration on a suite that counts loops is refused"
check "... and says why" -- grep -q "counts loops" "$T/durloops.err"

run_rtgate nosuch run no-such-suite
is "$rc" 3 "an unknown suite name is bad input"
check "the message says where it looked" -- \
	grep -q "no suite 'no-such-suite'" "$T/nosuch.err"

# A bad suite found by name in ./suites: FILE:LINE, exit 3, nothing made.
mkdir -p "$T/cwd/suites"
printf '[suite]\nrepetitions = 2\n[measure]\nduration = 1s\n[scenario a]\n' \
	>"$T/cwd/suites/bad.suite"
printf 'compare = nowhere\n' >>"$T/cwd/suites/bad.suite"
(cd "$T/cwd" && "$RTGATE" run bad >"$T/bad.out" 2>"$T/bad.err")
is "$?" 3 "a suite compared against an unknown scenario exits 3"
check "the error names the file and line" -- \
	grep -q '^rtgate: error: suites/bad.suite:6: ' "$T/bad.err"
check "no results directory was made" -- test ! -e "$RTGATE_RESULTS_DIR"
check "no state was taken" -- test ! -e "$RTGATE_STATE_DIR/state.json"

printf '[measure]\nduration = 1s\n[scenario a]\nworkload = no-such-workload\n' \
	>"$T/missing.suite"
run_rtgate missing run "$T/missing.suite"
is "$rc" 4 "a missing workload program is an environment error"
check "its suite line is named" -- \
	grep -q "missing.suite:4: workload program .*no-such-workload" \
	"$T/missing.err"

if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RTGATE" run "$TOP/suites/smoke.suite" >"$T/user.out" \
		2>"$T/user.err"
	is "$?" 4 "a run without root exits 4"
	check "and says it needs root" -- grep -q "needs root" "$T/user.err"
else
	skip "setpriv is missing" "a run without root exits 4"
	skip "setpriv is missing" "and says it needs root"
fi

# A real run: the suite says 20 s, --duration 1s measures 1 s.
printf '[suite]\nrepetitions = 1\n[measure]\ncyclictest = -p95 -m -i 1000\n' \
	>"$T/dur.suite"
printf 'duration = 20s\nhistogram = 1000\n[scenario idle]\n' >>"$T/dur.suite"
start=$SECONDS
run_suite "$T/dur.suite" --duration 1s
is "$rc" 0 "rtgate run --duration 1s of a 20 s suite completes"
check "... in well under the suite's 20 s ($((SECONDS - start)) s)" -- \
	test $((SECONDS - start)) -lt 15
is "$(jget "$m" .suite.duration_scale)" 0.05 "the manifest's scale is 1 s / 20 s"
is "$(jget "$m" .suite.measure.duration_s)" 1 "... and its measurement 1 s"
check "cyclictest measured for 1 s (-D1)" -- \
	grep -q -- '-D1 ' "$dir/idle/1/cyclictest.json"

run_rtgate restore restore
is "$rc" 0 "restore with nothing to restore exits 0"
check "and says so" -- grep -q "nothing to restore" "$T/restore.out"
run_rtgate restorearg restore now
is "$rc" 3 "restore takes no arguments"

done_testing
