#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A suite states the vCPUs its lab experiment needs (`[suite] lab_cpus`,
# suites/README.md): a gate on the maximum in the quiet lab asks for one.
# Nothing boots here: the suite is read on the host before any kernel is
# resolved, so a bad lab_cpus is refused with the file and line (exit 3)
# and no lab folder is made; the shipped max-gate suites ask for one vCPU
# and `reproduce --list` reports what the seed's suite asks for.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
printf '[suite]\nrequires = root\nlab_cpus = 0\n[measure]\nduration = 2s\n[scenario a]\n' \
	>"$T/zero.suite"
"$RTGATE" lab run --kernel "$T/no-such-kernel" --suite "$T/zero.suite" \
	>"$T/out.txt" 2>"$T/err"
is $? 3 "lab run: a suite whose lab_cpus is 0 is bad input (exit 3)"
check "... said with the file and line" -- grep -qF \
	"$T/zero.suite:3: lab_cpus: '0' is not a whole number from 1 to 64" "$T/err"
check "... before any kernel was looked for or any lab folder made" -- \
	bash -c "! grep -q 'no-such-kernel' '$T/err' && ! test -e '$T/out/lab'"
"$RTGATE" lab gate "$T/no-a" "$T/no-b" --suite "$T/zero.suite" \
	>"$T/gout.txt" 2>"$T/gerr"
is $? 3 "lab gate: the same suite, the same refusal"
check "... naming the line" -- grep -qF "$T/zero.suite:3: lab_cpus" "$T/gerr"

for s in lab-silent lab-silent-gate lab-night slice-ext-7-solo slice-ext-7-solo-rt \
	 setparam rt-sysctl; do
	is "$(sed -n 's/^lab_cpus *= *//p' "$TOP/suites/$s.suite")" 1 \
		"suites/$s.suite asks the lab for one vCPU"
done
"$RTGATE" reproduce --list >"$T/list" 2>&1
check "reproduce --list: 004 on the one vCPU its suite asks for" -- \
	grep -q 'suites slice-ext-7-solo (full), slice-ext-7-solo-rt (rt), .*, 1 vCPU$' "$T/list"
check "... 000 on one too (setparam's latency part, docs/reproducing.md)" -- \
	grep -q 'suite setparam, .*, 1 vCPU$' "$T/list"
check "... and 001 on one (its bench keeps the rebuild there; suites/rt-sysctl.suite)" -- \
	grep -q 'suite rt-sysctl, .*, 1 vCPU$' "$T/list"
done_testing
